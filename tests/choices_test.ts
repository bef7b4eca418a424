/**
 * The choice widgets through a real socket: the fixture app runs as a `deno run` child with
 * its MCP server on, and an agent reads `ui_tree` and chooses with `ui_act`: the select
 * action on the select closed and open, a click on one of its options and on a radio button,
 * the select action on the radio group, a click on the switch, and the refusal of an option
 * no widget has.
 *
 * @module
 */

import assert from "node:assert/strict";
import type { Client } from "../runtime/agent/transport/sdk.ts";
import { callTool, connect, nodeId, readTree, runtimeDir, startApp } from "./_app_process.ts";

const FIXTURE = "tests/fixtures/choices_app.ts";

/** Calls `ui_act` at the current revision; returns the answer's text and whether it failed. */
async function act(client: Client, id: number, action: unknown) {
  const { revision } = await readTree(client);
  return await callTool(client, "ui_act", { id, revision, action });
}

/** Calls `ui_act` and asserts it was done; returns the tree after it. */
async function done(client: Client, id: number, action: unknown): Promise<string> {
  const { text, isError } = await act(client, id, action);
  assert.equal(isError, false, text);
  return (await readTree(client)).tree;
}

Deno.test("an agent chooses in a select, a radio group and a switch through a real socket", async () => {
  await using runtime = await runtimeDir();
  await using app = startApp(FIXTURE, { env: { XDG_RUNTIME_DIR: runtime.path } });
  await using client = await connect(await app.listening());
  let tree = (await readTree(client)).tree;
  assert.match(tree, /combo_box "Colour" #\d+ value="Red" collapsed\n/);
  assert.match(tree, /radio_group "Size" #\d+\n\s+radio_button "Small" #\d+ checked\n/);
  assert.match(tree, /switch "Wi-Fi" #\d+\n/);
  const colour = nodeId(tree, "combo_box", "Colour");

  // Closed: one action chooses, and the popup never opens.
  tree = await done(client, colour, { action: "select", option: "Green" });
  assert.match(tree, /combo_box "Colour" #\d+ value="Green" focused collapsed\n/);
  assert.doesNotMatch(tree, /option "/);
  assert.match(tree, /text "Chosen: Green, Small, Wi-Fi off"/);

  // Open: the options are nodes; select chooses and closes.
  tree = await done(client, colour, { action: "click" });
  assert.match(
    tree,
    /combo_box "Colour" #\d+ value="Green" expanded\n\s+option "Red" #\d+\n\s+option "Green" #\d+ focused selected\n\s+option "Blue" #\d+\n/,
  );
  tree = await done(client, colour, { action: "select", option: "Blue" });
  assert.match(tree, /combo_box "Colour" #\d+ value="Blue" focused collapsed\n/);
  assert.doesNotMatch(tree, /option "/);

  // A click on an option of the open select chooses it.
  tree = await done(client, colour, { action: "press_key", keybind: "Enter" });
  tree = await done(client, nodeId(tree, "option", "Red"), { action: "click" });
  assert.match(tree, /text "Chosen: Red, Small, Wi-Fi off"/);

  // An unknown option is refused with the options named, and nothing changes.
  const before = await readTree(client);
  const refused = await act(client, colour, { action: "select", option: "Purple" });
  assert.equal(refused.isError, true, refused.text);
  assert.match(
    refused.text,
    /invalid arguments: no option named "Purple" in this combo_box; its options are "Red", "Green", "Blue"/,
  );
  assert.equal((await readTree(client)).tree, before.tree);

  // The radio group: select on the group, a click on a radio button.
  tree = await done(client, nodeId(tree, "radio_group", "Size"), {
    action: "select",
    option: "Large",
  });
  assert.match(
    tree,
    /radio_button "Large" #\d+ focused checked\n/,
  );
  tree = await done(client, nodeId(tree, "radio_button", "Medium"), { action: "click" });
  assert.match(tree, /text "Chosen: Red, Medium, Wi-Fi off"/);

  // The switch: a click flips it.
  tree = await done(client, nodeId(tree, "switch", "Wi-Fi"), { action: "click" });
  assert.match(tree, /switch "Wi-Fi" #\d+ focused checked\n/);
  assert.match(tree, /text "Chosen: Red, Medium, Wi-Fi on"/);
});
