import assert from "node:assert/strict";
import type { App } from "../app/app.ts";
import { render, type TestApp } from "../testing.ts";
import {
  bind,
  button,
  checkbox,
  column,
  component,
  dialog,
  heading,
  list,
  menu,
  menuItem,
  row,
  show,
  text,
  textField,
} from "../ui/mod.ts";
import { snapshotUpdate, TreeMirror } from "./mirror.ts";
import { formatTree } from "./tree_text.ts";
import type { TreeUpdate } from "./tree.ts";
import { treeToJson } from "./tree_json.ts";
import type { NodeQuery } from "./query.ts";

/** A notes app with everything that adds, moves and removes nodes. */
function notesApp() {
  return component((cx) => {
    let nextId = 1;
    const notes = cx.signal<{ id: number; title: string }[]>(
      ["milk", "eggs", "bread"].map((title) => ({ id: nextId++, title })),
    );
    const title = cx.signal("");
    const showDetails = cx.signal(false);
    const heading_ = cx.signal("Notes");
    const locked = cx.signal(false);
    return column(
      heading(bind(() => heading_.get())),
      menu(
        "File",
        menuItem("Clear", () => notes.set([])),
        menuItem("Rename", () => heading_.set(heading_.get() + "!")),
      ),
      text(bind(() => `${notes.get().length} notes`)),
      textField({
        label: "Title",
        value: title,
        onSubmit: (value) => {
          notes.update((list) => list.push({ id: nextId++, title: value }));
          title.set("");
        },
      }),
      list(notes, (note) =>
        row(
          checkbox("Done", false),
          text(note.title),
          button("Delete", () => notes.set(notes.get().filter((n) => n.id !== note.id))),
        ), (note) => note.id),
      button("Details", () => showDetails.set(!showDetails.get())),
      button("Lock", () => locked.set(!locked.get())),
      button("Locked", () => {}).disabled(bind(() => locked.get())),
      show(showDetails, () =>
        dialog(
          "Details",
          text(bind(() => `first: ${notes.get()[0]?.title ?? "none"}`)),
          button("Close", () => showDetails.set(false)),
        )),
    );
  });
}

/** Keeps a mirror of `app` from a snapshot now and every update after. */
function follow(app: App) {
  const mirror = new TreeMirror();
  const updates: TreeUpdate[] = [];
  mirror.apply(snapshotUpdate(app.tree));
  const stop = app.onTreeUpdate((update) => {
    updates.push(update);
    mirror.apply(update);
  });
  return { mirror, updates, stop };
}

function assertSame(app: TestApp, mirror: TreeMirror, after: string): void {
  assert.equal(mirror.revision, app.revision, `revision after ${after}`);
  assert.equal(formatTree(mirror.root), app.tree(), `tree text after ${after}`);
  assert.deepEqual(treeToJson(mirror.root), treeToJson(app.app.tree.root), `JSON after ${after}`);
  assert.equal(mirror.size, app.app.tree.size, `node count after ${after}`);
  for (const node of app.app.tree.walk()) {
    assert.equal(mirror.get(node.id)?.parent?.id, node.parent?.id, `parent of #${node.id}`);
  }
}

/** Acts on the one node that matches, as a user, and settles. */
async function act(app: TestApp, query: NodeQuery, action: Parameters<TestApp["act"]>[1]) {
  await app.userAct(app.get(query).id, action);
  await app.settle();
}

Deno.test("TreeMirror", async (t) => {
  await t.step("TreeMirror throws before its first update", () => {
    const mirror = new TreeMirror();
    assert.equal(mirror.ready, false);
    assert.throws(() => mirror.root, /no update yet/);
  });

  await t.step("snapshotUpdate() brings an empty mirror up to date", async () => {
    await using app = await render(notesApp(), { title: "Notes" });
    const mirror = new TreeMirror();
    const changes = mirror.apply(snapshotUpdate(app.app.tree));
    assert.equal(mirror.ready, true);
    assert.equal(changes.added.length, [...app.app.tree.walk()].length);
    assert.deepEqual(changes.removed, []);
    assertSame(app, mirror, "the snapshot");
  });

  await t.step("TreeMirror follows many actions, removals included, to the same tree", async () => {
    await using app = await render(notesApp(), { title: "Notes" });
    const { mirror, updates, stop } = follow(app.app);
    const steps: [string, () => Promise<void>][] = [
      [
        "typing a title",
        () => act(app, { role: "text_field" }, { action: "type_text", text: "tea" }),
      ],
      [
        "Enter adds a row",
        () => act(app, { role: "text_field" }, { action: "press_key", keybind: "Enter" }),
      ],
      ["checking a row", async () => {
        await app.userAct(app.query({ name: "Done" })[1]!.id, { action: "click" });
        await app.settle();
      }],
      ["deleting the first row", async () => {
        await app.userAct(app.query({ name: "Delete" })[0]!.id, { action: "click" });
        await app.settle();
      }],
      [
        "opening the details",
        () => act(app, { name: "Details", role: "button" }, { action: "click" }),
      ],
      ["deleting a row under the dialog", async () => {
        await app.userAct(app.query({ name: "Delete" })[0]!.id, { action: "click" });
        await app.settle();
      }],
      ["closing the details", () => act(app, { name: "Close" }, { action: "click" })],
      ["locking", () => act(app, { name: "Lock" }, { action: "click" })],
      ["hovering", () => act(app, { name: "Lock" }, { action: "hover" })],
      ["opening the menu", () => act(app, { role: "menu" }, { action: "click" })],
      ["renaming from the menu", () => act(app, { name: "Rename" }, { action: "click" })],
      ["opening the menu again", () => act(app, { role: "menu" }, { action: "click" })],
      ["clearing every row", () => act(app, { name: "Clear" }, { action: "click" })],
      ["unlocking", () => act(app, { name: "Lock" }, { action: "click" })],
      ["adding after clearing", async () => {
        await act(app, { role: "text_field" }, { action: "type_text", text: "jam" });
        await act(app, { role: "text_field" }, { action: "press_key", keybind: "Enter" });
      }],
      ["tabbing around", async () => {
        for (let index = 0; index < 5; index++) {
          await act(app, { role: "text_field" }, { action: "press_key", keybind: "Tab" });
        }
      }],
      ["reopening and closing the details", async () => {
        await act(app, { name: "Details", role: "button" }, { action: "click" });
        await act(app, { name: "Details", role: "button" }, { action: "click" });
      }],
    ];
    for (const [name, step] of steps) {
      const before = updates.length;
      await step();
      assert.ok(updates.length > before, `${name} changed nothing, so it tests nothing`);
      assertSame(app, mirror, name);
    }
    assert.ok(updates.some((update) => update.removed.length > 0), "no update removed a node");
    stop();
  });

  await t.step("TreeMirror started mid-way keeps up as well", async () => {
    await using app = await render(notesApp(), { title: "Notes" });
    await act(app, { name: "Details", role: "button" }, { action: "click" });
    await act(app, { role: "menu" }, { action: "click" });
    const { mirror, stop } = follow(app.app);
    assertSame(app, mirror, "the snapshot");
    await act(app, { name: "Clear" }, { action: "click" });
    assertSame(app, mirror, "clearing");
    await act(app, { name: "Close" }, { action: "click" });
    assertSame(app, mirror, "closing");
    stop();
  });

  await t.step("TreeMirror.apply() reports what it added, changed and removed", async () => {
    await using app = await render(notesApp(), { title: "Notes" });
    const { mirror, updates, stop } = follow(app.app);
    const size = mirror.size;
    const firstRow = app.query({ role: "list_item" })[0]!;
    const rowIds = [...app.app.tree.walk(app.app.tree.get(firstRow.id))].map((node) => node.id);
    const again = new TreeMirror();
    again.apply(snapshotUpdate(app.app.tree));
    await app.userAct(app.query({ name: "Delete" })[0]!.id, { action: "click" });
    await app.settle();
    const update = updates.at(-1)!;
    assert.deepEqual([...update.removed].sort(), [...rowIds].sort());
    const changes = again.apply(update);
    assert.deepEqual([...changes.removed].sort(), [...rowIds].sort());
    assert.deepEqual(changes.added, []);
    assert.ok(changes.changed.length > 0);
    assert.equal(mirror.size, size - rowIds.length);
    for (const id of rowIds) assert.equal(mirror.get(id), undefined);
    assert.equal(formatTree(again.root), formatTree(mirror.root));
    stop();
  });

  await t.step("TreeMirror links a child listed before its own data, and moves nodes", () => {
    const node = (id: number, children: number[], name?: string) => ({
      id,
      role: id === 1 ? "window" as const : "group" as const,
      ...(name === undefined ? {} : { name }),
      states: [],
      bounds: { x: 0, y: 0, width: 1, height: 1 },
      children,
    });
    const mirror = new TreeMirror();
    mirror.apply({
      revision: 1,
      root: 1,
      nodes: [node(1, [2, 3]), node(2, [4]), node(3, []), node(4, [])],
      removed: [],
    });
    assert.equal(formatTree(mirror.root), "window #1\n group #2\n  group #4\n group #3\n");
    // #4 moves from #2 to #3; #2 is renamed; nothing else is sent.
    const changes = mirror.apply({
      revision: 2,
      root: 1,
      nodes: [node(3, [4]), node(2, [], "two")],
      removed: [],
    });
    assert.deepEqual(changes, {
      added: [],
      changed: [3, 2],
      removed: [],
      removedParents: [],
      before: [{
        id: 2,
        role: "group",
        name: undefined,
        value: undefined,
        description: undefined,
        states: 0,
      }],
    });
    assert.equal(
      formatTree(mirror.root),
      'window #1\n group "two" #2\n group #3\n  group #4\n',
    );
    assert.equal(mirror.get(4)?.parent?.id, 3);
  });

  await t.step("TreeMirror ignores the removal of a node it never had", () => {
    const mirror = new TreeMirror();
    const changes = mirror.apply({
      revision: 3,
      root: 1,
      nodes: [{
        id: 1,
        role: "window",
        name: "W",
        states: [],
        bounds: { x: 0, y: 0, width: 1, height: 1 },
        children: [],
      }],
      removed: [99],
    });
    assert.deepEqual(changes, {
      added: [1],
      changed: [],
      removed: [],
      removedParents: [],
      before: [],
    });
    assert.equal(mirror.revision, 3);
    assert.equal(formatTree(mirror.root), `window "W" #1\n`);
  });
});
