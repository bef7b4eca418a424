/**
 * The names an app tool cannot take are one list (`runtime/ui/tool_names.ts`): the built-in
 * tools the server defines and the tools crownmcp offers itself are named from it, and the
 * app-tool registry refuses exactly those names. Checked against what a running crownmcp
 * lists, and in the sources, where a name written out again would let the lists drift apart.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { Client } from "../runtime/agent/transport/sdk.ts";
import { BUILTIN_TOOLS } from "../runtime/agent/session/tool_defs.ts";
import { BUILTIN_TOOL, PROXY_TOOL, RESERVED_TOOL_NAMES } from "../runtime/ui/tool_names.ts";
import { AppTool, RESERVED_TOOL_NAMES as REGISTRY_RESERVED } from "../runtime/ui/tools.ts";
import { REPO_ROOT, runtimeDir } from "./_app_process.ts";
import { crownmcpTransport } from "./_crownmcp.ts";

Deno.test("the reserved tool names are the built-in tools and crownmcp's own, from one list", async (t) => {
  await t.step("the registry refuses exactly the names of the one list", () => {
    assert.equal(REGISTRY_RESERVED, RESERVED_TOOL_NAMES);
    for (const name of RESERVED_TOOL_NAMES) {
      assert.throws(
        () => new AppTool(name, "a tool", `{"type": "object", "properties": {}}`, () => "{}"),
        TypeError,
        name,
      );
    }
  });

  await t.step("the server's built-in tools are the list's built-in names", () => {
    assert.deepEqual(
      BUILTIN_TOOLS.map((tool) => tool.name).sort(),
      Object.values(BUILTIN_TOOL).sort(),
    );
  });

  await t.step("crownmcp's own tools, as it lists them with no app, are the list's", async () => {
    await using dir = await runtimeDir();
    const client = new Client({ name: "reserved-names-test", version: "0.1.0" });
    await client.connect(crownmcpTransport({ XDG_RUNTIME_DIR: dir.path }));
    try {
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((tool) => tool.name).sort(), Object.values(PROXY_TOOL).sort());
    } finally {
      await client.close();
    }
  });

  await t.step("no source writes a reserved name out as a tool's name again", async () => {
    const sources = [
      "runtime/ui/tools.ts",
      "runtime/agent/session/tool_defs.ts",
      ...[...Deno.readDirSync(join(REPO_ROOT, "crownmcp"))]
        .filter((entry) => entry.name.endsWith(".ts") && !entry.name.endsWith("_test.ts"))
        .map((entry) => `crownmcp/${entry.name}`),
    ];
    for (const source of sources) {
      const text = await Deno.readTextFile(join(REPO_ROOT, source));
      for (const name of RESERVED_TOOL_NAMES) {
        assert.ok(
          !text.includes(`"${name}"`),
          `${source} names the tool ${name} itself instead of taking it from tool_names.ts`,
        );
      }
    }
  });
});
