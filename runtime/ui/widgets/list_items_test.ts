import assert from "node:assert/strict";
import { isStackLine, setLogSink } from "../../app/log.ts";
import { render, type TestApp } from "../../testing.ts";
import type { Signal } from "../../reactive/mod.ts";
import { AppTool, bind, column, component, list, row, scrollView, text } from "../mod.ts";
import { button, textField } from "./mod.ts";
import { rowsOf } from "../_test_tree.ts";

/** A note as the tests keep it: replaced by a new object when it changes. */
interface Note {
  id: number;
  title: string;
  done?: boolean;
}

/** Renders notes keyed by id; each row is a component with a text and an Open button. */
async function renderNotes(initial: Note[], options: { keyed?: boolean } = {}) {
  let notes: Signal<Note[]> | undefined;
  const events: string[] = [];
  const renders: string[] = [];
  const root = component((cx) => {
    notes = cx.signal(initial);
    return list(
      notes,
      (note) =>
        component((rowCx) => {
          renders.push(note.title);
          rowCx.onCleanup(() => events.push(`cleanup ${note.title}`));
          return row(text(note.title), button("Open", () => events.push(`open ${note.title}`)));
        }),
      options.keyed === false ? undefined : (note) => note.id,
    )
      .onSelect((note) => events.push(`select ${note.title}`))
      .onActivate((note) => events.push(`activate ${note.title}`));
  });
  const app = await render(root);
  const set = async (next: Note[]) => {
    notes!.set(next);
    await app.settle();
  };
  const current = () => notes!.get();
  return { app, set, current, events, renders };
}

/** The names of the nodes inside each row. */
function shown(app: TestApp): string[][] {
  return rowsOf(app).map((row) => row.names);
}

/** Each row's list_item id followed by the ids inside it. */
function ids(app: TestApp): number[][] {
  return rowsOf(app).map((row) => [row.item, ...row.ids]);
}

Deno.test("list() rows follow their items", async (t) => {
  await t.step("a replaced item with the same key shows the new item and keeps ids", async () => {
    const { app, set, current, events, renders } = await renderNotes([
      { id: 1, title: "old" },
      { id: 2, title: "other" },
    ]);
    const before = ids(app);
    const revision = app.revision;
    await set([{ id: 1, title: "new" }, current()[1]!]);
    assert.deepEqual(shown(app), [["new", "Open"], ["other", "Open"]]);
    assert.match(app.tree(), new RegExp(`list_item "new" #${before[0]![0]}\n`));
    assert.deepEqual(ids(app), before, "same shape: the row keeps every node id");
    assert.equal(app.revision, revision + 1);
    assert.deepEqual(renders, ["old", "other", "new"], "only the changed row rendered again");
    assert.deepEqual(events, ["cleanup old"], "the old render's cleanups ran");
    await app.act(before[0]![2]!, { action: "click" }); // the first row's Open button
    await app.act(before[0]![0]!, { action: "double_click" });
    assert.deepEqual(events, ["cleanup old", "open new", "select new", "activate new"]);
    await app.close();
  });

  await t.step("an item that is the same value keeps its row, render and state", async () => {
    let notes: Signal<Note[]> | undefined;
    const root = component((cx) => {
      notes = cx.signal<Note[]>([{ id: 1, title: "a" }, { id: 2, title: "b" }]);
      return list(notes, (note) =>
        component((rowCx) => {
          const clicks = rowCx.signal(0);
          return row(
            text(note.title),
            button(
              bind(() => `${clicks.get()} clicks`),
              () => clicks.set(clicks.get() + 1),
            ),
          );
        }), (note) => note.id);
    });
    await using app = await render(root);
    const [first, second] = notes!.get();
    await app.act(app.query({ role: "button" })[0]!.id, { action: "click" });
    const before = ids(app);
    notes!.set([first!, { id: 2, title: "B" }]);
    await app.settle();
    assert.deepEqual(shown(app), [["a", "1 clicks"], ["B", "0 clicks"]]);
    assert.deepEqual(ids(app), before);
    notes!.set([{ id: 3, title: "c" }, ...notes!.get()]);
    await app.settle();
    assert.deepEqual(shown(app), [["c", "0 clicks"], ["a", "1 clicks"], ["B", "0 clicks"]]);
    assert.deepEqual(ids(app).slice(1), before, "kept rows keep their ids and state");
    assert.ok(second !== undefined);
  });

  await t.step(
    "one change that reorders, inserts, removes and replaces keeps what stayed",
    async () => {
      const { app, set, current, events, renders } = await renderNotes([
        { id: 1, title: "one" },
        { id: 2, title: "two" },
        { id: 3, title: "three" },
        { id: 4, title: "four" },
      ]);
      const [one, two, , four] = ids(app);
      const highest = Math.max(...ids(app).flat());
      const keptTwo = current()[1]!;
      await set([
        { id: 4, title: "FOUR" }, // replaced, and moved to the top
        { id: 5, title: "five" }, // inserted
        { id: 1, title: "one" }, // an equal but new object: it renders again, its ids stay
        keptTwo, // the same object: untouched
      ]);
      assert.deepEqual(shown(app), [
        ["FOUR", "Open"],
        ["five", "Open"],
        ["one", "Open"],
        ["two", "Open"],
      ]);
      const after = ids(app);
      assert.deepEqual(after[0], four, "the replaced row kept its ids through the move");
      for (const id of after[1]!) assert.ok(id > highest, `inserted id ${id} is new`);
      assert.deepEqual(after[2], one);
      assert.deepEqual(after[3], two);
      assert.deepEqual(events.sort(), ["cleanup four", "cleanup one", "cleanup three"]);
      assert.deepEqual(renders.slice(4).sort(), ["FOUR", "five", "one"]);
      for (const id of four!.concat(one!).concat(two!)) assert.ok(app.app.tree.get(id));
      await app.close();
    },
  );
});

Deno.test("list() rows without a key follow their items", async (t) => {
  await t.step("the item is its own key: a replaced item is a new row in its place", async () => {
    const { app, set, current, events } = await renderNotes([
      { id: 1, title: "a" },
      { id: 2, title: "b" },
      { id: 3, title: "c" },
    ], { keyed: false });
    const [a, b, c] = current();
    const before = ids(app);
    const highest = Math.max(...before.flat());
    await set([a!, { id: 2, title: "B" }, c!]);
    assert.deepEqual(shown(app), [["a", "Open"], ["B", "Open"], ["c", "Open"]]);
    const after = ids(app);
    assert.deepEqual([after[0], after[2]], [before[0], before[2]]);
    for (const id of after[1]!) assert.ok(id > highest, `id ${id} is new`);
    assert.deepEqual(events, ["cleanup b"]);
    await set([c!, a!]); // a reorder and a removal
    assert.deepEqual(ids(app), [before[2], before[0]]);
    assert.ok(b !== undefined);
    await app.close();
  });

  await t.step("strings: an insert, a removal and a reorder keep the other rows", async () => {
    let items: Signal<string[]> | undefined;
    const root = component((cx) => {
      items = cx.signal(["x", "y"]);
      return list(items, (item) => row(text(item), button("Go", () => {})));
    });
    await using app = await render(root);
    const [x, y] = ids(app);
    items!.set(["y", "w", "x"]);
    await app.settle();
    assert.deepEqual(shown(app), [["y", "Go"], ["w", "Go"], ["x", "Go"]]);
    assert.deepEqual([ids(app)[0], ids(app)[2]], [y, x]);
    items!.set(["w"]);
    await app.settle();
    assert.deepEqual(shown(app), [["w", "Go"]]);
  });
});

Deno.test("list() rows rendered again", async (t) => {
  /** Rows whose shape depends on the item: a Done note gets an Undo button. */
  async function renderShapes() {
    let notes: Signal<Note[]> | undefined;
    const root = component((cx) => {
      notes = cx.signal<Note[]>([{ id: 1, title: "a", done: false }]);
      return list(
        notes,
        (note) =>
          note.done
            ? row(text(note.title), button("Undo", () => {}), button("Open", () => {}))
            : row(text(note.title), button("Open", () => {})),
        (note) => note.id,
      );
    });
    const app = await render(root);
    const set = async (next: Note) => {
      notes!.set([next]);
      await app.settle();
    };
    return { app, set };
  }

  await t.step("a new shape keeps the ids of the nodes it still has, by role", async () => {
    const { app, set } = await renderShapes();
    const [[item, textId, open]] = ids(app) as [[number, number, number]];
    await set({ id: 1, title: "a", done: true });
    const [[itemAfter, textAfter, undo, openAfter]] = ids(app) as [number[]];
    assert.deepEqual(shown(app), [["a", "Undo", "Open"]]);
    assert.deepEqual([itemAfter, textAfter], [item, textId]);
    assert.equal(undo, open, "the first button made takes the first button's id");
    assert.ok(openAfter! > open, "the extra button is new");
    await set({ id: 1, title: "a", done: false });
    assert.deepEqual(shown(app), [["a", "Open"]]);
    assert.deepEqual(ids(app), [[item, textId, open]]);
    await assert.rejects(() => app.act(openAfter!, { action: "click" }), {
      name: "ActionError",
      message: `no node with id ${openAfter}; read ui_tree again`,
    });
    await app.close();
  });

  await t.step(
    "a focused button keeps focus on its node; a selected row stays selected",
    async () => {
      const { app, set } = await renderShapes();
      const [[item, , open]] = ids(app) as [number[]];
      await app.act(item!, { action: "click" }); // selects the row
      await app.act(open!, { action: "focus" });
      await set({ id: 1, title: "b", done: false });
      assert.match(app.tree(), new RegExp(`list_item "b" #${item} selected\n`));
      assert.match(app.tree(), new RegExp(`button "Open" #${open} focused\n`));
      await app.close();
    },
  );

  await t.step("focus on a node the new render does not have goes to the row", async () => {
    const { app, set } = await renderShapes();
    await set({ id: 1, title: "a", done: true });
    const [[item, , , open]] = ids(app) as [number[]];
    await app.act(open!, { action: "focus" });
    await set({ id: 1, title: "a", done: false });
    assert.match(app.tree(), new RegExp(`list_item "a" #${item} focused\n`));
    assert.equal(app.tree().split(" focused").length, 2, "one node has focus");
    await app.close();
  });

  await t.step("a focused field keeps what the user typed, with or without a signal", async () => {
    let notes: Signal<{ id: number; title: string; draft: Signal<string> }[]> | undefined;
    let makeDraft: ((text: string) => Signal<string>) | undefined;
    const root = component((cx) => {
      makeDraft = (text) => cx.signal(text);
      notes = cx.signal([{ id: 1, title: "milk", draft: cx.signal("") }]);
      return list(notes, (note) =>
        row(
          textField({ label: "Title", value: note.title }), // holds its own text
          textField({ label: "Draft", value: note.draft }), // two-way with a signal
        ), (note) => note.id);
    });
    await using app = await render(root);
    const [[, title, draft]] = ids(app) as [number[]];
    await app.userAct(title!, { action: "focus" });
    await app.userAct(title!, { action: "type_text", text: " and eggs" });

    notes!.set([{ id: 1, title: "MILK", draft: makeDraft!("") }]);
    await app.settle();
    assert.match(
      app.tree(),
      new RegExp(`text_field "Title" #${title} value="milk and eggs" focused\n`),
      "the focused field keeps the typing",
    );
    await app.userAct(draft!, { action: "focus" });
    await app.userAct(draft!, { action: "type_text", text: "buy" });
    const next = makeDraft!("");
    notes!.set([{ id: 1, title: "Milk", draft: next }]);
    await app.settle();
    assert.match(app.tree(), new RegExp(`text_field "Draft" #${draft} value="buy" focused\n`));
    assert.equal(next.get(), "buy", "the typing went into the new item's signal");
    assert.match(
      app.tree(),
      new RegExp(`text_field "Title" #${title} value="Milk"\n`),
      "a field without focus shows the new item",
    );
    await app.userAct(draft!, { action: "type_text", text: "!" });
    assert.equal(next.get(), "buy!", "the field still writes the new signal");
  });

  await t.step("typing in a secure field never moves into a field that is not", async () => {
    let notes: Signal<{ id: number; locked: boolean }[]> | undefined;
    const root = component((cx) => {
      const password = cx.secret("", { name: "password" });
      notes = cx.signal<{ id: number; locked: boolean }[]>([{ id: 1, locked: true }]);
      return list(notes, (note) =>
        row(
          note.locked
            ? textField({ label: "Password", value: password }).secure()
            : textField({ label: "Password", value: "" }),
        ), (note) => note.id);
    });
    await using app = await render(root);
    const [[, field]] = ids(app) as [number[]];
    await app.userAct(field!, { action: "focus" });
    await app.userAct(field!, { action: "type_text", text: "hunter2" });
    notes!.set([{ id: 1, locked: false }]);
    await app.settle();
    assert.match(app.tree(), new RegExp(`text_field "Password" #${field} focused\\n`));
    assert.doesNotMatch(app.tree(), /hunter2/);
  });

  await t.step("focus does not go into a field the new render disables; typing stays", async () => {
    let notes: Signal<Note[]> | undefined;
    const root = component((cx) => {
      notes = cx.signal<Note[]>([{ id: 1, title: "a", done: false }]);
      return list(
        notes,
        (note) => row(textField({ label: "Title", value: note.title }).disabled(note.done)),
        (note) => note.id,
      );
    });
    await using app = await render(root);
    const [[item, field]] = ids(app) as [number[]];
    await app.userAct(field!, { action: "focus" });
    await app.userAct(field!, { action: "type_text", text: "!" });
    notes!.set([{ id: 1, title: "b", done: true }]);
    await app.settle();
    assert.match(app.tree(), new RegExp(`list_item #${item} focused\\n`));
    assert.match(app.tree(), new RegExp(`text_field "Title" #${field} value="a!" disabled\\n`));
  });

  await t.step("a list inside a row rendered again keeps the ids it can, and goes on", async () => {
    type Card = { id: number; title: string; tags: Signal<string[]> };
    let cards: Signal<Card[]> | undefined;
    let makeTags: ((tags: string[]) => Signal<string[]>) | undefined;
    const root = component((cx) => {
      makeTags = (tags) => cx.signal(tags);
      cards = cx.signal<Card[]>([{ id: 1, title: "card", tags: cx.signal(["x", "y"]) }]);
      return list(
        cards,
        (card) => column(text(card.title), list(card.tags, (tag) => text(tag))),
        (card) => card.id,
      );
    });
    await using app = await render(root);
    const idsOf = () => app.query({}).map((match) => match.id);
    const before = idsOf();
    assert.ok(before.length >= 5, `the outer and inner rows: ${before}`);
    const tags = makeTags!(["x", "y"]);
    cards!.set([{ id: 1, title: "CARD", tags }]);
    await app.settle();
    assert.deepEqual(idsOf(), before, "the inner list and its rows keep their ids");
    tags.set(["x", "y", "z"]); // the inner list goes on with the new item's signal
    await app.settle();
    const after = app.query({ role: "list_item" }).map((match) => match.name);
    assert.deepEqual(after, ["CARD", "x", "y", "z"]);
  });

  await t.step("rowLabel() follows the current item, as a string and as a binding", async () => {
    let notes: Signal<Note[]> | undefined;
    let mark: Signal<string> | undefined;
    const root = component((cx) => {
      notes = cx.signal<Note[]>([{ id: 1, title: "old" }, { id: 2, title: "two" }]);
      mark = cx.signal("!");
      return column(
        list(notes, (note) => text(note.title), (note) => note.id)
          .rowLabel((note) =>
            note.id === 1 ? `Note ${note.title}` : bind(() => `${note.title}${mark!.get()}`)
          ),
      );
    });
    await using app = await render(root);
    const [one, two] = ids(app);
    notes!.set([{ id: 1, title: "new" }, { id: 2, title: "TWO" }]);
    await app.settle();
    assert.match(app.tree(), new RegExp(`list_item "Note new" #${one![0]}\n`));
    assert.match(app.tree(), new RegExp(`list_item "TWO!" #${two![0]}\n`));
    mark!.set("?");
    await app.settle();
    assert.match(app.tree(), new RegExp(`list_item "TWO[?]" #${two![0]}\n`));
  });

  await t.step("a row's tools follow its item", async () => {
    let notes: Signal<Note[]> | undefined;
    const root = component((cx) => {
      notes = cx.signal<Note[]>([{ id: 1, title: "a" }]);
      return list(notes, (note) =>
        component((rowCx) => {
          rowCx.registerTool(
            new AppTool(
              `open_${note.title}`,
              `Opens ${note.title}`,
              `{"type":"object"}`,
              () => "{}",
            ),
          );
          return text(note.title);
        }), (note) => note.id);
    });
    await using app = await render(root);
    notes!.set([{ id: 1, title: "b" }]);
    await app.settle();
    assert.deepEqual(app.tools().map((tool) => tool.name), ["open_b"]);
  });

  await t.step("a row rendered again below the fold stays offscreen", async () => {
    let notes: Signal<Note[]> | undefined;
    const root = component((cx) => {
      notes = cx.signal<Note[]>([1, 2, 3, 4, 5].map((id) => ({ id, title: `n${id}` })));
      return scrollView(
        list(notes, (note) => row(text(note.title), button("Open", () => {})), (note) => note.id),
      ).height(2);
    });
    await using app = await render(root);
    const before = app.tree();
    const last = Number(/list_item "n5" #(\d+)\n/.exec(before)![1]);
    assert.match(before, new RegExp(`list #\\d+ offscreen=#\\d+\\.\\.#${last}\\n`));
    notes!.set(notes!.get().map((note) => note.id === 5 ? { id: 5, title: "n5" } : note));
    await app.settle();
    assert.equal(app.tree(), before);
  });

  await t.step("a render that throws is reported; the list goes on with its rows", async () => {
    const lines: string[] = [];
    const restore = setLogSink((line) => isStackLine(line) || lines.push(line));
    try {
      let notes: Signal<Note[]> | undefined;
      const root = component((cx) => {
        notes = cx.signal<Note[]>([{ id: 1, title: "a" }, { id: 2, title: "b" }]);
        return list(notes, (note) => {
          if (note.title === "bad") throw new Error("cannot show bad");
          return row(text(note.title), button("Open", () => {}));
        }, (note) => note.id);
      });
      await using app = await render(root);
      const [, b] = ids(app);
      notes!.set([{ id: 1, title: "bad" }, notes!.get()[1]!]);
      await app.settle();
      assert.deepEqual(lines, ["error in list(): Error: cannot show bad"]);
      assert.deepEqual(shown(app)[0], []);
      notes!.set([{ id: 1, title: "good" }, notes!.get()[1]!]);
      await app.settle();
      assert.deepEqual(shown(app), [["good", "Open"], ["b", "Open"]]);
      assert.deepEqual(ids(app)[1], b);
    } finally {
      restore();
    }
  });
});
