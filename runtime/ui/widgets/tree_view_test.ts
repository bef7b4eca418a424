import assert from "node:assert/strict";
import { clickAt } from "../../input/person.ts";
import type { Signal } from "../../reactive/mod.ts";
import { render } from "../../testing.ts";
import { component, treeView } from "../mod.ts";

type Folder = { name: string; folders?: Folder[] };

const folders: Folder[] = [
  { name: "docs" },
  {
    name: "src",
    folders: [{ name: "ui", folders: [{ name: "widgets" }] }, { name: "text" }],
  },
  { name: "tests", folders: [] },
];

const foldersTree = (items: Folder[], calls: string[] = []) =>
  treeView({
    label: "Folders",
    items,
    name: (folder: Folder) => folder.name,
    children: (folder) => {
      calls.push(folder.name);
      return folder.folders ?? null;
    },
    hasChildren: (folder) => folder.folders !== undefined,
  });

Deno.test("tree view: items nest, levels show, Right and Left expand, collapse and move", async () => {
  const calls: string[] = [];
  await using app = await render(component(() => foldersTree(folders, calls)), {
    width: 30,
    height: 8,
  });
  assert.match(
    app.tree(),
    /^ tree "Folders" #\d+\n {2}tree_item "docs" #\d+ level=1\n {2}tree_item "src" #\d+ level=1 collapsed\n {2}tree_item "tests" #\d+ level=1 collapsed\n$/m,
  );
  assert.deepEqual(app.screen().lines.slice(0, 3), ["  docs", "▸ src", "▸ tests"]);
  await app.press("Tab");
  assert.equal(app.get({ state: "focused" }).role, "tree");
  await app.press("ArrowDown");
  await app.press("ArrowDown");
  assert.equal(app.get({ role: "tree_item", state: "selected" }).name, "src");
  await app.press("ArrowRight");
  assert.deepEqual(calls, ["src"]);
  assert.match(
    app.tree(),
    /tree_item "src" #\d+ level=1 selected expanded\n {3}tree_item "ui" #\d+ level=2 collapsed\n {3}tree_item "text" #\d+ level=2\n/,
  );
  assert.deepEqual(app.screen().lines.slice(0, 5), [
    "  docs",
    "▾ src",
    "  ▸ ui",
    "    text",
    "▸ tests",
  ]);
  await app.press("ArrowRight"); // expanded: to the first child
  assert.equal(app.get({ role: "tree_item", state: "selected" }).name, "ui");
  await app.press("ArrowRight");
  assert.match(app.tree(), / {4}tree_item "widgets" #\d+ level=3\n/);
  await app.press("ArrowLeft"); // collapses ui
  assert.doesNotMatch(app.tree(), /widgets/);
  await app.press("ArrowLeft"); // ui is collapsed: to its parent
  assert.equal(app.get({ role: "tree_item", state: "selected" }).name, "src");
  await app.press("ArrowLeft");
  assert.doesNotMatch(app.tree(), /"ui"/);
  await app.press("ArrowRight");
  assert.deepEqual(calls, ["src", "ui"], "children are asked for once, when first expanded");
  // A folder whose children come back empty becomes a leaf.
  await app.press("End");
  await app.press("ArrowRight");
  assert.match(app.tree(), /tree_item "tests" #\d+ level=1 selected\n/);
});

Deno.test("tree view: children that come later show busy, then arrive", async () => {
  let resolve: (items: Folder[]) => void = () => {};
  await using app = await render(
    component(() =>
      treeView({
        label: "Folders",
        items: [{ name: "remote" }],
        name: (folder: Folder) => folder.name,
        children: () => new Promise<Folder[]>((done) => resolve = done),
      })
    ),
    { width: 30, height: 6 },
  );
  const remote = app.get({ role: "tree_item", name: "remote" });
  await app.act(remote.id, { action: "press_key", keybind: "ArrowRight" });
  assert.match(app.tree(), /tree_item "remote" #\d+ level=1 selected expanded busy\n/);
  assert.equal(app.screen().lines[0], "⋯ remote");
  resolve([{ name: "a" }, { name: "b" }]);
  await app.settle();
  assert.match(app.tree(), /tree_item "remote" #\d+ level=1 selected expanded\n {3}tree_item "a"/);
  assert.equal(app.screen().lines[1], "  ▸ a");
});

Deno.test("tree view: a click selects, a click on the marker or a double click expands", async () => {
  await using app = await render(component(() => foldersTree(folders)), { width: 30, height: 8 });
  assert.ok(clickAt(app.app, 3, 1)); // on "src"
  await app.settle();
  assert.equal(app.get({ role: "tree_item", state: "selected" }).name, "src");
  assert.doesNotMatch(app.tree(), /"ui"/);
  assert.ok(clickAt(app.app, 0, 1)); // on its ▸
  await app.settle();
  assert.match(app.tree(), /tree_item "ui"/);
  await app.act(app.get({ role: "tree_item", name: "ui" }).id, { action: "double_click" });
  assert.match(app.tree(), /tree_item "widgets"/);
});

Deno.test("tree view: 10,000 items, one with 1,000 children: only those in view are placed", async () => {
  let chosen: Signal<unknown> | undefined;
  const items: Folder[] = Array.from({ length: 10_000 }, (_, index) =>
    index === 5
      ? {
        name: `folder-${index}`,
        folders: Array.from({ length: 1000 }, (_, child) => ({ name: `child-${child}` })),
      }
      : { name: `folder-${index}` });
  await using app = await render(
    component((cx) => {
      chosen = cx.signal<unknown>(null);
      return foldersTree(items).selection(chosen);
    }),
    { width: 30, height: 10 },
  );
  const five = app.get({ role: "tree_item", name: "folder-5" });
  await app.act(five.id, { action: "press_key", keybind: "ArrowRight" });
  assert.equal(app.query({ role: "tree_item", limit: 20_000 }).length, 11_000);
  const shown = app.tree({ visible: true });
  assert.equal(shown.match(/tree_item/g)?.length, 10, shown);
  assert.match(shown, /tree_item "child-3" #\d+ level=2/);
  // Out of view, found all the same; a click brings it into view.
  const far = app.get({ role: "tree_item", name: "child-900" });
  assert.deepEqual(far.states, ["offscreen"]);
  await app.act(far.id, { action: "click" });
  assert.equal(chosen!.get(), items[5]!.folders![900]);
  assert.match(app.screen().text, /child-900/);
  await app.act(app.get({ role: "tree" }).id, { action: "select", option: "folder-9000" });
  assert.equal((chosen!.get() as Folder).name, "folder-9000");
  assert.match(app.screen().text, /folder-9000/);
});

Deno.test("tree view: an item scrolled above whose children show is in view through them", async () => {
  const items: Folder[] = [
    { name: "big", folders: Array.from({ length: 50 }, (_, index) => ({ name: `c-${index}` })) },
    { name: "after" },
  ];
  await using app = await render(component(() => foldersTree(items)), { width: 30, height: 5 });
  const big = app.get({ role: "tree_item", name: "big" });
  await app.act(big.id, { action: "press_key", keybind: "ArrowRight" });
  await app.act(app.get({ role: "tree" }).id, { action: "select", option: "c-30" });
  assert.deepEqual(
    app.get({ id: big.id }).states,
    ["expanded"],
    "not offscreen: its children show",
  );
  assert.deepEqual(app.get({ role: "tree_item", name: "c-2" }).states, ["offscreen"]);
  assert.ok(app.get({ role: "tree_item", name: "after" }).states.includes("offscreen"));
  const shown = app.tree({ visible: true });
  assert.match(
    shown,
    /tree_item "big" #\d+ level=1 expanded onscreen=#\d+\.\.#\d+\n/,
  );
  assert.equal(shown.match(/tree_item "c-/g)?.length, 5, shown);
  assert.match(shown, /tree_item "c-30" #\d+ level=2 selected/);
});
