import assert from "node:assert/strict";
import { parseKeybind } from "./keybind.ts";
import { TextEditState } from "./text_edit.ts";
import { TextLinesState, WrappedRows, wrapRows } from "./text_lines.ts";

/** The rows' text for `text` wrapped at `width`. */
function rowsOf(text: string, width: number): string[] {
  return wrapRows(text, width).map((row) => text.slice(row.start, row.end));
}

/** Writes the state as text with `|` for the cursor and `[...]` around a selection. */
function show(state: TextLinesState): string {
  const { value, cursor, selection } = state;
  if (selection === null) return `${value.slice(0, cursor)}|${value.slice(cursor)}`;
  const start = cursor === selection.start ? "[|" : "[";
  const end = cursor === selection.end ? "|]" : "]";
  return value.slice(0, selection.start) + start + value.slice(selection.start, selection.end) +
    end + value.slice(selection.end);
}

/** Presses each key in turn on `state` shown `width` cells wide and `height` rows high. */
function press(state: TextLinesState, keys: string[], width = 20, height = 3): boolean[] {
  return keys.map((key) => state.applyKey(parseKeybind(key), { width, height }));
}

/** A state whose cursor is at the `|` in `marked`. */
function at(marked: string): TextLinesState {
  const cursor = marked.indexOf("|");
  const state = new TextLinesState(marked.replace("|", ""));
  state.edit.moveTo(cursor);
  return state;
}

Deno.test("wrapRows() cuts lines into rows", async (t) => {
  await t.step("lines end at \\n; an empty line is an empty row", () => {
    assert.deepEqual(rowsOf("one\n\ntwo", 10), ["one", "", "two"]);
    assert.deepEqual(rowsOf("", 10), [""]);
    assert.deepEqual(rowsOf("end\n", 10), ["end", ""]);
  });

  await t.step("a long line wraps after the last space that fits", () => {
    assert.deepEqual(rowsOf("the quick brown fox", 10), ["the quick ", "brown fox"]);
  });

  await t.step("a word longer than the row breaks at its edge", () => {
    assert.deepEqual(rowsOf("abcdefghij klm", 4), ["abcd", "efgh", "ij ", "klm"]);
  });

  await t.step("a full last row is followed by an empty one for the cursor", () => {
    const rows = wrapRows("abcd\nx", 4);
    assert.deepEqual(rows.map((row) => [row.start, row.end, row.cells, row.endsLine]), [
      [0, 4, 4, false],
      [4, 4, 0, true],
      [5, 6, 1, true],
    ]);
  });

  await t.step("wide characters count two cells and are never split", () => {
    assert.deepEqual(rowsOf("漢字漢字漢", 5), ["漢字", "漢字", "漢"]);
    assert.deepEqual(rowsOf("漢", 1), ["漢", ""], "a grapheme wider than the row gets it alone");
  });

  await t.step("indexAt() gives the row the cursor shows in", () => {
    const rows = new WrappedRows("abcd\nxy", 4);
    assert.equal(rows.indexAt(0), 0);
    assert.equal(rows.indexAt(3), 0);
    assert.equal(rows.indexAt(4), 1, "after a full row: the empty row under it");
    assert.equal(rows.indexAt(5), 2);
    assert.equal(rows.indexAt(7), 2);
    const wrapped = new WrappedRows("ab cd", 3);
    assert.equal(wrapped.indexAt(3), 1, "where a row wraps: the start of the next");
  });
});

Deno.test("TextLinesState: Enter, typing and pasting keep lines", async (t) => {
  await t.step("Enter inserts a line break at the cursor, over a selection", () => {
    const state = at("ab|cd");
    press(state, ["Enter"]);
    assert.equal(show(state), "ab\n|cd");
    press(state, ["Shift+ArrowRight", "Shift+Enter"]);
    assert.equal(show(state), "ab\n\n|d");
  });

  await t.step("typed text keeps its line breaks, written \\n; a tab is four spaces", () => {
    const state = new TextLinesState();
    state.insert("one\r\ntwo\rthree\u2028four\tfive\x1b");
    assert.equal(state.value, "one\ntwo\nthree\nfour    five");
  });

  await t.step("Ctrl+A selects every line; typing replaces them", () => {
    const state = new TextLinesState("a\nb\nc");
    press(state, ["Ctrl+A"]);
    assert.equal(show(state), "[a\nb\nc|]");
    press(state, ["x"]);
    assert.equal(show(state), "x|");
  });

  await t.step("Backspace at a line's start joins it to the line above", () => {
    const state = at("ab\n|cd");
    press(state, ["Backspace"]);
    assert.equal(show(state), "ab|cd");
  });

  await t.step("keys it does not take are left to the caller", () => {
    const state = new TextLinesState("a");
    assert.deepEqual(press(state, ["Tab", "Escape", "Ctrl+S", "Ctrl+Enter", "Alt+ArrowUp"]), [
      false,
      false,
      false,
      false,
      false,
    ]);
    assert.equal(show(state), "a|");
  });
});

Deno.test("TextLinesState: moving by rows keeps the column, as editors do", async (t) => {
  await t.step("ArrowUp and ArrowDown keep the column across a shorter line", () => {
    const state = at("long line|\nab\nanother line");
    press(state, ["ArrowDown"]);
    assert.equal(show(state), "long line\nab|\nanother line", "the short line: at its end");
    press(state, ["ArrowDown"]);
    assert.equal(show(state), "long line\nab\nanother l|ine", "the column comes back");
    press(state, ["ArrowUp", "ArrowUp"]);
    assert.equal(show(state), "long line|\nab\nanother line");
  });

  await t.step("a move along the line sets a new column", () => {
    const state = at("abcdef|\nab\nabcdef");
    press(state, ["ArrowDown", "ArrowLeft", "ArrowDown"]);
    assert.equal(show(state), "abcdef\nab\na|bcdef");
  });

  await t.step("up from the first row goes to the start, down from the last to the end", () => {
    const state = at("ab|c\ndef");
    press(state, ["ArrowUp"]);
    assert.equal(show(state), "|abc\ndef");
    press(state, ["ArrowDown", "ArrowDown"]);
    assert.equal(show(state), "abc\ndef|");
  });

  await t.step("rows of a wrapped line are moved through one by one", () => {
    // "the quick " / "brown fox" at width 10.
    const state = at("the q|uick brown fox");
    press(state, ["ArrowDown"], 10);
    assert.equal(show(state), "the quick brown|fox".replace("brown|fox", "brown| fox"));
    press(state, ["ArrowUp"], 10);
    assert.equal(show(state), "the q|uick brown fox");
  });

  await t.step("in a row that wraps the cursor stops before the row's last character", () => {
    const state = at("ab|\nthe quick brown fox");
    press(state, ["End", "ArrowDown"], 10);
    // Column 2 of "the quick ": after "th".
    assert.equal(show(state), "ab\nth|e quick brown fox");
    const wide = at("abcdefghijklmnop|\nthe quick brown fox");
    press(wide, ["ArrowDown"], 40);
    press(wide, ["ArrowDown"], 10);
    assert.equal(show(wide), "abcdefghijklmnop\nthe quick brown fox|");
    const stops = at("abcdefghi|\nthe quick brown fox");
    press(stops, ["ArrowDown"], 10);
    assert.equal(show(stops), "abcdefghi\nthe quick| brown fox", "not past the row's end");
  });

  await t.step("wide characters: the column is counted in cells", () => {
    const state = at("漢字|\nabcd");
    press(state, ["ArrowDown"]);
    assert.equal(show(state), "漢字\nabcd|");
    press(state, ["ArrowLeft", "ArrowUp"]);
    assert.equal(show(state), "漢|字\nabcd", "cell 3 is inside 字: before it");
  });

  await t.step("PageDown and PageUp move a page of rows, keeping the column", () => {
    const lines = Array.from({ length: 10 }, (_, index) => `line ${index}`).join("\n");
    const state = new TextLinesState(lines);
    state.edit.moveTo(2);
    press(state, ["PageDown"], 20, 4);
    assert.equal(state.cursor, lines.indexOf("line 4") + 2);
    press(state, ["PageDown", "PageDown"], 20, 4);
    assert.equal(state.cursor, lines.length, "past the last row: the end");
    press(state, ["PageUp"], 20, 4);
    assert.equal(state.cursor, lines.indexOf("line 5") + 2, "the column it started with");
  });

  await t.step("Shift with the arrows and pages selects across lines", () => {
    const state = at("ab|c\ndef\nghi");
    press(state, ["Shift+ArrowDown"]);
    assert.equal(show(state), "ab[c\nde|]f\nghi");
    press(state, ["Shift+PageDown"]);
    assert.equal(show(state), "ab[c\ndef\nghi|]");
    press(state, ["Shift+ArrowUp", "Shift+ArrowUp", "Shift+ArrowUp"]);
    assert.equal(show(state), "[|ab]c\ndef\nghi");
    press(state, ["ArrowDown"]);
    assert.equal(show(state), "abc\nde|f\nghi", "a plain move drops the selection");
  });
});

Deno.test("TextLinesState: Home, End, Ctrl+U and Ctrl+K work on the line", async (t) => {
  await t.step("Home and End go to the line's start and end; with Ctrl, the text's", () => {
    const state = at("abc\nde|f\nghi");
    press(state, ["Home"]);
    assert.equal(show(state), "abc\n|def\nghi");
    press(state, ["End"]);
    assert.equal(show(state), "abc\ndef|\nghi");
    press(state, ["Shift+Home"]);
    assert.equal(show(state), "abc\n[|def]\nghi");
    press(state, ["Ctrl+End"]);
    assert.equal(show(state), "abc\ndef\nghi|");
    press(state, ["Ctrl+Shift+Home"]);
    assert.equal(show(state), "[|abc\ndef\nghi]");
  });

  await t.step("End on a wrapped line goes to the end of the line, not of the row", () => {
    const state = at("|the quick brown fox");
    press(state, ["End"], 10);
    assert.equal(show(state), "the quick brown fox|");
  });

  await t.step("Ctrl+U and Ctrl+K delete to the line's start and end", () => {
    const state = at("abc\nde|f\nghi");
    press(state, ["Ctrl+K"]);
    assert.equal(show(state), "abc\nde|\nghi");
    press(state, ["Ctrl+K"]);
    assert.equal(show(state), "abc\nde|ghi", "at the end: the line break, joining the next");
    press(state, ["Ctrl+U"]);
    assert.equal(show(state), "abc\n|ghi");
    press(state, ["Ctrl+U"]);
    assert.equal(show(state), "abc|ghi", "at the start: the line break before");
  });
});

Deno.test("TextLinesState.placeAt() puts the cursor at a row and cell, as a click does", () => {
  const state = new TextLinesState("the quick brown fox\nok");
  state.placeAt(1, 3, 10); // "brown fox", cell 3
  assert.equal(show(state), "the quick bro|wn fox\nok");
  state.placeAt(2, 50, 10); // past the end of "ok"
  assert.equal(show(state), "the quick brown fox\nok|");
  state.placeAt(0, 50, 10); // past the end of a row that wraps: before its last character
  assert.equal(show(state), "the quick| brown fox\nok");
  state.placeAt(9, 0, 10, true); // past the last row: the last, selecting
  assert.equal(show(state), "the quick[ brown fox\n|]ok");
});

Deno.test("TextEditState with lineBreaks keeps them; moveTo() lands on a grapheme boundary", () => {
  const multi = new TextEditState("", { lineBreaks: true });
  multi.insert("a\r\nb\u0000c");
  assert.equal(multi.value, "a\nbc");
  const single = new TextEditState();
  single.insert("a\r\nb");
  assert.equal(single.value, "ab", "a field still drops them");
  const flag = new TextEditState("x🇺🇸y");
  flag.moveTo(2); // inside the flag's pair of regional indicators
  assert.equal(flag.cursor, 5);
  flag.moveTo(1, true);
  assert.deepEqual(flag.selection, { start: 1, end: 5 });
  flag.moveTo(99);
  assert.equal(flag.cursor, 6);
});

Deno.test("WrappedRows.update() gives the rows a fresh wrap gives, after any edit", () => {
  // A small deterministic generator, so that a failure can be replayed.
  let seed = 7;
  const random = (below: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % below;
  };
  const pieces = ["a", "bc ", " ", "\n", "\n\n", "漢", "word ", "longerword", ""];
  const rowsOf = (wrapped: WrappedRows) =>
    Array.from({ length: wrapped.count }, (_, index) => wrapped.row(index));
  let text = "one two three\nfour\n\nfive six seven eight";
  const wrapped = new WrappedRows(text, 6);
  for (let round = 0; round < 500; round++) {
    const start = random(text.length + 1);
    const end = Math.min(text.length, start + random(6));
    text = text.slice(0, start) + pieces[random(pieces.length)] + text.slice(end);
    wrapped.update(text);
    assert.deepEqual(rowsOf(wrapped), wrapRows(text, 6), `round ${round}: ${JSON.stringify(text)}`);
    const offset = random(text.length + 1);
    const expected = wrapRows(text, 6).findLastIndex((row) => row.start <= offset);
    assert.equal(wrapped.indexAt(offset), expected, `indexAt(${offset}) in round ${round}`);
  }
});

Deno.test("TextLinesState.selectWord() selects the word at the cursor, or one character", () => {
  const state = at("say hel|lo_2 world\nnext");
  state.selectWord();
  assert.equal(show(state), "say [hello_2|] world\nnext");
  const space = at("say| hello");
  space.selectWord();
  assert.equal(show(space), "say[ |]hello", "a space alone");
  const end = at("say hello|\nnext");
  end.selectWord();
  assert.equal(show(end), "say [hello|]\nnext", "at the line's end: the word before");
  const empty = at("a\n|\nb");
  empty.selectWord();
  assert.equal(show(empty), "a\n|\nb", "an empty line: nothing");
});
