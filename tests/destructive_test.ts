/**
 * Destructive controls (issue 17 point 4): a control marked `.destructive()` shows the state
 * `destructive`, and an agent's action that would activate it (a click, a double click, Enter or
 * Space on it) is refused without `"confirm": true`, with the message a destructive app tool
 * gives. Through the harness, an embedder's AppHost, the app's own socket, crownmcp with the
 * SDK client, and crowndev `--confirm`; the person's own clicks and keys are never asked.
 *
 * @module
 */

import assert from "node:assert/strict";
import { bind, button, column, component, menu, menuItem, text } from "../runtime/mod.ts";
import { render } from "../runtime/testing.ts";
import { AppHost } from "../runtime/agent/hosts/app_host.ts";
import { TokenBucket } from "../runtime/agent/session/rate_limit.ts";
import { callTool as serverCall } from "../runtime/agent/session/tool_calls.ts";
import { Client } from "../runtime/agent/transport/sdk.ts";
import { confirmMessage } from "../runtime/ui/tool_call.ts";
import { callTool, connect, nodeId, readTree, runtimeDir, startApp } from "./_app_process.ts";
import { crownmcpTransport } from "./_crownmcp.ts";
import { assertFails, inScene } from "./_crowndev_process.ts";

/** The refusal of an unconfirmed activation of node `id` with role `role`. */
function refusal(role: string, id: number): string {
  return confirmMessage(`the ${role} #${id}`);
}

/** Counts of what ran, and the switch of the Reset button's mark, as a test reads them. */
interface Probe {
  deleted: () => number;
  cleared: () => number;
  arm: (on: boolean) => void;
}

function deletingApp() {
  const probe = {} as Probe;
  const view = component((cx) => {
    const deleted = cx.signal(0);
    const cleared = cx.signal(0);
    const armed = cx.signal(true);
    probe.deleted = () => deleted.get();
    probe.cleared = () => cleared.get();
    probe.arm = (on) => armed.set(on);
    return column(
      text(bind(() => `deleted ${deleted.get()}, cleared ${cleared.get()}`)),
      button("Delete", () => deleted.set(deleted.get() + 1)).destructive(),
      button("Keep", () => {}),
      button("Reset", () => cleared.set(cleared.get() + 1)).destructive(bind(() => armed.get())),
      menu("Menu", menuItem("Clear all", () => cleared.set(cleared.get() + 1)).destructive()),
    );
  });
  return { view, probe };
}

Deno.test("destructive controls in the harness: the state, the refusal, confirm, people", async (t) => {
  const { view, probe } = deletingApp();
  await using app = await render(view, { title: "Deleting" });
  const del = app.get({ role: "button", name: "Delete" });

  await t.step("the node shows the state destructive; others do not", () => {
    assert.deepEqual(del.states, ["destructive"]);
    assert.deepEqual(app.get({ name: "Keep" }).states, []);
    assert.match(app.tree(), new RegExp(`button "Delete" #${del.id} destructive\n`));
    assert.deepEqual(app.query({ state: "destructive" }).map((node) => node.name), [
      "Delete",
      "Reset",
    ]);
  });

  await t.step("click, double click, Enter and Space are refused without confirm", async () => {
    const before = app.revision;
    for (
      const action of [
        { action: "click" },
        { action: "double_click" },
        { action: "press_key", keybind: "Enter" },
        { action: "press_key", keybind: "Space" },
        { action: "press_key", keybind: " " },
      ] as const
    ) {
      await assert.rejects(app.act(del.id, action, before), (error: Error) => {
        assert.equal(error.message, refusal("button", del.id), JSON.stringify(action));
        assert.equal((error as Error & { kind: string }).kind, "confirm");
        return true;
      });
    }
    assert.equal(probe.deleted(), 0);
    assert.equal(app.revision, before, "nothing happened, focus included");
  });

  await t.step("what does not activate it needs no confirm", async () => {
    await app.act(del.id, { action: "focus" });
    await app.act(del.id, { action: "hover" });
    await app.act(del.id, { action: "press_key", keybind: "Tab" });
    assert.equal(probe.deleted(), 0);
  });

  await t.step("with confirm the click goes through, once per call", async () => {
    await app.act(del.id, { action: "click" }, app.revision, { confirm: true });
    assert.equal(probe.deleted(), 1);
    await app.act(del.id, { action: "press_key", keybind: "Enter" }, undefined, { confirm: true });
    assert.equal(probe.deleted(), 2);
    await assert.rejects(app.act(del.id, { action: "click" }), /"confirm": true/);
    assert.equal(probe.deleted(), 2);
  });

  await t.step("the person's own click and keys need no confirmation", async () => {
    await app.userAct(del.id, { action: "click" });
    assert.equal(probe.deleted(), 3);
    await app.userAct(del.id, { action: "focus" });
    await app.press("Space");
    await app.press("Enter");
    assert.equal(probe.deleted(), 5);
    await app.type(" ");
    assert.equal(probe.deleted(), 6);
  });

  await t.step("a menu item marked destructive asks the same", async () => {
    await app.act(app.get({ role: "menu" }).id, { action: "click" });
    const clear = app.get({ role: "menu_item", name: "Clear all" });
    assert.deepEqual(clear.states.filter((state) => state === "destructive"), ["destructive"]);
    await assert.rejects(app.act(clear.id, { action: "click" }), (error: Error) => {
      assert.equal(error.message, refusal("menu_item", clear.id));
      return true;
    });
    assert.equal(probe.cleared(), 0);
    await app.act(clear.id, { action: "click" }, undefined, { confirm: true });
    assert.equal(probe.cleared(), 1);
  });

  await t.step("a binding turns the state on and off, and the rule with it", async () => {
    const reset = app.get({ name: "Reset" });
    await assert.rejects(app.act(reset.id, { action: "click" }), /"confirm": true/);
    probe.arm(false);
    assert.deepEqual(app.get({ name: "Reset" }).states, []);
    await app.act(reset.id, { action: "click" });
    assert.equal(probe.cleared(), 2);
  });
});

/**
 * Adds "Buy milk" through `client`; returns its Delete button's id, the tree, and `act`, which
 * sends `ui_act` on that button at the revision read, with `extra` arguments.
 */
async function addNote(client: Client) {
  const added = await callTool(client, "add_note", { title: "Buy milk" });
  assert.equal(added.isError, false, added.text);
  const { revision, tree } = await readTree(client);
  const del = nodeId(tree, "button", "Delete");
  const act = (action: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    callTool(client, "ui_act", { id: del, revision, action, ...extra });
  return { tree, del, act };
}

/** The ui_act tool as `client` lists it, once the app's tools are there. */
async function uiAct(client: Client) {
  for (;;) {
    const act = (await client.listTools()).tools.find((tool) => tool.name === "ui_act");
    if (act !== undefined) return act;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

Deno.test("the Notes demo over its socket: Delete needs confirm; the annotations say so", async () => {
  await using runtime = await runtimeDir();
  await using app = startApp("examples/notes.ts", { env: { XDG_RUNTIME_DIR: runtime.path } });
  await using client = await connect(await app.listening());
  const described = await uiAct(client);
  assert.equal(described.annotations?.destructiveHint, true);
  assert.equal((described.inputSchema.properties?.confirm as { type: string }).type, "boolean");

  const { tree, del, act } = await addNote(client);
  assert.match(tree, new RegExp(`button "Delete" #${del} destructive`));
  const refused = { text: refusal("button", del), isError: true };
  assert.deepEqual(await act({ action: "click" }), refused);
  assert.deepEqual(await act({ action: "click" }, { confirm: "yes" }), {
    text: "invalid arguments: confirm must be true or false",
    isError: true,
  });
  assert.deepEqual(
    await act({ action: "press_key", keybind: "Space" }, { confirm: false }),
    refused,
  );
  assert.match((await readTree(client)).tree, /list_item "Buy milk"/, "still there");

  const confirmed = await act({ action: "click" }, { confirm: true });
  assert.equal(confirmed.isError, false, confirmed.text);
  assert.match(confirmed.text, /- #\d+/);
  assert.doesNotMatch((await readTree(client)).tree, /Buy milk/);
});

Deno.test("through crownmcp with the SDK client: the same refusal, then confirm", async () => {
  await using runtime = await runtimeDir();
  await using app = startApp("examples/notes.ts", { env: { XDG_RUNTIME_DIR: runtime.path } });
  await app.listening();
  const client = new Client({ name: "destructive-test", version: "0.1.0" });
  await client.connect(crownmcpTransport({ XDG_RUNTIME_DIR: runtime.path }));
  try {
    assert.equal((await uiAct(client)).annotations?.destructiveHint, true);
    const { del, act } = await addNote(client);
    assert.deepEqual(await act({ action: "double_click" }), {
      text: refusal("button", del),
      isError: true,
    });
    const confirmed = await act({ action: "double_click" }, { confirm: true });
    assert.equal(confirmed.isError, false, confirmed.text);
    assert.doesNotMatch((await readTree(client)).tree, /Buy milk/);
  } finally {
    await client.close();
  }
});

Deno.test("crowndev act refuses a destructive click without --confirm and makes it with it", async () => {
  await inScene(async (scene) => {
    const notes = await scene.start("examples/notes.ts");
    {
      await using client = await connect(notes.socket);
      await addNote(client);
    }
    const query = "role=button,name=Delete";
    assertFails(await scene.run("act", query, "click"), 1, /deletes or overwrites the user's data/);
    const refused = await scene.run("act", query, "click");
    assert.match(
      refused.stderr,
      /call it again with "confirm": true \(with crowndev: add --confirm\)/,
    );
    assertFails(await scene.run("tree", "--confirm"), 2, /--confirm works only with crowndev act/);
    const run = await scene.run("act", query, "click", "--confirm");
    assert.equal(run.code, 0, JSON.stringify(run));
    assert.match(run.stdout, /^ok: click on #\d+ .*button "Delete"/);
    const tree = await scene.run("tree");
    assert.doesNotMatch(tree.stdout, /Buy milk/);
    const help = await scene.run("act", "--help");
    assert.match(help.stdout, /--confirm +sends "confirm": true/);
  });
});

Deno.test("an embedder's AppHost passes confirm on: the same refusal, then the click", async () => {
  const { view, probe } = deletingApp();
  await using app = await render(view, { title: "Deleting" });
  const host = new AppHost(app.app);
  const bucket = new TokenBucket();
  const del = app.get({ role: "button", name: "Delete" }).id;
  const act = (extra: Record<string, unknown> = {}) =>
    serverCall(host, bucket, "ui_act", {
      id: del,
      revision: app.revision,
      action: { action: "click" },
      ...extra,
    });
  assert.deepEqual(await act(), {
    content: [{ type: "text", text: refusal("button", del) }],
    isError: true,
  });
  assert.equal(probe.deleted(), 0);
  assert.equal((await act({ confirm: true })).isError, undefined);
  assert.equal(probe.deleted(), 1);
});
