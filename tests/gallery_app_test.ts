/**
 * The gallery (examples/gallery.ts) as a test and an agent meet it: every widget is found by
 * the name the issue gives it, through the harness and through a real socket (the example
 * run as a `deno run` child with its MCP server on, driven with `ui_tree` and `ui_act`).
 *
 * @module
 */

import assert from "node:assert/strict";
import { render } from "../runtime/testing.ts";
import { galleryApp } from "../examples/gallery.ts";
import type { Client } from "../runtime/agent/transport/sdk.ts";
import { callTool, connect, nodeId, readTree, runtimeDir, startApp } from "./_app_process.ts";

/** Every named widget of the gallery, by role and name (the slots still to fill are left out). */
const NAMED: readonly [role: string, name: string][] = [
  ["combo_box", "Colour"],
  ["radio_group", "Size"],
  ["radio_button", "Small"],
  ["radio_button", "Medium"],
  ["radio_button", "Large"],
  ["switch", "Wi-Fi"],
  ["text_area", "Notes"],
  ["progress_bar", "Download"],
  ["button", "Start"],
  ["progress_bar", "Syncing"],
  ["button", "Notify"],
  ["tab", "General"],
  ["tab", "Advanced"],
  ["table", "Files"],
  ["tree", "Folders"],
];

Deno.test("gallery: every named widget is there, through the harness", async () => {
  await using app = await render(galleryApp(), { width: 100, height: 30, clock: "manual" });
  for (const [role, name] of NAMED) {
    assert.equal(app.query({ role: role as never, name }).length, 1, `${role} "${name}"`);
  }
  assert.deepEqual(app.get({ role: "progress_bar", name: "Syncing" }).states, ["busy"]);
  const download = () => app.get({ role: "progress_bar", name: "Download" }).value;
  assert.equal(download(), "0%");
  await app.act(app.get({ role: "button", name: "Start" }).id, { action: "click" });
  await app.advance(1000);
  assert.equal(download(), "50%");
  await app.advance(1000);
  assert.equal(download(), "100%");
  assert.ok(app.screen().find("] 100%"), app.screen().text);
  await app.act(app.get({ role: "combo_box", name: "Colour" }).id, {
    action: "select",
    option: "Blue",
  });
  await app.act(app.get({ role: "tab_list" }).id, { action: "select", option: "Advanced" });
  assert.equal(app.get({ role: "tab_panel" }).name, "Advanced");
  assert.ok(app.screen().find("[Advanced]"), app.screen().text);
  assert.match(app.tree(), /text "Blue, Medium, Wi-Fi on"/);
  await app.act(app.get({ role: "text_area", name: "Notes" }).id, {
    action: "type_text",
    text: "first line\nsecond line",
  });
  assert.equal(app.get({ role: "text_area", name: "Notes" }).value, "first line\nsecond line");
  await app.act(app.get({ role: "button", name: "Notify" }).id, { action: "click" });
  assert.equal(app.get({ role: "status" }).name, "Hello from the gallery (Blue)");
  assert.ok(app.screen().find("✓ Hello from the gallery (Blue)"), app.screen().text);
  await app.advance(5000);
  assert.equal(app.query({ role: "status" }).length, 0, "the message went after its time");
});

/** Calls `ui_act` at the current revision and asserts it was done; returns its answer. */
async function done(client: Client, id: number, action: unknown): Promise<string> {
  const { revision } = await readTree(client);
  const { text, isError } = await callTool(client, "ui_act", { id, revision, action });
  assert.equal(isError, false, text);
  return text;
}

Deno.test("gallery: an agent finds every named widget and uses them through a real socket", async () => {
  await using runtime = await runtimeDir();
  await using app = startApp("examples/gallery.ts", { env: { XDG_RUNTIME_DIR: runtime.path } });
  await using client = await connect(await app.listening());
  let tree = (await readTree(client)).tree;
  for (const [role, name] of NAMED) nodeId(tree, role, name);
  // Tabs: the select action on the tab list; the receipt shows the panel's new content.
  const receipt = await done(client, nodeId(tree, "tab_list", "Settings"), {
    action: "select",
    option: "Advanced",
  });
  assert.match(receipt, /tab "Advanced" #\d+ focused selected/);
  assert.match(receipt, /checkbox "Verbose logs"/);
  tree = (await readTree(client)).tree;
  assert.match(tree, /tab_panel "Advanced" #\d+\n\s+checkbox "Verbose logs"/);
  await done(client, nodeId(tree, "tab", "General"), { action: "click" });
  tree = (await readTree(client)).tree;
  assert.match(tree, /tab_panel "General" #\d+\n\s+text "Shown in the General tab"/);
  assert.match(tree, /progress_bar "Syncing" #\d+ busy\n/);

  // Start fills Download in about 2 s; the agent reads the tree until it says 100%.
  await done(client, nodeId(tree, "button", "Start"), { action: "click" });
  const deadline = Date.now() + 15_000;
  while (!/progress_bar "Download" #\d+ value="100%"/.test(tree)) {
    assert.ok(Date.now() < deadline, `Download never reached 100%:\n${tree}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    tree = (await readTree(client)).tree;
  }

  // Notify: the status message is in the receipt of the click, and in the tree.
  const notified = await done(client, nodeId(tree, "button", "Notify"), { action: "click" });
  assert.match(notified, /\+ status "Hello from the gallery \(Red\)" #\d+ value="success"/);
  tree = (await readTree(client)).tree;
  assert.match(tree, /\n status "Hello from the gallery \(Red\)" #\d+ value="success"\n/);
});

Deno.test("gallery: the table Files has 2,000 rows; the tree Folders loads items when expanded", async () => {
  await using app = await render(galleryApp(), { width: 100, height: 30, clock: "manual" });
  const files = app.get({ role: "table", name: "Files" }).id;
  assert.equal(app.query({ role: "row", within: files, text: ".txt", limit: 3000 }).length, 2000);
  assert.deepEqual(
    app.query({ role: "column_header", within: files }).map((header) => header.name),
    ["Name", "Size", "Modified"],
  );
  const home = app.get({ role: "tree_item", name: "home" });
  await app.act(home.id, { action: "press_key", keybind: "ArrowRight" });
  assert.deepEqual(app.get({ id: home.id }).states, ["selected", "expanded", "busy"]);
  await app.advance(200);
  assert.deepEqual(
    app.query({ role: "tree_item", within: home.id }).map((item) => item.name),
    ["drafts", "photos", "archive"],
  );
});
