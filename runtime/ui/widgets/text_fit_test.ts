/**
 * Text that fits, as a person sees it (the harness's screen) and as agents see it (the
 * tree): a cut line ends in `…`, `.wrap()` breaks at words, `\n` starts a line, and every
 * name stays whole.
 */

import assert from "node:assert/strict";
import { bind, button, checkbox, column, component } from "../../mod.ts";
import { list, row, scrollView, span, text, toggleSwitch } from "../../mod.ts";
import { render } from "../../testing.ts";

Deno.test("a text longer than its room ends in …, its name whole", async () => {
  const long = "Quarterly report, final version (2)";
  await using app = await render(
    column(
      text(long).width(12),
      row(text("fixed"), text(long)),
    ),
    { width: 24, height: 4 },
  );
  assert.deepEqual(app.screen().lines.slice(0, 2), ["Quarterly r…", "fixed Quarterly report,…"]);
  const names = app.query({ role: "text" }).map((match) => match.name);
  assert.deepEqual(names, [long, "fixed", long]);
});

Deno.test("spans keep their styles when cut, the … in the style of the last one shown", async () => {
  await using app = await render(
    text(["Sync ", span("failed everywhere", { fg: "#d70000", bold: true })]).width(12),
    { width: 20, height: 2 },
  );
  const screen = app.screen();
  assert.equal(screen.lines[0], "Sync failed…");
  assert.match(screen.styleAt(5, 0), /fg=#d70000.*bold/);
  assert.match(screen.styleAt(11, 0), /fg=#d70000.*bold/, "the … is red and bold too");
  assert.doesNotMatch(screen.styleAt(0, 0), /d70000/);
});

Deno.test("\\n starts a new line", async () => {
  await using app = await render(column(text("first\nsecond line"), text("after")), {
    width: 20,
    height: 4,
  });
  assert.deepEqual(app.screen().lines.slice(0, 3), ["first", "second line", "after"]);
  assert.equal(app.get({ role: "text", name: "first\nsecond line" }).name, "first\nsecond line");
});

Deno.test(".wrap() breaks at word boundaries and takes the rows it needs", async (t) => {
  const paragraph = "The quick brown fox jumps over the lazy dog while the cat watches";
  await t.step("in a column, at the column's width", async () => {
    await using app = await render(
      column(text(paragraph).wrap(), text("after")).width(20),
      { width: 30, height: 6 },
    );
    assert.deepEqual(app.screen().lines.slice(0, 5), [
      "The quick brown fox",
      "jumps over the lazy",
      "dog while the cat",
      "watches",
      "after",
    ]);
    assert.equal(app.get({ role: "text", name: paragraph }).name, paragraph);
  });

  await t.step("a new text or a narrower window wraps again", async () => {
    await using app = await render(
      component((cx) => {
        const words = cx.signal("one two three");
        return column(
          button("Longer", () => words.set("one two three four five six seven")),
          text(bind(() => words.get())).wrap(),
          text("end"),
        ).width(14);
      }),
      { width: 20, height: 6 },
    );
    assert.deepEqual(app.screen().lines.slice(1, 3), ["one two three", "end"]);
    await app.act(app.get({ name: "Longer" }).id, { action: "click" });
    assert.deepEqual(app.screen().lines.slice(1, 5), [
      "one two three",
      "four five six",
      "seven",
      "end",
    ]);
  });

  await t.step("without room for every line, the last one shown ends in …", async () => {
    await using app = await render(column(text(paragraph).wrap().height(2)).width(20), {
      width: 30,
      height: 4,
    });
    assert.deepEqual(app.screen().lines.slice(0, 2), [
      "The quick brown fox",
      "jumps over the lazy…",
    ]);
  });

  await t.step("styled spans wrap with their styles", async () => {
    await using app = await render(
      column(text(["plain words then ", span("red words here", { fg: "#d70000" })]).wrap())
        .width(16),
      { width: 20, height: 4 },
    );
    const screen = app.screen();
    assert.deepEqual(screen.lines.slice(0, 2), ["plain words then", "red words here"]);
    assert.match(screen.styleAt(0, 1), /fg=#d70000/);
    assert.doesNotMatch(screen.styleAt(0, 0), /d70000/);
  });
});

Deno.test("wide characters and combining marks keep their cells when cut", async () => {
  await using app = await render(
    column(text("漢字のテキスト").width(7), text("cafe\u0301 au lait").width(7)),
    { width: 10, height: 3 },
  );
  // Three wide characters and the … take 7 cells; the accent takes none.
  assert.deepEqual(app.screen().lines.slice(0, 2), ["漢字の…", "cafe\u0301 a…"]);
});

Deno.test("buttons, checkboxes, switches and list rows cut their labels with …", async () => {
  const names = ["Quarterly report, final", "Notes"];
  await using app = await render(
    column(
      button("Delete everything now", () => {}).width(12),
      checkbox("Remember this device", false).width(12),
      list(names, (name) => text(name)).width(10),
      toggleSwitch({ label: "Dark mode everywhere", value: false }).width(16),
    ),
    { width: 20, height: 6 },
  );
  const lines = app.screen().lines;
  assert.deepEqual(lines.slice(0, 4), [
    "[ Delete… ]",
    "[ ] Remembe…",
    "Quarterly…",
    "Notes",
  ]);
  // 16 cells: the switch stays whole after the cut label (the space before the cut goes).
  assert.equal(lines[4], "Dark mode… [○ ]");
  assert.equal(app.get({ role: "switch" }).name, "Dark mode everywhere");
  assert.equal(app.get({ role: "button" }).name, "Delete everything now");
  assert.equal(app.get({ role: "checkbox" }).name, "Remember this device");
  assert.equal(app.get({ role: "list_item", name: names[0] }).name, names[0]);
});

Deno.test(".wrap() in a scroll view wraps at the view's width and scrolls down", async () => {
  const paragraph = "one two three four five six seven eight nine ten eleven twelve thirteen";
  await using app = await render(
    column(scrollView(column(text(paragraph).wrap())).width(16).height(3).label("Reader")),
    { width: 30, height: 5 },
  );
  // 16 cells, one kept for the scroll bar: the text wraps in 15.
  assert.deepEqual(app.screen().lines.slice(0, 3).map((line) => line.slice(0, 15).trimEnd()), [
    "one two three",
    "four five six",
    "seven eight",
  ]);
  assert.match(app.screen().lines[0]!, /┃$|│$/, "a scroll bar, the text being taller");
  await app.act(app.get({ name: "Reader" }).id, { action: "scroll", delta: { x: 0, y: 10 } });
  const last = app.screen().lines.slice(0, 3).map((line) => line.slice(0, 15).trimEnd());
  assert.equal(last.at(-1), "twelve thirteen");
  // Nothing to scroll sideways: the text is as wide as the view.
  await app.act(app.get({ name: "Reader" }).id, { action: "scroll", delta: { x: 5, y: 0 } });
  assert.equal(app.screen().lines[2]!.slice(0, 15).trimEnd(), "twelve thirteen");
});
