import assert from "node:assert/strict";
import { cellWidth, graphemeWidth, splitGraphemes, truncateToWidth } from "./cell_width.ts";

const E_WITH_COMBINING_ACUTE = "e\u0301";
const FAMILY = "👨\u200D👩\u200D👧";
const RAINBOW_FLAG = "🏳\uFE0F\u200D🌈";
const FLAG_US = "🇺🇸";
const THUMBS_UP_MEDIUM = "👍🏽";
const KEYCAP_ONE = "1\uFE0F\u20E3";
const HEART_EMOJI = "\u2764\uFE0F";
const HEART_TEXT = "\u2764";

Deno.test("splitGraphemes()", async (t) => {
  await t.step("splitGraphemes() splits ASCII into characters", () => {
    assert.deepEqual(splitGraphemes("abc"), ["a", "b", "c"]);
    assert.deepEqual(splitGraphemes(""), []);
  });

  await t.step("splitGraphemes() keeps combining marks with their base", () => {
    assert.deepEqual(splitGraphemes(`x${E_WITH_COMBINING_ACUTE}y`), [
      "x",
      E_WITH_COMBINING_ACUTE,
      "y",
    ]);
  });

  await t.step("splitGraphemes() keeps emoji sequences and flags whole", () => {
    assert.deepEqual(splitGraphemes(`${FAMILY}${FLAG_US}🇫🇷${THUMBS_UP_MEDIUM}`), [
      FAMILY,
      FLAG_US,
      "🇫🇷",
      THUMBS_UP_MEDIUM,
    ]);
  });

  await t.step("splitGraphemes() keeps CR LF together", () => {
    assert.deepEqual(splitGraphemes("a\r\nb"), ["a", "\r\n", "b"]);
  });
});

Deno.test("graphemeWidth()", async (t) => {
  await t.step("graphemeWidth() gives 1 to ASCII and Latin letters", () => {
    assert.equal(graphemeWidth("a"), 1);
    assert.equal(graphemeWidth("é"), 1);
    assert.equal(graphemeWidth(E_WITH_COMBINING_ACUTE), 1);
  });

  await t.step("graphemeWidth() gives 2 to CJK, fullwidth and Hangul", () => {
    assert.equal(graphemeWidth("字"), 2);
    assert.equal(graphemeWidth("Ａ"), 2);
    assert.equal(graphemeWidth("한"), 2);
    assert.equal(graphemeWidth("\u1100\u1161"), 2);
  });

  await t.step("graphemeWidth() gives 0 to controls and lone combining marks", () => {
    assert.equal(graphemeWidth("\t"), 0);
    assert.equal(graphemeWidth("\x1b"), 0);
    assert.equal(graphemeWidth("\r\n"), 0);
    assert.equal(graphemeWidth("\u0301"), 0);
    assert.equal(graphemeWidth("\u200D"), 0);
  });

  await t.step("graphemeWidth() gives 2 to emoji sequences", () => {
    assert.equal(graphemeWidth("😀"), 2);
    assert.equal(graphemeWidth(FAMILY), 2);
    assert.equal(graphemeWidth(RAINBOW_FLAG), 2);
    assert.equal(graphemeWidth(FLAG_US), 2);
    assert.equal(graphemeWidth(THUMBS_UP_MEDIUM), 2);
    assert.equal(graphemeWidth(KEYCAP_ONE), 2);
    assert.equal(graphemeWidth(HEART_EMOJI), 2);
  });

  await t.step("graphemeWidth() gives 1 to text-presentation symbols", () => {
    assert.equal(graphemeWidth(HEART_TEXT), 1);
    assert.equal(graphemeWidth("\u263A\uFE0E"), 1);
    assert.equal(graphemeWidth("a\uFE0F"), 1);
  });
});

Deno.test("cellWidth()", async (t) => {
  await t.step("cellWidth() counts printable ASCII by length", () => {
    assert.equal(cellWidth(""), 0);
    assert.equal(cellWidth("Save file"), 9);
    assert.equal(cellWidth("~!@#$%^&*()_+{}|:<>?"), 20);
  });

  await t.step("cellWidth() counts CJK as 2 cells each", () => {
    assert.equal(cellWidth("保存"), 4);
    assert.equal(cellWidth("a漢b"), 4);
  });

  await t.step("cellWidth() ignores controls and combining marks", () => {
    assert.equal(cellWidth("a\tb\n"), 2);
    assert.equal(cellWidth(`caf${E_WITH_COMBINING_ACUTE}`), 4);
  });

  await t.step("cellWidth() counts each emoji sequence as 2 cells", () => {
    assert.equal(cellWidth(`${FAMILY} ok`), 5);
    assert.equal(cellWidth(`${FLAG_US}🇫🇷`), 4);
    assert.equal(cellWidth(`I ${HEART_EMOJI} it`), 7);
  });
});

Deno.test("truncateToWidth()", async (t) => {
  await t.step("truncateToWidth() returns text that fits unchanged", () => {
    assert.equal(truncateToWidth("Hello", 5, "…"), "Hello");
    assert.equal(truncateToWidth("漢字", 4, "…"), "漢字");
    assert.equal(truncateToWidth("", 0), "");
  });

  await t.step("truncateToWidth() cuts ASCII without an ellipsis", () => {
    assert.equal(truncateToWidth("Hello, world", 5), "Hello");
    assert.equal(truncateToWidth("Hello", 0), "");
  });

  await t.step("truncateToWidth() ends a cut with the ellipsis", () => {
    assert.equal(truncateToWidth("Hello, world", 8, "…"), "Hello, …");
    assert.equal(truncateToWidth("Hello, world", 8, "..."), "Hello...");
    assert.equal(cellWidth(truncateToWidth("Hello, world", 8, "…")), 8);
  });

  await t.step("truncateToWidth() never splits a wide character at an odd width", () => {
    assert.equal(truncateToWidth("漢字漢字", 5), "漢字");
    assert.equal(truncateToWidth("漢字漢字", 3), "漢");
    assert.equal(truncateToWidth("漢字漢字", 1), "");
    assert.equal(truncateToWidth("漢字漢字", 4, "…"), "漢…");
    assert.equal(truncateToWidth("a漢字", 4, "…"), "a漢…");
    assert.equal(truncateToWidth("ab漢字", 4, "…"), "ab…");
  });

  await t.step("truncateToWidth() never splits a grapheme", () => {
    const text = `${E_WITH_COMBINING_ACUTE}${E_WITH_COMBINING_ACUTE}${FAMILY}x`;
    assert.equal(truncateToWidth(text, 2), `${E_WITH_COMBINING_ACUTE}${E_WITH_COMBINING_ACUTE}`);
    assert.equal(truncateToWidth(text, 3), `${E_WITH_COMBINING_ACUTE}${E_WITH_COMBINING_ACUTE}`);
    assert.equal(
      truncateToWidth(text, 4),
      `${E_WITH_COMBINING_ACUTE}${E_WITH_COMBINING_ACUTE}${FAMILY}`,
    );
    assert.equal(truncateToWidth(`${FLAG_US}${FLAG_US}`, 3), FLAG_US);
  });

  await t.step("truncateToWidth() cuts the ellipsis when it alone does not fit", () => {
    assert.equal(truncateToWidth("Hello", 0, "…"), "");
    assert.equal(truncateToWidth("Hello", 2, "..."), "..");
  });

  await t.step("truncateToWidth() keeps every result within the width", () => {
    const samples = ["Hello, world", "漢字とかな", `${FAMILY}${FLAG_US}ab`, "a\u0301b\u0301c"];
    for (const sample of samples) {
      for (let width = 0; width <= cellWidth(sample) + 1; width++) {
        for (const ellipsis of ["", "…", "..."]) {
          const result = truncateToWidth(sample, width, ellipsis);
          const context = `${sample} at ${width} with "${ellipsis}": "${result}"`;
          assert.ok(cellWidth(result) <= width, context);
          if (result === sample) continue;
          if (cellWidth(ellipsis) > width) {
            assert.ok(ellipsis.startsWith(result), context);
          } else {
            assert.ok(result.endsWith(ellipsis), context);
            assert.ok(sample.startsWith(result.slice(0, result.length - ellipsis.length)), context);
            assert.ok(cellWidth(result) >= width - 1, context);
          }
        }
      }
    }
  });

  await t.step("truncateToWidth() rejects a negative or fractional width", () => {
    assert.throws(() => truncateToWidth("abc", -1), RangeError);
    assert.throws(() => truncateToWidth("abc", 1.5), {
      name: "RangeError",
      message: "Cannot truncate text to width 1.5: the width must be a non-negative integer",
    });
    assert.throws(() => truncateToWidth("abc", Number.NaN), RangeError);
  });
});

const referenceSegmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** Graphemes split the slow way: every string segmented by Intl.Segmenter. */
function segmentedGraphemes(text: string): string[] {
  return Array.from(referenceSegmenter.segment(text), ({ segment }) => segment);
}

Deno.test("splitGraphemes() and cellWidth() agree with Intl.Segmenter", async (t) => {
  const ranges: Array<[number, number]> = [
    [0x0, 0xd7ff],
    [0xe000, 0xffff],
    [0x10000, 0x1ffff],
    [0x20000, 0x200ff],
    [0xe0000, 0xe01ff],
  ];
  for (const [first, last] of ranges) {
    const name = `${first.toString(16)} to ${last.toString(16)}`;
    await t.step(`splitGraphemes() and cellWidth() agree on code points ${name}`, () => {
      const mismatches: string[] = [];
      for (let codePoint = first; codePoint <= last; codePoint++) {
        const character = String.fromCodePoint(codePoint);
        // Before and after itself, an ASCII letter and a wide letter: any joining shows.
        const text = `a${character}${character}字${character}\n`;
        const expected = segmentedGraphemes(text);
        const expectedWidth = expected.reduce((sum, grapheme) => sum + graphemeWidth(grapheme), 0);
        const graphemes = splitGraphemes(text);
        const same = graphemes.length === expected.length &&
          graphemes.every((grapheme, index) => grapheme === expected[index]);
        if (!same || cellWidth(text) !== expectedWidth) mismatches.push(codePoint.toString(16));
      }
      assert.deepEqual(mismatches, []);
    });
  }
});
