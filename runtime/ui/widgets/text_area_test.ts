import assert from "node:assert/strict";
import { ActionError, render } from "../../testing.ts";
import { clickAt, draggableAt, dragTo, wheelAt } from "../../input/person.ts";
import type { Signal } from "../../reactive/mod.ts";
import { bind, column, component, scrollView, text, textArea, textField, widget } from "../mod.ts";

/** The gallery's text area, "Notes", 12 cells by 3 rows, with a field under it. */
async function notesApp(initial = "", options: { disabled?: boolean } = {}) {
  let notes!: Signal<string>;
  const submitted: string[] = [];
  const app = await render(
    component((cx) => {
      notes = cx.signal(initial, { name: "notes" });
      return column(
        textArea({ label: "Notes", value: notes, columns: 12, rows: 3 })
          .disabled(options.disabled ?? false)
          .invalid(bind(() => notes.get().length > 40 ? "at most 40 characters" : null)),
        textField({ label: "Title", value: "", onSubmit: (value) => submitted.push(value) }),
      );
    }),
    { width: 30, height: 6 },
  );
  const area = () => app.get({ role: "text_area", name: "Notes" });
  return { app, notes, area, submitted, [Symbol.asyncDispose]: () => app.close() };
}

Deno.test("a text area shows its label and lines; typing and Enter edit; its signal follows", async () => {
  await using test = await notesApp("Buy milk");
  const { app, notes, area } = test;
  assert.deepEqual(app.screen().lines.slice(0, 4), ["Notes:", "Buy milk", "", ""]);
  assert.match(app.tree(), /\n text_area "Notes" #\d+ value="Buy milk"\n/);
  await app.act(area().id, { action: "focus" });
  await app.press("Enter");
  await app.type("Call Anna");
  assert.equal(notes.get(), "Buy milk\nCall Anna");
  assert.equal(area().value, "Buy milk\nCall Anna");
  assert.match(app.tree(), /text_area "Notes" #\d+ value="Buy milk\\nCall Anna" focused\n/);
  assert.deepEqual(app.screen().lines.slice(0, 3), ["Notes:", "Buy milk", "Call Anna"]);
  await app.press("Backspace");
  await app.press("Ctrl+ArrowLeft");
  await app.press("Backspace"); // joins "Call " onto the line above: the space goes
  assert.equal(notes.get(), "Buy milk\nCallAnn");
  // The app sets the signal: the text follows, the cursor at its end.
  notes.set("one\r\ntwo");
  await app.settle();
  assert.equal(area().value, "one\ntwo", "line breaks are written \\n");
  await app.type("!");
  assert.equal(notes.get(), "one\ntwo!");
});

Deno.test("an agent types lines with type_text and keys with press_key", async () => {
  await using test = await notesApp();
  const { app, notes, area } = test;
  await app.act(area().id, { action: "type_text", text: "first\nsecond\r\nthird" });
  assert.equal(notes.get(), "first\nsecond\nthird", "a line break is a line in a text area");
  assert.match(app.tree(), /text_area "Notes" #\d+ value="first\\nsecond\\nthird" focused/);
  await app.act(area().id, { action: "press_key", keybind: "ArrowUp" });
  await app.act(area().id, { action: "press_key", keybind: "Enter" });
  await app.act(area().id, { action: "type_text", text: "new" });
  assert.equal(notes.get(), "first\nsecon\nnewd\nthird");
  await app.act(area().id, { action: "press_key", keybind: "Ctrl+A" });
  await app.act(area().id, { action: "press_key", keybind: "Delete" });
  assert.equal(notes.get(), "");
  assert.match(app.tree(), /text_area "Notes" #\d+ focused/);
});

Deno.test("type_text presses Enter for a line break outside a text area", async (t) => {
  await t.step(
    "in a text field: the text before, Enter (its onSubmit), the text after",
    async () => {
      await using test = await notesApp();
      const { app, submitted } = test;
      const title = app.get({ role: "text_field", name: "Title" });
      await app.act(title.id, { action: "type_text", text: "one\ntwo" });
      assert.deepEqual(submitted, ["one"]);
      assert.equal(app.get({ role: "text_field" }).value, "onetwo");
    },
  );

  await t.step("in a widget() with onText: Enter goes to its onKey", async () => {
    const got: string[] = [];
    await using app = await render(component(() =>
      widget({
        role: "text_area",
        name: "Editor",
        focusable: true,
        onText: (text) => void got.push(`text ${text}`),
        onKey: (keybind) => {
          got.push(`key ${keybind.key}`);
          return true;
        },
      })
    ));
    await app.act(app.get({ name: "Editor" }).id, { action: "type_text", text: "a\r\nb\n" });
    assert.deepEqual(got, ["text a", "key Enter", "text b", "key Enter"]);
  });
});

Deno.test("long lines wrap; the box scrolls to keep the cursor in view", async (t) => {
  await using test = await notesApp();
  const { app, area } = test;
  await app.act(area().id, { action: "type_text", text: "the quick brown fox jumps" });
  await t.step("a line wider than the box wraps after its last space that fits", () => {
    assert.deepEqual(app.screen().lines.slice(0, 4), [
      "Notes:",
      "the quick",
      "brown fox",
      "jumps",
    ]);
  });
  await t.step("more rows than show: the last ones show, with a scroll bar", async () => {
    await app.type("\nline 5\nline 6");
    const lines = app.screen().lines.slice(0, 4);
    assert.deepEqual(lines, ["Notes:", "jumps       │", "line 5      ┃", "line 6      ┃"]);
  });
  await t.step("Ctrl+Home goes to the start; the box follows the cursor up", async () => {
    await app.press("Ctrl+Home");
    assert.deepEqual(app.screen().lines.slice(1, 4), [
      "the quick   ┃",
      "brown fox   ┃",
      "jumps       │",
    ]);
  });
  await t.step("PageDown moves a page of rows down, keeping the column", async () => {
    await app.press("ArrowRight");
    await app.press("PageDown");
    await app.type("#");
    assert.equal(
      app.get({ role: "text_area" }).value,
      "the quick brown fox jumps\nl#ine 5\nline 6",
    );
    // The cursor's row comes into view at the bottom of the box.
    assert.deepEqual(app.screen().lines.slice(1, 4), [
      "brown fox   │",
      "jumps       ┃",
      "l#ine 5     ┃",
    ]);
  });
  await t.step("the wheel scrolls the box without moving the cursor", async () => {
    wheelAt(app.app, 3, 2, 0, -10);
    await app.settle();
    assert.equal(app.screen().lines[1], "the quick   ┃");
    await app.type("$"); // typing brings the cursor back into view
    assert.equal(app.screen().lines[3], "l#$ine 5    ┃");
  });
});

Deno.test("Shift with the arrows and Ctrl+A select; the selection shows; typing replaces it", async () => {
  await using test = await notesApp("abc\ndef");
  const { app, notes, area } = test;
  await app.act(area().id, { action: "focus" });
  await app.press("ArrowUp"); // "abc|"
  await app.press("Shift+ArrowLeft"); // "ab[|c]"
  await app.press("Shift+ArrowDown"); // from the anchor after c to "de|f": "\nde" selected
  const screen = app.screen();
  const selected = screen.styleAt(3, 1);
  assert.match(selected, /inverse/, `the selected line break looks selected: ${selected}`);
  assert.equal(screen.styleAt(0, 2), selected, "so do d and e");
  assert.equal(screen.styleAt(1, 2), selected);
  assert.notEqual(screen.styleAt(2, 2), selected, "f is not selected");
  assert.notEqual(screen.styleAt(2, 1), selected, "c is not selected");
  await app.type("X");
  assert.equal(notes.get(), "abcXf");
  await app.press("Ctrl+A");
  await app.type("new");
  assert.equal(notes.get(), "new");
});

Deno.test("a paste goes in whole: line breaks kept in a text area, dropped in a field", async () => {
  await using test = await notesApp();
  const { app, notes, area, submitted } = test;
  await app.act(area().id, { action: "focus" });
  await app.paste("pasted one\r\npasted\ttwo");
  assert.equal(notes.get(), "pasted one\npasted    two");
  await app.press("Tab");
  assert.ok(app.get({ role: "text_field" }).states.includes("focused"), "Tab leaves the area");
  await app.paste("line one\nline two\n");
  assert.equal(app.get({ role: "text_field" }).value, "line oneline two");
  assert.deepEqual(submitted, [], "a pasted line break never presses Enter");
});

Deno.test("a click puts the cursor where it points", async () => {
  await using test = await notesApp("hello world\nsecond");
  const { app, notes } = test;
  assert.ok(clickAt(app.app, 2, 2), "the click hits the text area"); // row "second", cell 2
  await app.settle();
  assert.ok(test.area().states.includes("focused"));
  await app.type("_");
  assert.equal(notes.get(), "hello world\nse_cond");
  clickAt(app.app, 12, 1); // past the end of "hello world" (the scroll bar's column)
  await app.settle();
  await app.type("!");
  assert.equal(notes.get(), "hello world!\nse_cond");
  clickAt(app.app, 3, 0); // the label: focus only, the cursor stays
  await app.settle();
  await app.type("?");
  assert.equal(notes.get(), "hello world!?\nse_cond");
});

Deno.test("the focus look, .disabled() and .invalid()", async (t) => {
  await t.step("focused, the label is drawn as a heading and the cursor shows", async () => {
    await using test = await notesApp("ab");
    const { app, area } = test;
    const before = app.screen();
    await app.act(area().id, { action: "focus" });
    const after = app.screen();
    assert.notEqual(after.styleAt(0, 0), before.styleAt(0, 0), "the label changes look");
    assert.match(after.styleAt(2, 1), /inverse/, "the cursor after ab");
    assert.doesNotMatch(before.styleAt(2, 1), /inverse/, "no cursor without focus");
  });

  await t.step("disabled: the node says so and every action is refused", async () => {
    await using test = await notesApp("fixed", { disabled: true });
    const { app, area, notes } = test;
    assert.match(app.tree(), /text_area "Notes" #\d+ value="fixed" disabled\n/);
    await assert.rejects(
      () => app.act(area().id, { action: "type_text", text: "x" }),
      (error) => error instanceof ActionError && /the node is disabled/.test(error.message),
    );
    clickAt(app.app, 1, 1);
    await app.type("x");
    assert.equal(notes.get(), "fixed");
  });

  await t.step("invalid: the state and the message follow the text", async () => {
    await using test = await notesApp();
    const { app, area } = test;
    await app.act(area().id, { action: "type_text", text: "x".repeat(41) });
    assert.match(
      app.tree(),
      /text_area "Notes" #\d+ value="x+" description="at most 40 characters" focused invalid\n/,
    );
    await app.press("Backspace");
    assert.doesNotMatch(app.tree(), /invalid/);
  });
});

Deno.test("a long text is the node's whole value; tree views cut it by the long-string rule", async () => {
  await using test = await notesApp();
  const { app, area } = test;
  const long = Array.from({ length: 300 }, (_, index) => `line ${index}`).join("\n");
  await app.act(area().id, { action: "type_text", text: long });
  assert.equal(app.get({ id: area().id, full: true }).value, long, "the node holds it whole");
  assert.equal(area().value!.length, 1000, "ui_query cuts it unless asked in full");
  const view = app.tree({ maxBytes: 2000 });
  const line = view.split("\n").find((text) => text.includes("text_area"))!;
  assert.match(
    line,
    /value="line 0\\nline 1\\n[^"]*"…\(\+\d+ chars\) description="at most 40 characters" focused invalid$/,
  );
});

Deno.test("the wheel over a text area whose text fits scrolls what it is in", async () => {
  await using app = await render(
    component(() =>
      scrollView(
        column(
          textArea({ label: "Notes", value: "short", columns: 12, rows: 2 }),
          ...Array.from({ length: 20 }, (_, index) => text(`Row ${index}`)),
        ),
      )
    ),
    { width: 30, height: 6 },
  );
  assert.equal(app.screen().lines[0], "Notes:");
  wheelAt(app.app, 2, 1, 0, 3);
  await app.settle();
  assert.equal(app.screen().lines[0], "Row 0", "the scroll view moved 3 rows");
});

Deno.test("agents scroll a text area and double_click selects the word at its cursor", async () => {
  await using test = await notesApp("one\ntwo\nthree\nfour\nfive");
  const { app, area, notes } = test;
  assert.deepEqual(app.screen().lines.slice(1, 4), [
    "one         ┃",
    "two         ┃",
    "three       │",
  ]);
  await app.act(area().id, { action: "scroll", delta: { x: 0, y: 2 } });
  assert.deepEqual(app.screen().lines.slice(1, 4), [
    "three       │",
    "four        ┃",
    "five        ┃",
  ]);
  await app.act(area().id, { action: "press_key", keybind: "Ctrl+Home" });
  await app.act(area().id, { action: "double_click" });
  await app.act(area().id, { action: "type_text", text: "1" });
  assert.equal(notes.get(), "1\ntwo\nthree\nfour\nfive");
});

Deno.test("a drag selects: a person's press and moves, an agent's drag from the cursor", async (t) => {
  await t.step("a person presses on 'two' and drags to the end of 'three'", async () => {
    await using test = await notesApp("one two\nthree four");
    const { app, notes } = test;
    clickAt(app.app, 4, 1); // the press: the cursor before "two"
    const area = draggableAt(app.app, 4, 1);
    assert.ok(area !== null, "a text area is something a press drags");
    dragTo(app.app, area, 4, 1); // the press itself, as the terminal sends it
    dragTo(app.app, area, 5, 2); // moved down a row: after "three"
    await app.settle();
    await app.type("X");
    assert.equal(notes.get(), "one X four");
  });

  await t.step("a double click's word stays selected through the press's own drag", async () => {
    await using test = await notesApp("one two\nthree four");
    const { app, notes } = test;
    clickAt(app.app, 5, 1, 2);
    dragTo(app.app, draggableAt(app.app, 5, 1)!, 5, 1);
    await app.settle();
    await app.type("2");
    assert.equal(notes.get(), "one 2\nthree four");
  });

  await t.step("an agent's drag selects from the cursor to the window cell `to`", async () => {
    await using test = await notesApp("one two\nthree four");
    const { app, area, notes } = test;
    await app.act(area().id, { action: "press_key", keybind: "Ctrl+Home" });
    await app.act(area().id, { action: "drag", to: { x: 3, y: 2 } });
    await app.act(area().id, { action: "type_text", text: "-" });
    assert.equal(notes.get(), "-ee four");
  });
});
