/**
 * Boxes: borders, padding, margins, alignment, spacing and sizes (cells, shares, percentages,
 * least and most), seen as a person sees them (the harness's `screen()`) and as layout
 * placed them (the nodes' bounds). Borders and padding never reach the tree; a titled row or
 * column is a group named by its title.
 */

import assert from "node:assert/strict";
import { bind, button, column, component, dialog, row, scrollView, show, text } from "../mod.ts";
import { render, type TestApp } from "../testing.ts";

/** The screen's first `count` rows. */
function rows(app: TestApp, count: number): string[] {
  return app.screen().lines.slice(0, count);
}

/** A node's window bounds, from the inspect snapshot's layout. */
function boxOf(app: TestApp, name: string): { x: number; y: number; w: number; h: number } {
  const id = app.get({ name }).id;
  const entry = app.snapshot().layout.find((candidate) => candidate.id === id)!;
  return { x: entry.x, y: entry.y, w: entry.width, h: entry.height };
}

Deno.test("borders", async (t) => {
  await t.step("each kind draws its own lines round the content", async () => {
    for (
      const [kind, top, side, bottom] of [
        ["single", "┌──┐", "│", "└──┘"],
        ["double", "╔══╗", "║", "╚══╝"],
        ["rounded", "╭──╮", "│", "╰──╯"],
        ["heavy", "┏━━┓", "┃", "┗━━┛"],
      ] as const
    ) {
      await using app = await render(column(text("ab")).border(kind), { width: 10, height: 4 });
      assert.deepEqual(rows(app, 3), [top, `${side}ab${side}`, bottom], kind);
    }
  });

  await t.step(
    "a title sits in the top line, and is cut with … when the box is narrow",
    async () => {
      await using app = await render(
        column(
          column(text("a long enough line")).border("rounded", { title: "Notes" }),
          column(text("narrow")).border("rounded", { title: "A much longer title" }).width(8),
        ),
        { width: 30, height: 6 },
      );
      assert.deepEqual(rows(app, 6), [
        "╭─ Notes ──────────╮",
        "│a long enough line│",
        "╰──────────────────╯",
        "╭─ A… ─╮",
        "│narrow│",
        "╰──────╯",
      ]);
    },
  );

  await t.step("padding goes inside the border, per side", async () => {
    await using app = await render(
      column(text("x")).border().padding({ x: 2, top: 1 }),
      { width: 10, height: 5 },
    );
    assert.deepEqual(rows(app, 4), ["┌─────┐", "│     │", "│  x  │", "└─────┘"]);
    assert.deepEqual(boxOf(app, "x"), { x: 3, y: 2, w: 1, h: 1 });
  });

  await t.step("a border's title follows a binding", async () => {
    await using app = await render(
      component((cx) => {
        const count = cx.signal(1);
        return column(
          button("More", () => count.set(count.get() + 1)),
          row(text("items")).border("single", { title: bind(() => `${count.get()} new`) }),
        );
      }),
      { width: 20, height: 5 },
    );
    assert.equal(rows(app, 2)[1], "┌─ 1 new ─┐");
    assert.equal(app.get({ role: "group" }).name, "1 new");
    await app.act(app.get({ name: "More" }).id, { action: "click" });
    assert.equal(rows(app, 2)[1], "┌─ 2 new ─┐");
    assert.equal(app.get({ role: "group" }).name, "2 new");
  });

  await t.step(
    "borders and padding never reach the tree; a titled box is a named group",
    async () => {
      await using app = await render(
        column(
          row(text("inside")).border("heavy").padding(1),
          column(text("a"), text("b")).border("rounded", { title: "Pane" }),
          column(text("c")).border("double", { title: "Shown only" }).label("Named"),
        ),
        { width: 30, height: 14 },
      );
      assert.equal(
        app.tree(),
        [
          'window "Test" #1',
          ' text "inside" #2',
          ' group "Pane" #3',
          '  text "a" #4',
          '  text "b" #5',
          ' group "Named" #6',
          '  text "c" #7',
          "",
        ].join("\n"),
      );
      assert.doesNotMatch(app.tree(), /[─│┃╭]/);
    },
  );

  await t.step("a scroll view with a border scrolls inside it", async () => {
    const lines = Array.from({ length: 20 }, (_, index) => text(`line ${index}`));
    await using app = await render(
      column(scrollView(column(...lines)).border().width(20).height(6).label("Lines")),
      { width: 20, height: 10 },
    );
    const screen = rows(app, 6);
    assert.equal(screen[0], "┌──────────────────┐");
    assert.equal(screen[1]!.slice(0, 8), "│line 0 ");
    assert.equal(screen[1]!.at(-2), "┃", "the scroll bar is inside the frame");
    assert.equal(screen[5], "└──────────────────┘");
    await app.act(app.get({ name: "Lines" }).id, { action: "scroll", delta: { x: 0, y: 100 } });
    // Scrolled to the end: the last of the 20 lines shows on the last row inside the frame.
    assert.equal(app.screen().lines[4]!.slice(0, 9), "│line 19 ");
  });

  await t.step("a dialog's frame is the shared border", async () => {
    await using app = await render(
      component((cx) => {
        const open = cx.signal(true);
        return column(show(open, () => dialog("Sure?", text("Really?"))));
      }),
      { width: 20, height: 7 },
    );
    const lines = app.screen().lines;
    assert.deepEqual(lines.slice(0, 7).map((line) => line.trim()), [
      "┌─────────┐",
      "│         │",
      "│ Sure?   │",
      "│ Really? │",
      "│         │",
      "└─────────┘",
      "",
    ]);
    assert.deepEqual(boxOf(app, "Really?"), { x: 6, y: 3, w: 7, h: 1 });
  });
});

Deno.test("margins, alignment and spacing", async (t) => {
  await t.step("a margin keeps cells outside the box, between it and its neighbours", async () => {
    await using app = await render(
      column(text("a"), text("b").margin({ top: 1, left: 3 }), text("c")),
      { width: 10, height: 5 },
    );
    assert.deepEqual(rows(app, 4), ["a", "", "   b", "c"]);
    await using boxed = await render(
      row(column(text("x")).border().margin(1), text("y")),
      { width: 12, height: 5 },
    );
    assert.deepEqual(rows(boxed, 5), ["      y", " ┌─┐", " │x│", " └─┘", ""]);
  });

  await t.step("align: a column's children at the start, centre or end, or stretched", async () => {
    for (
      const [align, line] of [
        ["start", "│ab        │"],
        ["center", "│    ab    │"],
        ["end", "│        ab│"],
      ] as const
    ) {
      await using app = await render(
        column(text("ab")).width(12).align(align).border(),
        { width: 20, height: 3 },
      );
      assert.equal(rows(app, 2)[1], line, align);
    }
    await using stretched = await render(
      column(button("Go", () => {}), row(text("x")).border()).width(12).align("stretch"),
      { width: 20, height: 4 },
    );
    assert.deepEqual(boxOf(stretched, "Go"), { x: 0, y: 0, w: 12, h: 1 });
    assert.equal(rows(stretched, 2)[1], "┌──────────┐");
  });

  await t.step("align in a row places children up and down", async () => {
    await using app = await render(
      row(column(text("1"), text("2"), text("3")), text("mid")).align("center"),
      { width: 10, height: 4 },
    );
    assert.deepEqual(rows(app, 3), ["1", "2 mid", "3"]);
    await using end = await render(
      row(column(text("1"), text("2"), text("3")), text("low")).align("end"),
      { width: 10, height: 4 },
    );
    assert.deepEqual(rows(end, 3), ["1", "2", "3 low"]);
  });

  await t.step("justify: center, end and between share the room left", async () => {
    const three = () => [text("a"), text("b"), text("c")];
    const cases = [
      ["start", "a b c"],
      ["center", "       a b c"],
      ["end", "              a b c"],
      ["between", "a        b        c"],
    ] as const;
    for (const [justify, line] of cases) {
      await using app = await render(row(...three()).width(19).justify(justify), {
        width: 30,
        height: 2,
      });
      assert.equal(rows(app, 1)[0], line, justify);
    }
    await using down = await render(
      column(text("top"), text("bottom")).height(5).justify("between"),
      { width: 10, height: 6 },
    );
    assert.deepEqual(rows(down, 5), ["top", "", "", "", "bottom"]);
  });
});

Deno.test("sizes: cells, shares, percentages, least and most", async (t) => {
  await t.step("a percentage of the parent's room inside its padding and border", async () => {
    await using app = await render(
      row(
        column(text("L")).width("25%").border(),
        column(text("R")).width("50%").border(),
      ).width(42).border().padding({ x: 1 }),
      { width: 60, height: 6 },
    );
    // Inside: 42 - 2 (border) - 2 (padding) = 38 cells; 25% is 9, 50% is 19.
    const line = rows(app, 2)[1]!;
    assert.equal(line, "│ ┌───────┐ ┌─────────────────┐          │");
  });

  await t.step("a percentage of the height in a column", async () => {
    await using app = await render(
      column(column(text("half")).height("50%").border(), text("after")).height(10),
      { width: 20, height: 12 },
    );
    assert.deepEqual(rows(app, 6), ["┌────┐", "│half│", "│    │", "│    │", "└────┘", "after"]);
  });

  await t.step("shares split the spare room; a most stops one and the rest goes on", async () => {
    await using app = await render(
      row(
        column(text("a")).grow(1).border(),
        column(text("b")).grow(2).border(),
      ).width(30),
      { width: 40, height: 3 },
    );
    // 30 cells, 6 natural (3 + 3), a gap of 1: 23 spare, a third and two thirds.
    assert.equal(boxOf(app, "a").x, 1);
    const line = rows(app, 1)[0]!;
    assert.equal(line.length, 30);
    assert.equal(line.indexOf("┐"), 3 + 7 - 1, "the first takes 7 of the 23");
    await using capped = await render(
      row(
        column(text("a")).grow(1).maxWidth(5).border(),
        column(text("b")).grow(1).border(),
      ).width(30),
      { width: 40, height: 3 },
    );
    const capLine = rows(capped, 1)[0]!;
    assert.equal(capLine.indexOf("┐"), 4, "the first stops at 5 cells");
    assert.equal(capLine.length, 30, "the second takes what the first left");
  });

  await t.step("a least width holds against a short content and a squeeze", async () => {
    await using app = await render(
      column(text("x").minWidth(6).border(), text("wide enough content").maxWidth(8)),
      { width: 20, height: 4 },
    );
    assert.deepEqual(rows(app, 4), ["┌────┐", "│x   │", "└────┘", "wide en…"]);
    assert.equal(
      app.get({ role: "text", name: "wide enough content" }).name,
      "wide enough content",
    );
  });

  await t.step("min and max height", async () => {
    await using app = await render(
      column(
        column(text("a")).minHeight(3).border(),
        column(text("1"), text("2"), text("3"))
          .maxHeight(2),
      ),
      { width: 10, height: 8 },
    );
    assert.deepEqual(rows(app, 5), ["┌─┐", "│a│", "└─┘", "1", "2"]);
  });

  await t.step("bad sizes are refused, saying what a size is", () => {
    assert.throws(() => text("a").width("150%" as `${number}%`), /from "0%" to "100%"/);
    assert.throws(() => text("a").padding({ middle: 1 } as never), /no side "middle"/);
    assert.throws(() => text("a").align("left" as never), /"start", "center", "end", "stretch"/);
    assert.throws(() => column().border("dotted" as never), /"single", "double", "rounded"/);
    assert.throws(() => text("a").margin(-1), /whole number of cells/);
  });
});

Deno.test("a dialog wider than the window cuts its title with …, its name whole", async () => {
  const title = "Delete every note in this notebook?";
  await using app = await render(
    component((cx) => {
      const open = cx.signal(true);
      return column(show(open, () => dialog(title, text("Sure?"))));
    }),
    { width: 20, height: 7 },
  );
  const lines = app.screen().lines;
  assert.equal(lines[2], "│ Delete every no… │");
  assert.equal(app.get({ role: "dialog" }).name, title);
});
