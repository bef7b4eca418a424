/**
 * `crownmcp` end to end, launched the way agents launch it: a child process over standard
 * input and output, driven by the SDK's `Client` with `StdioClientTransport` (as Claude Code
 * does), by raw JSON-RPC lines, and by the MCP Inspector CLI, against real apps running as
 * `deno run` children.
 *
 * The command line comes from the `crownmcp` task in deno.json, so the tested flags are the
 * ones users run. Every scene gets a fresh `XDG_RUNTIME_DIR`; apps and crownmcp processes
 * are always ended and directories removed. Waits are bounded; no test asserts durations.
 *
 * @module
 */

import { markedContent, receiptOf } from "./_marked.ts";
import { decode } from "npm:fast-png@8.0.0";
import assert from "node:assert/strict";
import { basename, join } from "node:path";
import denoJson from "../deno.json" with { type: "json" };
import { getuid } from "../ffi/mod.ts";
import { Client, type Notification } from "../runtime/agent/transport/sdk.ts";
import type { StdioClientTransport } from "../runtime/agent/transport/sdk_stdio.ts";
import {
  type AppProcess,
  callTool,
  childEnv,
  exists,
  makeRuntimeDir,
  nodeId,
  PROCESS_TIMEOUT_MS,
  readTree,
  removeDir,
  REPO_ROOT,
  REQUEST_TIMEOUT_MS,
  runToEnd,
  startApp,
  type ToolText,
  withTimeout,
} from "./_app_process.ts";
import { crownmcpCommand, crownmcpTransport, spawnCrownmcp } from "./_crownmcp.ts";
import { WAIT_CANCELLED, WAIT_STARTED } from "./fixtures/cancel_app.ts";

const COUNTER = "examples/counter.ts";
const NOTES = "examples/notes.ts";
const PROCESS_APP = "tests/fixtures/process_app.ts";
const TOKEN_APP = "tests/fixtures/token_app.ts";
const CANCEL_APP = "tests/fixtures/cancel_app.ts";
const OWN_TOOLS = ["list_apps", "select_app"];
const BUILTIN_TOOLS = [
  "ui_tree",
  "ui_query",
  "ui_wait",
  "ui_act",
  "ui_screenshot",
  "inspect_snapshot",
];
const RESOURCE_URIS = ["ui://tree", "ui://tree.json", "inspect://snapshot"];
const TOOLS_CHANGED = "notifications/tools/list_changed";
const RESOURCES_CHANGED = "notifications/resources/list_changed";
const RESOURCE_UPDATED = "notifications/resources/updated";
const INSPECTOR = "npm:@modelcontextprotocol/inspector@2.12.0";

/** Resolves when `condition` holds, checked every 50 ms; fails after the request timeout. */
async function until(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs: number = REQUEST_TIMEOUT_MS,
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await condition())) {
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** One app a scene started, with what crownmcp calls it. */
interface RunningApp {
  process: AppProcess;
  /** `counter-4242` */
  app: string;
  socket: string;
}

/** What `list_apps` answers. */
interface AppList {
  apps: { app: string; name: string; pid: number; socket: string; selected: boolean }[];
}

/** A crownmcp process driven by the SDK client over its standard input and output. */
class Session {
  readonly client: Client;
  readonly transport: StdioClientTransport;
  /** Every notification received, in order. */
  readonly notifications: Notification[] = [];
  /** Errors the client saw: a stray line on stdout shows up here. */
  readonly errors: Error[] = [];
  readonly #stderr: string[] = [];
  #partial = "";

  constructor(transport: StdioClientTransport) {
    this.transport = transport;
    this.client = new Client({ name: "crownmcp-test", version: "0.1.0" }, { capabilities: {} });
    this.client.fallbackNotificationHandler = (notification) => {
      this.notifications.push(notification);
      return Promise.resolve();
    };
    this.client.onerror = (error) => this.errors.push(error);
    transport.stderr?.on("data", (chunk: Uint8Array) => {
      const lines = (this.#partial + new TextDecoder().decode(chunk)).split("\n");
      this.#partial = lines.pop()!;
      this.#stderr.push(...lines);
    });
  }

  /** The lines crownmcp wrote to standard error so far. */
  get stderr(): string[] {
    return this.#partial === "" ? [...this.#stderr] : [...this.#stderr, this.#partial];
  }

  /** crownmcp's process id. */
  get pid(): number {
    return this.transport.pid!;
  }

  /** The names `tools/list` gives now. */
  async tools(): Promise<string[]> {
    const { tools } = await this.client.listTools(undefined, { timeout: REQUEST_TIMEOUT_MS });
    return tools.map((tool) => tool.name);
  }

  /** Calls a tool through crownmcp. */
  call(name: string, args: Record<string, unknown> = {}): Promise<ToolText> {
    return callTool(this.client, name, args);
  }

  /** Calls `list_apps` and parses its answer. */
  async listApps(): Promise<AppList> {
    const { text, isError } = await this.call("list_apps");
    assert.equal(isError, false, text);
    return JSON.parse(text) as AppList;
  }

  /** How many notifications have arrived; pass it to `waitFor` to wait for a later one. */
  mark(): number {
    return this.notifications.length;
  }

  /** Waits for a notification `method` at index `from` or later. */
  async waitFor(method: string, from: number): Promise<Notification> {
    let found: Notification | undefined;
    await until(() => {
      found = this.notifications.slice(from).find((n) => n.method === method);
      return found !== undefined;
    }, `${method} from crownmcp; it logged:\n${this.stderr.join("\n")}`);
    return found!;
  }

  /**
   * `tools/list` once crownmcp has the one app it selects on its own: the first answer, or,
   * when that came before the app's handshake ended (crownmcp waits for it only briefly, so
   * that a stopped app cannot hold it up), the answer after the `tools/list_changed` that
   * must then follow, as an agent hears it.
   */
  async toolsOnceSelected(): Promise<string[]> {
    const first = await this.tools();
    if (first.length > OWN_TOOLS.length) return first;
    assert.deepEqual(first, OWN_TOOLS);
    await this.waitFor(TOOLS_CHANGED, 0);
    return await this.tools();
  }

  /** Waits until `tools/list` includes `name` (after a `list_changed`, say). */
  async waitForTool(name: string): Promise<void> {
    await until(async () => (await this.tools()).includes(name), `tool ${name} to appear`);
  }

  /** Ends the session: closes standard input (the SDK then waits, and signals if it must). */
  async close(): Promise<void> {
    await withTimeout(this.client.close(), PROCESS_TIMEOUT_MS, "crownmcp to close");
  }
}

/** A runtime directory with the apps and crownmcp sessions started in it. */
class Scene {
  readonly runtimeDir: string;
  readonly #apps: AppProcess[] = [];
  readonly #sessions: Session[] = [];

  constructor(runtimeDir: string) {
    this.runtimeDir = runtimeDir;
  }

  /** Where the apps' sockets are. */
  get socketDir(): string {
    return join(this.runtimeDir, "crownui");
  }

  /** Starts an app in this scene and waits until it listens. */
  async app(script: string, args: string[] = [], env: Record<string, string> = {}) {
    const process = startApp(script, { env: { XDG_RUNTIME_DIR: this.runtimeDir, ...env }, args });
    this.#apps.push(process);
    const socket = await process.listening();
    return { process, socket, app: basename(socket).slice(0, -".sock".length) } as RunningApp;
  }

  /** Launches crownmcp as Claude Code does and connects the SDK client to it. */
  async crownmcp(
    options: { env?: Record<string, string>; args?: string[] } = {},
  ): Promise<Session> {
    const transport = crownmcpTransport(
      options.env ?? { XDG_RUNTIME_DIR: this.runtimeDir },
      options.args,
    );
    const session = new Session(transport);
    this.#sessions.push(session);
    await withTimeout(
      session.client.connect(transport, { timeout: REQUEST_TIMEOUT_MS }),
      PROCESS_TIMEOUT_MS,
      "crownmcp to start and answer initialize",
    ).catch((error) => {
      throw new Error(`${(error as Error).message}; crownmcp wrote:\n${session.stderr.join("\n")}`);
    });
    return session;
  }

  /** Ends every session and app, and removes the directory. */
  async close(): Promise<void> {
    for (const session of this.#sessions) await session.close().catch(() => {});
    for (const app of this.#apps) await app.close().catch(() => {});
    await removeDir(this.runtimeDir);
  }
}

/** Runs `body` in a fresh scene, always closed afterwards. */
async function withScene(body: (scene: Scene) => Promise<void>): Promise<void> {
  const scene = new Scene(await makeRuntimeDir("crownmcp-test-"));
  try {
    await body(scene);
  } finally {
    await scene.close();
  }
}

/** Asserts that crownmcp wrote nothing but JSON-RPC to stdout and only its own log lines. */
function assertCleanSession(session: Session): void {
  assert.deepEqual(session.errors.map((error) => error.message), []);
  for (const line of session.stderr) {
    if (line !== "") assert.match(line, /^crownmcp: /, "every stderr line is a crownmcp log line");
  }
}

/**
 * Asserts that `tools` are crownmcp's own, then the built-in ones, then app tools including
 * `appTools` (examples/notes.ts may gain tools; the agents page's `note_count` stays).
 */
function assertForwardedTools(tools: string[], appTools: string[]): void {
  const fixed = [...OWN_TOOLS, ...BUILTIN_TOOLS];
  assert.deepEqual(tools.slice(0, fixed.length), fixed);
  for (const name of appTools) assert.ok(tools.includes(name), `${name} in ${tools.join()}`);
}

/** What `note_count` answers (through crownmcp, unwrapped). */
async function noteCount(session: Session): Promise<number> {
  const { count } = unwrap(await session.call("note_count")) as { count: number };
  assert.equal(typeof count, "number");
  return count;
}

/** The content of a result wrapped as untrusted app content. */
function unwrap(result: ToolText): unknown {
  assert.equal(result.isError, false, result.text);
  return markedContent(result.text);
}

/** The text of one resource, read through crownmcp. */
async function readResource(session: Session, uri: string): Promise<string> {
  const { contents } = await session.client.readResource({ uri }, {
    timeout: REQUEST_TIMEOUT_MS,
  });
  assert.equal(contents.length, 1);
  return (contents[0] as { text: string }).text;
}

/** Runs a crownmcp command to the end (stdin closed); returns its exit code and output. */
function runCrownmcp(args: string[]) {
  const { command, args: base } = crownmcpCommand();
  return runToEnd(command, [...base, ...args]);
}

Deno.test("crownmcp command line: --help, --version and bad flags", async (t) => {
  await t.step("--help prints the usage to stdout and exits 0", async () => {
    const { code, stdout, stderr } = await runCrownmcp(["--help"]);
    assert.equal(code, 0, stderr);
    assert.match(stdout, /^crownmcp \d+\.\d+\.\d+: /);
    assert.match(stdout, /Usage: crownmcp \[--socket-dir DIR\]/);
    assert.match(stdout, /CROWNMCP_TOKEN/);
    assert.equal(stderr, "");
  });

  await t.step("--version and -V print the version from deno.json", async () => {
    for (const flag of ["--version", "-V"]) {
      const { code, stdout } = await runCrownmcp([flag]);
      assert.equal(code, 0);
      assert.equal(stdout, `crownmcp ${denoJson.version}\n`);
    }
  });

  await t.step("an unknown flag exits 2 with a message on stderr", async () => {
    const { code, stdout, stderr } = await runCrownmcp(["--bogus"]);
    assert.equal(code, 2);
    assert.equal(stdout, "");
    assert.match(stderr, /^crownmcp: Unknown option '--bogus'/);
    assert.match(stderr, /crownmcp --help/);
  });

  await t.step("a stray argument and --socket-dir without a value exit 2", async () => {
    for (const args of [["notes"], ["--socket-dir"]]) {
      const { code, stdout, stderr } = await runCrownmcp(args);
      assert.equal(code, 2, `${args.join(" ")}: ${stderr}`);
      assert.equal(stdout, "");
      assert.match(stderr, /^crownmcp: .+\nRun crownmcp --help for usage\.\n$/);
    }
  });
});

Deno.test("crownmcp with one app: selected on its own, tools and resources forwarded", async (t) => {
  await withScene(async (scene) => {
    const counter = await scene.app(COUNTER);
    const session = await scene.crownmcp();

    await t.step(
      "tools/list has the app's tools after crownmcp's own (at once, or after list_changed)",
      async () => {
        assert.deepEqual(await session.toolsOnceSelected(), [...OWN_TOOLS, ...BUILTIN_TOOLS]);
      },
    );

    await t.step("list_apps shows the app, selected", async () => {
      assert.deepEqual(await session.listApps(), {
        apps: [{
          app: counter.app,
          name: "counter",
          pid: counter.process.pid,
          socket: counter.socket,
          selected: true,
        }],
      });
    });

    await t.step("ui_tree and ui_act go to the app", async () => {
      const before = await readTree(session.client);
      assert.match(before.tree, /^window "Counter" #1\n/);
      assert.match(before.tree, /text "Count: 0"/);
      const plus = nodeId(before.tree, "button", "+1");
      const acted = await session.call("ui_act", {
        id: plus,
        revision: before.revision,
        action: { action: "click" },
      });
      const receipt = receiptOf(acted.text);
      assert.equal(receipt.revision, before.revision + 1);
      assert.match(receipt.changes!, /^~ text "Count: 1" #\d+$/m);
      assert.match((await readTree(session.client)).tree, /text "Count: 1"/);
    });

    await t.step("the app's errors reach the agent as plain tool errors", async () => {
      const { tree, revision } = await readTree(session.client);
      const result = await session.call("ui_act", {
        id: nodeId(tree, "button", "+1"),
        revision: revision - 1,
        action: { action: "click" },
      });
      assert.equal(result.isError, true);
      assert.equal(
        result.text,
        `stale revision: the tree is now at revision ${revision}; read ui_tree again and retry`,
      );
    });

    await t.step(
      "ui_screenshot through crownmcp: an image the SDK accepts, and its revision",
      async () => {
        const { revision } = await readTree(session.client);
        const result = await session.client.callTool(
          { name: "ui_screenshot", arguments: { scale: 2 } },
          undefined,
          { timeout: REQUEST_TIMEOUT_MS },
        );
        const [image, about] = result.content as [
          { type: string; data: string; mimeType: string },
          { type: string; text: string },
        ];
        assert.deepEqual([image.type, image.mimeType], ["image", "image/png"]);
        const png = decode(Uint8Array.from(atob(image.data), (c) => c.charCodeAt(0)));
        const shown = markedContent(about.text) as Record<string, number>;
        assert.equal(shown.revision, revision);
        assert.deepEqual([png.width, png.height], [shown.columns! * 16, shown.rows! * 32]);
      },
    );

    await t.step("resources are listed and read through crownmcp", async () => {
      const { resources } = await session.client.listResources(undefined, {
        timeout: REQUEST_TIMEOUT_MS,
      });
      assert.deepEqual(resources.map((resource) => resource.uri), RESOURCE_URIS);
      assert.match(await readResource(session, "ui://tree"), /^window "Counter" #1\n/);
      const json = JSON.parse(await readResource(session, "ui://tree.json"));
      assert.equal(typeof json.revision, "number");
      const snapshot = JSON.parse(await readResource(session, "inspect://snapshot"));
      assert.ok("tree" in snapshot && "signals" in snapshot, Object.keys(snapshot).join());
    });

    await t.step("subscribe, act: resources/updated comes back through crownmcp", async () => {
      await session.client.subscribeResource({ uri: "ui://tree" }, {
        timeout: REQUEST_TIMEOUT_MS,
      });
      const { tree, revision } = await readTree(session.client);
      const mark = session.mark();
      await session.call("ui_act", {
        id: nodeId(tree, "button", "+1"),
        revision,
        action: { action: "click" },
      });
      const updated = await session.waitFor(RESOURCE_UPDATED, mark);
      assert.deepEqual(updated.params, { uri: "ui://tree" });
      await session.client.unsubscribeResource({ uri: "ui://tree" }, {
        timeout: REQUEST_TIMEOUT_MS,
      });
    });

    await t.step("stdout carried only JSON-RPC, stderr only crownmcp's log lines", () => {
      assertCleanSession(session);
      assert.ok(
        session.stderr.includes(`crownmcp: selected ${counter.app} (${counter.socket})`),
        session.stderr.join("\n"),
      );
    });
  });
});

Deno.test("crownmcp with several apps: select_app by name-pid and by name", async (t) => {
  await withScene(async (scene) => {
    const notes = await scene.app(NOTES);
    const twinA = await scene.app(PROCESS_APP, ["--title", "Twin"]);
    const twinB = await scene.app(PROCESS_APP, ["--title", "Twin"]);
    const session = await scene.crownmcp();

    await t.step("with three apps none is selected on its own", async () => {
      assert.deepEqual(await session.tools(), OWN_TOOLS);
      const { apps } = await session.listApps();
      assert.deepEqual(
        apps.map(({ app, name, selected }) => ({ app, name, selected })),
        [notes, twinA, twinB]
          .map((each) => ({ app: each.app, name: basename(each.app).replace(/-\d+$/, "") }))
          .sort((a, b) => a.app.localeCompare(b.app))
          .map((each) => ({ ...each, selected: false })),
      );
      const { resources } = await session.client.listResources(undefined, {
        timeout: REQUEST_TIMEOUT_MS,
      });
      assert.deepEqual(resources, []);
    });

    await t.step("a forwarded tool with nothing selected says what to do", async () => {
      const result = await session.call("ui_tree");
      assert.equal(result.isError, true);
      assert.match(result.text, /^no app is selected: call list_apps .*select_app/);
    });

    await t.step("an ambiguous name is refused with the candidates", async () => {
      const mark = session.mark();
      const result = await session.call("select_app", { app: "twin" });
      assert.equal(result.isError, true);
      const [first, second] = [twinA.app, twinB.app].sort();
      assert.equal(
        result.text,
        `"twin" matches several apps: ${first}, ${second}; call select_app with one of those`,
      );
      assert.deepEqual(await session.tools(), OWN_TOOLS);
      assert.equal(session.notifications.slice(mark).length, 0);
    });

    await t.step("an unknown app and a missing argument are refused", async () => {
      const unknown = await session.call("select_app", { app: "nope" });
      assert.equal(unknown.isError, true);
      assert.match(unknown.text, /^no running app matches "nope"; running apps: .*notes-/);
      const missing = await session.call("select_app", {});
      assert.equal(missing.isError, true);
      assert.match(missing.text, /^invalid arguments: select_app needs "app"/);
    });

    await t.step(
      "selecting by name: list_changed for tools and resources, app tools appear",
      async () => {
        const mark = session.mark();
        const result = await session.call("select_app", { app: "notes" });
        assert.deepEqual(JSON.parse(result.text), {
          selected: notes.app,
          name: "notes",
          pid: notes.process.pid,
        });
        await session.waitFor(TOOLS_CHANGED, mark);
        await session.waitFor(RESOURCES_CHANGED, mark);
        assertForwardedTools(await session.tools(), ["note_count"]);
        await noteCount(session);
      },
    );

    await t.step("selecting one twin by name-pid switches to it", async () => {
      const mark = session.mark();
      const result = await session.call("select_app", { app: twinB.app });
      assert.equal(JSON.parse(result.text).selected, twinB.app);
      await session.waitFor(TOOLS_CHANGED, mark);
      const tools = await session.tools();
      assert.ok(tools.includes("block") && !tools.includes("note_count"), tools.join());
      const { apps } = await session.listApps();
      assert.deepEqual(apps.filter((app) => app.selected).map((app) => app.app), [twinB.app]);
      assert.match((await readTree(session.client)).tree, /^window "Twin" #1\n/);
    });

    await t.step("stdout carried only JSON-RPC", () => assertCleanSession(session));
  });
});

Deno.test("crownmcp started before any app: the app's tools appear with list_changed", async () => {
  await withScene(async (scene) => {
    // Not even the socket directory exists yet: crownmcp looks for it until it appears.
    const session = await scene.crownmcp();
    assert.deepEqual(await session.tools(), OWN_TOOLS);
    assert.deepEqual(await session.listApps(), { apps: [] });
    const mark = session.mark();
    const notes = await scene.app(NOTES);
    await session.waitFor(TOOLS_CHANGED, mark);
    await session.waitFor(RESOURCES_CHANGED, mark);
    assertForwardedTools(await session.tools(), ["note_count"]);
    const { apps } = await session.listApps();
    assert.deepEqual(apps.map(({ app, selected }) => ({ app, selected })), [
      { app: notes.app, selected: true },
    ]);
    assertCleanSession(session);
  });
});

Deno.test("crownmcp when the selected app is killed with SIGKILL", async (t) => {
  await t.step("its tools go; list_apps removes its stale socket", async () => {
    await withScene(async (scene) => {
      const old = await scene.app(COUNTER);
      const session = await scene.crownmcp();
      const before = await readTree(session.client);
      const plus = nodeId(before.tree, "button", "+1");

      const mark = session.mark();
      old.process.kill("SIGKILL");
      await old.process.exit();
      await session.waitFor(TOOLS_CHANGED, mark);
      await session.waitFor(RESOURCES_CHANGED, mark);
      assert.deepEqual(await session.tools(), OWN_TOOLS);

      assert.ok(exists(old.socket), "SIGKILL leaves the socket file behind");
      assert.deepEqual(await session.listApps(), { apps: [] });
      assert.equal(exists(old.socket), false, "list_apps removed the stale socket");

      // A new counter is the only app, so it is selected on its own; still, the first
      // forwarded call (acting with the old app's id and revision) fails and says why.
      const next = mark + 2;
      const fresh = await scene.app(COUNTER);
      await session.waitFor(TOOLS_CHANGED, next);
      await session.waitForTool("ui_act");
      const first = await session.call("ui_act", {
        id: plus,
        revision: before.revision,
        action: { action: "click" },
      });
      assert.equal(first.isError, true, first.text);
      assert.match(
        first.text,
        new RegExp(`^the app ${old.app} exited; ${fresh.app} is selected now\\. `),
      );
      assert.match(first.text, /Read ui_tree \(or ui_query, ui_wait\) before acting/);
      assert.doesNotMatch(first.text, /list_apps/, "list_apps alone is not enough to act again");

      // The calls after that one go to the new app, which the failed call did not touch.
      const after = await readTree(session.client);
      assert.match(after.tree, /text "Count: 0"/);
      const acted = await session.call("ui_act", {
        id: nodeId(after.tree, "button", "+1"),
        revision: after.revision,
        action: { action: "click" },
      });
      assert.equal(acted.isError, false, acted.text);
      assertCleanSession(session);
    });
  });

  await t.step("a new app of the same name is not swapped in for the one left", async () => {
    await withScene(async (scene) => {
      const old = await scene.app(COUNTER);
      const notes = await scene.app(NOTES);
      const session = await scene.crownmcp();
      const selected = await session.call("select_app", { app: "counter" });
      assert.equal(JSON.parse(selected.text).selected, old.app);

      // Notes is then the only app, so it is selected on its own. The call right after the
      // kill fails, naming both, whether or not crownmcp has noticed the exit yet.
      old.process.kill("SIGKILL");
      await old.process.exit();
      const first = await session.call("ui_tree");
      assert.equal(first.isError, true);
      assert.equal(
        first.text,
        `the app ${old.app} exited; ${notes.app} is selected now. Read ui_tree (or ui_query, ui_wait) before acting: ids and revisions of ${old.app} mean nothing in ${notes.app}, and ui_act is refused until ${notes.app} has been read`,
      );

      // A new counter that starts afterwards does not take the place of notes.
      const fresh = await scene.app(COUNTER);
      await until(
        async () => (await session.listApps()).apps.some((app) => app.app === fresh.app),
        "list_apps to show the new counter",
      );
      const { apps } = await session.listApps();
      assert.deepEqual(
        apps.map(({ app, selected }) => ({ app, selected })),
        [{ app: fresh.app, selected: false }, { app: notes.app, selected: true }],
      );
      assert.ok((await session.tools()).includes("note_count"));
      assert.match((await readTree(session.client)).tree, /^window "Notes" #1\n/);
      assertCleanSession(session);
    });
  });

  await t.step("with two apps left none is selected, and the first call says so", async () => {
    await withScene(async (scene) => {
      const old = await scene.app(COUNTER);
      await scene.app(NOTES);
      await scene.app(PROCESS_APP, ["--title", "Other"]);
      const session = await scene.crownmcp();
      const selected = await session.call("select_app", { app: "counter" });
      assert.equal(JSON.parse(selected.text).selected, old.app);

      const mark = session.mark();
      old.process.kill("SIGKILL");
      await old.process.exit();
      await session.waitFor(TOOLS_CHANGED, mark);
      const fresh = await scene.app(COUNTER);
      await until(
        async () => (await session.listApps()).apps.some((app) => app.app === fresh.app),
        "list_apps to show the new counter",
      );
      const { apps } = await session.listApps();
      assert.deepEqual(apps.map((app) => app.selected), [false, false, false]);
      assert.deepEqual(await session.tools(), OWN_TOOLS);

      const first = await session.call("ui_tree");
      assert.equal(first.isError, true);
      assert.equal(
        first.text,
        `the app ${old.app} exited and no app is selected now: call list_apps, then select_app`,
      );
      const second = await session.call("ui_tree");
      assert.equal(second.isError, true);
      assert.match(second.text, /^no app is selected/);

      const reselected = await session.call("select_app", { app: "counter" });
      assert.equal(JSON.parse(reselected.text).selected, fresh.app);
      assert.match((await readTree(session.client)).tree, /^window "Counter" #1\n/);
      assertCleanSession(session);
    });
  });
});

Deno.test("crownmcp sends CROWNMCP_TOKEN as the token line", async (t) => {
  const TOKEN = "crownmcp-test-token-7d3e";
  await withScene(async (scene) => {
    const app = await scene.app(TOKEN_APP, ["--token", TOKEN]);

    const session = await scene.crownmcp({
      env: { XDG_RUNTIME_DIR: scene.runtimeDir, CROWNMCP_TOKEN: TOKEN },
    });

    await t.step("with the right token the app is selected and served", async () => {
      const tools = await session.toolsOnceSelected();
      assertForwardedTools(tools, ["note_count"]);
      assert.ok(!tools.includes("settings_tool"), tools.join());
      assert.equal(await noteCount(session), 2);
    });

    await t.step("the app's own tools/list_changed is forwarded", async () => {
      const { tree, revision } = await readTree(session.client);
      const mark = session.mark();
      await session.call("ui_act", {
        id: nodeId(tree, "button", "Settings"),
        revision,
        action: { action: "click" },
      });
      await session.waitFor(TOOLS_CHANGED, mark);
      assert.ok((await session.tools()).includes("settings_tool"));
    });

    await t.step("a destructive tool's confirm error reaches the agent plainly", async () => {
      const result = await session.call("delete_all", {});
      assert.equal(result.isError, true);
      assert.doesNotMatch(result.text, /MCP error/);
      assert.match(result.text, /"confirm": true/);
    });

    await t.step("the token is never logged", () => {
      assert.ok(!session.stderr.join("\n").includes(TOKEN), session.stderr.join("\n"));
      assert.ok(!app.process.stderr.includes(TOKEN), app.process.stderr);
      assertCleanSession(session);
    });

    for (
      const [label, env] of [
        ["without a token", {}],
        ["with a wrong token", { CROWNMCP_TOKEN: "not-the-token" }],
      ] as const
    ) {
      await t.step(`${label} the app refuses crownmcp, which says so`, async () => {
        const session = await scene.crownmcp({
          env: { XDG_RUNTIME_DIR: scene.runtimeDir, ...env },
        });
        await app.process.waitFor(
          new RegExp(`^refused a connection from pid ${session.pid} uid \\d+: TokenGate`),
        );
        assert.deepEqual(await session.tools(), OWN_TOOLS);
        const { apps } = await session.listApps();
        assert.deepEqual(apps.map(({ app, selected }) => ({ app, selected })), [
          { app: app.app, selected: false },
        ]);
        const result = await session.call("select_app", { app: app.app });
        assert.equal(result.isError, true);
        assert.match(result.text, new RegExp(`^could not connect to ${app.app}: `));
        await until(
          () => session.stderr.some((line) => line.startsWith(`crownmcp: could not connect`)),
          "crownmcp to log the refused connection",
        );
        assertCleanSession(session);
      });
    }

    await t.step("a select_app the app refuses keeps the app selected before", async () => {
      const counter = await scene.app(COUNTER);
      const session = await scene.crownmcp();
      const selected = await session.call("select_app", { app: "counter" });
      assert.equal(JSON.parse(selected.text).selected, counter.app);
      const mark = session.mark();
      const refused = await session.call("select_app", { app: app.app });
      assert.equal(refused.isError, true);
      assert.match(refused.text, new RegExp(`^could not connect to ${app.app}: `));
      assert.deepEqual(await session.tools(), [...OWN_TOOLS, ...BUILTIN_TOOLS]);
      assert.match((await readTree(session.client)).tree, /^window "Counter" #1\n/);
      const { apps } = await session.listApps();
      assert.deepEqual(apps.filter((each) => each.selected).map((each) => each.app), [
        counter.app,
      ]);
      assert.equal(session.notifications.slice(mark).length, 0, "nothing changed for the agent");
      assertCleanSession(session);
    });
  });
});

Deno.test("crownmcp forwards cancellation to the app", async () => {
  await withScene(async (scene) => {
    const app = await scene.app(CANCEL_APP);
    const session = await scene.crownmcp();
    await session.waitForTool("wait");
    const controller = new AbortController();
    const call = session.client.callTool({ name: "wait", arguments: {} }, undefined, {
      signal: controller.signal,
      timeout: REQUEST_TIMEOUT_MS,
    });
    const settled = call.then(() => "answered", (error: Error) => error.message);
    await app.process.waitFor(new RegExp(`^${WAIT_STARTED}$`));
    controller.abort("the agent changed its mind");
    assert.match(await settled, /the agent changed its mind$/);
    // The app's handler saw the agent's own reason: crownmcp passed the cancellation on.
    await app.process.waitFor(new RegExp(`^${WAIT_CANCELLED}: the agent changed its mind$`));
    // crownmcp keeps serving after a cancelled call.
    assert.equal((await session.listApps()).apps[0]?.app, app.app);
    assertCleanSession(session);
  });
});

/** Reads a child's stdout as lines; `next()` waits (bounded) for the next one. */
class LineReader {
  readonly lines: string[] = [];
  readonly done: Promise<void>;
  #waiting: (() => void) | null = null;

  constructor(stream: ReadableStream<Uint8Array>) {
    this.done = (async () => {
      let partial = "";
      for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
        const lines = (partial + chunk).split("\n");
        partial = lines.pop()!;
        this.lines.push(...lines);
        this.#waiting?.();
      }
      if (partial !== "") this.lines.push(partial);
      this.#waiting?.();
    })();
  }

  /** Waits for a JSON-RPC response with `id`. */
  async response(id: number): Promise<Record<string, unknown>> {
    let found: Record<string, unknown> | undefined;
    await until(() => {
      found = this.lines.map((line) => JSON.parse(line)).find((message) => message.id === id);
      return found !== undefined;
    }, `a response with id ${id}; stdout so far:\n${this.lines.join("\n")}`);
    return found!;
  }
}

Deno.test("crownmcp over raw stdio: only JSON-RPC on stdout, exits when stdin closes", async () => {
  await withScene(async (scene) => {
    const counter = await scene.app(COUNTER);
    const { command, args } = crownmcpCommand();
    const child = new Deno.Command(command, {
      args,
      cwd: REPO_ROOT,
      env: childEnv({ XDG_RUNTIME_DIR: scene.runtimeDir }),
      clearEnv: true,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const stderr = child.stderr.pipeThrough(new TextDecoderStream());
    const stderrText = (async () => {
      let text = "";
      for await (const chunk of stderr) text += chunk;
      return text;
    })();
    const stdout = new LineReader(child.stdout);
    const writer = child.stdin.getWriter();
    const send = (message: unknown) =>
      writer.write(new TextEncoder().encode(`${JSON.stringify(message)}\n`));
    try {
      await send({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "raw", version: "0" },
        },
      });
      const initialized = await stdout.response(1);
      assert.equal(
        (initialized.result as { serverInfo: { name: string } }).serverInfo.name,
        "crownmcp",
      );
      await send({ jsonrpc: "2.0", method: "notifications/initialized" });
      await send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
      await writer.write(new TextEncoder().encode("this is not JSON\n"));
      await send({
        jsonrpc: "2.0",
        id: 3,
        method: "tools/call",
        params: { name: "ui_tree", arguments: {} },
      });
      const listed = await stdout.response(2);
      const names = (listed.result as { tools: { name: string }[] }).tools.map((tool) => tool.name);
      assert.deepEqual(names, [...OWN_TOOLS, ...BUILTIN_TOOLS]);
      const called = (await stdout.response(3)).result as { content: { text: string }[] };
      const { tree } = markedContent(called.content[0]!.text) as { tree: string };
      assert.match(tree, /^window "Counter" #1\n/);

      // Standard input closes while crownmcp holds the app's socket: it must end on its own.
      await writer.close();
      const status = await withTimeout(child.status, PROCESS_TIMEOUT_MS, "crownmcp to exit");
      assert.deepEqual({ code: status.code, signal: status.signal }, { code: 0, signal: null });
      await withTimeout(stdout.done, PROCESS_TIMEOUT_MS, "the end of crownmcp's stdout");

      for (const line of stdout.lines) {
        assert.equal(JSON.parse(line).jsonrpc, "2.0", `stdout line: ${line}`);
      }
      assert.ok(
        stdout.lines.some((line) => JSON.parse(line).error?.code === -32700),
        "the line that is not JSON got a parse error",
      );
      const logs = (await stderrText).split("\n").filter((line) => line !== "");
      assert.ok(logs.length > 0);
      for (const line of logs) assert.match(line, /^crownmcp: /);
      assert.ok(
        logs.includes(`crownmcp: selected ${counter.app} (${counter.socket})`),
        logs.join("\n"),
      );
      assert.ok(await counter.process.isAlive(), "the app keeps running");
    } finally {
      try {
        child.kill("SIGKILL");
      } catch {
        // It exited.
      }
      await withTimeout(child.status, PROCESS_TIMEOUT_MS, "crownmcp to be reaped");
      await writer.close().catch(() => {});
      await stderrText.catch(() => {});
      await stdout.done.catch(() => {});
    }
  });
});

Deno.test("crownmcp finds apps with --socket-dir and in the fallback directory", async (t) => {
  await withScene(async (scene) => {
    const counter = await scene.app(COUNTER);
    const elsewhere = await makeRuntimeDir("crownmcp-test-other-");
    try {
      await t.step("with another XDG_RUNTIME_DIR it sees no app", async () => {
        const session = await scene.crownmcp({ env: { XDG_RUNTIME_DIR: elsewhere } });
        assert.deepEqual(await session.listApps(), { apps: [] });
      });

      await t.step("--socket-dir points it at the app's directory", async () => {
        const session = await scene.crownmcp({
          env: { XDG_RUNTIME_DIR: elsewhere },
          args: ["--socket-dir", scene.socketDir],
        });
        assert.deepEqual(await session.toolsOnceSelected(), [...OWN_TOOLS, ...BUILTIN_TOOLS]);
        const { apps } = await session.listApps();
        assert.deepEqual(apps.map(({ socket, selected }) => ({ socket, selected })), [
          { socket: counter.socket, selected: true },
        ]);
      });
    } finally {
      await removeDir(elsewhere);
    }

    await t.step("without XDG_RUNTIME_DIR both use ${TMPDIR}/crownui-<uid>", async () => {
      const tmp = await makeRuntimeDir("crownmcp-test-tmp-");
      try {
        const app = startApp(COUNTER, { env: { TMPDIR: tmp } });
        try {
          const socket = await app.listening();
          assert.equal(socket, join(tmp, `crownui-${getuid()}`, `counter-${app.pid}.sock`));
          const session = await scene.crownmcp({ env: { TMPDIR: tmp } });
          await session.toolsOnceSelected();
          const { apps } = await session.listApps();
          assert.deepEqual(apps.map(({ socket, selected }) => ({ socket, selected })), [
            { socket, selected: true },
          ]);
          await session.close();
        } finally {
          await app.close();
        }
      } finally {
        await removeDir(tmp);
      }
    });
  });
});

/** Runs the MCP Inspector CLI against crownmcp, passing `env` to crownmcp with `-e`. */
async function inspect(env: Record<string, string>, method: string[]) {
  const { command, args } = crownmcpCommand();
  const variables = Object.entries(childEnv(env)).flatMap(([name, value]) => [
    "-e",
    `${name}=${value}`,
  ]);
  const { code, signal, stdout, stderr } = await runToEnd(Deno.execPath(), [
    "run",
    "--frozen",
    "-A",
    INSPECTOR,
    "--cli",
    ...variables,
    command,
    ...args,
    ...method,
  ]);
  assert.equal(signal, null, `the inspector timed out; it wrote:\n${stdout}\n${stderr}`);
  return { code, stdout, stderr };
}

/**
 * Runs the inspector until the app's tool `tool` is in crownmcp's `tools/list` (which the
 * inspector also reads before a `tools/call`), at most eight times. crownmcp answers
 * `tools/list` from what it has after waiting briefly for the app's handshake (never longer: a
 * stopped app must not hold it up) and tells the agent when the app's tools arrive later,
 * which a one-shot inspector run cannot hear; on a loaded machine the handshake can take
 * longer than that wait.
 */
async function inspectWithAppTool(env: Record<string, string>, tool: string, method: string[]) {
  for (let attempt = 1;; attempt++) {
    const { code, stdout, stderr } = await inspect(env, method);
    const listed = code === 0 && method[1] === "tools/list"
      ? JSON.parse(stdout).tools.some((listedTool: { name: string }) => listedTool.name === tool)
      : !stdout.includes(`Tool '${tool}' not found`);
    if (listed || attempt === 8) {
      assert.equal(code, 0, `the inspector failed:\n${stdout}\n${stderr}`);
      return JSON.parse(stdout);
    }
  }
}

/** Runs the inspector and parses what it printed, asserting success. */
async function inspectJson(env: Record<string, string>, method: string[]) {
  const { code, stdout, stderr } = await inspect(env, method);
  assert.equal(code, 0, `the inspector failed:\n${stdout}\n${stderr}`);
  return JSON.parse(stdout);
}

Deno.test("crownmcp under the MCP Inspector CLI", async (t) => {
  await t.step("one app: tools/list, tools/call and resources/read", async () => {
    await withScene(async (scene) => {
      await scene.app(NOTES);
      const env = { XDG_RUNTIME_DIR: scene.runtimeDir };
      // One after the other: three inspectors at once (each starting a crownmcp) slow the
      // app's handshakes on a small machine past what crownmcp waits for.
      const listed = await inspectWithAppTool(env, "note_count", ["--method", "tools/list"]);
      const called = await inspectWithAppTool(env, "note_count", [
        "--method",
        "tools/call",
        "--tool-name",
        "note_count",
        "--tool-args-json",
        "{}",
      ]);
      const read = await inspectJson(env, ["--method", "resources/read", "--uri", "ui://tree"]);
      const pictured = await inspectJson(env, [
        "--method",
        "tools/call",
        "--tool-name",
        "ui_screenshot",
        "--tool-args-json",
        "{}",
      ]);
      // The inspector prints an image content as it got it: a PNG it can show.
      const [image] = pictured.content;
      assert.deepEqual([image.type, image.mimeType], ["image", "image/png"]);
      const png = decode(Uint8Array.from(atob(image.data), (c) => c.charCodeAt(0)));
      assert.ok(png.width > 0 && png.width % 8 === 0 && png.height % 16 === 0);
      assertForwardedTools(listed.tools.map((tool: { name: string }) => tool.name), [
        "note_count",
      ]);
      const { count } = markedContent(called.content[0].text) as { count: unknown };
      assert.equal(typeof count, "number");
      assert.equal(read.contents.length, 1);
      assert.equal(read.contents[0].uri, "ui://tree");
      assert.equal(read.contents[0].mimeType, "text/plain");
      assert.match(read.contents[0].text, /^window "Notes" #1\n/);
    });
  });

  await t.step("two apps of one name: select_app by name-pid, ambiguous name refused", async () => {
    await withScene(async (scene) => {
      const twinA = await scene.app(PROCESS_APP, ["--title", "Twin"]);
      const twinB = await scene.app(PROCESS_APP, ["--title", "Twin"]);
      const env = { XDG_RUNTIME_DIR: scene.runtimeDir };
      const selectArgs = (app: string) => [
        "--method",
        "tools/call",
        "--tool-name",
        "select_app",
        "--tool-args-json",
        JSON.stringify({ app }),
      ];
      const [selected, ambiguous] = await Promise.all([
        inspectJson(env, selectArgs(twinA.app)),
        inspect(env, selectArgs("twin")),
      ]);
      assert.equal(JSON.parse(selected.content[0].text).selected, twinA.app);
      assert.notEqual(ambiguous.code, 0, "a tool error fails the inspector");
      const result = JSON.parse(ambiguous.stdout);
      assert.equal(result.isError, true);
      const [first, second] = [twinA.app, twinB.app].sort();
      assert.match(result.content[0].text, new RegExp(`matches several apps: ${first}, ${second}`));
    });
  });

  await t.step("a token app with -e CROWNMCP_TOKEN", async () => {
    await withScene(async (scene) => {
      await scene.app(TOKEN_APP, ["--token", "inspector-token"]);
      const called = await inspectJson(
        { XDG_RUNTIME_DIR: scene.runtimeDir, CROWNMCP_TOKEN: "inspector-token" },
        ["--method", "tools/call", "--tool-name", "note_count", "--tool-args-json", "{}"],
      );
      assert.deepEqual(markedContent(called.content[0].text), { count: 2 });
    });
  });
});

/** The raw line of the JSON-RPC response with `id` that `reader` has read (bounded wait). */
async function responseLine(reader: LineReader, id: string | number): Promise<string> {
  let found: string | undefined;
  await until(() => {
    found = reader.lines.find((line) => line !== "" && JSON.parse(line).id === id);
    return found !== undefined;
  }, `a response with id ${JSON.stringify(id)}; read so far:\n${reader.lines.join("\n")}`);
  return found!;
}

/** A line-by-line JSON-RPC peer over a child's stdio or a socket, for byte-level checks. */
interface RawPeer {
  send(message: unknown): Promise<void>;
  reader: LineReader;
  close(): Promise<void>;
}

/** crownmcp as a child process, spoken to in raw lines. */
function rawCrownmcp(runtimeDir: string): RawPeer & { child: Deno.ChildProcess } {
  const child = spawnCrownmcp({ XDG_RUNTIME_DIR: runtimeDir });
  const writer = child.stdin.getWriter();
  const reader = new LineReader(child.stdout);
  return {
    child,
    reader,
    send: (message) => writer.write(new TextEncoder().encode(`${JSON.stringify(message)}\n`)),
    close: async () => {
      await writer.close().catch(() => {});
      await withTimeout(child.status, PROCESS_TIMEOUT_MS, "crownmcp to exit");
      await withTimeout(reader.done, PROCESS_TIMEOUT_MS, "the end of crownmcp's stdout");
    },
  };
}

/** The app's socket, spoken to in raw lines. */
async function rawSocket(path: string): Promise<RawPeer> {
  const conn = await Deno.connect({ transport: "unix", path });
  const writer = conn.writable.getWriter();
  const reader = new LineReader(conn.readable);
  return {
    reader,
    send: (message) => writer.write(new TextEncoder().encode(`${JSON.stringify(message)}\n`)),
    close: async () => {
      conn.close();
      await reader.done.catch(() => {}); // reading ends, interrupted, once the socket is closed
    },
  };
}

/** Sends `initialize` (with `id`) and `notifications/initialized`; waits for the answer. */
async function handshake(peer: RawPeer, id: string | number): Promise<void> {
  await peer.send({
    jsonrpc: "2.0",
    id,
    method: "initialize",
    params: {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "raw", version: "0" },
    },
  });
  await responseLine(peer.reader, id);
  await peer.send({ jsonrpc: "2.0", method: "notifications/initialized" });
}

Deno.test("crownmcp forwards the app's lines as the app wrote them; ids never collide", async (t) => {
  await withScene(async (scene) => {
    const counter = await scene.app(COUNTER);
    const agent = rawCrownmcp(scene.runtimeDir);
    const direct = await rawSocket(counter.socket);
    try {
      // crownmcp's own ids toward the app begin with "crownmcp:"; an agent may use such ids too.
      await handshake(agent, "crownmcp:1");
      await handshake(direct, "crownmcp:1");
      let listed = 0;
      await until(async () => {
        const id = `crownmcp:list-${++listed}`;
        await agent.send({ jsonrpc: "2.0", id, method: "tools/list" });
        const { tools } = JSON.parse(await responseLine(agent.reader, id)).result;
        return tools.some((tool: { name: string }) => tool.name === "ui_act");
      }, "the counter's tools through crownmcp");

      // Each request goes both ways with the same id; crownmcp's tools/list, made at the same
      // time, sends requests of its own to the app.
      const requests = [
        { id: "crownmcp:2", method: "tools/call", params: { name: "ui_tree", arguments: {} } },
        { id: 3, method: "resources/read", params: { uri: "ui://tree.json" } },
        { id: "crownmcp:4", method: "resources/list" },
        {
          id: "crownmcp:5",
          method: "tools/call",
          params: { name: "ui_query", arguments: { role: "button" } },
        },
        { id: "é-6", method: "resources/read", params: { uri: "ui://tree" } },
      ];

      await t.step("an answer reaches the agent byte for byte as the app wrote it", async () => {
        for (const request of requests) {
          await agent.send({ jsonrpc: "2.0", ...request });
          await agent.send({
            jsonrpc: "2.0",
            id: `crownmcp:list-${request.id}`,
            method: "tools/list",
          });
        }
        for (const request of requests) await direct.send({ jsonrpc: "2.0", ...request });
        for (const request of requests) {
          const through = await responseLine(agent.reader, request.id);
          assert.equal(through, await responseLine(direct.reader, request.id), request.method);
        }
      });

      await t.step("every answer has the id the agent gave, and only one answer each", async () => {
        for (const request of requests) {
          const listedId = `crownmcp:list-${request.id}`;
          const { tools } = JSON.parse(await responseLine(agent.reader, listedId)).result;
          assert.deepEqual(
            tools.slice(0, OWN_TOOLS.length + BUILTIN_TOOLS.length).map((tool: { name: string }) =>
              tool.name
            ),
            [...OWN_TOOLS, ...BUILTIN_TOOLS],
          );
        }
        const ids = agent.reader.lines.filter((line) => line !== "").map((line) =>
          JSON.parse(line).id
        ).filter((id) => id !== undefined);
        assert.equal(new Set(ids).size, ids.length, `answered twice: ${ids.join(", ")}`);
        for (const request of requests) assert.ok(ids.includes(request.id), String(request.id));
      });
    } finally {
      await direct.close();
      await agent.close();
    }
  });
});

Deno.test("crownmcp refuses an id still in progress; the first request keeps its own", async () => {
  await withScene(async (scene) => {
    const app = await scene.app(CANCEL_APP);
    const agent = rawCrownmcp(scene.runtimeDir);
    try {
      await handshake(agent, 1);
      let listed = 100;
      await until(async () => {
        const id = ++listed;
        await agent.send({ jsonrpc: "2.0", id, method: "tools/list" });
        const { tools } = JSON.parse(await responseLine(agent.reader, id)).result;
        return tools.some((tool: { name: string }) => tool.name === "wait");
      }, "the wait tool through crownmcp");
      const call = { jsonrpc: "2.0", id: 42, method: "tools/call", params: { name: "wait" } };
      await agent.send(call);
      await app.process.waitFor(new RegExp(`^${WAIT_STARTED}$`));
      await agent.send(call); // the same id while the first call is still open
      const refused = JSON.parse(await responseLine(agent.reader, 42));
      assert.equal(refused.error?.code, -32600, JSON.stringify(refused));
      assert.match(refused.error.message, /id 42 is in use by a request still in progress/);
      // The first call is still the app's to finish: cancelling it reaches the app.
      await agent.send({
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId: 42, reason: "enough" },
      });
      await app.process.waitFor(new RegExp(`^${WAIT_CANCELLED}: enough$`));
      await agent.send({ jsonrpc: "2.0", id: 43, method: "tools/list" });
      await responseLine(agent.reader, 43);
      const answers = agent.reader.lines.filter((line) =>
        line !== "" && JSON.parse(line).id === 42
      );
      assert.equal(answers.length, 1, answers.join("\n"));
    } finally {
      await agent.close();
    }
  });
});
