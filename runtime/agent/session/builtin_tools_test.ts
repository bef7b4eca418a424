import assert from "node:assert/strict";
import { BUILTIN_TOOL } from "../../ui/tool_names.ts";
import type { SemanticHost } from "../hosts/host.ts";
import { BUILTIN_BY_NAME, BUILTINS, callBuiltin } from "./builtin_tools.ts";
import { BUILTIN_TOOL_NAMES, BUILTIN_TOOLS } from "./tool_defs.ts";

/** A host that fails the test when anything asks it: a refused call must not reach the app. */
const untouchable = new Proxy({}, {
  get: (_target, key) => {
    if (key === "then") return undefined;
    throw new Error(`the host was asked for ${String(key)}`);
  },
}) as SemanticHost;

Deno.test("one record per built-in tool, in tools/list's order", () => {
  assert.deepEqual(BUILTINS.map((tool) => tool.definition.name), Object.values(BUILTIN_TOOL));
  assert.deepEqual(BUILTIN_TOOLS, BUILTINS.map((tool) => tool.definition));
  assert.deepEqual([...BUILTIN_BY_NAME.keys()], [...BUILTIN_TOOL_NAMES]);
});

Deno.test("each record's check refuses bad arguments before its answer asks the host", async () => {
  const bad: Record<string, Record<string, unknown>> = {
    ui_tree: { depth: "deep" },
    ui_query: { colour: "red" },
    ui_wait: {},
    ui_act: { id: 1, revision: 2, action: { action: "click" }, confirm: "yes" },
    ui_screenshot: { scale: 9 },
    inspect_snapshot: { sections: ["nope"] },
  };
  let tokens = 0;
  for (const tool of BUILTINS) {
    const name = tool.definition.name;
    const args = bad[name];
    assert.ok(args !== undefined, `no bad arguments for ${name}`);
    const call = { host: untouchable, takeToken: () => void tokens++ };
    await assert.rejects(callBuiltin(tool, call, args), (error: Error) => {
      assert.equal(error.name, "HostError", `${name}: ${error.message}`);
      assert.match(error.message, /^invalid arguments: /, name);
      return true;
    });
  }
  assert.equal(tokens, 0, "no refused call took a token of the rate limit");
});

Deno.test("ui_act's check reads confirm; its answer takes a token and passes confirm on", async () => {
  const act = BUILTIN_BY_NAME.get("ui_act")!;
  assert.deepEqual(act.check({ id: 3, revision: 4, action: { action: "click" } }), {
    id: 3,
    revision: 4,
    action: { action: "click" },
    confirm: false,
  });
  const seen: unknown[] = [];
  const host = {
    act: (...args: unknown[]) => {
      seen.push(args);
      return Promise.resolve(5);
    },
    receipt: () => undefined,
  } as unknown as SemanticHost;
  let tokens = 0;
  const result = await callBuiltin(act, { host, takeToken: () => void tokens++ }, {
    id: 3,
    revision: 4,
    action: { action: "click" },
    confirm: true,
  });
  assert.equal(tokens, 1);
  assert.deepEqual(seen, [[3, 4, { action: "click" }, { confirm: true }]]);
  assert.deepEqual(result, { content: [{ type: "text", text: "r5" }] });
});
