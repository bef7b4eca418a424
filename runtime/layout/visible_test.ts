import assert from "node:assert/strict";
import { render } from "../testing.ts";
import type { Signal } from "../reactive/mod.ts";
import { button, column, component, list, row, scrollView, show, text } from "../ui/mod.ts";
import { LabelWidget, type Widget } from "../ui/widget.ts";
import { layoutEntries, type SemanticTree, type State, type TreeUpdate } from "../semantics/mod.ts";
import { childrenIn, intersectRects, isEmptyRect, scrollIntoView } from "./visible.ts";

function names(elements: readonly Widget[]): string[] {
  return elements.map((element) => element instanceof LabelWidget ? element.label : element.kind);
}

Deno.test("intersectRects() and isEmptyRect()", () => {
  const overlap = intersectRects({ x: 0, y: 0, width: 4, height: 4 }, {
    x: 2,
    y: 3,
    width: 5,
    height: 5,
  });
  assert.deepEqual(overlap, { x: 2, y: 3, width: 2, height: 1 });
  assert.ok(
    isEmptyRect(
      intersectRects({ x: 0, y: 0, width: 1, height: 1 }, { x: 1, y: 0, width: 1, height: 1 }),
    ),
  );
});

Deno.test("childrenIn() finds the children overlapping an area, in order", async () => {
  await using app = await render(
    component(() => column(text("a"), text("b"), text("c"), row(text("d"), text("e")))),
  );
  const columnElement = app.app.root.children[0]!;
  assert.deepEqual(names(childrenIn(columnElement, { x: 0, y: 1, width: 10, height: 2 })), [
    "b",
    "c",
  ]);
  const rowElement = columnElement.children[3]!;
  assert.deepEqual(names(childrenIn(rowElement, { x: 2, y: 0, width: 1, height: 1 })), ["e"]);
  assert.deepEqual(childrenIn(columnElement, { x: 0, y: 0, width: 0, height: 5 }), []);
});

Deno.test("childrenIn() searches a long list, skipping children without size", async () => {
  const rows = Array.from({ length: 10_000 }, (_, index) => index);
  await using app = await render(
    component(() =>
      scrollView(
        list(rows, (index) =>
          index % 7 === 3 ? show(false, () => text("never")) : text(`Row ${index}`)),
      )
    ),
    { height: 24 },
  );
  const listElement = app.app.root.children[0]!.children[0]!;
  // Rows whose content is hidden take no room: row n is at y = n minus the hidden ones before.
  const found = childrenIn(listElement, { x: 0, y: 5000, width: 80, height: 3 });
  const shown = found.map((item) => names(item.children)[0]);
  assert.equal(found.length, 3);
  for (const element of found) {
    assert.ok(element.layout.y >= 5000 && element.layout.y < 5003, `row at ${element.layout.y}`);
  }
  assert.ok(shown.every((name) => name !== "never"));
  assert.deepEqual(childrenIn(listElement, { x: 0, y: 1e6, width: 80, height: 3 }), []);
});

Deno.test("place() moves a scrolled list as one box: its rows keep theirs", async () => {
  const rows = Array.from({ length: 1000 }, (_, index) => index);
  await using app = await render(
    component(() => scrollView(list(rows, (index) => text(`Row ${index}`)))),
    {
      height: 10,
    },
  );
  const view = app.app.root.children[0]!;
  const listElement = view.children[0]!;
  const row500 = listElement.children[500]!;
  const boxBefore = row500.layout.box;
  view.scroll!(0, 495);
  app.app.frame();
  assert.equal(listElement.layout.y, -495);
  assert.equal(row500.layout.box, boxBefore, "the row's box was not placed again");
  const entry = layoutEntries(app.app.tree.root).find((e) => e.id === row500.node!.id)!;
  assert.deepEqual([entry.x, entry.y], [0, 5], "its window position follows the list");
});

/** The ids of the nodes carrying `offscreen`, in tree order. */
function offscreenIds(tree: SemanticTree): number[] {
  return [...tree.walk()].filter((node) => node.has("offscreen")).map((node) => node.id);
}

/** Counts the `offscreen` writes the tree gets while `fn` runs. */
async function countOffscreenWrites(tree: SemanticTree, fn: () => Promise<void>) {
  const original = tree.setState;
  let writes = 0;
  tree.setState = function (this: SemanticTree, node, state: State, on) {
    if (state === "offscreen") writes++;
    original.call(this, node, state, on);
  };
  try {
    await fn();
  } finally {
    tree.setState = original;
  }
  return writes;
}

Deno.test("OffscreenTracker", async (t) => {
  await t.step("only the outermost node out of view carries offscreen", async () => {
    await using app = await render(
      component(() =>
        column(
          text("head"),
          scrollView(column(...Array.from({ length: 6 }, (_, index) =>
            row(text(`a${index}`), text(`b${index}`))))).height(3),
        )
      ),
      { width: 20, height: 10 },
    );
    // The rows have no node of their own: their texts are the outermost nodes.
    const expected = [3, 4, 5].flatMap((index) => [`a${index}`, `b${index}`]).map((name) =>
      app.get({ name }).id
    );
    assert.deepEqual(offscreenIds(app.app.tree), expected);
  });

  await t.step("a node past the window's edge carries it; its row does not", async () => {
    await using app = await render(
      component(() => list(["x"], () => row(text("a long title here"), button("Go", () => {})))),
      { width: 10, height: 5 },
    );
    assert.deepEqual(offscreenIds(app.app.tree), [app.get({ name: "Go" }).id]);
  });

  await t.step(
    "an empty list in an empty scroll view is on screen, where its rows will be",
    async () => {
      let rows!: Signal<string[]>;
      await using app = await render(
        component((cx) => {
          rows = cx.signal<string[]>([]);
          return column(text("head"), scrollView(list(rows, (name) => text(name))));
        }),
        { width: 20, height: 10 },
      );
      assert.deepEqual(offscreenIds(app.app.tree), [], app.tree());
      rows.set(["first"]);
      await app.settle();
      assert.deepEqual(offscreenIds(app.app.tree), [], app.tree());
    },
  );

  await t.step("a scroll in 10,000 rows writes the rows that moved, not the list", async () => {
    let rows!: Signal<number[]>;
    await using app = await render(
      component((cx) => {
        rows = cx.signal(Array.from({ length: 10_000 }, (_, index) => index));
        return scrollView(list(rows, (index) => text(`Row ${index}`)));
      }),
      { width: 20, height: 10 },
    );
    assert.equal(offscreenIds(app.app.tree).length, 10_000 - 10);
    const view = app.get({ role: "scroll_view" });
    const updates: TreeUpdate[] = [];
    app.app.onTreeUpdate((update) => updates.push(update));
    const writes = await countOffscreenWrites(app.app.tree, async () => {
      await app.act(view.id, { action: "scroll", delta: { x: 0, y: 3 } });
    });
    // The nodes on screen (about 25) are written, and the three rows that left the view;
    // not the 10,000 rows of the list.
    assert.ok(writes < 50, `${writes} offscreen writes`);
    const changed = updates.flatMap((update) => update.nodes).filter((node) =>
      node.role !== "list"
    );
    assert.equal(changed.length, 6, "three rows left the view and three came in");
    const flagged = new Set(offscreenIds(app.app.tree));
    assert.equal(flagged.size, 10_000 - 10);
    const shown = app.app.tree.get(app.get({ role: "list" }).id)!.children
      .map((node, index) => flagged.has(node.id) ? -1 : index).filter((index) => index >= 0);
    assert.deepEqual(shown, [3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    // A row added at the end is out of view from its first frame.
    rows.set([...rows.get(), 10_000]);
    await app.settle();
    assert.equal(offscreenIds(app.app.tree).length, 10_001 - 10);
  });

  await t.step("a node added inside a row without a node of its own is marked", async () => {
    let extra!: Signal<boolean>;
    await using app = await render(
      component((cx) => {
        extra = cx.signal(false);
        // 40 rows make a long container; the rows are plain rows, without nodes.
        return scrollView(column(...Array.from({ length: 40 }, (_, index) =>
          row(
            text(`Row ${index}`),
            ...(index === 30 ? [show(extra, () => button("Extra", () => {}))] : []),
          ))));
      }),
      { width: 30, height: 10 },
    );
    extra.set(true);
    await app.settle();
    const flagged = offscreenIds(app.app.tree);
    assert.ok(flagged.includes(app.get({ name: "Extra" }).id), "the new button is offscreen");
    assert.equal(flagged.length, 30 + 1);
  });

  await t.step("a list scrolled out as a whole leaves one mark, on the list", async () => {
    await using app = await render(
      component(() =>
        scrollView(column(
          list(Array.from({ length: 50 }, (_, index) => index), (index) => text(`Row ${index}`)),
          ...Array.from({ length: 100 }, (_, index) => text(`After ${index}`)),
        ))
      ),
      { width: 20, height: 10 },
    );
    const view = app.get({ role: "scroll_view" });
    await app.act(view.id, { action: "scroll", delta: { x: 0, y: 80 } });
    const listId = app.get({ role: "list" }).id;
    const flagged = offscreenIds(app.app.tree);
    assert.ok(flagged.includes(listId));
    const rowIds = new Set(app.app.tree.get(listId)!.children.map((node) => node.id));
    assert.equal(flagged.filter((id) => rowIds.has(id)).length, 0, "its rows are implied");
    await app.act(view.id, { action: "scroll", delta: { x: 0, y: -80 } });
    assert.equal(offscreenIds(app.app.tree).filter((id) => rowIds.has(id)).length, 40);
  });
});

Deno.test("scrollIntoView() scrolls as little as shows the element", async () => {
  await using app = await render(
    component(() =>
      scrollView(list(Array.from({ length: 30 }, (_, i) => i), (i) => text(`R${i}`)))
    ),
    { width: 20, height: 5 },
  );
  const view = app.app.elementById(app.get({ role: "scroll_view" }).id)!;
  const listElement = view.children[0]!;
  const relayout = () => app.app.frame();
  scrollIntoView(listElement.children[12]!, relayout);
  assert.equal(view.layout.scroll.y, 8, "row 12 is the last row in view");
  scrollIntoView(listElement.children[10]!, relayout);
  assert.equal(view.layout.scroll.y, 8, "a row in view needs no scroll");
  scrollIntoView(listElement.children[2]!, relayout);
  assert.equal(view.layout.scroll.y, 2, "row 2 is the first row in view");
});
