/**
 * A screen of cells and the escape sequences that turn one screen into the next. A frame is
 * painted into a fresh screen; `diffScreens()` compares it with the screen the terminal
 * shows and writes only the cells that changed, moving the cursor and switching styles only
 * when needed. Wide characters (CJK, most emoji) take two cells: the second holds "" and is
 * drawn by the first.
 *
 * @module
 */

import { graphemeWidth, splitGraphemes } from "../../text/cell_width.ts";
import type { Rect } from "../../layout/visible.ts";
import type { ColourDepth } from "./colour.ts";
import { Palette } from "./palette.ts";

/** The palette screens use when not given one of their own. */
export const SHARED_PALETTE: Palette = new Palette();

/** A grid of cells: one grapheme (or "" for the right half of a wide one) and a style each. */
export class Screen {
  /** The width in cells. */
  readonly width: number;
  /** The height in cells. */
  readonly height: number;
  /** Each cell's grapheme, row by row; "" for the right half of a wide one. */
  readonly chars: string[];
  /** Each cell's look, a number of `palette`, row by row; 0 is the terminal's default. */
  readonly styles: Uint32Array;
  /** The looks the cells' numbers stand for. */
  readonly palette: Palette;

  /** A blank screen of `width` by `height` cells whose looks are in `palette`. */
  constructor(width: number, height: number, palette: Palette = SHARED_PALETTE) {
    this.width = Math.max(0, width);
    this.height = Math.max(0, height);
    this.palette = palette;
    this.chars = new Array<string>(this.width * this.height).fill(" ");
    this.styles = new Uint32Array(this.width * this.height);
  }

  /** The whole screen as a rectangle. */
  get area(): Rect {
    return { x: 0, y: 0, width: this.width, height: this.height };
  }

  /** Blanks every cell. */
  clear(): void {
    this.chars.fill(" ");
    this.styles.fill(0);
  }

  /** Sets one cell, keeping wide characters whole: a half left alone becomes a space. */
  #set(x: number, y: number, char: string, style: number): void {
    const row = y * this.width;
    const index = row + x;
    // Overwriting half of a wide character leaves its other half a space.
    if (char !== "" && this.chars[index] === "" && x > 0) this.chars[index - 1] = " ";
    if (x + 1 < this.width && this.chars[index + 1] === "") this.chars[index + 1] = " ";
    this.chars[index] = char;
    this.styles[index] = style;
  }

  /**
   * Fills a rectangle (clipped to `clip`) with spaces in `style`; cells keep their
   * background when the style has none.
   */
  fill(rect: Rect, style: number, clip: Rect = this.area): void {
    const left = Math.max(rect.x, clip.x, 0);
    const top = Math.max(rect.y, clip.y, 0);
    const right = Math.min(rect.x + rect.width, clip.x + clip.width, this.width);
    const bottom = Math.min(rect.y + rect.height, clip.y + clip.height, this.height);
    for (let y = top; y < bottom; y++) {
      for (let x = left; x < right; x++) this.#set(x, y, " ", this.#blend(x, y, style));
    }
  }

  /** A look laid over a cell: the cell's background shows through a look without one. */
  #blend(x: number, y: number, style: number): number {
    return this.palette.over(style, this.styles[y * this.width + x]!);
  }

  /**
   * Writes text from (x, y) in `style`, cut at the edges of `clip`; a wide character that
   * would straddle an edge shows as a space. Returns the x after the text.
   */
  write(x: number, y: number, text: string, style: number, clip: Rect = this.area): number {
    if (y < Math.max(0, clip.y) || y >= Math.min(this.height, clip.y + clip.height)) {
      return x + cellWidthOf(text);
    }
    const left = Math.max(0, clip.x);
    const right = Math.min(this.width, clip.x + clip.width);
    let cursor = x;
    for (const grapheme of splitGraphemes(text)) {
      const width = graphemeWidth(grapheme);
      if (width === 0) continue;
      if (cursor >= right) return cursor + width; // past the edge: only the width counts
      const first = cursor;
      cursor += width;
      if (cursor <= left) continue;
      if (first < left || cursor > right) {
        // Half outside: show the half inside as a space.
        for (let cell = Math.max(first, left); cell < Math.min(cursor, right); cell++) {
          this.#set(cell, y, " ", this.#blend(cell, y, style));
        }
        continue;
      }
      const blended = this.#blend(first, y, style);
      this.#set(first, y, grapheme, blended);
      if (width === 2) this.#set(first + 1, y, "", blended);
    }
    return cursor;
  }

  /** Row `y` as plain text (for tests and debugging). */
  line(y: number): string {
    return this.chars.slice(y * this.width, (y + 1) * this.width).join("");
  }
}

function cellWidthOf(text: string): number {
  let width = 0;
  for (const grapheme of splitGraphemes(text)) width += graphemeWidth(grapheme);
  return width;
}

/**
 * The escape sequences that change what the terminal shows from `before` to `after`: only
 * cells that differ are written, in colours brought down to `depth`. With `before` null the
 * terminal is cleared first and every cell that is not blank is written (the first frame, and
 * after a resize). Both screens share a palette.
 */
export function diffScreens(
  before: Screen | null,
  after: Screen,
  depth: ColourDepth = "256",
): string {
  const out: string[] = [];
  const same = before !== null && before.width === after.width && before.height === after.height;
  if (!same) out.push("\x1b[0m\x1b[H\x1b[2J");
  let pen = -1; // unknown
  let cursorX = -1;
  let cursorY = -1;
  const { width, height, chars, styles } = after;
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      const index = row + x;
      const char = chars[index]!;
      if (char === "") continue; // drawn with the wide character to its left
      const style = styles[index]!;
      if (same) {
        if (before.chars[index] === char && before.styles[index] === style) {
          // A wide character whose right half changed must be written again.
          const wide = x + 1 < width && chars[index + 1] === "";
          if (!wide || before.chars[index + 1] === "") continue;
        }
      } else if (char === " " && style === 0) {
        continue; // the clear left it so
      }
      if (cursorX !== x || cursorY !== y) out.push(`\x1b[${y + 1};${x + 1}H`);
      if (pen !== style) {
        out.push(after.palette.sgr(style, depth));
        pen = style;
      }
      out.push(char);
      const advance = x + 1 < width && chars[index + 1] === "" ? 2 : 1;
      cursorX = x + advance;
      cursorY = y;
      // At the right edge the cursor waits to wrap; its place is not to be trusted.
      if (cursorX >= width) cursorX = -1;
    }
  }
  if (pen !== -1 && pen !== 0) out.push("\x1b[0m");
  return out.join("");
}
