import assert from "node:assert/strict";
import {
  bind,
  button,
  checkbox,
  column,
  component,
  dialog,
  list,
  row,
  scrollView,
  show,
  type Signal,
  text,
  type TreeUpdate,
} from "../mod.ts";
import { layoutEntries, type LayoutEntry } from "../semantics/mod.ts";
import { type NodeQuery, render, type TestApp } from "../testing.ts";

/** A node's bounds in window coordinates, from the inspect snapshot's layout. */
function boxOf(app: TestApp, query: NodeQuery | number): Omit<LayoutEntry, "id" | "role"> {
  const id = typeof query === "number" ? query : app.get(query).id;
  const entry = app.snapshot().layout.find((candidate) => candidate.id === id);
  assert.ok(entry, `no layout entry for node #${id}`);
  const { x, y, width, height } = entry;
  return { x, y, width, height };
}

/** Every node's window bounds by id. */
function layoutById(app: TestApp): Map<number, string> {
  return new Map(
    app.snapshot().layout.map((e) => [e.id, `${e.role} ${e.x},${e.y} ${e.width}x${e.height}`]),
  );
}

/** Collects the tree updates of the frames that follow. */
function recordUpdates(app: TestApp): TreeUpdate[] {
  const updates: TreeUpdate[] = [];
  app.app.onTreeUpdate((update) => updates.push(update));
  return updates;
}

function updatedIds(updates: TreeUpdate[]): number[] {
  return updates.flatMap((update) => update.nodes.map((node) => node.id)).sort((a, b) => a - b);
}

function items(count: number, prefix = "Item"): string[] {
  return Array.from({ length: count }, (_, index) => `${prefix} ${index}`);
}

Deno.test("layoutWindow() rows and columns", async (t) => {
  await t.step("a row puts its children side by side, one cell apart", async () => {
    await using app = await render(row(text("ab"), text("cde"), button("OK", () => {})));
    assert.deepEqual(boxOf(app, { name: "ab" }), { x: 0, y: 0, width: 2, height: 1 });
    assert.deepEqual(boxOf(app, { name: "cde" }), { x: 3, y: 0, width: 3, height: 1 });
    assert.deepEqual(boxOf(app, { name: "OK" }), { x: 7, y: 0, width: 6, height: 1 });
  });

  await t.step("a column stacks its children top to bottom", async () => {
    await using app = await render(column(text("a"), button("Go", () => {}), text("ccc")));
    assert.deepEqual(boxOf(app, { name: "a" }), { x: 0, y: 0, width: 1, height: 1 });
    assert.deepEqual(boxOf(app, { name: "Go" }), { x: 0, y: 1, width: 6, height: 1 });
    assert.deepEqual(boxOf(app, { name: "ccc" }), { x: 0, y: 2, width: 3, height: 1 });
  });

  await t.step("a button is as wide as its label plus 4 cells", async () => {
    await using app = await render(
      column(button("Save", () => {}), button("ünïcode", () => {}), button("日本", () => {})),
    );
    assert.equal(boxOf(app, { name: "Save" }).width, 4 + 4);
    assert.equal(boxOf(app, { name: "ünïcode" }).width, 7 + 4);
    assert.equal(boxOf(app, { name: "日本" }).width, 4 + 4, "wide characters take two cells");
  });

  await t.step("nested rows and columns add up", async () => {
    await using app = await render(
      column(
        row(text("a"), text("b")),
        row(column(text("x"), text("yy")), button("Go", () => {}), column(text("z"))),
        text("end"),
      ),
    );
    assert.deepEqual(boxOf(app, { name: "a" }), { x: 0, y: 0, width: 1, height: 1 });
    assert.deepEqual(boxOf(app, { name: "b" }), { x: 2, y: 0, width: 1, height: 1 });
    assert.deepEqual(boxOf(app, { name: "x" }), { x: 0, y: 1, width: 1, height: 1 });
    assert.deepEqual(boxOf(app, { name: "yy" }), { x: 0, y: 2, width: 2, height: 1 });
    assert.deepEqual(boxOf(app, { name: "Go" }), { x: 3, y: 1, width: 6, height: 1 });
    assert.deepEqual(boxOf(app, { name: "z" }), { x: 10, y: 1, width: 1, height: 1 });
    assert.deepEqual(boxOf(app, { name: "end" }), { x: 0, y: 3, width: 3, height: 1 });
  });

  await t.step("node bounds are relative to the parent node", async () => {
    await using app = await render(
      column(text("top"), list(["a", "b"], (item) => row(text("-"), text(item)))),
    );
    const json = app.snapshot().tree;
    const listJson = json.children.find((child) => child.role === "list")!;
    assert.deepEqual(listJson.bounds, { x: 0, y: 1, width: 3, height: 2 });
    const second = listJson.children[1]!;
    assert.deepEqual(second.bounds, { x: 0, y: 1, width: 3, height: 1 });
    assert.deepEqual(second.children.map((child) => child.bounds.x), [0, 2]);
    assert.deepEqual(boxOf(app, { name: "b" }), { x: 2, y: 2, width: 1, height: 1 });
  });

  await t.step(
    "a text that grows moves its siblings in a row, and only what moved changes",
    async () => {
      let label!: Signal<string>;
      await using app = await render(component((cx) => {
        label = cx.signal("ab");
        return column(row(text(label), button("OK", () => {}), text("tail")), text("below"));
      }));
      assert.equal(boxOf(app, { name: "OK" }).x, 3);
      const updates = recordUpdates(app);
      label.set("abcdef");
      await app.settle();
      assert.deepEqual(boxOf(app, { name: "abcdef" }), { x: 0, y: 0, width: 6, height: 1 });
      assert.deepEqual(boxOf(app, { name: "OK" }), { x: 7, y: 0, width: 6, height: 1 });
      assert.deepEqual(boxOf(app, { name: "tail" }), { x: 14, y: 0, width: 4, height: 1 });
      assert.deepEqual(boxOf(app, { name: "below" }), { x: 0, y: 1, width: 5, height: 1 });
      assert.equal(updates.length, 1);
      const moved = ["abcdef", "OK", "tail"].map((name) => app.get({ name }).id);
      assert.deepEqual(updatedIds(updates), moved.sort((a, b) => a - b));
    },
  );
});

Deno.test("layoutWindow() growing children", async (t) => {
  await t.step("a child that grows takes the spare room along its row", async () => {
    await using app = await render(row(text("a").grow(), text("b")).width(30));
    assert.deepEqual(boxOf(app, { name: "a" }), { x: 0, y: 0, width: 28, height: 1 });
    assert.deepEqual(boxOf(app, { name: "b" }), { x: 29, y: 0, width: 1, height: 1 });
  });

  await t.step("spare room is shared by the children's shares", async () => {
    await using app = await render(row(text("a").grow(1), text("b").grow(2)).width(31));
    // 31 cells: 1 + 1 natural, 1 gap, 28 spare split 1:2.
    assert.deepEqual(boxOf(app, { name: "a" }).width, 1 + 9);
    assert.deepEqual(boxOf(app, { name: "b" }), { x: 11, y: 0, width: 1 + 19, height: 1 });
  });

  await t.step("a fixed width wins over growing in a row", async () => {
    await using app = await render(row(text("a").grow().width(5), text("b")).width(30));
    assert.deepEqual(boxOf(app, { name: "a" }), { x: 0, y: 0, width: 5, height: 1 });
    assert.deepEqual(boxOf(app, { name: "b" }), { x: 6, y: 0, width: 1, height: 1 });
  });

  await t.step("a fixed height wins over growing in a column", async () => {
    await using app = await render(column(text("a").grow().height(2), text("b")), { height: 10 });
    assert.deepEqual(boxOf(app, { name: "a" }), { x: 0, y: 0, width: 1, height: 2 });
    assert.deepEqual(boxOf(app, { name: "b" }), { x: 0, y: 2, width: 1, height: 1 });
  });
});

Deno.test("layoutWindow() scroll views", async (t) => {
  await t.step("a scroll view fills the height left and clips its content", async () => {
    await using app = await render(
      column(text("head"), scrollView(list(items(30), (item) => text(item))), text("foot")),
      { width: 20, height: 10 },
    );
    const view = boxOf(app, { role: "scroll_view" });
    assert.deepEqual(view, { x: 0, y: 1, width: 7, height: 8 });
    assert.deepEqual(boxOf(app, { name: "foot" }), { x: 0, y: 9, width: 4, height: 1 });
    const content = boxOf(app, { role: "list" });
    assert.equal(content.height, 30, "the content keeps its natural height");
    assert.equal(content.y, view.y);
  });

  await t.step("a short content still gets a scroll view that fills the window", async () => {
    await using app = await render(column(text("head"), scrollView(text("only"))), {
      width: 20,
      height: 10,
    });
    assert.deepEqual(boxOf(app, { role: "scroll_view" }), { x: 0, y: 1, width: 4, height: 9 });
    assert.deepEqual(boxOf(app, { name: "only" }), { x: 0, y: 1, width: 4, height: 1 });
  });

  await t.step("a scroll view given a height keeps it", async () => {
    await using app = await render(
      column(scrollView(list(items(30), (item) => text(item))).height(3), text("after")),
      { width: 20, height: 10 },
    );
    assert.equal(boxOf(app, { role: "scroll_view" }).height, 3);
    assert.deepEqual(boxOf(app, { name: "after" }), { x: 0, y: 3, width: 5, height: 1 });
  });

  await t.step("scrolling moves the content: one node's bounds change", async () => {
    await using app = await render(
      column(text("head"), scrollView(list(items(30), (item) => text(item)))),
      { width: 20, height: 10 },
    );
    const view = app.get({ role: "scroll_view" });
    const content = app.get({ role: "list" });
    const rows = app.query({ role: "list_item" });
    const before = boxOf(app, content.id);
    const updates = recordUpdates(app);
    const revision = app.revision;
    assert.equal(await app.act(view.id, { action: "scroll", delta: { x: 0, y: 5 } }), revision + 1);
    assert.deepEqual(boxOf(app, content.id), { ...before, y: before.y - 5 });
    // Besides the content's bounds, only the rows that left (0–4) or entered (9–13) the
    // 9-row view changed: their offscreen state.
    const moved = [...rows.slice(0, 5), ...rows.slice(9, 14)].map((row) => row.id);
    assert.deepEqual(updatedIds(updates), [content.id, ...moved].sort((a, b) => a - b));
    for (const node of updates.flatMap((update) => update.nodes)) {
      if (node.id === content.id) continue;
      const row = rows.findIndex((candidate) => candidate.id === node.id);
      assert.equal(node.states.includes("offscreen"), row < 5, `row ${row}`);
    }
    assert.deepEqual(app.snapshot().tree.children[1]!.children[0]!.bounds.y, -5);
    // Rows keep their place inside the content; on screen they moved with it.
    assert.deepEqual(boxOf(app, { role: "list_item", name: "Item 5" }).y, 1);
  });

  await t.step("scrolling stops at the end of the content and at its start", async () => {
    await using app = await render(
      column(text("head"), scrollView(list(items(30), (item) => text(item)))),
      { width: 20, height: 10 },
    );
    const view = app.get({ role: "scroll_view" });
    // Scrolling a node inside scrolls its view.
    const item = app.get({ role: "list_item", name: "Item 3" });
    await app.act(item.id, { action: "scroll", delta: { x: 0, y: 1000 } });
    // 30 rows in a 9-row viewport: the last row sits on the last line.
    assert.equal(boxOf(app, { role: "list" }).y, 1 - (30 - 9));
    assert.equal(boxOf(app, { role: "list_item", name: "Item 29" }).y, 9);
    const revision = app.revision;
    await app.act(view.id, { action: "scroll", delta: { x: 0, y: 3 } });
    assert.equal(app.revision, revision, "scrolling past the end changes nothing");
    await app.act(view.id, { action: "scroll", delta: { x: 0, y: -1000 } });
    assert.equal(boxOf(app, { role: "list" }).y, 1);
  });

  await t.step("content that shrinks pulls the scroll position back", async () => {
    let rows!: Signal<string[]>;
    await using app = await render(
      component((cx) => {
        rows = cx.signal(items(30));
        return scrollView(list(rows, (item) => text(item)));
      }),
      { width: 20, height: 10 },
    );
    const view = app.get({ role: "scroll_view" });
    await app.act(view.id, { action: "scroll", delta: { x: 0, y: 100 } });
    assert.equal(boxOf(app, { role: "list" }).y, -20);
    rows.set(items(12));
    await app.settle();
    assert.equal(boxOf(app, { role: "list" }).y, -2, "the last row still ends the viewport");
    rows.set(items(2));
    await app.settle();
    assert.equal(boxOf(app, { role: "list" }).y, 0);
    assert.equal(boxOf(app, { role: "list_item", name: "Item 0" }).y, 0);
  });

  await t.step("a wide content scrolls sideways", async () => {
    await using app = await render(scrollView(text("x".repeat(50))), { width: 20, height: 5 });
    const view = app.get({ role: "scroll_view" });
    assert.equal(boxOf(app, view.id).width, 20);
    assert.equal(boxOf(app, { role: "text" }).width, 50, "the content keeps its natural width");
    await app.act(view.id, { action: "scroll", delta: { x: 10, y: 0 } });
    assert.equal(boxOf(app, { role: "text" }).x, -10);
    await app.act(view.id, { action: "scroll", delta: { x: 100, y: 0 } });
    assert.equal(boxOf(app, { role: "text" }).x, -30);
  });
});

Deno.test("layoutWindow() dialogs", async (t) => {
  const withDialog = component((cx) => {
    const open = cx.signal(false);
    return column(
      text("top"),
      row(
        text("left"),
        button("Open", () => open.set(true)),
        show(open, () => dialog("Confirm", text("Sure?"), button("Yes", () => {}))),
        text("right"),
      ),
      text("bottom"),
    );
  });

  await t.step("a dialog shown with show() is centred in the window", async () => {
    await using app = await render(withDialog, { width: 40, height: 12 });
    await app.act(app.get({ name: "Open" }).id, { action: "click" });
    // "Confirm" (7) plus padding 1 and a border on each side; title, two rows, frame.
    const box = boxOf(app, { role: "dialog" });
    assert.deepEqual(box, {
      x: Math.floor((40 - 11) / 2),
      y: Math.floor((12 - 7) / 2),
      width: 11,
      height: 7,
    });
    assert.deepEqual(boxOf(app, { name: "Sure?" }), {
      x: box.x + 2,
      y: box.y + 3,
      width: 5,
      height: 1,
    });
    assert.deepEqual(boxOf(app, { name: "Yes" }), {
      x: box.x + 2,
      y: box.y + 4,
      width: 7,
      height: 1,
    });
  });

  await t.step("a dialog does not push its siblings", async () => {
    await using app = await render(withDialog, { width: 40, height: 12 });
    const before = layoutById(app);
    await app.act(app.get({ name: "Open" }).id, { action: "click" });
    const after = layoutById(app);
    const dialogId = app.get({ role: "dialog" }).id;
    assert.ok(after.size > before.size);
    for (const [id, entry] of before) assert.equal(after.get(id), entry, `node #${id} moved`);
    assert.ok(after.has(dialogId));
  });
});

/** A list of `count` rows, each a checkbox, a text and a Delete button, under a header. */
interface Row {
  id: number;
  title: Signal<string>;
  done: Signal<boolean>;
}

async function bigList(count: number): Promise<{ app: TestApp; rows: Row[] }> {
  let rows!: Row[];
  const app = await render(component((cx) => {
    rows = Array.from({ length: count }, (_, index) => ({
      id: index,
      title: cx.signal(`Row ${String(index).padStart(4, "0")}`),
      done: cx.signal(false),
    }));
    const deleted = cx.signal(0);
    return column(
      text(bind(() => `${deleted.get()} deleted`)),
      scrollView(list(rows, (item) =>
        row(
          checkbox("Done", item.done),
          text(item.title),
          button("Delete", () => deleted.set(deleted.get() + 1)),
        ), (item) => item.id)),
    );
  }));
  return { app, rows };
}

Deno.test("layoutWindow() is incremental on a list of 1,000 rows", async (t) => {
  const { app, rows } = await bigList(1000);
  const boxes = app.query({ role: "checkbox" });
  assert.equal(boxes.length, 1000);

  await t.step("toggling a checkbox changes that one node", async () => {
    // Rows 500 and 501 in view first: acting on an offscreen node scrolls to it.
    await app.act(app.get({ role: "scroll_view" }).id, {
      action: "scroll",
      delta: { x: 0, y: 500 },
    });
    const updates = recordUpdates(app);
    const box = boxes[500]!;
    await app.act(box.id, { action: "click" });
    assert.equal(updates.length, 1);
    assert.deepEqual(updatedIds(updates), [box.id]);
    assert.deepEqual(updates[0]!.nodes[0]!.states, ["focused", "checked"]);
  });

  await t.step("toggling another changes it and the one that lost focus", async () => {
    const updates = recordUpdates(app);
    await app.act(boxes[501]!.id, { action: "click" });
    assert.deepEqual(updatedIds(updates), [boxes[500]!.id, boxes[501]!.id]);
    assert.ok(rows[501]!.done.get());
  });

  await t.step("a narrower text in one row changes only that row's nodes", async () => {
    const row = app.query({ role: "list_item" })[700]!;
    const rowNode = app.app.tree.get(row.id)!;
    const inRow = new Set([row.id, ...rowNode.children.map((child) => child.id)]);
    const buttonBefore = boxOf(app, rowNode.children[2]!.id);
    const updates = recordUpdates(app);
    rows[700]!.title.set("R700");
    await app.settle();
    assert.equal(updates.length, 1);
    const changed = updatedIds(updates);
    assert.ok(changed.length > 0 && changed.length <= 3, `changed ${changed.length} nodes`);
    for (const id of changed) assert.ok(inRow.has(id), `node #${id} is outside the row`);
    assert.equal(boxOf(app, rowNode.children[2]!.id).x, buttonBefore.x - 4);
  });

  await t.step("a wider text in one row changes that row and the widths it sets", async () => {
    const row = app.query({ role: "list_item" })[10]!;
    const rowNode = app.app.tree.get(row.id)!;
    const allowed = new Set([
      row.id,
      ...rowNode.children.map((child) => child.id),
      app.get({ role: "list" }).id,
      app.get({ role: "scroll_view" }).id,
    ]);
    const updates = recordUpdates(app);
    rows[10]!.title.set("Row 10, now the widest of them all");
    await app.settle();
    const changed = updatedIds(updates);
    assert.ok(changed.length <= allowed.size, `changed ${changed.length} nodes`);
    for (const id of changed) assert.ok(allowed.has(id), `node #${id} should not have changed`);
  });

  await t.step("placement skips the rows that did not change", async () => {
    const tree = app.app.tree;
    const placeNode = tree.placeNode;
    let placed = 0;
    tree.placeNode = (node, x, y, width, height) => {
      placed++;
      placeNode.call(tree, node, x, y, width, height);
    };
    try {
      rows[300]!.title.set("R300");
      await app.settle();
      await app.act(boxes[302]!.id, { action: "click" });
    } finally {
      tree.placeNode = placeNode;
    }
    // The changed row's nodes and the ancestors above it, not the 4,000 nodes of the list.
    assert.ok(placed > 0 && placed <= 20, `${placed} nodes were placed`);
  });

  await t.step("a frame with nothing to do changes nothing", async () => {
    const updates = recordUpdates(app);
    const revision = app.revision;
    app.app.frame();
    const focused = app.app.focused?.node?.id;
    assert.ok(focused !== undefined);
    await app.act(focused, { action: "focus" }); // already focused
    assert.deepEqual(updates, []);
    assert.equal(app.revision, revision);
  });

  await app.close();
});

Deno.test("a scroll view in a row fills the height the row gets, nested: master/detail", async () => {
  const rows = Array.from({ length: 100 }, (_, index) => `Row ${index}`);
  await using app = await render(
    component(() =>
      column(
        text("Files"),
        row(
          scrollView(list(rows, (item) => text(item))).width(30),
          column(text("Detail"), row(column(scrollView(list(rows, (item) => text(item)))))),
        ),
        text("Footer"),
      )
    ),
    { width: 80, height: 20 },
  );
  const [master, detail] = app.query({ role: "scroll_view" });
  const bounds = (id: number) => layoutEntries(app.app.tree.root).find((e) => e.id === id)!;
  assert.equal(bounds(master!.id).height, 18, "the window's 20 rows less the title and footer");
  assert.equal(bounds(detail!.id).height, 17, "nested in a column and a row: less Detail too");
  assert.equal(bounds(app.get({ name: "Footer" }).id).y, 19);
  // The list scrolls in its view instead of growing past it.
  assert.deepEqual(
    app.query({ role: "list_item", within: master!.id, state: "offscreen" }).length,
    82,
  );
  await app.act(master!.id, { action: "scroll", delta: { x: 0, y: 50 } });
  assert.ok(
    !app.query({ role: "list_item", name: "Row 60", within: master!.id })[0]!.states.includes(
      "offscreen",
    ),
  );
});
