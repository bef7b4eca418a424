/**
 * The in-app MCP server in real `deno run` processes, over the real Unix socket: where it
 * listens and with which modes, the socket file removed on every way out (and kept when the
 * app handles an error itself and runs on), CUI0408 with the app still running when the
 * server cannot start, the fallback directory, another uid refused by the gate itself, a
 * blocked UI thread, and an app without the server that opens nothing and needs no
 * permissions.
 *
 * Every child gets a fresh `XDG_RUNTIME_DIR` (mode 0700) and a cleared environment, and is
 * killed in a `finally`. Waits are bounded; nothing asserts wall-clock durations.
 */

import { markedContent, receiptOf } from "./_marked.ts";
import assert from "node:assert/strict";
import { getuid } from "../ffi/mod.ts";
import type { Client } from "../runtime/agent/transport/sdk.ts";
import {
  type AppProcess,
  callTool,
  connect,
  exists,
  nodeId,
  permissionBits,
  PROCESS_TIMEOUT_MS,
  readTree,
  REPO_ROOT,
  runtimeDir,
  SERVER_FLAGS,
  socketsUnder,
  startApp,
  withTimeout,
} from "./_app_process.ts";
import { BLOCK_ENDED, BLOCK_STARTED } from "./fixtures/process_app.ts";

const COUNTER = "examples/counter.ts";
const FIXTURE = "tests/fixtures/process_app.ts";
const CUI0408 = /^CUI0408 (.*)$/;
const HEADLESS = /running headless/;
const BUILTIN_TOOLS = [
  "ui_tree",
  "ui_query",
  "ui_wait",
  "ui_act",
  "ui_screenshot",
  "inspect_snapshot",
];
const NOBODY = 65534;
const IS_ROOT = getuid() === 0;
const HAS_SETPRIV = exists("/usr/bin/setpriv") && exists("/usr/bin/python3");

/** Runs `body` with a fresh runtime directory, removed afterwards. */
async function withRuntimeDir(body: (runtimeDir: string) => Promise<void>): Promise<void> {
  await using runtime = await runtimeDir();
  await body(runtime.path);
}

/** Runs `body` with `app`, which is always ended afterwards. */
async function withApp(app: AppProcess, body: (app: AppProcess) => Promise<void>): Promise<void> {
  try {
    await body(app);
  } finally {
    await app.close();
  }
}

/** Runs `body` with an MCP client on `path`, always closed afterwards. */
async function withClient(path: string, body: (client: Client) => Promise<void>): Promise<void> {
  await using client = await connect(path);
  await body(client);
}

/** Starts the fixture app with the server flags in `runtimeDir`. */
function startFixture(runtimeDir: string): AppProcess {
  return startApp(FIXTURE, { env: { XDG_RUNTIME_DIR: runtimeDir } });
}

/** Asserts that the app still runs, then that SIGTERM ends it cleanly. */
async function assertRunsAndQuitsCleanly(app: AppProcess): Promise<void> {
  assert.ok(await app.isAlive(), `the app still runs after the log line; it wrote:\n${app.stderr}`);
  app.kill("SIGTERM");
  const status = await app.exit();
  assert.equal(status.code, 0, `the app quits cleanly on SIGTERM; it wrote:\n${app.stderr}`);
}

Deno.test("app process: examples/counter.ts serves MCP on <dir>/crownui/counter-<pid>.sock", async () => {
  await withRuntimeDir(async (runtimeDir) => {
    await withApp(startApp(COUNTER, { env: { XDG_RUNTIME_DIR: runtimeDir } }), async (app) => {
      const path = await app.listening();
      assert.equal(path, `${runtimeDir}/crownui/counter-${app.pid}.sock`);
      assert.equal(Deno.lstatSync(`${runtimeDir}/crownui`).isDirectory, true);
      assert.equal(permissionBits(`${runtimeDir}/crownui`), 0o700);
      assert.equal(Deno.lstatSync(path).isSocket, true);
      assert.equal(permissionBits(path), 0o600);

      await withClient(path, async (client) => {
        const { tools } = await client.listTools();
        assert.deepEqual(tools.map((tool) => tool.name), BUILTIN_TOOLS);

        const before = await readTree(client);
        assert.match(before.tree, /^window "Counter" #\d+/);
        assert.match(before.tree, /text "Count: 0"/);
        const plusOne = nodeId(before.tree, "button", "+1");

        const acted = await callTool(client, "ui_act", {
          id: plusOne,
          revision: before.revision,
          action: { action: "click" },
        });
        assert.equal(acted.isError, false, acted.text);
        // The receipt: the revision, with what the click changed (marked as app data).
        const receipt = receiptOf(acted.text);
        assert.equal(receipt.revision, before.revision + 1);
        assert.match(receipt.changes!, /^~ text "Count: 1" #\d+$/m);

        const after = await readTree(client);
        assert.equal(after.revision, before.revision + 1);
        assert.match(after.tree, /text "Count: 1"/);
      });
    });
  });
});

/** One way out of the process, and the exit code it gives. */
interface WayOut {
  name: string;
  code: number;
  trigger: (app: AppProcess, client: Client) => void;
}

const WAYS_OUT: WayOut[] = [
  { name: "rt.quit() (run() returns)", code: 0, trigger: (_, client) => fireTool(client, "quit") },
  { name: "Deno.exit(0)", code: 0, trigger: (_, client) => fireTool(client, "exit") },
  { name: "SIGINT", code: 0, trigger: (app) => app.kill("SIGINT") },
  { name: "SIGTERM", code: 0, trigger: (app) => app.kill("SIGTERM") },
  { name: "an uncaught error", code: 1, trigger: (_, client) => fireTool(client, "crash") },
  { name: "an unhandled rejection", code: 1, trigger: (_, client) => fireTool(client, "reject") },
];

/** Calls a tool whose answer may never come (the process ends); the answer is not awaited. */
function fireTool(client: Client, name: string): void {
  client.callTool({ name, arguments: {} }, undefined, { timeout: PROCESS_TIMEOUT_MS })
    .catch(() => {}); // the connection closes with the process
}

Deno.test("app process: the socket file is removed on every way out", async (t) => {
  for (const way of WAYS_OUT) {
    await t.step(way.name, async () => {
      await withRuntimeDir(async (runtimeDir) => {
        await withApp(startFixture(runtimeDir), async (app) => {
          const path = await app.listening();
          assert.ok(exists(path));
          const client = await connect(path);
          try {
            way.trigger(app, client);
            const status = await app.exit();
            assert.equal(status.code, way.code, `exit code; the app wrote:\n${app.stderr}`);
          } finally {
            await client.close();
          }
          assert.ok(!exists(path), `the socket is removed after ${way.name}`);
          assert.ok(exists(`${runtimeDir}/crownui`), "the directory stays for other apps");
        });
      });
    });
  }

  await t.step("a burst of SIGTERMs during shutdown", async () => {
    // A second Ctrl+C or SIGTERM while the agent stops must not end the process before the
    // socket is removed. The burst is sent in one synchronous loop, so this process does not
    // reap the child meanwhile (a zombie still takes signals) and the burst covers the whole
    // shutdown. A signal that lands after run() has cleaned up may end it with the signal.
    await withRuntimeDir(async (runtimeDir) => {
      await withApp(startFixture(runtimeDir), async (app) => {
        const path = await app.listening();
        const end = performance.now() + 200;
        while (performance.now() < end) app.kill("SIGTERM");
        const status = await app.exit();
        assert.ok(status.code === 0 || status.signal === "SIGTERM", app.stderr);
        assert.ok(!exists(path), "the socket is removed although more signals came");
      });
    });
  });

  await t.step("SIGKILL leaves the socket behind (the stale case clients handle)", async () => {
    // No code runs in a process killed with SIGKILL, so nothing can remove the file. A
    // socket whose process is gone is stale; crownmcp and crowndev remove such sockets.
    await withRuntimeDir(async (runtimeDir) => {
      await withApp(startFixture(runtimeDir), async (app) => {
        const path = await app.listening();
        app.kill("SIGKILL");
        const status = await app.exit();
        assert.equal(status.signal, "SIGKILL");
        assert.ok(exists(path), "the stale socket stays");
        assert.equal(Deno.lstatSync(path).isSocket, true);
      });
    });
  });
});

Deno.test("app process: an error the app handles itself leaves the server running", async () => {
  await withRuntimeDir(async (runtimeDir) => {
    const app = startApp(FIXTURE, {
      env: { XDG_RUNTIME_DIR: runtimeDir },
      args: ["--handle-errors"],
    });
    await withApp(app, async (app) => {
      const path = await app.listening();
      await withClient(path, async (client) => {
        for (const [tool, type] of [["crash", "error"], ["reject", "unhandledrejection"]]) {
          assert.equal((await callTool(client, tool!)).isError, false);
          await app.waitFor(new RegExp(`^fixture: handled ${type}$`));
          assert.ok(exists(path), `the socket stays after a handled ${type}`);
        }
      });
      await withClient(path, async (client) => {
        assert.match((await readTree(client)).tree, /^window "Process App"/);
      });
      app.kill("SIGTERM");
      assert.equal((await app.exit()).code, 0, app.stderr);
      assert.ok(!exists(path));
    });
  });
});

/**
 * Starts the fixture, waits for CUI0408 and the app's own start line, checks that no socket
 * exists and that the app runs on and quits cleanly; returns the logged reason.
 */
async function expectStartFailure(
  runtimeDir: string,
  flags: readonly string[] = SERVER_FLAGS,
): Promise<string> {
  let reason = "";
  const app = startApp(FIXTURE, { env: { XDG_RUNTIME_DIR: runtimeDir }, flags });
  await withApp(app, async (app) => {
    reason = (await app.waitFor(CUI0408))[1]!;
    await app.waitFor(HEADLESS);
    assert.ok(!app.lines.some((line) => line.startsWith("MCP server listening")), app.stderr);
    assert.deepEqual(socketsUnder(runtimeDir), [], "no socket anywhere under the runtime dir");
    await assertRunsAndQuitsCleanly(app);
  });
  return reason;
}

Deno.test("app process: CUI0408 and a running app when the server cannot start", async (t) => {
  await t.step("the socket directory is a symlink", async () => {
    await withRuntimeDir(async (runtimeDir) => {
      Deno.mkdirSync(`${runtimeDir}/elsewhere`, { mode: 0o700 });
      Deno.symlinkSync(`${runtimeDir}/elsewhere`, `${runtimeDir}/crownui`);
      assert.match(
        await expectStartFailure(runtimeDir),
        /socket directory .*\/crownui is a symlink/,
      );
      assert.deepEqual([...Deno.readDirSync(`${runtimeDir}/elsewhere`)], []);
    });
  });

  await t.step("the socket directory has mode 0755", async () => {
    await withRuntimeDir(async (runtimeDir) => {
      Deno.mkdirSync(`${runtimeDir}/crownui`);
      Deno.chmodSync(`${runtimeDir}/crownui`, 0o755);
      assert.match(
        await expectStartFailure(runtimeDir),
        /has mode 0755; it must be closed to group and others/,
      );
    });
  });

  await t.step({
    name: "the socket directory belongs to another uid",
    ignore: !IS_ROOT,
    fn: async () => {
      await withRuntimeDir(async (runtimeDir) => {
        Deno.mkdirSync(`${runtimeDir}/crownui`, { mode: 0o700 });
        Deno.chownSync(`${runtimeDir}/crownui`, NOBODY, NOBODY);
        assert.match(
          await expectStartFailure(runtimeDir),
          new RegExp(`belongs to uid ${NOBODY}, not to this user`),
        );
      });
    },
  });

  await t.step("the app runs without --allow-ffi", async () => {
    await withRuntimeDir(async (runtimeDir) => {
      const flags = SERVER_FLAGS.filter((flag) => flag !== "--allow-ffi");
      assert.match(await expectStartFailure(runtimeDir, flags), /--allow-ffi/);
    });
  });
});

Deno.test("app process: without XDG_RUNTIME_DIR the app listens in ${TMPDIR}/crownui-<uid>/", async () => {
  await using tmp = await runtimeDir("crownui-tmpdir-");
  // A title with Unicode letters and punctuation also shows how the socket is named.
  const app = startApp(FIXTURE, { env: { TMPDIR: tmp.path }, args: ["--title", "Ünïcode App!"] });
  await withApp(app, async (app) => {
    const path = await app.listening();
    const directory = `${tmp.path}/crownui-${getuid()}`;
    assert.equal(path, `${directory}/ünïcode-app--${app.pid}.sock`);
    assert.equal(permissionBits(directory), 0o700);
    await withClient(path, async (client) => {
      assert.match((await readTree(client)).tree, /^window "Ünïcode App!"/);
    });
    app.kill("SIGTERM");
    assert.equal((await app.exit()).code, 0);
    assert.ok(!exists(path));
  });
});

/** Connects as uid 65534, sends `initialize` and reads to EOF; prints what it saw as JSON. */
const FOREIGN_CLIENT = `
import json, os, socket, sys
result = {"pid": os.getpid(), "uid": os.getuid(), "connected": False, "received": 0, "closed": False}
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.settimeout(15)
try:
    s.connect(sys.argv[1])
    result["connected"] = True
    s.sendall(b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"foreign","version":"1"}}}\\n')
    while True:
        chunk = s.recv(65536)
        if not chunk:
            result["closed"] = True
            break
        result["received"] += len(chunk)
except (ConnectionResetError, BrokenPipeError):
    # The app refuses another uid before reading: the write may find the connection closed.
    result["closed"] = True
except Exception as error:
    result["error"] = repr(error)
print(json.dumps(result))
`;

Deno.test({
  name: "app process: another uid is refused by the gate itself, not by file modes",
  ignore: !IS_ROOT || !HAS_SETPRIV,
  fn: async () => {
    await withRuntimeDir(async (runtimeDir) => {
      await withApp(startFixture(runtimeDir), async (app) => {
        const path = await app.listening();
        // Widen the modes in this test only, so that nothing but the gate can say no. The app
        // checks the directory when it starts, so widening it now does not stop the server.
        Deno.chmodSync(runtimeDir, 0o711);
        Deno.chmodSync(`${runtimeDir}/crownui`, 0o777);
        Deno.chmodSync(path, 0o666);

        const foreign = new Deno.Command("/usr/bin/setpriv", {
          args: [
            `--reuid=${NOBODY}`,
            `--regid=${NOBODY}`,
            "--clear-groups",
            "/usr/bin/python3",
            "-c",
            FOREIGN_CLIENT,
            path,
          ],
          clearEnv: true,
          env: { PATH: "/usr/bin:/bin" },
          stdin: "null",
          stdout: "piped",
          stderr: "piped",
        }).spawn();
        let output: Deno.CommandOutput;
        try {
          output = await withTimeout(foreign.output(), PROCESS_TIMEOUT_MS, "the foreign client");
        } catch (error) {
          try {
            foreign.kill("SIGKILL");
          } catch {
            // Exited meanwhile.
          }
          await foreign.status;
          throw error;
        }
        const stdout = new TextDecoder().decode(output.stdout);
        const stderr = new TextDecoder().decode(output.stderr);
        assert.equal(output.code, 0, `the foreign client failed: ${stdout}${stderr}`);
        const seen = JSON.parse(stdout);
        assert.equal(seen.uid, NOBODY);
        assert.equal(seen.pid, foreign.pid, "setpriv execs python in the same process");
        assert.equal(seen.connected, true, `the modes let uid ${NOBODY} connect: ${stdout}`);
        assert.equal(seen.received, 0, "nothing is served to a refused peer");
        assert.equal(seen.closed, true, `the connection is closed: ${stdout}`);
        await app.waitFor(
          new RegExp(`^refused a connection from pid ${foreign.pid} uid ${NOBODY}: SameUserGate`),
        );

        // A foreign peer that connects and hangs up without a word is logged too: only the
        // app's own user's liveness checks (crownmcp, crowndev) pass unlogged.
        const silent = new Deno.Command("/usr/bin/setpriv", {
          args: [
            `--reuid=${NOBODY}`,
            `--regid=${NOBODY}`,
            "--clear-groups",
            "/usr/bin/python3",
            "-c",
            "import socket, sys; s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); s.close()",
            path,
          ],
          clearEnv: true,
          env: { PATH: "/usr/bin:/bin" },
          stdin: "null",
          stdout: "null",
          stderr: "null",
        }).spawn();
        const silentStatus = await withTimeout(
          silent.status,
          PROCESS_TIMEOUT_MS,
          "the silent client",
        );
        assert.equal(silentStatus.code, 0);
        await app.waitFor(
          new RegExp(`^refused a connection from pid ${silent.pid} uid ${NOBODY}: SameUserGate`),
        );

        await withClient(path, async (client) => {
          assert.match((await readTree(client)).tree, /^window "Process App"/);
        });
      });
    });
  },
});

/** The text of a resource read's first content. */
function resourceText(result: { contents: ({ text: string } | { blob: string })[] }): string {
  const first = result.contents[0];
  if (first === undefined || !("text" in first)) throw new Error("the resource has no text");
  return first.text;
}

Deno.test("app process: app tools through the worker, destructive ones need confirm", async () => {
  await withRuntimeDir(async (runtimeDir) => {
    await withApp(startFixture(runtimeDir), async (app) => {
      const path = await app.listening();
      await withClient(path, async (client) => {
        const { tools } = await client.listTools();
        const reset = tools.find((tool) => tool.name === "reset");
        assert.equal(reset?.annotations?.destructiveHint, true);
        assert.ok((reset?.inputSchema.required ?? []).includes("confirm"));
        assert.equal(
          tools.find((tool) => tool.name === "count")?.annotations?.destructiveHint,
          false,
        );

        const start = await readTree(client);
        const plusOne = nodeId(start.tree, "button", "+1");
        const clicked = await callTool(client, "ui_act", {
          id: plusOne,
          revision: start.revision,
          action: { action: "click" },
        });
        assert.equal(receiptOf(clicked.text).revision, start.revision + 1);
        const stale = await callTool(client, "ui_act", {
          id: plusOne,
          revision: start.revision,
          action: { action: "click" },
        });
        assert.equal(stale.isError, true);
        assert.equal(
          stale.text,
          `stale revision: the tree is now at revision ${
            start.revision + 1
          }; read ui_tree again and retry`,
        );

        const counted = await callTool(client, "count");
        assert.deepEqual(markedContent(counted.text), { count: 1 });
        const said = await callTool(client, "say");
        assert.equal(markedContent(said.text), "hello, agent");
        const failed = await callTool(client, "fail");
        assert.equal(failed.isError, true);
        assert.match(failed.text, /fixture failure: the handler threw/);

        const refused = await callTool(client, "reset", { to: 5 });
        assert.equal(refused.isError, true);
        assert.match(
          refused.text,
          /ask the user for approval, then call it again with "confirm": true/,
        );
        assert.match(
          (await readTree(client)).tree,
          /text "Count: 1"/,
          "nothing ran without confirm",
        );

        const confirmed = await callTool(client, "reset", { to: 5, confirm: true });
        assert.equal(confirmed.isError, false, confirmed.text);
        assert.deepEqual(markedContent(confirmed.text), {
          reset: true,
          arguments: { to: 5 },
        });
        assert.match((await readTree(client)).tree, /text "Count: 5"/);

        const resource = await client.readResource({ uri: "ui://tree" });
        assert.match(resourceText(resource), /text "Count: 5"/);
        const json = await client.readResource({ uri: "ui://tree.json" });
        assert.equal(
          JSON.parse(resourceText(json)).revision,
          (await readTree(client)).revision,
        );
      });
    });
  });
});

Deno.test("app process: a blocked UI thread; the tree still answers, acts time out, then recover", async () => {
  await withRuntimeDir(async (runtimeDir) => {
    await withApp(startFixture(runtimeDir), async (app) => {
      const path = await app.listening();
      await withClient(path, async (a) => {
        await withClient(path, async (b) => {
          const start = await readTree(b);
          assert.match(start.tree, /text_field "Password" #\d+ secure/);
          const plusOne = nodeId(start.tree, "button", "+1");

          let blockSettled = false;
          const blocking = callTool(a, "block", { ms: 6000 }).finally(() => (blockSettled = true));
          blocking.catch(() => {}); // awaited below; keep an early failure from going unhandled
          await app.waitFor(new RegExp(`^${BLOCK_STARTED}$`));

          // Answered from the worker's mirror while the UI thread is busy.
          const during = await withTimeout(
            readTree(b),
            PROCESS_TIMEOUT_MS,
            "ui_tree during the block",
          );
          assert.equal(blockSettled, false, "ui_tree is answered while the block is still running");
          assert.equal(during.revision, start.revision);
          assert.match(during.tree, /text "Count: 0"/);

          // An act needs the UI thread: it fails with the contract's message.
          const acted = await callTool(b, "ui_act", {
            id: plusOne,
            revision: during.revision,
            action: { action: "click" },
          });
          assert.equal(acted.isError, true, acted.text);
          assert.match(acted.text, /^the app did not answer within 5 seconds/);

          const blocked = await blocking;
          assert.equal(blocked.isError, true, blocked.text);
          assert.match(blocked.text, /^the app did not answer within 5 seconds/);

          // Recovery: once the block ends, the UI thread answers again. inspect_snapshot goes
          // through the UI thread after everything queued before it, so the mirror is current
          // when it returns.
          await app.waitFor(new RegExp(`^${BLOCK_ENDED}$`));
          const inspected = await callTool(b, "inspect_snapshot");
          assert.equal(inspected.isError, false, inspected.text);
          const now = await readTree(b);
          const count = Number(/text "Count: (\d+)"/.exec(now.tree)![1]);
          // The act that timed out never ran: the agent was told it failed, so it must not
          // take effect later (a retry would otherwise click twice).
          assert.equal(count, 0, "the timed-out click did not run after the block");
          const recovered = await callTool(b, "ui_act", {
            id: plusOne,
            revision: now.revision,
            action: { action: "click" },
          });
          assert.equal(recovered.isError, false, recovered.text);
          assert.equal(receiptOf(recovered.text).revision, now.revision + 1);
          const after = await readTree(b);
          assert.equal(after.revision, now.revision + 1);
          assert.match(after.tree, new RegExp(`text "Count: ${count + 1}"`));
        });
      });
    });
  });
});

Deno.test("app process: an app with mcp(false) opens nothing and needs no permissions", async (t) => {
  await t.step("with every permission it still creates no socket directory", async () => {
    await withRuntimeDir(async (runtimeDir) => {
      const app = startApp(FIXTURE, { env: { XDG_RUNTIME_DIR: runtimeDir }, args: ["--no-mcp"] });
      await withApp(app, async (app) => {
        await app.waitFor(HEADLESS);
        await assertRunsAndQuitsCleanly(app);
        assert.deepEqual([...Deno.readDirSync(runtimeDir)], []);
        assert.ok(!app.lines.some((line) => /MCP|CUI0408/.test(line)), app.stderr);
      });
    });
  });

  await t.step("it runs under `deno run` with no permission flags", async () => {
    await withRuntimeDir(async (runtimeDir) => {
      const app = startApp(FIXTURE, {
        env: { XDG_RUNTIME_DIR: runtimeDir },
        flags: [],
        args: ["--no-mcp"],
      });
      await withApp(app, async (app) => {
        await app.waitFor(HEADLESS);
        await assertRunsAndQuitsCleanly(app);
        assert.deepEqual([...Deno.readDirSync(runtimeDir)], []);
        assert.ok(
          !app.lines.some((line) => /NotCapable|PermissionDenied|error/i.test(line)),
          app.stderr,
        );
      });
    });
  });

  await t.step("runtime/mod.ts loads nothing under runtime/agent/ or ffi/ statically", async () => {
    const info = new Deno.Command(Deno.execPath(), {
      args: ["info", "--json", "runtime/mod.ts"],
      cwd: REPO_ROOT,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const output = await withTimeout(info.output(), PROCESS_TIMEOUT_MS, "deno info");
    assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
    const graph = JSON.parse(new TextDecoder().decode(output.stdout)) as ModuleGraph;
    const loaded = staticRuntimeGraph(graph);
    const agentOrFfi = (specifier: string) =>
      specifier.startsWith(new URL("../runtime/agent/", import.meta.url).href) ||
      specifier.startsWith(new URL("../ffi/", import.meta.url).href);
    assert.deepEqual([...loaded].filter(agentOrFfi), []);
    // The walk is meaningful: the dynamic import of the bridge is in the full graph.
    assert.ok(
      graph.modules.some((module) => module.specifier.endsWith("/runtime/agent/hosts/bridge.ts")),
    );
    assert.ok(loaded.has(new URL("../runtime/run.ts", import.meta.url).href));
  });
});

interface ModuleGraph {
  roots: string[];
  modules: {
    specifier: string;
    dependencies?: { code?: { specifier: string }; isDynamic?: boolean }[];
  }[];
}

/** The modules loaded at run time before any dynamic import: static, non-type-only imports. */
function staticRuntimeGraph(graph: ModuleGraph): Set<string> {
  const bySpecifier = new Map(graph.modules.map((module) => [module.specifier, module]));
  const seen = new Set<string>();
  const stack = [...graph.roots];
  while (stack.length > 0) {
    const specifier = stack.pop()!;
    if (seen.has(specifier)) continue;
    seen.add(specifier);
    for (const dependency of bySpecifier.get(specifier)?.dependencies ?? []) {
      if (dependency.isDynamic || dependency.code === undefined) continue;
      stack.push(dependency.code.specifier);
    }
  }
  return seen;
}
