/**
 * What an agent pays, pinned where no peer is needed (`deno task bench:peers` measures the
 * peers): `tools/list` of the Notes demo through crownmcp is at most 1,000 tokens by the legacy
 * Claude tokenizer (a test-only dependency), the whole tree of the benchmark's 1,000 rows holds
 * every node, and every result that carries app text starts with the untrusted-data marker.
 *
 * @module
 */

import assert from "node:assert/strict";
import { Client } from "../runtime/agent/transport/sdk.ts";
import { readResultText, UNTRUSTED_MARKER } from "../runtime/agent/session/untrusted.ts";
import { checkEveryNode } from "../bench/_crown_tasks.ts";
import { resultText, tokens } from "../bench/_tokens.ts";
import { nodeId, REQUEST_TIMEOUT_MS, runtimeDir, startApp } from "./_app_process.ts";
import { crownmcpTransport } from "./_crownmcp.ts";

/** Runs `script` with a crownmcp for it, as an agent launches it, during `body`. */
async function throughCrownmcp(
  script: string,
  args: string[],
  body: (client: Client) => Promise<void>,
): Promise<void> {
  await using runtime = await runtimeDir();
  await using app = startApp(script, { env: { XDG_RUNTIME_DIR: runtime.path }, args });
  await app.listening();
  const client = new Client({ name: "agent-cost-test", version: "0.1.0" });
  await client.connect(crownmcpTransport({ XDG_RUNTIME_DIR: runtime.path }));
  try {
    while (!(await client.listTools()).tools.some((tool) => tool.name === "ui_act")) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await body(client);
  } finally {
    await client.close();
  }
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args }, undefined, {
    timeout: REQUEST_TIMEOUT_MS,
  });
  return { text: resultText(result), isError: result.isError === true };
}

Deno.test("the Notes demo through crownmcp: tools/list within 1,000 tokens, every answer with app text marked", async (t) => {
  await throughCrownmcp("examples/notes.ts", [], async (client) => {
    await t.step("tools/list is at most 1,000 tokens", async () => {
      const listed = JSON.stringify(await client.listTools());
      assert.ok(listed.includes('"delete_note"'), "the app's tools are in it");
      assert.ok(tokens(listed) <= 1000, `${tokens(listed)} tokens`);
    });

    await t.step("each answer that carries app text starts with the marker", async () => {
      const marked = async (name: string, args: Record<string, unknown> = {}) => {
        const answer = await call(client, name, args);
        assert.ok(
          answer.text.startsWith(`${UNTRUSTED_MARKER}`),
          `${name} ${JSON.stringify(args)}: ${answer.text.slice(0, 200)}`,
        );
        return answer.text;
      };
      const tree = await marked("ui_tree");
      const field = nodeId(readResultText(tree).body, "text_field", "Title");
      const revision = readResultText(tree).revision!;
      await marked("ui_tree", { visible: true, max_bytes: 2000 });
      await marked("ui_tree", { since: revision });
      await marked("ui_query", { role: "button" });
      await marked("ui_wait", { role: "text_field" });
      await marked("inspect_snapshot");
      await marked("ui_act", { id: field, revision, action: { action: "type_text", text: "a" } });
      await marked("note_count");
      await marked("add_note", { title: "Bread" });
      // What carries no app text carries no marker: a receipt of nothing, a refusal.
      const now = readResultText(await marked("ui_tree")).revision!;
      const focus = await call(client, "ui_act", {
        id: field,
        revision: now,
        action: { action: "focus" },
      });
      assert.match(focus.text, /^r\d+$/, "focus moving onto the node acted on is no change text");
      const stale = await call(client, "ui_act", {
        id: field,
        revision: 0,
        action: { action: "click" },
      });
      assert.equal(stale.isError, true);
      assert.ok(!stale.text.startsWith(UNTRUSTED_MARKER));
    });
  });
});

Deno.test("the benchmark's 1,000 rows through crownmcp: the whole tree holds every node", async () => {
  await throughCrownmcp("bench/_tasks_app.ts", ["1000"], async (client) => {
    const whole = await call(client, "ui_tree", { max_bytes: 3_500_000 });
    assert.ok(whole.text.startsWith(UNTRUSTED_MARKER));
    const tree = readResultText(whole.text).body;
    assert.ok(await checkEveryNode(client, tree) > 4000);
    // The rows out of view are said once, on the list's line, and stay queryable.
    assert.match(tree, /^ {2}list #\d+ offscreen=#\d+\.\.#\d+$/m);
    const offscreen = await call(client, "ui_query", {
      role: "list_item",
      state: "offscreen",
      limit: 1,
    });
    const found = JSON.parse(readResultText(offscreen.text).body) as {
      nodes: { states: string[] }[];
      more: number;
    };
    assert.deepEqual(found.nodes[0]!.states, ["offscreen"]);
    assert.ok(found.more > 900, `${found.more} more rows out of view`);
  });
});
