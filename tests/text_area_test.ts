/**
 * The text area through a real socket: the fixture app runs as a `deno run` child with its MCP
 * server on, and an agent types two lines into "Notes" with `ui_act` `type_text` (a `\n`
 * between them), presses a key on it, and reads the value back with `ui_tree` and `ui_query`.
 *
 * @module
 */

import assert from "node:assert/strict";
import type { Client } from "../runtime/agent/transport/sdk.ts";
import {
  answerOf,
  callTool,
  connect,
  nodeId,
  readTree,
  runtimeDir,
  startApp,
} from "./_app_process.ts";

const FIXTURE = "tests/fixtures/text_area_app.ts";

/** Calls `ui_act` at the current revision and asserts it was done; returns the tree after. */
async function done(client: Client, id: number, action: unknown): Promise<string> {
  const { revision } = await readTree(client);
  const { text, isError } = await callTool(client, "ui_act", { id, revision, action });
  assert.equal(isError, false, text);
  return (await readTree(client)).tree;
}

Deno.test("an agent types two lines into a text area through a real socket and reads them back", async () => {
  await using runtime = await runtimeDir();
  await using app = startApp(FIXTURE, { env: { XDG_RUNTIME_DIR: runtime.path } });
  await using client = await connect(await app.listening());
  let tree = (await readTree(client)).tree;
  assert.match(tree, /text_area "Notes" #\d+\n/);
  const notes = nodeId(tree, "text_area", "Notes");

  tree = await done(client, notes, { action: "type_text", text: "Buy milk\nCall Anna" });
  assert.match(tree, /text_area "Notes" #\d+ value="Buy milk\\nCall Anna" focused\n/);
  assert.match(tree, /text "Lines: 2"/);

  // A key on it: ArrowUp keeps the column, Enter breaks the line there.
  await done(client, notes, { action: "press_key", keybind: "ArrowUp" });
  tree = await done(client, notes, { action: "press_key", keybind: "Enter" });
  assert.match(tree, /text "Lines: 3"/);

  const { text, isError } = await callTool(client, "ui_query", { role: "text_area" });
  assert.equal(isError, false, text);
  const answer = answerOf(text) as { nodes?: { name: string; value: string }[] };
  assert.deepEqual(
    answer.nodes?.map(({ name, value }) => ({ name, value })),
    [{ name: "Notes", value: "Buy milk\n\nCall Anna" }],
    text,
  );
});
