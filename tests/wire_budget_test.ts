/**
 * Budgets count what the client reads: `max_bytes` bounds the bytes of the answer's text as
 * it goes on the wire (header and escaping included), every answer line stays under 8 MiB,
 * and crownmcp answers a line longer than that with a tool error naming the budget instead
 * of writing it. Driven as agents drive it: the SDK's client through crownmcp, against an app
 * whose 2,000 texts are 1,000 quotes each (before, `ui_tree {"max_bytes": 3500000}` there made
 * a 13.8 MB line, and the client's 10 MiB read buffer ended the session).
 *
 * @module
 */

import assert from "node:assert/strict";
import { Client } from "../runtime/agent/transport/sdk.ts";
import { UNTRUSTED_MARKER } from "../runtime/agent/session/untrusted.ts";
import { REQUEST_TIMEOUT_MS, runtimeDir, startApp } from "./_app_process.ts";
import { crownmcpTransport } from "./_crownmcp.ts";
import { markedContent, receiptOf } from "./_marked.ts";
import { TEXTS } from "./fixtures/quotes_app.ts";

const FIXTURE = "tests/fixtures/quotes_app.ts";
const MAX_LINE = 8 * 1024 * 1024;
const CAP = 3_500_000;
const encoder = new TextEncoder();

/** One answer as the agent got it: its text, whether an error, and its line's length. */
interface Answer {
  text: string;
  isError: boolean;
  line: number;
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args }, undefined, {
    timeout: REQUEST_TIMEOUT_MS * 3,
  });
  const text = (result.content as { text?: string }[]).map((part) => part.text ?? "").join("");
  // The line as the server wrote it: the same JSON, so the same length.
  const line = encoder.encode(JSON.stringify({ result, jsonrpc: "2.0", id: 1 })).length;
  return { text, isError: result.isError === true, line } satisfies Answer;
}

function within(answer: Answer, budget: number, what: string): void {
  assert.equal(answer.isError, false, `${what}: ${answer.text.slice(0, 300)}`);
  const bytes = encoder.encode(answer.text).length;
  assert.ok(bytes <= budget, `${what}: ${bytes} bytes of text for a budget of ${budget}`);
  assert.ok(answer.line <= MAX_LINE, `${what}: a line of ${answer.line} bytes`);
  assert.ok(answer.text.startsWith(UNTRUSTED_MARKER), `${what} is marked as app data`);
}

Deno.test("budgets count the wire: 2,000 texts of 1,000 quotes at the cap, through crownmcp", async (t) => {
  await using runtime = await runtimeDir();
  await using app = startApp(FIXTURE, { env: { XDG_RUNTIME_DIR: runtime.path } });
  await app.listening();
  const client = new Client({ name: "wire-budget-test", version: "0.1.0" });
  await client.connect(crownmcpTransport({ XDG_RUNTIME_DIR: runtime.path }));
  try {
    while (!(await client.listTools()).tools.some((tool) => tool.name === "ui_act")) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }

    let revision = 0;
    await t.step("ui_tree at the cap stays within it, cut where it must be", async () => {
      const answer = await call(client, "ui_tree", { max_bytes: CAP });
      within(answer, CAP, "ui_tree");
      const { tree, revision: read } = markedContent(answer.text) as {
        tree: string;
        revision: number;
      };
      revision = read;
      assert.match(
        tree,
        /^ … \d+ more items: ui_tree \{"root":1,"from":\d+,"max_bytes":3500000\}$/m,
      );
      assert.ok((await call(client, "ui_tree")).text.length <= 32_768, "the default budget");
    });

    await t.step("a receipt, and the changes since, at the cap", async () => {
      const { nodes } = markedContent(
        (await call(client, "ui_query", { role: "button", name: "Quote more" })).text,
      ) as { nodes: { id: number }[] };
      const acted = await call(client, "ui_act", {
        id: nodes[0]!.id,
        revision,
        action: { action: "click" },
      });
      within(acted, 2048, "the receipt");
      assert.match(receiptOf(acted.text).changes!, /^… \d+ more lines: ui_tree \{/m);
      const since = await call(client, "ui_tree", { since: revision, max_bytes: CAP });
      within(since, CAP, "ui_tree since");
      const { changes } = markedContent(since.text) as { changes: string };
      assert.ok(changes.split("\n").length > 1000, "most of the 2,000 changed texts fit");
    });

    await t.step("inspect_snapshot and queries at the cap", async () => {
      within(await call(client, "inspect_snapshot", { max_bytes: CAP }), CAP, "inspect_snapshot");
      const query = await call(client, "ui_query", {
        role: "text",
        limit: TEXTS,
        full: true,
        max_bytes: CAP,
      });
      within(query, CAP, "ui_query");
      const found = markedContent(query.text) as { nodes: unknown[]; more?: number };
      assert.equal(found.nodes.length + (found.more ?? 0), TEXTS, "the rest counts in more");
      assert.ok((found.more ?? 0) > 0);
      within(await call(client, "ui_query", { role: "text", limit: TEXTS }), 32_768, "default");
      within(await call(client, "ui_wait", { role: "text" }), 32_768, "ui_wait");
      const resource = await client.readResource({ uri: "ui://tree" });
      const line = encoder.encode(JSON.stringify({ result: resource, jsonrpc: "2.0", id: 1 }));
      assert.ok(line.length <= MAX_LINE, `ui://tree: a line of ${line.length} bytes`);
    });

    await t.step(
      "crownmcp refuses a longer line with the budget to use; the session goes on",
      async () => {
        const big = await call(client, "all_quotes");
        assert.equal(big.isError, true);
        assert.match(
          big.text,
          /^the answer of all_quotes is \d+ bytes, more than the 8388608 crownmcp writes on one line to an agent; ask all_quotes for less$/,
        );
        assert.deepEqual(markedContent((await call(client, "one_text")).text), {
          text: '"'.repeat(1000),
        });
        within(await call(client, "ui_tree", { max_bytes: 1000 }), 1000, "after the refusal");
      },
    );
  } finally {
    await client.close();
  }
});
