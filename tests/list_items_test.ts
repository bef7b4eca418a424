/**
 * A list row follows its item through a real socket: the fixture app runs as a `deno run`
 * child with its MCP server on; an agent types into a row's field, then calls the app tool
 * `rename_note`, which replaces the row's item by a new object with the same key. `ui_tree`
 * then shows the new title on the same node ids, with the field still focused and holding
 * what was typed.
 *
 * @module
 */

import { markedContent } from "./_marked.ts";
import assert from "node:assert/strict";
import type { Client } from "../runtime/agent/transport/sdk.ts";
import { callTool, connect, runtimeDir, startApp } from "./_app_process.ts";

const FIXTURE = "tests/fixtures/list_items_app.ts";

/** Calls `ui_tree`; returns the revision and the tree text. */
async function tree(client: Client): Promise<{ revision: number; tree: string }> {
  const { text, isError } = await callTool(client, "ui_tree");
  assert.equal(isError, false, text);
  return markedContent(text) as { revision: number; tree: string };
}

/** The id on the line of `tree` that starts (after indentation) with `start`. */
function idOf(tree: string, start: string): number {
  const line = tree.split("\n").find((line) => line.trimStart().startsWith(start));
  assert.ok(line !== undefined, `a line starting ${start} in:\n${tree}`);
  return Number(/#(\d+)/.exec(line)![1]);
}

/** Calls `ui_act` at the current revision and asserts it was done. */
async function act(client: Client, id: number, action: unknown): Promise<void> {
  const { revision } = await tree(client);
  const { text, isError } = await callTool(client, "ui_act", { id, revision, action });
  assert.equal(isError, false, text);
}

Deno.test("a list row shows its new item after an app tool replaces it, through a real socket", async () => {
  await using runtime = await runtimeDir();
  await using app = startApp(FIXTURE, { env: { XDG_RUNTIME_DIR: runtime.path } });
  await using client = await connect(await app.listening());
  const before = (await tree(client)).tree;
  const row = idOf(before, `list_item "Milk"`);
  const title = idOf(before, `text_field "Comment"`); // the first row's field
  const open = idOf(before, `button "Open"`);
  await act(client, title, { action: "focus" });
  await act(client, title, { action: "type_text", text: "two litres" });

  const renamed = await callTool(client, "rename_note", { id: 1, title: "Oat milk" });
  assert.equal(renamed.isError, false, renamed.text);
  const after = (await tree(client)).tree;
  assert.match(after, new RegExp(`list_item "Oat milk" #${row}\\n`));
  assert.doesNotMatch(after, /"Milk"/, "the old title is gone");
  assert.match(
    after,
    new RegExp(`text_field "Comment" #${title} value="two litres" focused\\n`),
    "the focused field keeps its id, its focus and what was typed",
  );
  assert.equal(idOf(after, `button "Open"`), open, "the button keeps its id");
  assert.match(after, /list_item "Bread" #\d+\n/);
});
