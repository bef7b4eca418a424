/**
 * Measures text in terminal cells, the unit every layout and renderer works in.
 *
 * A string's length is not its width on screen: a CJK character or an emoji takes two cells,
 * a combining accent takes none, and "é" may be one or two UTF-16 units. Text is therefore
 * measured per grapheme (what a person sees as one character, as `Intl.Segmenter` splits it).
 * Labels are measured on every frame of trees with tens of thousands of nodes, so printable
 * ASCII, by far the common case, takes a fast path that costs one regular expression test.
 * `Intl.Segmenter` costs about 10 µs per string, so other text is segmented only when it holds
 * a character that can join its neighbours into one grapheme; otherwise every code point is a
 * grapheme of its own.
 *
 * @module
 */

import { eastAsianWidth } from "get-east-asian-width";

const graphemeSegmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** Printable ASCII only: one cell per UTF-16 unit, no segmentation needed. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * Characters that can join a neighbour into one grapheme: marks and other grapheme extenders
 * (including variation selectors and emoji skin tones), format characters (ZWJ, tags, Arabic
 * prepended marks), regional indicators, Hangul jamo, the few letters that are spacing marks
 * or prepended in the Unicode grapheme rules, CR (of CR LF), and lone surrogates. Text without
 * them is split into code points. The tests compare this with `Intl.Segmenter` for every code
 * point of the BMP and plane 1 and name any that a newer Unicode in V8 makes join: add it here.
 */
const JOINS_GRAPHEMES =
  /[\p{M}\p{Grapheme_Extend}\p{Cf}\p{Cs}\p{Emoji_Modifier}\p{Regional_Indicator}\u1100-\u11ff\ua960-\ua97f\ud7b0-\ud7ff\u0e33\u0eb3\u0d4e\u{111c2}\u{111c3}\u{1193f}\u{11941}\u{11a3a}\u{11a84}-\u{11a89}\u{11d46}\u{11f02}\u{113d1}\u{16d63}\u{16d67}-\u{16d6a}\r]/u;

/** Code points that take no cell of their own: controls, combining marks, format characters. */
const ZERO_WIDTH = /^[\p{Cc}\p{Mn}\p{Me}\p{Cf}]$/u;
const EMOJI_PRESENTATION = /^\p{Emoji_Presentation}$/u;
const EMOJI = /^\p{Emoji}$/u;
const EXTENDED_PICTOGRAPHIC = /^\p{Extended_Pictographic}$/u;
const VARIATION_SELECTOR_TEXT = "\uFE0E";
const VARIATION_SELECTOR_EMOJI = "\uFE0F";
const ZERO_WIDTH_JOINER = "\u200D";

/**
 * Splits text into graphemes, the units a person sees as one character each.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(splitGraphemes("e\u0301👍🏽"), ["e\u0301", "👍🏽"]);
 * ```
 */
export function splitGraphemes(text: string): string[] {
  if (PRINTABLE_ASCII.test(text)) return text.split("");
  return Array.from(graphemesOf(text));
}

/** Iterates the graphemes of text, segmenting only text whose code points may join. */
function graphemesOf(text: string): Iterable<string> {
  // A string iterates by code point.
  if (!JOINS_GRAPHEMES.test(text)) return text;
  return segmentedGraphemes(text);
}

function* segmentedGraphemes(text: string): Generator<string> {
  for (const { segment } of graphemeSegmenter.segment(text)) yield segment;
}

/**
 * Returns how many terminal cells one grapheme takes: 0, 1 or 2.
 *
 * Controls and lone combining or format characters take 0 cells. A grapheme takes 2 cells when
 * its base character is East Asian Wide or Fullwidth, or when it shows as an emoji: a character
 * with emoji presentation (this includes regional-indicator flags), an emoji followed by U+FE0F,
 * or an emoji ZWJ sequence. U+FE0E (text presentation) keeps an emoji narrow unless its base is
 * wide anyway. Everything else takes 1 cell.
 *
 * @param grapheme One grapheme, as {@linkcode splitGraphemes} returns them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(graphemeWidth("字"), 2);
 * assert.equal(graphemeWidth("a"), 1);
 * ```
 */
export function graphemeWidth(grapheme: string): number {
  const base = baseCharacter(grapheme);
  if (base === undefined) return 0;
  const baseCodePoint = base.codePointAt(0) ?? 0;
  // A lone ASCII character is narrow; with a following U+FE0F it can be a keycap emoji (1️⃣).
  if (baseCodePoint < 0x7f && grapheme.length === 1) return 1;
  if (eastAsianWidth(baseCodePoint) === 2) return 2;
  if (grapheme.includes(VARIATION_SELECTOR_TEXT)) return 1;
  if (EMOJI_PRESENTATION.test(base)) return 2;
  if (grapheme.includes(VARIATION_SELECTOR_EMOJI) && EMOJI.test(base)) return 2;
  if (grapheme.includes(ZERO_WIDTH_JOINER) && EXTENDED_PICTOGRAPHIC.test(base)) return 2;
  return 1;
}

/** Returns the first character of a grapheme that takes a cell, or undefined if none does. */
function baseCharacter(grapheme: string): string | undefined {
  for (const character of grapheme) {
    if (!ZERO_WIDTH.test(character)) return character;
  }
  return undefined;
}

/**
 * Returns how many terminal cells the text takes on one line.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(cellWidth("Save"), 4);
 * assert.equal(cellWidth("保存"), 4);
 * ```
 */
export function cellWidth(text: string): number {
  if (PRINTABLE_ASCII.test(text)) return text.length;
  let width = 0;
  for (const grapheme of graphemesOf(text)) width += graphemeWidth(grapheme);
  return width;
}

/**
 * Cuts text so that it fits in `width` cells, never splitting a grapheme or a wide character.
 *
 * Text that fits is returned unchanged. When text is cut and an `ellipsis` is given, the result
 * ends with it and still fits; a wide character that would straddle the limit is left out, so
 * the result may be one cell narrower than `width`. If the ellipsis alone does not fit, the
 * ellipsis itself is cut to `width`.
 *
 * @param text The text to fit.
 * @param width The number of cells available, a non-negative integer.
 * @param ellipsis Text that marks the cut, such as "…"; none when omitted.
 * @returns Text whose {@linkcode cellWidth} is at most `width`.
 * @throws {RangeError} If `width` is negative or not an integer.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(truncateToWidth("Hello, world", 8, "…"), "Hello, …");
 * assert.equal(truncateToWidth("漢字漢字", 5), "漢字");
 * ```
 */
export function truncateToWidth(text: string, width: number, ellipsis = ""): string {
  if (!Number.isInteger(width) || width < 0) {
    throw new RangeError(
      `Cannot truncate text to width ${width}: the width must be a non-negative integer`,
    );
  }
  if (cellWidth(text) <= width) return text;
  const ellipsisWidth = cellWidth(ellipsis);
  if (ellipsisWidth > width) return takeWidth(ellipsis, width);
  return takeWidth(text, width - ellipsisWidth) + ellipsis;
}

/** Returns the longest run of whole graphemes from the start of text that fits in `width`. */
function takeWidth(text: string, width: number): string {
  if (PRINTABLE_ASCII.test(text)) return text.slice(0, width);
  let used = 0;
  let end = 0;
  for (const grapheme of graphemesOf(text)) {
    used += graphemeWidth(grapheme);
    if (used > width) break;
    end += grapheme.length;
  }
  return text.slice(0, end);
}
