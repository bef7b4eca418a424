import assert from "node:assert/strict";
import { ACTION_NAMES } from "../../input/action.ts";
import type { ToolInfo } from "../hosts/host.ts";
import {
  appToolDefinition,
  BUILTIN_TOOL_NAMES,
  BUILTIN_TOOLS,
  CONFIRM_PROPERTY,
} from "./tool_defs.ts";
import { confirmMessage } from "../../ui/tool_call.ts";

const READ_TOOLS = ["ui_tree", "ui_query", "ui_wait", "ui_screenshot", "inspect_snapshot"];

function builtin(name: string) {
  const tool = BUILTIN_TOOLS.find((candidate) => candidate.name === name);
  assert.ok(tool, `no built-in tool ${name}`);
  return tool;
}

function info(overrides: Partial<ToolInfo> = {}): ToolInfo {
  return {
    name: "delete_note",
    description: "Deletes a note by title",
    inputSchema: {
      type: "object",
      properties: { title: { type: "string" } },
      required: ["title"],
    },
    destructive: false,
    ...overrides,
  };
}

Deno.test("BUILTIN_TOOLS", async (t) => {
  await t.step("BUILTIN_TOOLS lists the six tools in the contract's order", () => {
    assert.deepEqual(BUILTIN_TOOLS.map((tool) => tool.name), [
      "ui_tree",
      "ui_query",
      "ui_wait",
      "ui_act",
      "ui_screenshot",
      "inspect_snapshot",
    ]);
    assert.deepEqual([...BUILTIN_TOOL_NAMES], BUILTIN_TOOLS.map((tool) => tool.name));
  });

  await t.step("BUILTIN_TOOLS marks the read tools readOnlyHint: true", () => {
    for (const name of READ_TOOLS) {
      assert.equal(builtin(name).annotations?.readOnlyHint, true, name);
      assert.notEqual(builtin(name).annotations?.destructiveHint, true, name);
    }
  });

  await t.step(
    "BUILTIN_TOOLS marks ui_act destructive, not read-only (it does what people can)",
    () => {
      const act = builtin("ui_act");
      assert.notEqual(act.annotations?.readOnlyHint, true); // MCP's default is false
      assert.equal(act.annotations?.destructiveHint, true);
    },
  );

  await t.step(
    "BUILTIN_TOOLS describes ui_act's arguments: id, revision, action required, confirm not",
    () => {
      const schema = builtin("ui_act").inputSchema as unknown as {
        properties: Record<
          string,
          { type: string; properties?: Record<string, { enum?: unknown }> }
        >;
        required: string[];
      };
      assert.deepEqual(schema.required, ["id", "revision", "action"]);
      assert.equal(schema.properties.id?.type, "integer");
      assert.equal(schema.properties.revision?.type, "integer");
      assert.deepEqual(schema.properties.action?.properties?.action?.enum, [...ACTION_NAMES]);
      assert.equal(schema.properties.confirm?.type, "boolean");
    },
  );

  await t.step("BUILTIN_TOOLS lets ui_query filter by any role, and takes no required key", () => {
    const schema = builtin("ui_query").inputSchema as unknown as {
      properties: { role: { type: string; enum?: string[] } };
      required?: string[];
    };
    // Not listed, to keep tools/list short: the tree shows roles, a refusal names them all.
    assert.deepEqual(schema.properties.role, { type: "string" });
    assert.equal(schema.required, undefined);
  });

  await t.step("BUILTIN_TOOLS' ui_screenshot takes a scale, not required", () => {
    assert.deepEqual(builtin("ui_screenshot").inputSchema, {
      type: "object",
      properties: { scale: { type: "integer" } },
    });
  });

  await t.step("BUILTIN_TOOLS' inspect_snapshot takes its budget arguments, none required", () => {
    const schema = builtin("inspect_snapshot").inputSchema as {
      properties: Record<string, unknown>;
      required?: string[];
    };
    assert.deepEqual(Object.keys(schema.properties), ["sections", "root", "from", "max_bytes"]);
    assert.equal(schema.required, undefined);
  });

  await t.step("BUILTIN_TOOLS' ui_tree takes the view arguments, none required", () => {
    const schema = builtin("ui_tree").inputSchema as {
      properties: Record<string, { type: string }>;
      required?: string[];
    };
    for (const key of ["root", "depth", "from", "visible", "max_bytes"]) {
      assert.ok(schema.properties[key] !== undefined, key);
    }
    assert.equal(schema.properties.visible?.type, "boolean");
    assert.equal(schema.required, undefined);
  });
});

Deno.test("appToolDefinition()", async (t) => {
  await t.step(
    "appToolDefinition() keeps an ordinary tool's schema and hints not destructive",
    () => {
      const definition = appToolDefinition(info());
      assert.equal(definition.name, "delete_note");
      assert.equal(definition.description, "Deletes a note by title");
      assert.deepEqual(definition.inputSchema, info().inputSchema);
      assert.equal(definition.annotations?.destructiveHint, false);
      assert.notEqual(definition.annotations?.readOnlyHint, true);
    },
  );

  await t.step("appToolDefinition() adds a required confirm to a destructive tool", () => {
    const definition = appToolDefinition(info({ destructive: true }));
    assert.equal(definition.annotations?.destructiveHint, true);
    assert.deepEqual(definition.inputSchema, {
      type: "object",
      properties: { title: { type: "string" }, confirm: CONFIRM_PROPERTY },
      required: ["title", "confirm"],
    });
    assert.equal(CONFIRM_PROPERTY.type, "boolean");
  });

  await t.step(
    "appToolDefinition() adds confirm to a schema without properties or required",
    () => {
      const definition = appToolDefinition(
        info({ destructive: true, inputSchema: { type: "object" } }),
      );
      assert.deepEqual(definition.inputSchema, {
        type: "object",
        properties: { confirm: CONFIRM_PROPERTY },
        required: ["confirm"],
      });
    },
  );

  await t.step("appToolDefinition() lists confirm once when the app required it already", () => {
    const definition = appToolDefinition(info({
      destructive: true,
      inputSchema: { type: "object", properties: {}, required: ["confirm"] },
    }));
    assert.deepEqual((definition.inputSchema as { required: string[] }).required, ["confirm"]);
  });

  await t.step("appToolDefinition() leaves the app's own schema untouched", () => {
    const original = info({ destructive: true });
    const before = structuredClone(original.inputSchema);
    appToolDefinition(original);
    appToolDefinition(original);
    assert.deepEqual(original.inputSchema, before);
  });
});

Deno.test("confirmMessage() tells the agent to ask the user and to send confirm: true", () => {
  const message = confirmMessage("delete_all");
  assert.ok(message.startsWith("delete_all "), message);
  assert.match(message, /ask the user for approval/);
  assert.ok(message.includes('call it again with "confirm": true'), message);
});
