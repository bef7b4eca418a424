/**
 * Agents on another machine (issue 17 point 10): `claude mcp add crownui-HOST -- ssh HOST
 * crownmcp` runs crownmcp on the app's machine with its standard input and output carried by
 * OpenSSH. This test starts a real sshd on 127.0.0.1 with throwaway keys in a temporary
 * directory, runs the counter there, and drives it with the SDK client whose transport's
 * command is `ssh … crownmcp`, as Claude Code would.
 *
 * It needs OpenSSH's server and client (`.ci/run` installs them when missing) and is skipped,
 * saying why, only when they cannot be found. sshd filters the environment, so the remote side
 * gets `XDG_RUNTIME_DIR` (and Deno's cache) on its command line.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { CROWNMCP } from "../.ci/programs.ts";
import { Client } from "../runtime/agent/transport/sdk.ts";
import { StdioClientTransport } from "../runtime/agent/transport/sdk_stdio.ts";
import {
  callTool,
  childEnv,
  nodeId,
  PROCESS_TIMEOUT_MS,
  readTree,
  REPO_ROOT,
  REQUEST_TIMEOUT_MS,
  runtimeDir,
  startApp,
  withTimeout,
} from "./_app_process.ts";
import { shellQuote } from "./_tmux.ts";

/** The first of `names` found as an executable file in `directories`, or null. */
function findProgram(names: string[], directories: string[]): string | null {
  for (const directory of directories) {
    for (const name of names) {
      const path = join(directory, name);
      try {
        const info = Deno.statSync(path);
        if (info.isFile && ((info.mode ?? 0) & 0o111) !== 0) return path;
      } catch {
        // Not there.
      }
    }
  }
  return null;
}

const PATH_DIRECTORIES = (Deno.env.get("PATH") ?? "").split(":").filter((dir) => dir !== "");
const SSHD = findProgram(["sshd"], [...PATH_DIRECTORIES, "/usr/sbin", "/usr/local/sbin"]);
const SSH = findProgram(["ssh"], [...PATH_DIRECTORIES, "/usr/bin"]);
const SSH_KEYGEN = findProgram(["ssh-keygen"], [...PATH_DIRECTORIES, "/usr/bin"]);

/** Why the test cannot run here, or null when it can. */
const MISSING = SSHD === null
  ? "no sshd (install OpenSSH's server: apt-get install -y openssh-server)"
  : SSH === null || SSH_KEYGEN === null
  ? "no ssh or ssh-keygen (install OpenSSH's client: apt-get install -y openssh-client)"
  : null;

if (MISSING !== null) console.error(`ssh_test.ts is skipped: ${MISSING}`);

/** Runs a command to the end; throws with its output unless it succeeds. */
async function run(command: string, args: string[]): Promise<string> {
  const output = await new Deno.Command(command, { args, stdin: "null" }).output();
  const text = new TextDecoder().decode(output.stdout) + new TextDecoder().decode(output.stderr);
  if (!output.success) throw new Error(`${command} ${args.join(" ")} failed:\n${text}`);
  return text;
}

/** A port on 127.0.0.1 that was free a moment ago. */
function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/** A throwaway sshd on 127.0.0.1 that lets the current user in with one key. */
interface Sshd extends AsyncDisposable {
  port: number;
  user: string;
  /** The `ssh` arguments that reach it without a prompt, before the remote command. */
  sshArgs: string[];
  /** What sshd logged so far. */
  log(): string;
}

async function startSshd(directory: string): Promise<Sshd> {
  const hostKey = join(directory, "host_key");
  const clientKey = join(directory, "client_key");
  for (const key of [hostKey, clientKey]) {
    await run(SSH_KEYGEN!, ["-q", "-t", "ed25519", "-N", "", "-C", "crownui-test", "-f", key]);
  }
  await Deno.copyFile(`${clientKey}.pub`, join(directory, "authorized_keys"));
  // OpenSSH refuses to start without its privilege separation directory.
  await Deno.mkdir("/run/sshd", { recursive: true, mode: 0o755 }).catch(() => {});
  const port = freePort();
  const config = join(directory, "sshd_config");
  await Deno.writeTextFile(
    config,
    [
      `Port ${port}`,
      "ListenAddress 127.0.0.1",
      `HostKey ${hostKey}`,
      `PidFile ${join(directory, "sshd.pid")}`,
      `AuthorizedKeysFile ${join(directory, "authorized_keys")}`,
      "PermitRootLogin prohibit-password", // CI runs as root, with a key
      "PubkeyAuthentication yes",
      "PasswordAuthentication no",
      "KbdInteractiveAuthentication no",
      "UsePAM no",
      "StrictModes no", // the keys live in a temporary directory, not in ~/.ssh
      "",
    ].join("\n"),
  );
  const child = new Deno.Command(SSHD!, {
    args: ["-D", "-e", "-f", config],
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let log = "";
  const reading = (async () => {
    for await (const chunk of child.stderr.pipeThrough(new TextDecoderStream())) log += chunk;
  })();
  const user = (await run("id", ["-un"])).trim();
  const sshArgs = [
    "-F",
    "/dev/null",
    "-i",
    clientKey,
    "-p",
    String(port),
    "-o",
    "IdentitiesOnly=yes",
    "-o",
    "BatchMode=yes",
    "-o",
    "StrictHostKeyChecking=no",
    "-o",
    `UserKnownHostsFile=${join(directory, "known_hosts")}`,
    "-o",
    "LogLevel=ERROR",
    `${user}@127.0.0.1`,
  ];
  const sshd: Sshd = {
    port,
    user,
    sshArgs,
    log: () => log,
    async [Symbol.asyncDispose]() {
      try {
        child.kill("SIGTERM");
      } catch {
        // It exited already.
      }
      await child.status;
      await reading;
    },
  };
  // Ready when a command runs through it.
  const deadline = performance.now() + PROCESS_TIMEOUT_MS;
  for (;;) {
    const probe = await new Deno.Command(SSH!, {
      args: [...sshArgs, "true"],
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).output();
    if (probe.success) return sshd;
    if (performance.now() > deadline) {
      await sshd[Symbol.asyncDispose]();
      throw new Error(
        `sshd on port ${port} did not let ssh in:\n${
          new TextDecoder().decode(probe.stderr)
        }\nsshd wrote:\n${log}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The remote command: crownmcp with the permissions of .ci/programs.ts, run from the
 * checkout (its deno.json and lockfile) with the runtime directory the app uses.
 */
function remoteCrownmcp(runtimeDirPath: string): string {
  const env = Object.entries({ ...childEnv(), XDG_RUNTIME_DIR: runtimeDirPath })
    .filter(([name]) => name !== "PATH")
    .map(([name, value]) => `${name}=${shellQuote(value)}`);
  const deno = [Deno.execPath(), "run", "--frozen", "--quiet", ...CROWNMCP.flags];
  const command = [...deno, join(REPO_ROOT, CROWNMCP.entry)].map(shellQuote).join(" ");
  return `cd ${shellQuote(REPO_ROOT)} && ${env.join(" ")} DENO_NO_UPDATE_CHECK=1 exec ${command}`;
}

Deno.test({
  name: "ssh HOST crownmcp: an agent drives an app on another machine through OpenSSH",
  ignore: MISSING !== null,
  async fn() {
    await using keys = await runtimeDir("crownui-ssh-");
    await using sshd = await startSshd(keys.path);
    await using runtime = await runtimeDir();
    await using app = startApp("examples/counter.ts", { env: { XDG_RUNTIME_DIR: runtime.path } });
    await app.listening();

    const transport = new StdioClientTransport({
      command: SSH!,
      args: [...sshd.sshArgs, remoteCrownmcp(runtime.path)],
      env: childEnv(),
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on(
      "data",
      (chunk: Uint8Array) => (stderr += new TextDecoder().decode(chunk)),
    );
    const agent = new Client({ name: "ssh-test", version: "0.1.0" }, { capabilities: {} });
    await withTimeout(agent.connect(transport), REQUEST_TIMEOUT_MS, "crownmcp over ssh to start")
      .catch((error) => {
        throw new Error(`${error.message}\nssh wrote:\n${stderr}\nsshd wrote:\n${sshd.log()}`);
      });
    try {
      const apps = JSON.parse((await callTool(agent, "list_apps")).text) as {
        apps: { app: string; pid: number }[];
      };
      assert.deepEqual(apps.apps.map((entry) => entry.pid), [app.pid], "the remote app is found");
      const selected = await callTool(agent, "select_app", { app: apps.apps[0]!.app });
      assert.equal(selected.isError, false, selected.text);

      const before = await readTree(agent);
      assert.match(before.tree, /text "Count: 0"/);
      const clicked = await callTool(agent, "ui_act", {
        id: nodeId(before.tree, "button", "+1"),
        revision: before.revision,
        action: { action: "click" },
      });
      assert.equal(clicked.isError, false, clicked.text);
      assert.match((await readTree(agent)).tree, /text "Count: 1"/);
    } finally {
      await agent.close();
    }
  },
});
