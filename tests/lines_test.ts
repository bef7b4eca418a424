/**
 * The table (and the tree view) through a real socket: the fixture app runs as a `deno run`
 * child with its MCP server on, and an agent finds rows out of view with `ui_query`, clicks
 * one, selects another by name, and sorts by a header click.
 *
 * @module
 */

import assert from "node:assert/strict";
import type { Client } from "../runtime/agent/transport/sdk.ts";
import { answerOf, callTool, connect, readTree, runtimeDir, startApp } from "./_app_process.ts";

const FIXTURE = "tests/fixtures/lines_app.ts";

/** Calls `ui_act` at the current revision and asserts it was done; returns the tree after. */
async function done(client: Client, id: number, action: unknown): Promise<string> {
  const { revision } = await readTree(client);
  const { text, isError } = await callTool(client, "ui_act", { id, revision, action });
  assert.equal(isError, false, text);
  return (await readTree(client)).tree;
}

/** The nodes `ui_query` finds. */
async function query(client: Client, args: Record<string, unknown>) {
  const { text, isError } = await callTool(client, "ui_query", args);
  assert.equal(isError, false, text);
  return answerOf(text).nodes as { id: number; name: string; states: string[] }[];
}

Deno.test("an agent finds, clicks, selects and sorts the rows of a 2,000-row table through a real socket", async () => {
  await using runtime = await runtimeDir();
  await using app = startApp(FIXTURE, { env: { XDG_RUNTIME_DIR: runtime.path } });
  await using client = await connect(await app.listening());
  let tree = (await readTree(client)).tree;
  assert.match(tree, /table "Files" #\d+ offscreen=#\d+\.\.#\d+\n/);
  assert.match(tree, /column_header "Name" #\d+\n/);
  assert.match(tree, /row "file-0\.txt, 0, 2026-01-01" #\d+\n\s+cell "file-0\.txt" #\d+\n/);

  // A row far out of view: queries see it, a click scrolls it in and selects it.
  const [far] = await query(client, { role: "row", text: "file-1500.txt" });
  assert.ok(far !== undefined);
  assert.deepEqual(far.states, ["offscreen"]);
  tree = await done(client, far.id, { action: "click" });
  assert.match(tree, /text "Selected: file-1500\.txt"/);
  const shown = await callTool(client, "ui_tree", { visible: true });
  assert.doesNotMatch(shown.text, /file-0\.txt/, "scrolled away");
  assert.match(
    shown.text,
    new RegExp(`row "file-1500\\.txt, [^"]*" #${far.id} selected\\n\\s+cell "file-1500\\.txt"`),
  );

  // Select by the first cell's text, on the table.
  const [files] = await query(client, { role: "table", name: "Files" });
  tree = await done(client, files!.id, { action: "select", option: "file-42.txt" });
  assert.match(tree, /text "Selected: file-42\.txt"/);

  // A header click sorts; the header says which way.
  const [size] = await query(client, { role: "column_header", name: "Size" });
  tree = await done(client, size!.id, { action: "click" });
  assert.match(tree, /column_header "Size" #\d+ focused sorted_ascending\n/);
  const rows = await query(client, { role: "row", text: ".txt", limit: 5 });
  const sizes = rows.map((row) => Number(row.name.split(",")[1]));
  assert.deepEqual(sizes, [...sizes].sort((a, b) => a - b));
  assert.equal(sizes[0], 0);
});

Deno.test("an agent expands a tree whose items load when expanded, through a real socket", async () => {
  await using runtime = await runtimeDir();
  await using app = startApp(FIXTURE, { env: { XDG_RUNTIME_DIR: runtime.path } });
  await using client = await connect(await app.listening());
  const [home] = await query(client, { role: "tree_item", name: "home" });
  assert.ok(home !== undefined);
  assert.deepEqual(home.states, ["collapsed"]);
  await done(client, home.id, { action: "press_key", keybind: "ArrowRight" });
  // The children come 20 ms later: ui_wait for them.
  const waited = await callTool(client, "ui_wait", {
    role: "tree_item",
    name: "a",
    timeout_ms: 5000,
  });
  assert.equal(waited.isError, false, waited.text);
  const shown = await callTool(client, "ui_tree", { visible: true });
  assert.match(
    shown.text,
    /tree_item "home" #\d+ level=1 selected expanded\n\s+tree_item "a" #\d+ level=2 collapsed\n/,
  );
  // Left on a child goes to its parent; Left again collapses it.
  const [a] = await query(client, { role: "tree_item", name: "a" });
  await done(client, a!.id, { action: "press_key", keybind: "ArrowLeft" });
  const [selected] = await query(client, { role: "tree_item", state: "selected" });
  assert.equal(selected!.name, "home");
  const tree = await done(client, home.id, { action: "press_key", keybind: "ArrowLeft" });
  assert.match(tree, /tree_item "home" #\d+ level=1 selected collapsed\n/);
  assert.doesNotMatch(tree, /tree_item "a"/);
});
