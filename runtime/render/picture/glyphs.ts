/**
 * The bitmap glyphs screenshots are drawn with: GNU Unifont's (as UnifontExMono 15.0.06
 * ships them, SIL Open Font License 1.1, FONT-LICENSE.txt beside this file), 8×16 pixels for a
 * character one cell wide and 16×16 for a wide one, covering the Basic Multilingual Plane
 * (box drawing, block elements, CJK, Hangul) and most of the planes above (emoji among them).
 * A pixel font needs no rasterizer, draws the same pixels on every machine, and its box
 * drawing characters meet at the cell's edges, as a terminal's do.
 *
 * The data lives in a module (`glyph_data.ts`, made by `.ci/glyphs.ts`), so it loads with
 * no permission, in a worker, a compiled program or the published package alike. It is
 * inflated once, on the first screenshot, which takes some 20 ms.
 *
 * Layout of the inflated data: `CUG1`, the glyph count N and the range count R (u32, big
 * endian); R ranges of code points (start, count); N kind bytes (bit 0: 16 pixels wide,
 * bit 1: a combining mark, drawn over the character before it); then the bitmaps in
 * code point order, 16 rows each of one byte (8 wide) or two (16 wide), the left pixel in
 * the high bit.
 *
 * @module
 */

/** One glyph's pixels. */
export interface Glyph {
  /** 8 or 16. */
  readonly width: 8 | 16;
  /** True for a combining mark, drawn over the character it follows. */
  readonly combining: boolean;
  /** 16 rows of `width / 8` bytes, the left pixel in the high bit. */
  readonly bits: Uint8Array;
}

/** The glyph height in pixels: a cell's height. */
export const GLYPH_HEIGHT = 16;

/** A cell's width in pixels. */
export const CELL_WIDTH = 8;

/** The glyphs, looked up by code point. */
export class GlyphSet {
  readonly #starts: Uint32Array;
  readonly #counts: Uint32Array;
  /** The index of each range's first glyph. */
  readonly #firsts: Uint32Array;
  readonly #kinds: Uint8Array;
  readonly #offsets: Uint32Array;
  readonly #bitmaps: Uint8Array;
  readonly #cache = new Map<number, Glyph | null>();

  /** Reads the inflated glyph data (see the module's notes for its layout). */
  constructor(data: Uint8Array) {
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    if (view.getUint32(0) !== 0x43554731) throw new Error("the glyph data is not CUG1");
    const count = view.getUint32(4);
    const ranges = view.getUint32(8);
    this.#starts = new Uint32Array(ranges);
    this.#counts = new Uint32Array(ranges);
    this.#firsts = new Uint32Array(ranges);
    let first = 0;
    for (let r = 0; r < ranges; r++) {
      this.#starts[r] = view.getUint32(12 + r * 8);
      this.#counts[r] = view.getUint32(16 + r * 8);
      this.#firsts[r] = first;
      first += this.#counts[r]!;
    }
    const kindsAt = 12 + ranges * 8;
    this.#kinds = data.subarray(kindsAt, kindsAt + count);
    this.#offsets = new Uint32Array(count);
    let offset = 0;
    for (let g = 0; g < count; g++) {
      this.#offsets[g] = offset;
      offset += (this.#kinds[g]! & 1 ? 2 : 1) * GLYPH_HEIGHT;
    }
    this.#bitmaps = data.subarray(kindsAt + count, kindsAt + count + offset);
    if (this.#bitmaps.length !== offset) throw new Error("the glyph data is cut short");
  }

  /** How many glyphs there are. */
  get size(): number {
    return this.#kinds.length;
  }

  /** The glyph of `codePoint`, or null when the font has none. */
  glyph(codePoint: number): Glyph | null {
    let glyph = this.#cache.get(codePoint);
    if (glyph !== undefined) return glyph;
    glyph = null;
    let low = 0;
    let high = this.#starts.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const start = this.#starts[middle]!;
      if (codePoint < start) high = middle - 1;
      else if (codePoint >= start + this.#counts[middle]!) low = middle + 1;
      else {
        const index = this.#firsts[middle]! + codePoint - start;
        const kind = this.#kinds[index]!;
        const width = kind & 1 ? 16 : 8;
        const at = this.#offsets[index]!;
        glyph = {
          width,
          combining: (kind & 2) !== 0,
          bits: this.#bitmaps.subarray(at, at + (width / 8) * GLYPH_HEIGHT),
        };
        break;
      }
    }
    this.#cache.set(codePoint, glyph);
    return glyph;
  }
}

let loading: Promise<GlyphSet> | null = null;

async function inflate(base64: string): Promise<Uint8Array> {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** The glyphs, loaded and inflated on the first call. */
export function loadGlyphs(): Promise<GlyphSet> {
  loading ??= (async () => {
    const { GLYPH_DATA } = await import("./glyph_data.ts");
    return new GlyphSet(await inflate(GLYPH_DATA));
  })();
  return loading;
}
