import assert from "node:assert/strict";
import { parseKeybind } from "./keybind.ts";
import { TextEditState } from "./text_edit.ts";

const E_WITH_COMBINING_ACUTE = "e\u0301";
const FAMILY = "👨\u200D👩\u200D👧";
const FLAG_US = "🇺🇸";

/** Presses each keybind in turn and returns what applyKey() answered for each. */
function press(field: TextEditState, ...keys: string[]): boolean[] {
  return keys.map((key) => field.applyKey(parseKeybind(key)));
}

/** Writes the field as text with `|` for the cursor and `[...]` around a selection. */
function show(field: TextEditState): string {
  const { value, cursor, selection } = field;
  if (selection === null) return `${value.slice(0, cursor)}|${value.slice(cursor)}`;
  const start = cursor === selection.start ? "[|" : "[";
  const end = cursor === selection.end ? "|]" : "]";
  return value.slice(0, selection.start) + start + value.slice(selection.start, selection.end) +
    end + value.slice(selection.end);
}

Deno.test("TextEditState basics", async (t) => {
  await t.step("TextEditState() starts with the cursor at the end", () => {
    assert.equal(show(new TextEditState("abc")), "abc|");
    assert.equal(show(new TextEditState()), "|");
  });

  await t.step(
    "TextEditState.setValue() moves the cursor to the end and clears the selection",
    () => {
      const field = new TextEditState("hello");
      field.moveHome();
      field.moveRight(true);
      field.setValue("a\nb");
      assert.equal(show(field), "a\nb|");
      assert.equal(field.selection, null);
    },
  );

  await t.step("TextEditState.selection is null when collapsed and ordered otherwise", () => {
    const field = new TextEditState("abcd");
    assert.equal(field.selection, null);
    field.moveLeft(true);
    field.moveLeft(true);
    assert.deepEqual(field.selection, { start: 2, end: 4 });
    assert.equal(field.cursor, 2);
    field.moveRight(true);
    field.moveRight(true);
    assert.equal(field.selection, null);
  });
});

Deno.test("TextEditState.insert()", async (t) => {
  await t.step("TextEditState.insert() inserts at the cursor", () => {
    const field = new TextEditState("ac");
    field.moveLeft();
    field.insert("b");
    assert.equal(show(field), "ab|c");
  });

  await t.step("TextEditState.insert() replaces the selection after selectAll()", () => {
    const field = new TextEditState("old text");
    field.selectAll();
    assert.equal(show(field), "[old text|]");
    field.insert("new");
    assert.equal(show(field), "new|");
  });

  await t.step("TextEditState.insert() replaces a backward selection", () => {
    const field = new TextEditState("abcdef");
    field.moveLeft();
    field.moveLeft(true);
    field.moveLeft(true);
    assert.equal(show(field), "abc[|de]f");
    field.insert("X");
    assert.equal(show(field), "abcX|f");
  });

  await t.step("TextEditState.insert() drops newlines and control characters", () => {
    const field = new TextEditState();
    field.insert("one\r\ntwo\tthree\x1b\u2028four\u0000");
    assert.equal(show(field), "onetwothreefour|");
  });

  await t.step("TextEditState.insert() keeps the cursor on a grapheme boundary", () => {
    const field = new TextEditState("👨👩");
    field.moveLeft();
    field.insert("\u200D");
    assert.equal(field.value, "👨\u200D👩");
    assert.equal(field.cursor, field.value.length);
  });

  await t.step("TextEditState.insert() with empty text deletes the selection", () => {
    const field = new TextEditState("abc");
    field.selectAll();
    field.insert("");
    assert.equal(show(field), "|");
  });
});

Deno.test("TextEditState deletion", async (t) => {
  await t.step("TextEditState.deleteBackward() at the start changes nothing", () => {
    const field = new TextEditState("abc");
    field.moveHome();
    field.deleteBackward();
    assert.equal(show(field), "|abc");
  });

  await t.step("TextEditState.deleteForward() at the end changes nothing", () => {
    const field = new TextEditState("abc");
    field.deleteForward();
    assert.equal(show(field), "abc|");
  });

  await t.step("TextEditState.deleteBackward() removes a whole grapheme", () => {
    for (const grapheme of [E_WITH_COMBINING_ACUTE, FAMILY, FLAG_US, "👍🏽"]) {
      const field = new TextEditState(`a${grapheme}`);
      field.deleteBackward();
      assert.equal(show(field), "a|", grapheme);
    }
  });

  await t.step("TextEditState.deleteForward() removes a whole grapheme", () => {
    const field = new TextEditState(`${FLAG_US}🇫🇷`);
    field.moveHome();
    field.deleteForward();
    assert.equal(show(field), "|🇫🇷");
  });

  await t.step("TextEditState.deleteBackward() removes only the selection", () => {
    const field = new TextEditState("abcd");
    field.moveLeft();
    field.moveLeft(true);
    field.deleteBackward();
    assert.equal(show(field), "ab|d");
    field.selectAll();
    field.deleteForward();
    assert.equal(show(field), "|");
  });

  await t.step("TextEditState.deleteWordBackward() removes the word and spaces before it", () => {
    const field = new TextEditState("hello big  world");
    field.deleteWordBackward();
    assert.equal(show(field), "hello big  |");
    field.deleteWordBackward();
    assert.equal(show(field), "hello |");
    field.moveHome();
    field.deleteWordBackward();
    assert.equal(show(field), "|hello ");
  });

  await t.step("TextEditState.deleteWordForward() removes spaces and the word after them", () => {
    const field = new TextEditState("one, two three");
    field.moveHome();
    field.deleteWordForward();
    assert.equal(show(field), "|, two three");
    field.deleteWordForward();
    assert.equal(show(field), "| three");
  });

  await t.step("TextEditState.deleteToStart() and deleteToEnd() cut around the cursor", () => {
    const field = new TextEditState("abcdef");
    field.moveLeft();
    field.moveLeft();
    field.deleteToEnd();
    assert.equal(show(field), "abcd|");
    field.moveLeft();
    field.deleteToStart();
    assert.equal(show(field), "|d");
  });
});

Deno.test("TextEditState movement", async (t) => {
  await t.step("TextEditState.moveLeft() and moveRight() stop at the ends", () => {
    const field = new TextEditState("ab");
    field.moveRight();
    assert.equal(show(field), "ab|");
    field.moveLeft();
    field.moveLeft();
    field.moveLeft();
    assert.equal(show(field), "|ab");
  });

  await t.step("TextEditState.moveLeft() steps over whole graphemes", () => {
    const value = `a${E_WITH_COMBINING_ACUTE}${FAMILY}${FLAG_US}`;
    const field = new TextEditState(value);
    const offsets = [field.cursor];
    for (let step = 0; step < 5; step++) {
      field.moveLeft();
      offsets.push(field.cursor);
    }
    assert.deepEqual(offsets, [value.length, value.length - 4, 3, 1, 0, 0]);
  });

  await t.step("TextEditState.moveRight() steps over whole graphemes", () => {
    const field = new TextEditState(`${FAMILY}x`);
    field.moveHome();
    field.moveRight();
    assert.equal(field.cursor, FAMILY.length);
  });

  await t.step("TextEditState.moveLeft() collapses a selection to its start", () => {
    const field = new TextEditState("abcd");
    field.selectAll();
    field.moveLeft();
    assert.equal(show(field), "|abcd");
  });

  await t.step("TextEditState.moveRight() collapses a selection to its end", () => {
    const field = new TextEditState("abcd");
    field.moveHome();
    field.moveRight();
    field.moveRight(true);
    assert.equal(show(field), "a[b|]cd");
    field.moveLeft(true);
    field.moveLeft(true);
    assert.equal(show(field), "[|a]bcd");
    field.moveRight();
    assert.equal(show(field), "a|bcd");
  });

  await t.step("TextEditState.moveWordLeft() and moveWordRight() jump by word", () => {
    const field = new TextEditState("foo_bar, baz 42");
    field.moveWordLeft();
    assert.equal(show(field), "foo_bar, baz |42");
    field.moveWordLeft();
    assert.equal(show(field), "foo_bar, |baz 42");
    field.moveWordLeft();
    assert.equal(show(field), "|foo_bar, baz 42");
    field.moveWordRight();
    assert.equal(show(field), "foo_bar|, baz 42");
    field.moveWordRight(true);
    assert.equal(show(field), "foo_bar[, baz|] 42");
  });

  await t.step("TextEditState.moveWordRight() treats accented letters as word letters", () => {
    const field = new TextEditState(`caf${E_WITH_COMBINING_ACUTE} au lait`);
    field.moveHome();
    field.moveWordRight();
    assert.equal(field.cursor, 5);
  });

  await t.step("TextEditState.moveHome() and moveEnd() extend the selection", () => {
    const field = new TextEditState("abc");
    field.moveLeft();
    field.moveHome(true);
    assert.equal(show(field), "[|ab]c");
    field.moveEnd(true);
    assert.equal(show(field), "ab[c|]");
    field.moveHome();
    assert.equal(show(field), "|abc");
  });
});

Deno.test("TextEditState.applyKey()", async (t) => {
  await t.step("TextEditState.applyKey() types characters and Space", () => {
    const field = new TextEditState();
    assert.deepEqual(press(field, "H", "i", "Space", "!", "Shift+a", "+", "é"), [
      true,
      true,
      true,
      true,
      true,
      true,
      true,
    ]);
    assert.equal(show(field), "Hi !A+é|");
  });

  await t.step("TextEditState.applyKey() replaces everything after Ctrl+A", () => {
    const field = new TextEditState("draft");
    assert.deepEqual(press(field, "Ctrl+A", "x"), [true, true]);
    assert.equal(show(field), "x|");
    press(field, "ctrl+a", "Backspace");
    assert.equal(show(field), "|");
  });

  await t.step("TextEditState.applyKey() handles Backspace at the start without a change", () => {
    const field = new TextEditState("abc");
    press(field, "Home");
    assert.deepEqual(press(field, "Backspace"), [true]);
    assert.equal(show(field), "|abc");
  });

  await t.step("TextEditState.applyKey() maps Ctrl and Alt editing keys to words", () => {
    const field = new TextEditState("one two three");
    assert.deepEqual(press(field, "Ctrl+Backspace"), [true]);
    assert.equal(show(field), "one two |");
    press(field, "Alt+Backspace");
    assert.equal(show(field), "one |");
    press(field, "Home", "Ctrl+Delete");
    assert.equal(show(field), "| ");
  });

  await t.step("TextEditState.applyKey() moves and selects with arrows, Home and End", () => {
    const field = new TextEditState("one two");
    press(field, "Ctrl+ArrowLeft");
    assert.equal(show(field), "one |two");
    press(field, "Shift+ArrowRight", "Shift+ArrowRight");
    assert.equal(show(field), "one [tw|]o");
    press(field, "ArrowLeft");
    assert.equal(show(field), "one |two");
    press(field, "Ctrl+Shift+ArrowLeft");
    assert.equal(show(field), "[|one ]two");
    press(field, "Shift+End");
    assert.equal(show(field), "one [two|]");
    press(field, "Home", "Shift+ArrowRight", "ArrowRight");
    assert.equal(show(field), "o|ne two");
  });

  await t.step(
    "TextEditState.applyKey() deletes to start with Ctrl+U and to end with Ctrl+K",
    () => {
      const field = new TextEditState("abcdef");
      press(field, "Left", "Left", "Ctrl+K");
      assert.equal(show(field), "abcd|");
      press(field, "Left", "Ctrl+U");
      assert.equal(show(field), "|d");
    },
  );

  await t.step("TextEditState.applyKey() leaves other keys to the caller", () => {
    const field = new TextEditState("abc");
    const keys = [
      "Enter",
      "Tab",
      "Shift+Tab",
      "Escape",
      "F5",
      "ArrowUp",
      "ArrowDown",
      "PageDown",
      "Insert",
      "Ctrl+S",
      "Ctrl+Shift+A",
      "Alt+x",
      "Meta+v",
      "Meta+Backspace",
      "Alt+Home",
    ];
    assert.deepEqual(press(field, ...keys), keys.map(() => false));
    assert.equal(show(field), "abc|");
  });

  await t.step("TextEditState.applyKey() accepts a hand-built lower-case Ctrl letter", () => {
    const field = new TextEditState("abc");
    const handled = field.applyKey({ key: "a", ctrl: true, alt: false, shift: false, meta: false });
    assert.equal(handled, true);
    assert.deepEqual(field.selection, { start: 0, end: 3 });
  });
});
