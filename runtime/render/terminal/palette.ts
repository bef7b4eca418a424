/**
 * The looks cells are drawn in, each kept once and known by a number: a cell stores its
 * look's number, so that comparing two screens compares numbers, and a look can hold 24-bit
 * colours and every attribute. The SGR sequence of each look is made once per colour depth.
 *
 * @module
 */

import { type ColourDepth, colourSgr } from "./colour.ts";

/** The attribute bits of a look. */
export const ATTRIBUTE = Object.freeze({
  bold: 1,
  dim: 2,
  italic: 4,
  underline: 8,
  strikethrough: 16,
  inverse: 32,
});

// SGR parameters of the attributes, in bit order.
const ATTRIBUTE_SGR = ["1", "2", "3", "4", "9", "7"];
const ATTRIBUTE_NAMES = ["bold", "dim", "italic", "underline", "strikethrough", "inverse"];

/** The looks of one renderer's screens. Look 0 is the terminal's default. */
export class Palette {
  readonly #fg: number[] = [0];
  readonly #bg: number[] = [0];
  readonly #attributes: number[] = [0];
  readonly #ids = new Map<string, number>([["0,0,0", 0]]);
  readonly #sgr = new Map<ColourDepth, string[]>();

  /** The number of the look with colour codes `fg` and `bg` (0 the default) and `attributes`. */
  look(fg: number, bg: number, attributes: number): number {
    const key = `${fg},${bg},${attributes}`;
    let id = this.#ids.get(key);
    if (id === undefined) {
      id = this.#fg.length;
      this.#fg.push(fg);
      this.#bg.push(bg);
      this.#attributes.push(attributes);
      this.#ids.set(key, id);
    }
    return id;
  }

  /** Look `id`'s colour codes (0 the terminal's default) and attribute bits (`ATTRIBUTE`). */
  parts(id: number): { fg: number; bg: number; attributes: number } {
    return { fg: this.#fg[id]!, bg: this.#bg[id]!, attributes: this.#attributes[id]! };
  }

  /** True when look `id` has a background colour of its own. */
  hasBackground(id: number): boolean {
    return this.#bg[id] !== 0;
  }

  /** Look `id`, with the background of look `under` when it has none of its own. */
  over(id: number, under: number): number {
    if (this.#bg[id] !== 0 || this.#bg[under] === 0) return id;
    return this.look(this.#fg[id]!, this.#bg[under]!, this.#attributes[id]!);
  }

  /** The SGR sequence that sets the pen to look `id` from a reset, at `depth`. */
  sgr(id: number, depth: ColourDepth): string {
    let made = this.#sgr.get(depth);
    if (made === undefined) this.#sgr.set(depth, made = []);
    let sequence = made[id];
    if (sequence === undefined) {
      const parts = ["0"];
      const attributes = this.#attributes[id]!;
      for (let bit = 0; bit < ATTRIBUTE_SGR.length; bit++) {
        if (attributes & (1 << bit)) parts.push(ATTRIBUTE_SGR[bit]!);
      }
      const fg = colourSgr(this.#fg[id]!, depth, false);
      if (fg !== "") parts.push(fg);
      const bg = colourSgr(this.#bg[id]!, depth, true);
      if (bg !== "") parts.push(bg);
      sequence = made[id] = `\x1b[${parts.join(";")}m`;
    }
    return sequence;
  }

  /**
   * Look `id` in words, stable across runs, for snapshot tests: `fg=#ff5f5f bg=236 bold`,
   * `default` for the terminal's own look.
   */
  describe(id: number): string {
    const words: string[] = [];
    const colour = (code: number) =>
      code >= 0x1000000 ? `#${(code & 0xffffff).toString(16).padStart(6, "0")}` : String(code - 1);
    if (this.#fg[id] !== 0) words.push(`fg=${colour(this.#fg[id]!)}`);
    if (this.#bg[id] !== 0) words.push(`bg=${colour(this.#bg[id]!)}`);
    const attributes = this.#attributes[id]!;
    for (let bit = 0; bit < ATTRIBUTE_NAMES.length; bit++) {
      if (attributes & (1 << bit)) words.push(ATTRIBUTE_NAMES[bit]!);
    }
    return words.length === 0 ? "default" : words.join(" ");
  }
}
