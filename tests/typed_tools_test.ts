/**
 * Typed app tools and the arguments check, end to end: an app running as a `deno run` child
 * (tests/fixtures/typed_tools_app.ts) driven through its socket with the SDK client, and
 * through `crownmcp` as agents launch it. A call whose arguments do not match is refused
 * with `invalid arguments:` and each problem's path, as a plain tool error, and the tool's
 * code never runs. Also pins the size of the Notes app's `tools/list`.
 *
 * @module
 */

import { markedContent } from "./_marked.ts";
import assert from "node:assert/strict";
import { Client } from "../runtime/agent/transport/sdk.ts";
import { confirmMessage } from "../runtime/ui/tool_call.ts";
import {
  callTool,
  connect,
  REQUEST_TIMEOUT_MS,
  runtimeDir,
  startApp,
  type ToolText,
  withTimeout,
} from "./_app_process.ts";
import { crownmcpTransport } from "./_crownmcp.ts";

const APP = "tests/fixtures/typed_tools_app.ts";

/** The budget for the Notes app's `tools/list`: JSON.stringify of its tools, in bytes. */
const NOTES_TOOLS_BUDGET = 5_120;

/** Calls that must be refused, with the exact refusal each gets. */
const REFUSED: [tool: string, args: Record<string, unknown>, message: string][] = [
  ["add_item", { title: 5 }, "invalid arguments: title: expected string, received number"],
  ["add_item", {}, "invalid arguments: title: required, expected string"],
  ["add_item", { title: "x", colour: "red" }, "invalid arguments: colour: unknown property"],
  [
    "add_item",
    { title: "x", tags: ["a", 2] },
    "invalid arguments: tags[1]: expected string, received number",
  ],
  // The refinement is not in the JSON Schema: the app's own zod schema refuses it.
  ["add_item", { title: "   " }, "invalid arguments: title: must have some text"],
  ["set_mode", { mode: "table" }, 'invalid arguments: mode: expected one of "list"|"grid"'],
  ["set_mode", { mode: "list", extra: 1 }, "invalid arguments: extra: unknown property"],
  [
    "clear_items",
    { keep: -1, confirm: true },
    "invalid arguments: keep: expected number to be >=0",
  ],
  ["clear_items", { keep: 1 }, confirmMessage("clear_items")],
];

/** The content of a result wrapped as untrusted app content. */
function unwrap(result: ToolText): unknown {
  assert.equal(result.isError, false, result.text);
  return markedContent(result.text);
}

/** Sends every refused call and checks its refusal, then that no tool's code ran. */
async function assertRefusals(client: Client): Promise<void> {
  for (const [tool, args, message] of REFUSED) {
    const result = await callTool(client, tool, args);
    assert.deepEqual(result, { text: message, isError: true }, `${tool} ${JSON.stringify(args)}`);
  }
  assert.equal(unwrap(await callTool(client, "runs")), 0, "a refused call never reaches run");
}

/** Runs the fixture app in a fresh runtime directory for `scene`, and always ends it. */
async function withApp(scene: (socket: string, runtimeDir: string) => Promise<void>) {
  await using runtime = await runtimeDir();
  await using app = startApp(APP, { env: { XDG_RUNTIME_DIR: runtime.path } });
  await scene(await app.listening(), runtime.path);
}

Deno.test("typed tools through a real socket: wrong arguments never reach run", async () => {
  await withApp(async (socket) => {
    await using client = await connect(socket);
    await assertRefusals(client);

    assert.deepEqual(unwrap(await callTool(client, "add_item", { title: "Milk", tags: ["x"] })), {
      count: 1,
      tags: ["x"],
    });
    assert.equal(
      unwrap(await callTool(client, "clear_items", { keep: 0, confirm: true })),
      `kept {"keep":0}`,
      "a string result is the text itself, and run never sees confirm",
    );
    assert.deepEqual(unwrap(await callTool(client, "set_mode", { mode: "grid" })), {
      mode: "grid",
    });
    assert.equal(unwrap(await callTool(client, "runs")), 3);
  });
});

Deno.test("typed tools advertise their schema without $schema, strict, confirm added", async () => {
  await withApp(async (socket) => {
    await using client = await connect(socket);
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    assert.deepEqual(byName.get("add_item")?.inputSchema, {
      type: "object",
      properties: {
        title: { type: "string", minLength: 1 },
        tags: { type: "array", items: { type: "string" } },
      },
      required: ["title"],
      additionalProperties: false,
    });
    const clear = byName.get("clear_items")!;
    assert.equal(clear.annotations?.destructiveHint, true);
    assert.deepEqual(clear.inputSchema.required, ["keep", "confirm"]);
    assert.deepEqual(clear.inputSchema.properties?.keep, { type: "integer", minimum: 0 });
    assert.ok(!JSON.stringify(tools).includes("$schema"));
  });
});

Deno.test("typed tools through crownmcp: the agent reads the same refusals", async () => {
  await withApp(async (_socket, runtimeDir) => {
    const client = new Client({ name: "typed-tools-test", version: "0.1.0" }, {
      capabilities: {},
    });
    await withTimeout(
      client.connect(crownmcpTransport({ XDG_RUNTIME_DIR: runtimeDir })),
      REQUEST_TIMEOUT_MS,
      "crownmcp to start",
    );
    try {
      // The one app running is selected on its own; select it anyway, so the test does not
      // depend on when crownmcp noticed it.
      const apps = unwrapPlain(await callTool(client, "list_apps")) as { apps: { app: string }[] };
      assert.equal(apps.apps.length, 1);
      const selected = await callTool(client, "select_app", { app: apps.apps[0]!.app });
      assert.equal(selected.isError, false, selected.text);
      await assertRefusals(client);
      assert.deepEqual(unwrap(await callTool(client, "add_item", { title: "Milk" })), {
        count: 1,
        tags: [],
      });
    } finally {
      await client.close();
    }
  });
});

/** crownmcp's own answers are not app content: plain JSON. */
function unwrapPlain(result: ToolText): unknown {
  assert.equal(result.isError, false, result.text);
  return JSON.parse(result.text);
}

Deno.test("the Notes app's tools/list stays within its budget", async () => {
  await using runtime = await runtimeDir();
  await using app = startApp("examples/notes.ts", { env: { XDG_RUNTIME_DIR: runtime.path } });
  await using client = await connect(await app.listening());
  const { tools } = await client.listTools();
  assert.ok(tools.some((tool) => tool.name === "delete_note"), "the app's tools are listed");
  const bytes = new TextEncoder().encode(JSON.stringify(tools)).length;
  assert.ok(
    bytes <= NOTES_TOOLS_BUDGET,
    `tools/list is ${bytes} bytes, over its budget of ${NOTES_TOOLS_BUDGET}: tighten a description, or let the schema say it`,
  );

  // What an agent sees: through crownmcp, with crownmcp's own two tools and its result's shape.
  const agent = new Client({ name: "typed-tools-test", version: "0.1.0" }, { capabilities: {} });
  await withTimeout(
    agent.connect(crownmcpTransport({ XDG_RUNTIME_DIR: runtime.path })),
    REQUEST_TIMEOUT_MS,
    "crownmcp to start",
  );
  try {
    let listed = await agent.listTools();
    for (let tries = 0; !listed.tools.some((tool) => tool.name === "delete_note"); tries++) {
      assert.ok(tries < 200, "crownmcp to select the Notes app");
      await new Promise((resolve) => setTimeout(resolve, 25));
      listed = await agent.listTools();
    }
    const seen = new TextEncoder().encode(JSON.stringify(listed)).length;
    assert.ok(
      seen <= NOTES_TOOLS_BUDGET,
      `tools/list through crownmcp is ${seen} bytes, over its budget of ${NOTES_TOOLS_BUDGET}`,
    );
  } finally {
    await agent.close();
  }
});
