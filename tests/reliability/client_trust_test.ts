/**
 * Whom the clients trust, tried as an attacker would, through real processes: another uid
 * (`setpriv`) plants a socket directory or a socket where `crownmcp` and `crowndev` look; a
 * directory above the socket directory is open to others; the socket directory is swapped
 * under a running app; and ids read from one app are sent after the selected app changed.
 *
 * The planted socket is a tiny recorder (Python) that writes every connection and every byte
 * it receives to its standard output, so "nothing was sent to it" is checked, not assumed.
 *
 * @module
 */

import assert from "node:assert/strict";
import { basename, join } from "node:path";
import { getuid } from "../../ffi/mod.ts";
import {
  type AppProcess,
  callTool,
  connect,
  exists,
  makeRuntimeDir,
  nodeId,
  PROCESS_TIMEOUT_MS,
  readTree,
  removeDir,
  REQUEST_TIMEOUT_MS,
  socketsUnder,
  startApp,
  type ToolText,
  withTimeout,
} from "../_app_process.ts";
import { crowndev, type Run } from "../_crowndev_process.ts";
import { crownmcpTransport, untilAppTool } from "../_crownmcp.ts";
import { Client } from "../../runtime/agent/transport/sdk.ts";
import { until } from "./_shared.ts";

const COUNTER = "examples/counter.ts";
const NOBODY = 65534;
const UID = getuid();
const IS_ROOT = UID === 0;
const HAS_TOOLS = exists("/usr/bin/setpriv") && exists("/usr/bin/python3");
const TOKEN = "client-trust-token-5f1c9a";
const PLANTED = "notes-99999.sock";
const OWN_TOOLS = ["list_apps", "select_app"];

/**
 * The planted app: listens on `<dir>/<name>` (making `<dir>` with mode 0755 first when asked)
 * and prints `ready`, then `connect`, `data <hex>` and `close` for everything that happens.
 */
const RECORDER = `
import os, select, socket, sys
directory, name, make = sys.argv[1], sys.argv[2], sys.argv[3] == "mkdir"
if make:
    os.mkdir(directory)
    os.chmod(directory, 0o755)
path = os.path.join(directory, name)
server = socket.socket(socket.AF_UNIX)
server.bind(path)
os.chmod(path, 0o777)
server.listen(16)
print("ready", flush=True)
peers = []
while True:
    readable, _, _ = select.select([server] + peers, [], [])
    for ready in readable:
        if ready is server:
            peer, _ = server.accept()
            peers.append(peer)
            print("connect", flush=True)
        else:
            data = ready.recv(65536)
            if data:
                print("data " + data.hex(), flush=True)
            else:
                peers.remove(ready)
                ready.close()
                print("close", flush=True)
`;

/** A recorder process and what it has printed. */
class Recorder {
  readonly #child: Deno.ChildProcess;
  readonly #lines: string[] = [];
  readonly #reading: Promise<void>;

  /** Starts the recorder, as uid `uid` through setpriv unless it is this process's uid. */
  constructor(directory: string, name: string, options: { uid: number; mkdir: boolean }) {
    const python = [
      "/usr/bin/python3",
      "-c",
      RECORDER,
      directory,
      name,
      options.mkdir ? "mkdir" : "-",
    ];
    const args = options.uid === UID ? python.slice(1) : [
      `--reuid=${options.uid}`,
      `--regid=${options.uid}`,
      "--clear-groups",
      ...python,
    ];
    this.#child = new Deno.Command(options.uid === UID ? python[0]! : "/usr/bin/setpriv", {
      args,
      clearEnv: true,
      env: { PATH: "/usr/bin:/bin" },
      stdin: "null",
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    const stdout = this.#child.stdout;
    this.#reading = (async () => {
      let partial = "";
      for await (const chunk of stdout.pipeThrough(new TextDecoderStream())) {
        const lines = (partial + chunk).split("\n");
        partial = lines.pop()!;
        this.#lines.push(...lines);
      }
    })();
  }

  /** Waits until it listens. */
  async ready(): Promise<void> {
    await until(() => this.#lines.includes("ready"), "the recorder to listen");
  }

  /** Ends it and returns everything it saw after `ready`. */
  async close(): Promise<string[]> {
    try {
      this.#child.kill("SIGKILL");
    } catch {
      // Gone already.
    }
    await withTimeout(this.#child.status, PROCESS_TIMEOUT_MS, "the recorder to end");
    await this.#reading;
    return this.#lines.filter((line) => line !== "ready");
  }
}

/** A crownmcp child driven by the SDK client over stdio, as an agent launches it. */
class Agent {
  readonly client = new Client({ name: "client-trust-test", version: "0.1.0" });
  readonly #stderr: string[] = [];
  #transport;

  constructor(env: Record<string, string>) {
    this.#transport = crownmcpTransport(env);
    this.#transport.stderr?.on("data", (chunk: Uint8Array) => {
      this.#stderr.push(new TextDecoder().decode(chunk));
    });
  }

  async start(): Promise<this> {
    await withTimeout(
      this.client.connect(this.#transport, { timeout: REQUEST_TIMEOUT_MS }),
      PROCESS_TIMEOUT_MS,
      "crownmcp to start",
    );
    return this;
  }

  get stderr(): string {
    return this.#stderr.join("");
  }

  call(name: string, args: Record<string, unknown> = {}): Promise<ToolText> {
    return callTool(this.client, name, args);
  }

  async tools(): Promise<string[]> {
    const { tools } = await this.client.listTools(undefined, { timeout: REQUEST_TIMEOUT_MS });
    return tools.map((tool) => tool.name);
  }

  async listApps(): Promise<{ apps: { app: string; selected: boolean }[]; refused?: string[] }> {
    const { text, isError } = await this.call("list_apps");
    assert.equal(isError, false, text);
    return JSON.parse(text);
  }

  async close(): Promise<void> {
    await withTimeout(this.client.close(), PROCESS_TIMEOUT_MS, "crownmcp to close");
  }
}

/** Runs `body` with a fresh directory shaped like `/tmp` (mode 1777), removed afterwards. */
async function withStickyTmp(body: (tmp: string) => Promise<void>): Promise<void> {
  const tmp = await Deno.makeTempDir({ prefix: "crownui-trust-" });
  Deno.chmodSync(tmp, 0o1777);
  try {
    await body(tmp);
  } finally {
    await removeDir(tmp);
  }
}

/** Runs `body` with an agent, always closed afterwards. */
async function withAgent(
  env: Record<string, string>,
  body: (agent: Agent) => Promise<void>,
): Promise<void> {
  const agent = await new Agent(env).start();
  try {
    await body(agent);
  } finally {
    await agent.close().catch(() => {});
  }
}

/** Runs `body` with an app, always ended afterwards. */
async function withApp(app: AppProcess, body: (app: AppProcess) => Promise<void>) {
  try {
    await body(app);
  } finally {
    await app.close();
  }
}

function assertRefused(run: Run, refusal: string, what: string): void {
  assert.equal(run.code, 3, `${what}: ${JSON.stringify(run)}`);
  assert.ok(run.stderr.includes(`refused ${refusal}`), `${what}: ${JSON.stringify(run)}`);
}

const ATTACK = { ignore: !IS_ROOT || !HAS_TOOLS };

Deno.test({
  name: "client trust: a socket directory another uid made under TMPDIR is never read",
  ...ATTACK,
  fn: async () => {
    await withStickyTmp(async (tmp) => {
      const directory = join(tmp, `crownui-${UID}`);
      const recorder = new Recorder(directory, PLANTED, { uid: NOBODY, mkdir: true });
      try {
        await recorder.ready();
        const refusal = `${directory}: belongs to uid ${NOBODY}, not to this user (uid ${UID})`;
        // XDG_RUNTIME_DIR unset: the clients look in TMPDIR/crownui-<uid>, as apps do.
        const env = { TMPDIR: tmp, CROWNMCP_TOKEN: TOKEN };

        await withAgent(env, async (agent) => {
          assert.deepEqual(await agent.tools(), OWN_TOOLS, "nothing was selected");
          assert.deepEqual(await agent.listApps(), { apps: [], refused: [refusal] });
          const selected = await agent.call("select_app", { app: "notes" });
          assert.equal(selected.isError, true);
          assert.ok(selected.text.includes(`refused: ${refusal}`), selected.text);
          const tree = await agent.call("ui_tree");
          assert.equal(tree.isError, true);
          assert.match(tree.text, /^no app is selected/);
          assert.ok(agent.stderr.includes(`crownmcp: refused ${refusal}\n`), agent.stderr);
        });

        const apps = await crowndev(env, "apps");
        assertRefused(apps, refusal, "crowndev apps");
        assert.equal(apps.stdout, `no CrownUI app is running (looked in ${directory})\n`);
        const json = await crowndev(env, "--json", "apps");
        assertRefused(json, refusal, "crowndev --json apps");
        assert.deepEqual(JSON.parse(json.stdout), { apps: [], refused: [refusal] });
        for (const args of [["tree"], ["tree", "notes"], ["tree", "notes-99999"]]) {
          const run = await crowndev(env, ...args);
          assertRefused(run, refusal, `crowndev ${args.join(" ")}`);
          assert.equal(run.stdout, "", "nothing printed from the planted socket");
        }
      } finally {
        assert.deepEqual(await recorder.close(), [], "the planted socket received nothing");
      }
    });
  },
});

Deno.test({
  name: "client trust: a socket another uid owns, in the user's own directory, is refused",
  ...ATTACK,
  fn: async () => {
    const runtimeDir = await makeRuntimeDir("crownui-trust-");
    const staging = await Deno.makeTempDir({ prefix: "crownui-trust-staging-" });
    Deno.chmodSync(staging, 0o1777);
    try {
      const env = { XDG_RUNTIME_DIR: runtimeDir, CROWNMCP_TOKEN: TOKEN };
      await withApp(startApp(COUNTER, { env: { XDG_RUNTIME_DIR: runtimeDir } }), async (app) => {
        const socket = await app.listening();
        const counter = basename(socket).slice(0, -".sock".length);
        // Bound by nobody elsewhere, then moved in: the socket file keeps its owner.
        const recorder = new Recorder(staging, PLANTED, { uid: NOBODY, mkdir: false });
        try {
          await recorder.ready();
          const planted = join(runtimeDir, "crownui", PLANTED);
          Deno.renameSync(join(staging, PLANTED), planted);
          const refusal = `${planted}: belongs to uid ${NOBODY}, not to this user (uid ${UID})`;

          await withAgent(env, async (agent) => {
            await untilAppTool(agent.client);
            const listed = await agent.listApps();
            assert.deepEqual(listed.apps.map(({ app, selected }) => ({ app, selected })), [
              { app: counter, selected: true },
            ]);
            assert.deepEqual(listed.refused, [refusal]);
            const selected = await agent.call("select_app", { app: "notes-99999" });
            assert.equal(selected.isError, true, selected.text);
            assert.match(selected.text, /^no running app matches "notes-99999"/);
            assert.ok(agent.stderr.includes(`crownmcp: refused ${refusal}\n`), agent.stderr);
          });

          const apps = await crowndev(env, "apps");
          assertRefused(apps, refusal, "crowndev apps");
          assert.match(apps.stdout, new RegExp(`^${counter} `, "m"), "the real app is listed");
          assert.doesNotMatch(apps.stdout, /notes/);
          const tree = await crowndev(env, "tree", "notes");
          assertRefused(tree, refusal, "crowndev tree notes");
          assert.equal(tree.stdout, "");
        } finally {
          assert.deepEqual(await recorder.close(), [], "the planted socket received nothing");
        }
      });
    } finally {
      await removeDir(runtimeDir);
      await removeDir(staging);
    }
  },
});

Deno.test({
  name: "client trust: a parent directory others may write to (no sticky bit) is refused",
  ...ATTACK,
  fn: async (t) => {
    const root = await makeRuntimeDir("crownui-trust-");
    const parent = join(root, "run");
    Deno.mkdirSync(parent);
    try {
      await t.step("the app refuses it with CUI0408 and makes no socket", async () => {
        Deno.chmodSync(parent, 0o777);
        const app = startApp(COUNTER, { env: { XDG_RUNTIME_DIR: parent } });
        await withApp(app, async (app) => {
          const [, reason] = await app.waitFor(/^CUI0408 (.*)$/);
          assert.ok(
            reason!.includes(
              `is inside ${parent}, which has mode 0777: writable by others without the sticky bit`,
            ),
            reason,
          );
          assert.ok(!app.lines.some((line) => line.startsWith("MCP server listening")));
          assert.deepEqual(socketsUnder(parent), []);
        });
      });

      await t.step("crownmcp and crowndev refuse it and connect to nothing", async () => {
        Deno.chmodSync(parent, 0o700);
        const directory = join(parent, "crownui");
        Deno.removeSync(directory, { recursive: true });
        Deno.mkdirSync(directory, { mode: 0o700 });
        // The user's own socket in the user's own directory: only the parent is wrong.
        const recorder = new Recorder(directory, PLANTED, { uid: UID, mkdir: false });
        try {
          await recorder.ready();
          Deno.chmodSync(parent, 0o777);
          const refusal = `${directory}: is inside ${parent}, which has mode 0777: ` +
            "writable by others without the sticky bit, so the socket directory could be replaced";
          const env = { XDG_RUNTIME_DIR: parent, CROWNMCP_TOKEN: TOKEN };
          await withAgent(env, async (agent) => {
            assert.deepEqual(await agent.listApps(), { apps: [], refused: [refusal] });
            assert.deepEqual(await agent.tools(), OWN_TOOLS);
          });
          assertRefused(await crowndev(env, "apps"), refusal, "crowndev apps");
          const tree = await crowndev(env, "tree");
          assertRefused(tree, refusal, "crowndev tree");
          assert.equal(tree.stdout, "");
        } finally {
          assert.deepEqual(await recorder.close(), [], "the socket received nothing");
        }
      });
    } finally {
      await removeDir(root);
    }
  },
});

Deno.test("client trust: sticky parents like /tmp are accepted by the app and the clients", async () => {
  await withStickyTmp(async (tmp) => {
    const env = { TMPDIR: tmp };
    await withApp(startApp(COUNTER, { env }), async (app) => {
      const socket = await app.listening();
      assert.equal(socket, join(tmp, `crownui-${UID}`, `counter-${app.pid}.sock`));
      const apps = await crowndev(env, "--json", "apps");
      assert.equal(apps.code, 0, JSON.stringify(apps));
      assert.deepEqual(JSON.parse(apps.stdout).apps.map((a: { socket: string }) => a.socket), [
        socket,
      ]);
      await withAgent(env, async (agent) => {
        await untilAppTool(agent.client);
        const listed = await agent.listApps();
        assert.equal(listed.refused, undefined);
        assert.deepEqual(listed.apps.map((a) => a.selected), [true]);
        assert.match((await readTree(agent.client)).tree, /Count: 0/);
      });
    });
  });
});

Deno.test({
  name: "client trust: the app notices its socket directory swapped for another",
  ignore: !IS_ROOT,
  fn: async (t) => {
    const runtimeDir = await makeRuntimeDir("crownui-trust-");
    const directory = join(runtimeDir, "crownui");
    try {
      const app = startApp(COUNTER, { env: { XDG_RUNTIME_DIR: runtimeDir } });
      await withApp(app, async (app) => {
        const socket = await app.listening();

        await t.step(
          "a directory of the user's own with a stranger's socket: made again",
          async () => {
            Deno.renameSync(directory, join(runtimeDir, "moved-1"));
            Deno.mkdirSync(directory, { mode: 0o700 });
            const recorder = new Recorder(directory, basename(socket), { uid: UID, mkdir: false });
            try {
              await recorder.ready();
              await app.waitFor(/^MCP server socket .+ was replaced; listening there again$/);
              const tree = await crowndev({ XDG_RUNTIME_DIR: runtimeDir }, "tree");
              assert.equal(tree.code, 0, JSON.stringify(tree));
              assert.match(tree.stdout, /Count: 0/);
            } finally {
              assert.deepEqual(await recorder.close(), []);
            }
          },
        );

        await t.step(
          "a directory another uid owns: refused with CUI0408, then made again",
          async () => {
            Deno.renameSync(directory, join(runtimeDir, "moved-2"));
            Deno.mkdirSync(directory, { mode: 0o755 });
            Deno.chownSync(directory, NOBODY, NOBODY);
            const [, reason] = await app.waitFor(
              /^CUI0408 MCP server socket .+ was removed and cannot be made again: (.*)$/,
            );
            assert.equal(
              reason,
              `socket directory ${directory} belongs to uid ${NOBODY}, not to this user (uid ${UID})`,
            );
            const apps = await crowndev({ XDG_RUNTIME_DIR: runtimeDir }, "apps");
            assertRefused(apps, `${directory}: belongs to uid ${NOBODY}`, "crowndev apps");

            // Once the stranger's directory is gone, the app makes its own again.
            Deno.removeSync(directory);
            await app.waitFor(/^MCP server socket .+ was removed; listening there again$/);
            const tree = await crowndev({ XDG_RUNTIME_DIR: runtimeDir }, "tree");
            assert.equal(tree.code, 0, JSON.stringify(tree));
          },
        );
      });
    } finally {
      await removeDir(runtimeDir);
    }
  },
});

Deno.test("client trust: ids of an app that exited never act in the app selected next", async (t) => {
  const runtimeDir = await makeRuntimeDir("crownui-trust-");
  const env = { XDG_RUNTIME_DIR: runtimeDir };
  const click = { action: "click" };
  const apps: AppProcess[] = [];
  const start = async () => {
    const process = startApp(COUNTER, { env });
    apps.push(process);
    const socket = await process.listening();
    return { process, socket, app: basename(socket).slice(0, -".sock".length) };
  };
  const readFirst = (app: string) => new RegExp(`^read ${app} first: the selected app changed`);
  try {
    const first = await start();
    await withAgent(env, async (agent) => {
      await t.step("an app selected on its own at start must be read before acting", async () => {
        await untilAppTool(agent.client);
        // An id no node has: whatever the outcome, the app's state stays as it was.
        const acted = await agent.call("ui_act", { id: 999, revision: 1, action: click });
        assert.equal(acted.isError, true, acted.text);
        assert.match(acted.text, readFirst(first.app));
      });

      const before = await readTree(agent.client);
      const plus = nodeId(before.tree, "button", "+1");

      await t.step("after the app exits, its ids are refused in the next one, twice", async () => {
        first.process.kill("SIGKILL");
        await first.process.exit();
        const second = await start();
        await until(
          async () => (await agent.listApps()).apps.some((a) => a.app === second.app && a.selected),
          "the new app to be selected on its own",
        );
        const stale = { id: plus, revision: before.revision, action: click };
        const exited = await agent.call("ui_act", stale);
        assert.equal(exited.isError, true, exited.text);
        assert.match(
          exited.text,
          new RegExp(`^the app ${first.app} exited; ${second.app} is selected now\\. Read ui_tree`),
        );
        const again = await agent.call("ui_act", stale);
        assert.equal(again.isError, true, again.text);
        assert.match(again.text, readFirst(second.app));
        assert.doesNotMatch(exited.text, /list_apps/, "list_apps alone is not enough to act again");

        // The new app was not touched (read over its own socket, not through crownmcp).
        const direct = await connect(second.socket);
        try {
          assert.match((await readTree(direct)).tree, /Count: 0/);
        } finally {
          await direct.close();
        }

        const read = await readTree(agent.client);
        const acted = await agent.call("ui_act", {
          id: nodeId(read.tree, "button", "+1"),
          revision: read.revision,
          action: click,
        });
        assert.equal(acted.isError, false, acted.text);
        assert.match((await readTree(agent.client)).tree, /Count: 1/);
      });

      await t.step(
        "select_app, even of the app already selected, asks for a new read",
        async () => {
          for (const read of ["ui_query", "resources/read ui://tree", "ui_tree"]) {
            const tree = await readTree(agent.client);
            const id = nodeId(tree.tree, "button", "+1");
            const selected = await agent.call("select_app", { app: "counter" });
            assert.equal(selected.isError, false, selected.text);
            const refused = await agent.call("ui_act", {
              id,
              revision: tree.revision,
              action: click,
            });
            assert.equal(refused.isError, true, refused.text);
            assert.match(refused.text, /^read counter-\d+ first: /);
            if (read === "ui_query") {
              const query = await agent.call("ui_query", { role: "button", name: "+1" });
              assert.equal(query.isError, false, query.text);
            } else if (read === "ui_tree") {
              await readTree(agent.client);
            } else {
              await agent.client.readResource({ uri: "ui://tree" }, {
                timeout: REQUEST_TIMEOUT_MS,
              });
            }
            const acted = await agent.call("ui_act", {
              id,
              revision: tree.revision,
              action: click,
            });
            assert.equal(acted.isError, false, `${read}: ${acted.text}`);
          }
          assert.match((await readTree(agent.client)).tree, /Count: 4/);
        },
      );

      await t.step("a read relative to a revision (since) does not count as reading", async () => {
        const tree = await readTree(agent.client);
        const id = nodeId(tree.tree, "button", "+1");
        const selected = await agent.call("select_app", { app: "counter" });
        assert.equal(selected.isError, false, selected.text);
        // An empty change list since a revision the agent holds says nothing of which app
        // it came from: these answer, but ui_act stays refused.
        for (
          const [tool, args] of [
            ["ui_tree", { since: tree.revision }],
            ["ui_wait", { since: tree.revision - 1, timeout_ms: 100 }],
          ] as const
        ) {
          const answer = await agent.call(tool, args);
          assert.equal(answer.isError, false, `${tool}: ${answer.text}`);
          const refused = await agent.call("ui_act", {
            id,
            revision: tree.revision,
            action: click,
          });
          assert.equal(refused.isError, true, refused.text);
          assert.match(refused.text, /^read counter-\d+ first: /, `after ${tool} with since`);
        }
        assert.match((await readTree(agent.client)).tree, /Count: 4/);
      });
    });
  } finally {
    for (const app of apps) await app.close();
    await removeDir(runtimeDir);
  }
});
