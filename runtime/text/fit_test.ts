import assert from "node:assert/strict";
import { cellWidth } from "./cell_width.ts";
import { fitText, textSize } from "./fit.ts";

/** What the lines of `text` show in `width` cells. */
function shown(text: string, width: number, options: { wrap?: boolean; maxLines?: number } = {}) {
  return fitText(text, width, options).map((line) =>
    text.slice(line.start, line.end) + (line.ellipsis ? "…" : "")
  );
}

Deno.test("fitText() cuts a line with … and keeps a line that fits", () => {
  assert.deepEqual(shown("Hello", 5), ["Hello"]);
  assert.deepEqual(shown("Hello, world", 8), ["Hello,…"], "the space before the cut goes");
  assert.deepEqual(shown("Hello", 1), ["…"]);
  assert.deepEqual(shown("Hello", 0), [""]);
  assert.deepEqual(shown("", 4), [""]);
});

Deno.test("fitText(): \\n starts a line, each cut on its own", () => {
  assert.deepEqual(shown("one\ntwo three\n\nfour", 6), ["one", "two t…", "", "four"]);
  assert.deepEqual(textSize("one\ntwo three\n\nfour"), { width: 9, height: 4 });
  assert.deepEqual(textSize("plain"), { width: 5, height: 1 });
});

Deno.test("fitText() keeps wide characters and combining marks whole", () => {
  // Each 字 is two cells: in 5 cells two fit with the … (4 + 1).
  assert.deepEqual(shown("漢字漢字", 5), ["漢字…"]);
  // In 4 cells one fits with the …, and the cell a second would half fill stays empty.
  assert.deepEqual(shown("漢字漢字", 4), ["漢…"]);
  const accented = "e\u0301te\u0301 e\u0301te\u0301";
  assert.equal(cellWidth(accented), 7);
  assert.deepEqual(shown(accented, 6), ["e\u0301te\u0301 e\u0301…"]);
  for (const line of shown("👍🏽👍🏽👍🏽 abc", 5)) assert.ok(cellWidth(line) <= 5, line);
  assert.deepEqual(shown("漢字 漢字 漢字", 9, { wrap: true }), ["漢字 漢字", "漢字"]);
});

Deno.test("fitText() wraps at word boundaries", async (t) => {
  await t.step("words move whole to the next line; the spaces at a break go", () => {
    assert.deepEqual(shown("The quick brown fox jumps", 10, { wrap: true }), [
      "The quick",
      "brown fox",
      "jumps",
    ]);
    assert.deepEqual(shown("a  b", 1, { wrap: true }), ["a", "b"]);
  });
  await t.step("a word wider than the room is broken between graphemes", () => {
    assert.deepEqual(shown("go abcdefghij", 4, { wrap: true }), ["go", "abcd", "efgh", "ij"]);
  });
  await t.step("\\n still starts a line, and indentation stays", () => {
    assert.deepEqual(shown("one two\n  three four", 8, { wrap: true }), [
      "one two",
      "  three",
      "four",
    ]);
  });
  await t.step("with maxLines the last line shown ends in …", () => {
    assert.deepEqual(shown("The quick brown fox jumps", 10, { wrap: true, maxLines: 2 }), [
      "The quick",
      "brown fox…",
    ]);
    assert.deepEqual(shown("a\nb\nc", 3, { maxLines: 2 }), ["a", "b…"]);
  });
  await t.step("every line fits", () => {
    const text = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod";
    for (let width = 1; width < 30; width++) {
      const lines = shown(text, width, { wrap: true });
      for (const line of lines) assert.ok(cellWidth(line) <= width, `${width}: ${line}`);
      assert.equal(lines.join("").replaceAll(" ", ""), text.replaceAll(" ", ""), `${width}`);
    }
  });
});
