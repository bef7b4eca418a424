/**
 * Text that fits its room: each `\n` starts a line; a line wider than its room is cut and
 * ends in `…`, or, when wrapping, breaks at spaces between words (a word wider than the whole
 * room is broken between graphemes). Widths are cells (`cell_width.ts`): a wide character
 * takes two, a combining mark none, and no grapheme is ever split. Lines are ranges of the
 * text, not copies, so that styled runs over the same text can be painted line by line.
 *
 * @module
 */

import { cellWidth, graphemeWidth, splitGraphemes } from "./cell_width.ts";

/** One line of a text as it fits: `text.slice(start, end)`, then `…` when it was cut. */
export interface TextLine {
  /** The offset of its first character in the text. */
  readonly start: number;
  /** The offset after its last character. */
  readonly end: number;
  /** True when the line was cut short: it shows `…` after its characters. */
  readonly ellipsis: boolean;
}

/** The mark a cut line ends with. */
export const ELLIPSIS = "…";

/**
 * The lines `text` shows in `width` cells: one for each `\n`-separated line, cut with `…`
 * when too wide, or (with `wrap`) broken at word boundaries. With `maxLines`, lines past it
 * are left out and the last one shown ends in `…`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const text = "The quick brown fox";
 * const shown = (wrap: boolean) =>
 *   fitText(text, 10, { wrap }).map((line) =>
 *     text.slice(line.start, line.end) + (line.ellipsis ? "…" : "")
 *   );
 * assert.deepEqual(shown(false), ["The quick…"]);
 * assert.deepEqual(shown(true), ["The quick", "brown fox"]);
 * ```
 */
export function fitText(
  text: string,
  width: number,
  options: { wrap?: boolean; maxLines?: number } = {},
): TextLine[] {
  const room = Math.max(0, Math.floor(width));
  const lines: TextLine[] = [];
  let start = 0;
  for (;;) {
    const newline = text.indexOf("\n", start);
    const end = newline < 0 ? text.length : newline;
    if (options.wrap) wrapLine(text, start, end, room, lines);
    else lines.push(cutLine(text, start, end, room));
    if (newline < 0) break;
    start = newline + 1;
  }
  const most = options.maxLines;
  if (most !== undefined && lines.length > most) {
    lines.length = Math.max(0, most);
    const last = lines[lines.length - 1];
    if (last !== undefined && !last.ellipsis) {
      lines[lines.length - 1] = {
        start: last.start,
        end: trimEnd(
          text,
          last.start,
          prefixEnd(text, last.start, last.end, Math.max(0, room - 1)),
        ),
        ellipsis: room > 0,
      };
    }
  }
  return lines;
}

/**
 * `text` on one line in `width` cells: whole when it fits, else cut to end in `…` (the
 * spaces before the cut go, so `Delete all` in 8 cells is `Delete…`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal(ellipsize("Delete everything", 8), "Delete…");
 * assert.equal(ellipsize("Save", 8), "Save");
 * ```
 */
export function ellipsize(text: string, width: number): string {
  if (cellWidth(text) <= width) return text;
  const [line] = fitText(text.replaceAll("\n", " "), width);
  return text.slice(0, line!.end).replaceAll("\n", " ") + (line!.ellipsis ? ELLIPSIS : "");
}

/** The size of `text`'s lines without wrapping: the widest line's cells, and how many. */
export function textSize(text: string): { width: number; height: number } {
  if (!text.includes("\n")) return { width: cellWidth(text), height: 1 };
  let width = 0;
  let height = 0;
  for (const line of text.split("\n")) {
    width = Math.max(width, cellWidth(line));
    height++;
  }
  return { width, height };
}

/** `text[start, end)` as one line in `room` cells: whole, or cut to end in `…`. */
function cutLine(text: string, start: number, end: number, room: number): TextLine {
  if (cellWidth(text.slice(start, end)) <= room) return { start, end, ellipsis: false };
  if (room === 0) return { start, end: start, ellipsis: false };
  return {
    start,
    end: trimEnd(text, start, prefixEnd(text, start, end, room - 1)),
    ellipsis: true,
  };
}

/** `end` moved back over the spaces before it (not past `start`): a cut ends on a word. */
function trimEnd(text: string, start: number, end: number): number {
  while (end > start && text[end - 1] === " ") end--;
  return end;
}

/** The end of the longest run of whole graphemes from `start` (before `end`) within `cells`. */
function prefixEnd(text: string, start: number, end: number, cells: number): number {
  let used = 0;
  let at = start;
  for (const grapheme of splitGraphemes(text.slice(start, end))) {
    used += graphemeWidth(grapheme);
    if (used > cells) break;
    at += grapheme.length;
  }
  return at;
}

/** Breaks `text[start, end)` into lines of `room` cells at spaces, into `lines`. */
function wrapLine(text: string, start: number, end: number, room: number, lines: TextLine[]): void {
  const line = text.slice(start, end);
  if (room === 0 || cellWidth(line) <= room) {
    lines.push(
      room === 0 ? { start, end: start, ellipsis: false } : { start, end, ellipsis: false },
    );
    return;
  }
  let lineStart = start;
  let lineEnd = start;
  let lineWidth = 0;
  let spaces = 0; // the width of the spaces since the line's last word
  let empty = true; // nothing on the line yet
  for (const match of line.matchAll(/ +|[^ ]+/g)) {
    const tokenStart = start + match.index;
    const tokenEnd = tokenStart + match[0].length;
    if (match[0][0] === " ") {
      if (lineStart === start && empty) {
        // The line's own indentation stays.
        lineEnd = tokenEnd;
        lineWidth += match[0].length;
        empty = lineWidth === 0;
      } else spaces += match[0].length;
      continue;
    }
    let wordWidth = cellWidth(match[0]);
    if (!empty && lineWidth + spaces + wordWidth > room) {
      lines.push({ start: lineStart, end: lineEnd, ellipsis: false });
      lineStart = tokenStart;
      lineWidth = 0;
      empty = true;
    }
    if (empty) {
      let from = tokenStart;
      if (lineWidth === 0) lineStart = tokenStart;
      // A word wider than the room is broken between graphemes.
      while (lineWidth + wordWidth > room) {
        const cut = prefixEnd(text, from, tokenEnd, room - lineWidth);
        if (cut === from && lineWidth === 0) break; // a grapheme wider than the room
        lines.push({ start: lineStart, end: cut, ellipsis: false });
        wordWidth -= cellWidth(text.slice(from, cut));
        from = cut;
        lineStart = cut;
        lineWidth = 0;
      }
      lineEnd = tokenEnd;
      lineWidth += wordWidth;
      empty = false;
    } else {
      lineEnd = tokenEnd;
      lineWidth += spaces + wordWidth;
    }
    spaces = 0;
  }
  lines.push({ start: lineStart, end: lineEnd, ellipsis: false });
}
