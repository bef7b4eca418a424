/**
 * Where things are, through a real socket: the fixture app runs as a `deno run` child with
 * its MCP server on, and an SDK client reads `ui://tree.json` and calls `ui_query` and
 * `ui_act` as an agent would. Covers the `offscreen` and `modal` states, the refusal of
 * actions behind a modal dialog, clicking an offscreen row (scrolled into view first), the
 * order of the checks, and the recovery hints of the error messages.
 *
 * @module
 */

import { markedContent, receiptOf } from "./_marked.ts";
import assert from "node:assert/strict";
import type { Client } from "../runtime/agent/transport/sdk.ts";
import { type AppProcess, callTool, connect, runtimeDir, startApp } from "./_app_process.ts";
import { ROW_COUNT, ROWS_IN_VIEW } from "./fixtures/modal_offscreen_app.ts";

const FIXTURE = "tests/fixtures/modal_offscreen_app.ts";

/** One node of `ui://tree.json`. */
interface JsonNode {
  id: number;
  role: string;
  name?: string;
  states: string[];
  children: JsonNode[];
}

/** Reads `ui://tree.json`: the revision and the root node. */
async function readJsonTree(client: Client): Promise<{ revision: number; root: JsonNode }> {
  const result = await client.readResource({ uri: "ui://tree.json" });
  const content = result.contents[0] as { text?: string };
  const data = JSON.parse(content.text ?? "") as { revision: number; tree: JsonNode };
  return { revision: data.revision, root: data.tree };
}

function* walk(node: JsonNode): Generator<JsonNode> {
  yield node;
  for (const child of node.children) yield* walk(child);
}

/** The one node with `role` and `name` in the tree. */
function find(root: JsonNode, role: string, name?: string): JsonNode {
  const found = [...walk(root)].filter((node) =>
    node.role === role && (name === undefined || node.name === name)
  );
  assert.equal(found.length, 1, `one ${role} ${name ?? ""} in the tree`);
  return found[0]!;
}

/** The id of the one node `ui_query` finds for `role` and `name`. */
async function queryId(client: Client, role: string, name: string): Promise<number> {
  const { text, isError } = await callTool(client, "ui_query", { role, name });
  assert.equal(isError, false, text);
  const { nodes } = markedContent(text) as { nodes: { id: number }[] };
  assert.equal(nodes.length, 1, `one ${role} "${name}": ${text}`);
  return nodes[0]!.id;
}

/** Calls `ui_act`; returns the tool result's text and whether it is an error. */
function act(client: Client, id: number, revision: number, action: unknown) {
  return callTool(client, "ui_act", { id, revision, action });
}

/** Asserts that a `ui_act` was refused with a message matching `pattern`. */
async function assertRefused(
  client: Client,
  id: number,
  revision: number,
  action: unknown,
  pattern: RegExp,
): Promise<void> {
  const { text, isError } = await act(client, id, revision, action);
  assert.equal(isError, true, `refused: ${text}`);
  assert.match(text, pattern);
}

/** Starts the fixture, connects, runs `body`, and always ends both. */
async function withFixture(body: (client: Client, app: AppProcess) => Promise<void>) {
  await using runtime = await runtimeDir();
  await using app = startApp(FIXTURE, { env: { XDG_RUNTIME_DIR: runtime.path } });
  await using client = await connect(await app.listening());
  await body(client, app);
}

Deno.test("modal and offscreen through a real socket", async (t) => {
  await withFixture(async (client) => {
    await t.step("offscreen is on the outermost node out of view only", async () => {
      const { root } = await readJsonTree(client);
      const rows = find(root, "list").children;
      assert.equal(rows.length, ROW_COUNT);
      const offscreen = rows.map((row) => row.states.includes("offscreen"));
      assert.deepEqual(offscreen, rows.map((_, index) => index >= ROWS_IN_VIEW));
      const marked = [...walk(root)].filter((node) => node.states.includes("offscreen"));
      assert.equal(marked.length, ROW_COUNT - ROWS_IN_VIEW, "no descendant repeats it");
      assert.equal(find(root, "scroll_view").states.includes("offscreen"), false);
    });

    await t.step("clicking an offscreen row's button scrolls it into view and clicks", async () => {
      const open = await queryId(client, "button", "Open 50");
      const { revision } = await readJsonTree(client);
      const { text, isError } = await act(client, open, revision, { action: "click" });
      assert.equal(isError, false, text);
      const answer = receiptOf(text);
      const after = await readJsonTree(client);
      assert.equal(answer.revision, after.revision, "the answer is after scroll and click");
      assert.ok(answer.revision >= revision + 2, "the scroll and the click are frames");
      find(after.root, "text", "Opened: 50");
      const rows = find(after.root, "list").children;
      const shown = rows.flatMap((row, index) => row.states.includes("offscreen") ? [] : [index]);
      // Scrolled as little as shows it: row 50 is the last row in view.
      assert.deepEqual(shown, Array.from({ length: ROWS_IN_VIEW }, (_, i) => 50 - 7 + i));
    });

    await t.step("a click behind an open dialog is refused and changes nothing", async () => {
      const showDialog = await queryId(client, "button", "Show dialog");
      const { revision } = await readJsonTree(client);
      const opened = await act(client, showDialog, revision, { action: "click" });
      assert.equal(opened.isError, false, opened.text);
      const before = await readJsonTree(client);
      const dialog = find(before.root, "dialog", "Confirm");
      assert.ok(dialog.states.includes("modal"), `the dialog is modal: ${dialog.states}`);
      const open49 = await queryId(client, "button", "Open 49");
      for (
        const [id, action] of [
          [open49, { action: "click" }],
          [showDialog, { action: "click" }],
          [before.root.id, { action: "press_key", keybind: "Tab" }],
        ] as const
      ) {
        const { text, isError } = await act(client, id, before.revision, action);
        assert.equal(isError, true, text);
        assert.equal(
          text,
          `the node is behind a modal dialog; act inside dialog #${dialog.id} or close it first`,
        );
      }
      const after = await readJsonTree(client);
      assert.equal(after.revision, before.revision, "nothing changed");
      find(after.root, "text", "Opened: 50");
    });

    await t.step("checks run in order: arguments, node, modal, disabled, revision", async () => {
      const { revision } = await readJsonTree(client);
      const stale = revision - 1;
      const disabledRow = await queryId(client, "button", "Open 0");
      // A bad argument outranks everything, a stale revision included.
      await assertRefused(
        client,
        disabledRow,
        stale,
        { action: "click", force: true },
        /^invalid arguments: unknown field "force" in a click action; /,
      );
      await assertRefused(
        client,
        disabledRow,
        stale,
        { type: "click" },
        /^invalid arguments: the action object needs an "action" field naming the action, such as \{"action": "click"\}$/,
      );
      await assertRefused(
        client,
        987_654,
        stale,
        { action: "click" },
        /^no node with id 987654; read ui_tree again$/,
      );
      // A disabled node behind the dialog is behind the dialog first.
      await assertRefused(
        client,
        disabledRow,
        stale,
        { action: "click" },
        /^the node is behind a modal dialog; /,
      );
      const later = await queryId(client, "button", "Later");
      await assertRefused(
        client,
        later,
        stale,
        { action: "click" },
        /^the node is disabled; ui_wait with "state": "enabled" waits for it$/,
      );
      const close = await queryId(client, "button", "Close");
      await assertRefused(
        client,
        close,
        stale,
        { action: "click" },
        /^stale revision: the tree is now at revision \d+; read ui_tree again and retry$/,
      );
      assert.equal((await readJsonTree(client)).revision, revision, "no refusal changed anything");
    });

    await t.step("closing the dialog lets actions through again", async () => {
      const close = await queryId(client, "button", "Close");
      const { revision } = await readJsonTree(client);
      const closed = await act(client, close, revision, { action: "click" });
      assert.equal(closed.isError, false, closed.text);
      const after = await readJsonTree(client);
      assert.equal([...walk(after.root)].some((node) => node.role === "dialog"), false);
      const open49 = await queryId(client, "button", "Open 49");
      const clicked = await act(client, open49, after.revision, { action: "click" });
      assert.equal(clicked.isError, false, clicked.text);
      find((await readJsonTree(client)).root, "text", "Opened: 49");
      // A disabled row out of view is refused as disabled, without scrolling to it.
      const { revision: now } = await readJsonTree(client);
      await assertRefused(
        client,
        await queryId(client, "button", "Open 0"),
        now,
        { action: "click" },
        /^the node is disabled; /,
      );
      assert.equal((await readJsonTree(client)).revision, now);
    });
  });
});
