import assert from "node:assert/strict";
import { isStackLine, setLogSink } from "../../app/log.ts";
import { render, type TestApp } from "../../testing.ts";
import type { Signal } from "../../reactive/mod.ts";
import { AppTool, bind, column, component, list, row, text } from "../mod.ts";
import { button } from "./mod.ts";
import { rowsOf } from "../_test_tree.ts";

/** Renders a list of strings (key: the string) whose rows are a text and a button. */
async function renderList(initial: string[], key?: (item: string) => unknown) {
  let items: Signal<string[]> | undefined;
  const events: string[] = [];
  const root = component((cx) => {
    items = cx.signal(initial);
    return list(
      items,
      (item) =>
        component((rowCx) => {
          rowCx.onCleanup(() => events.push(`cleanup ${item}`));
          return row(text(item), button("Open", () => events.push(`open ${item}`)));
        }),
      key,
    )
      .onSelect((item) => events.push(`select ${item}`))
      .onActivate((item) => events.push(`activate ${item}`));
  });
  const app = await render(root);
  const set = async (next: string[]) => {
    items!.set(next);
    await app.settle();
  };
  return { app, set, events };
}

/** The ids of each row by its text: the list_item's, the text's and the button's. */
function idsByText(app: TestApp): Map<string, number[]> {
  return new Map(rowsOf(app).map((row) => [row.names[0]!, [row.item, ...row.ids]]));
}

function textsOf(app: TestApp): string[] {
  return rowsOf(app).map((row) => row.names[0]!);
}

Deno.test("list() keyed rows", async (t) => {
  await t.step("list() mounts one list_item per item, in order", async () => {
    const { app } = await renderList(["a", "b"]);
    assert.equal(
      app.tree(),
      [
        `window "Test" #1`,
        ` list #2`,
        `  list_item "a" #3`,
        `   button "Open" #5`,
        `  list_item "b" #6`,
        `   button "Open" #8`,
        ``,
      ].join("\n"),
    );
    await app.close();
  });

  await t.step("list() rows keep their ids when the items are reordered", async () => {
    const { app, set, events } = await renderList(["a", "b", "c"]);
    const before = idsByText(app);
    const revision = app.revision;
    await set(["c", "a", "b"]);
    assert.deepEqual(textsOf(app), ["c", "a", "b"]);
    assert.deepEqual(idsByText(app), before);
    assert.equal(app.revision, revision + 1);
    assert.deepEqual(events, [], "no row was unmounted");
    await app.close();
  });

  await t.step("list() keeps rows across an insert and gives the new row fresh ids", async () => {
    const { app, set } = await renderList(["a", "b"]);
    const before = idsByText(app);
    const highest = Math.max(...[...before.values()].flat());
    await set(["new", "a", "b"]);
    const after = idsByText(app);
    assert.deepEqual(after.get("a"), before.get("a"));
    assert.deepEqual(after.get("b"), before.get("b"));
    for (const id of after.get("new")!) assert.ok(id > highest, `id ${id} is new`);
    await app.close();
  });

  await t.step(
    "list() unmounts removed rows for good: cleanups run, ids are never reused",
    async () => {
      const { app, set, events } = await renderList(["a", "b", "c"]);
      const before = idsByText(app);
      await set(["a", "c"]);
      assert.deepEqual(events, ["cleanup b"]);
      const goneIds = before.get("b")!;
      for (const id of goneIds) {
        await assert.rejects(() => app.act(id, { action: "click" }), {
          name: "ActionError",
          message: `no node with id ${id}; read ui_tree again`,
        });
      }
      await set(["a", "b", "c"]); // the same key again is a new row
      const again = idsByText(app).get("b")!;
      const everUsed = new Set([...before.values()].flat());
      for (const id of again) assert.ok(!everUsed.has(id), `id ${id} was not used before`);
      assert.deepEqual(idsByText(app).get("a"), before.get("a"));
      await app.close();
    },
  );

  await t.step("list() with a key function keeps rows by that key", async () => {
    const { app, set, events } = await renderList(["a:1", "b:2"], (item) => item.split(":")[1]);
    const before = idsByText(app);
    await set(["b:2", "a:1"]);
    assert.deepEqual(idsByText(app), before);
    // Key 2 stays with a new item: the row renders again and shows "z:2" (it used to keep
    // showing "b:2"), on the same node ids since its shape did not change.
    await set(["z:2"]);
    assert.deepEqual(events, ["cleanup b:2", "cleanup a:1"]);
    assert.deepEqual(idsByText(app), new Map([["z:2", before.get("b:2")!]]));
    await app.act(before.get("b:2")![2]!, { action: "click" });
    assert.deepEqual(events.at(-1), "open z:2", "the row's handlers see the new item");
    await app.close();
  });

  await t.step("list() keeps rows with repeated keys apart", async () => {
    const { app, set, events } = await renderList(["x", "x", "y"]);
    const rows = rowsOf(app);
    assert.deepEqual(textsOf(app), ["x", "x", "y"]);
    assert.equal(new Set(rows.map((row) => row.item)).size, 3);
    await set(["x", "y"]);
    assert.deepEqual(events, ["cleanup x"]);
    assert.deepEqual(
      rowsOf(app).map((row) => row.item),
      [rows[0]!.item, rows[2]!.item],
      "the first x keeps its row, the repeat goes",
    );
    await app.close();
  });

  await t.step("list() handles an in-place update of its signal", async () => {
    let items: Signal<string[]> | undefined;
    const root = component((cx) => {
      items = cx.signal(["a"]);
      return list(items, (item) => text(item));
    });
    await using app = await render(root);
    items!.update((value) => value.push("b"));
    assert.equal(app.query({ role: "list_item" }).length, 2);
  });

  await t.step("list() logs items that are not an array and keeps its rows", async () => {
    const lines: string[] = [];
    const restore = setLogSink((line) => isStackLine(line) || lines.push(line));
    try {
      const { app, set } = await renderList(["a"]);
      await set("oops" as unknown as string[]);
      assert.deepEqual(lines, [
        "error in list(): TypeError: list() items must be an array, got string",
      ]);
      assert.deepEqual(textsOf(app), ["a"]);
      await app.close();
    } finally {
      restore();
    }
  });
});

Deno.test("list() rows and their input", async (t) => {
  await t.step("clicking a row selects it; selecting another moves the state", async () => {
    const { app, events } = await renderList(["a", "b"]);
    const [first, second] = rowsOf(app);
    await app.act(first!.ids[0]!, { action: "click" }); // the text inside the row
    assert.deepEqual(events, ["select a"]);
    assert.match(app.tree(), new RegExp(`list_item "a" #${first!.item} focused selected`));
    await app.act(second!.item, { action: "click" });
    assert.deepEqual(events, ["select a", "select b"]);
    assert.match(app.tree(), new RegExp(`list_item "a" #${first!.item}\n`));
    assert.match(app.tree(), new RegExp(`list_item "b" #${second!.item} focused selected`));
    await app.close();
  });

  await t.step("a button inside a row gets the click, not the row", async () => {
    const { app, events } = await renderList(["a"]);
    const button = app.get({ role: "button", name: "Open" });
    await app.act(button.id, { action: "click" });
    assert.deepEqual(events, ["open a"]);
    await app.close();
  });

  await t.step("double-clicking a row selects and activates it", async () => {
    const { app, events } = await renderList(["a", "b"]);
    await app.act(rowsOf(app)[1]!.item, { action: "double_click" });
    assert.deepEqual(events, ["select b", "activate b"]);
    await app.close();
  });

  await t.step("rows registering tools keep them only while they exist", async () => {
    let items: Signal<string[]> | undefined;
    const root = component((cx) => {
      items = cx.signal(["a", "b"]);
      return column(
        list(items, (item) =>
          component((rowCx) => {
            rowCx.registerTool(
              new AppTool(`open_${item}`, `Opens ${item}`, `{"type":"object"}`, () => "{}"),
            );
            return text(item);
          })),
      );
    });
    await using app = await render(root);
    assert.deepEqual(app.tools().map((tool) => tool.name), ["open_a", "open_b"]);
    items!.set(["b"]);
    await app.settle();
    assert.deepEqual(app.tools().map((tool) => tool.name), ["open_b"]);
  });

  await t.step("list() refuses a render argument that is not a function", () => {
    assert.throws(() => list([], "x" as unknown as () => never), { name: "TypeError" });
  });
});

Deno.test("list() row names", async (t) => {
  await t.step("a row is named by its text, and queries find it by that name", async () => {
    const { app } = await renderList(["milk", "eggs"]);
    const eggs = app.get({ role: "list_item", name: "eggs" });
    assert.equal(eggs.path, 'list > list_item "eggs"');
    const open = app.query({ role: "button", name: "Open" }).map((match) => match.path);
    assert.deepEqual(open, [
      'list > list_item "milk" > button "Open"',
      'list > list_item "eggs" > button "Open"',
    ]);
    assert.equal(app.query({ role: "text", name: "eggs" }).length, 1, "the text is still found");
    await app.close();
  });

  await t.step("a row added later is named, and follows its text", async () => {
    let items: Signal<string[]> | undefined;
    let shown: Signal<string> | undefined;
    const root = component((cx) => {
      items = cx.signal(["a"]);
      shown = cx.signal("first");
      return list(items, (item) => item === "b" ? text(shown!) : text(item));
    });
    await using app = await render(root);
    items!.set(["a", "b"]);
    await app.settle();
    assert.match(app.tree(), /list_item "first" #\d+\n/);
    shown!.set("second");
    await app.settle();
    assert.match(app.tree(), /list_item "second" #\d+\n/);
    assert.doesNotMatch(app.tree(), /text "second"/, "the naming text has no line of its own");
  });

  await t.step("rowLabel() names rows itself and wins over the text", async () => {
    const root = component((cx) => {
      const items = cx.signal([{ id: 7, title: "Milk" }]);
      return list(items, (item) => text(item.title), (item) => item.id)
        .rowLabel((item) => `Note ${item.id}`);
    });
    await using app = await render(root);
    const row = app.get({ role: "list_item", name: "Note 7" });
    assert.match(app.tree(), new RegExp(`list_item "Note 7" #${row.id}\n   text "Milk" #\\d+\n`));
  });

  await t.step("rowLabel() follows a new item under the same key, and bindings", async () => {
    let items: Signal<{ id: number; title: string }[]> | undefined;
    let suffix: Signal<string> | undefined;
    const root = component((cx) => {
      items = cx.signal([{ id: 1, title: "Milk" }]);
      suffix = cx.signal("!");
      return column(
        list(items, (item) => text(item.title), (item) => item.id).rowLabel((item) =>
          item.title.toUpperCase()
        ),
        list(["x"], (item) => text(item)).rowLabel((item) => bind(() => `${item}${suffix!.get()}`)),
      );
    });
    await using app = await render(root);
    items!.set([{ id: 1, title: "Bread" }]);
    suffix!.set("?");
    await app.settle();
    assert.equal(app.query({ role: "list_item", name: "BREAD" }).length, 1);
    assert.equal(app.query({ role: "list_item", name: "x?" }).length, 1);
  });

  await t.step("rowLabel() refuses what is not a function", () => {
    assert.throws(
      () => list(["a"], (item) => text(item)).rowLabel("a" as unknown as () => string),
      { name: "TypeError", message: "rowLabel() takes a function (item) => name" },
    );
  });
});
