/**
 * Screenshots from an app's own cells: the screen the terminal's paint code fills (each
 * cell's grapheme and look) drawn as pixels, in the theme's colours, with Unifont's bitmap
 * glyphs (`glyphs.ts`), and encoded as a PNG (`png.ts`). A cell is 8×16 pixels, a wide
 * character's two cells 16×16; `scale` repeats each pixel.
 *
 * Looks: bold draws each glyph pixel twice (one to the right), as terminals do for a font
 * without a bold face; dim mixes the text colour half way to the background; italic slants
 * the upper rows one pixel right; underline and strikethrough are lines across the cell;
 * inverse swaps the two colours. The terminal's default colours, which a theme leaves to
 * the terminal, are a dark or a light pair chosen by the theme's `surface` colour.
 *
 * A character the font has no glyph for is drawn as a hollow box the size of its cells:
 * visible, never an error.
 *
 * @module
 */

import type { Theme } from "../../ui/theme.ts";
import { codeRgb, colourCode } from "../terminal/colour.ts";
import { ATTRIBUTE } from "../terminal/palette.ts";
import type { Screen } from "../terminal/screen.ts";
import { CELL_WIDTH, type Glyph, GLYPH_HEIGHT, type GlyphSet, loadGlyphs } from "./glyphs.ts";
import { encodePng, type IndexedPixels } from "./png.ts";
import { checkScale } from "./scale.ts";

export { checkScale, MAX_SCALE } from "./scale.ts";

/** What a screenshot may be asked for. */
export interface ScreenshotOptions {
  /** How many pixels each glyph pixel becomes across and down: 1 (the default) to 3. */
  scale?: number;
}

/** A screenshot: the PNG, its size, and its pixels to read back. */
export interface Screenshot {
  /** The PNG file. */
  readonly png: Uint8Array;
  /** The width in pixels: columns × 8 × scale. */
  readonly width: number;
  /** The height in pixels: rows × 16 × scale. */
  readonly height: number;
  /** The window's width in cells. */
  readonly columns: number;
  /** The window's height in cells. */
  readonly rows: number;
  /** How many pixels each glyph pixel became across and down. */
  readonly scale: number;
  /** The colour of pixel (x, y) as `#rrggbb`; throws RangeError outside the picture. */
  pixel(x: number, y: number): string;
  /**
   * The colours of the cell at (`column`, `row`) as `#rrggbb`, the most used first (so its
   * background, as a rule, then its text); throws RangeError outside the window.
   */
  cellColours(column: number, row: number): string[];
}

/** The terminal's own text and background colours, as a picture shows them. */
export interface DefaultColours {
  /** The text colour, 0xRRGGBB. */
  fg: number;
  /** The background colour, 0xRRGGBB. */
  bg: number;
}

const DARK_DEFAULTS: DefaultColours = { fg: 0xd0d0d0, bg: 0x121212 };
const LIGHT_DEFAULTS: DefaultColours = { fg: 0x1c1c1c, bg: 0xffffff };

function luminance(rgb: number): number {
  return 0.2126 * (rgb >> 16) + 0.7152 * ((rgb >> 8) & 0xff) + 0.0722 * (rgb & 0xff);
}

/**
 * The colours a picture gives the terminal's default text and background: the theme's own
 * `text` and `background` when they are colours, else a light pair when the theme's
 * `surface` is light and a dark pair otherwise.
 */
export function defaultColours(theme: Theme): DefaultColours {
  const surface = codeRgb(colourCode(theme.colours.surface));
  const base = surface !== null && luminance(surface) > 128 ? LIGHT_DEFAULTS : DARK_DEFAULTS;
  return {
    fg: codeRgb(colourCode(theme.colours.text)) ?? base.fg,
    bg: codeRgb(colourCode(theme.colours.background)) ?? base.bg,
  };
}

/** A look as a cell frame carries it: colour codes (0 the terminal's default) and attributes. */
export interface FrameLook {
  /** The text colour's code. */
  fg: number;
  /** The background's code. */
  bg: number;
  /** The `ATTRIBUTE` bits. */
  attributes: number;
}

/**
 * A window's cells as plain data, cheap to make and to post to a worker: each cell's
 * grapheme ("" for the right half of a wide one) and the index of its look in `looks`, and
 * the colours the terminal's defaults become.
 */
export interface CellFrame {
  /** The width in cells. */
  width: number;
  /** The height in cells. */
  height: number;
  /** Row by row, each cell's grapheme. */
  chars: string[];
  /** Row by row, each cell's index in `looks`. */
  cellLooks: Uint32Array;
  /** The looks the cells use; the first is the window's own (the terminal's default). */
  looks: FrameLook[];
  /** The colours of the terminal's default text and background. */
  defaults: DefaultColours;
}

/**
 * The cells of `screen` (as the terminal's paint code left them, at 24-bit colour) as a frame
 * to draw in `theme`'s colours: only the looks the cells use travel with it.
 */
export function cellFrame(screen: Screen, theme: Theme): CellFrame {
  const ids = new Map<number, number>([[0, 0]]);
  const looks: FrameLook[] = [screen.palette.parts(0)];
  const cellLooks = new Uint32Array(screen.styles.length);
  for (let i = 0; i < screen.styles.length; i++) {
    const style = screen.styles[i]!;
    let id = ids.get(style);
    if (id === undefined) {
      id = looks.length;
      ids.set(style, id);
      looks.push(screen.palette.parts(style));
    }
    cellLooks[i] = id;
  }
  return {
    width: screen.width,
    height: screen.height,
    chars: screen.chars.slice(),
    cellLooks,
    looks,
    defaults: defaultColours(theme),
  };
}

/** A cell's look, resolved to colour indices and attribute bits. */
interface CellLook {
  fg: number;
  bg: number;
  attributes: number;
}

function mix(a: number, b: number): number {
  const half = (shift: number) => ((((a >> shift) & 0xff) + ((b >> shift) & 0xff)) >> 1) << shift;
  return half(16) | half(8) | half(0);
}

/** Draws cells into colour indices, at scale 1. */
class CellPainter {
  readonly width: number;
  readonly height: number;
  readonly indices: Uint16Array;
  readonly colours: number[] = [];
  readonly #colourIndex = new Map<number, number>();
  readonly #looks = new Map<number, CellLook>();
  readonly #frame: CellFrame;
  readonly #defaults: DefaultColours;
  readonly #glyphs: GlyphSet;
  readonly #graphemes = new Map<string, Glyph[] | null>();

  constructor(frame: CellFrame, defaults: DefaultColours, glyphs: GlyphSet) {
    this.#frame = frame;
    this.#defaults = defaults;
    this.#glyphs = glyphs;
    this.width = frame.width * CELL_WIDTH;
    this.height = frame.height * GLYPH_HEIGHT;
    this.indices = new Uint16Array(this.width * this.height);
  }

  #colour(rgb: number): number {
    let index = this.#colourIndex.get(rgb);
    if (index === undefined) {
      index = this.colours.length;
      this.colours.push(rgb);
      this.#colourIndex.set(rgb, index);
    }
    return index;
  }

  #look(style: number): CellLook {
    let look = this.#looks.get(style);
    if (look === undefined) {
      const parts = this.#frame.looks[style]!;
      let fg = codeRgb(parts.fg) ?? this.#defaults.fg;
      let bg = codeRgb(parts.bg) ?? this.#defaults.bg;
      if (parts.attributes & ATTRIBUTE.inverse) [fg, bg] = [bg, fg];
      if (parts.attributes & ATTRIBUTE.dim) fg = mix(fg, bg);
      look = { fg: this.#colour(fg), bg: this.#colour(bg), attributes: parts.attributes };
      this.#looks.set(style, look);
    }
    return look;
  }

  paint(): void {
    const { width: columns, height: rows, chars, cellLooks: styles } = this.#frame;
    // The window's own background first, at once: most cells of most screens are blank ones
    // in it, and are then done.
    const blank = this.#look(0);
    this.indices.fill(blank.bg);
    const lines = ATTRIBUTE.underline | ATTRIBUTE.strikethrough;
    for (let row = 0; row < rows; row++) {
      for (let column = 0; column < columns; column++) {
        const index = row * columns + column;
        const char = chars[index]!;
        if (char === "") continue; // the right half of a wide character: drawn with it
        const look = this.#look(styles[index]!);
        if (char === " " && look.bg === blank.bg && (look.attributes & lines) === 0) continue;
        const cells = column + 1 < columns && chars[index + 1] === "" ? 2 : 1;
        this.#cell(column, row, cells, char, look);
      }
    }
  }

  #cell(column: number, row: number, cells: number, char: string, look: CellLook): void {
    const left = column * CELL_WIDTH;
    const top = row * GLYPH_HEIGHT;
    const span = cells * CELL_WIDTH;
    const { indices, width } = this;
    const bg = look.bg;
    for (let y = 0; y < GLYPH_HEIGHT; y++) {
      const start = (top + y) * width + left;
      for (let x = start; x < start + span; x++) indices[x] = bg;
    }
    if (char !== " ") this.#glyph(left, top, span, char, look);
    const line = (y: number) =>
      indices.fill(look.fg, (top + y) * width + left, (top + y) * width + left + span);
    if (look.attributes & ATTRIBUTE.underline) line(GLYPH_HEIGHT - 1);
    if (look.attributes & ATTRIBUTE.strikethrough) line(8);
  }

  #glyph(left: number, top: number, span: number, char: string, look: CellLook): void {
    let glyphs = this.#graphemes.get(char);
    if (glyphs === undefined) this.#graphemes.set(char, glyphs = this.#glyphsOf(char));
    if (glyphs === null) return this.#placeholder(left, top, span, look);
    const bold = (look.attributes & ATTRIBUTE.bold) !== 0;
    const italic = (look.attributes & ATTRIBUTE.italic) !== 0;
    for (const glyph of glyphs) this.#bits(left, top, span, glyph, look.fg, bold, italic);
  }

  /**
   * The glyphs that draw a grapheme: its first character's and the combining marks after it;
   * null when the font has none for its first.
   */
  #glyphsOf(char: string): Glyph[] | null {
    let base: Glyph | null = null;
    const marks: Glyph[] = [];
    for (const symbol of char) {
      const codePoint = symbol.codePointAt(0)!;
      if (codePoint === 0x200d) break; // a joined sequence: its first picture stands for it
      if (codePoint >= 0xfe00 && codePoint <= 0xfe0f) continue; // variation selectors
      const glyph = this.#glyphs.glyph(codePoint);
      if (glyph === null) {
        if (base === null) break;
        continue;
      }
      if (base === null) base = glyph;
      else if (glyph.combining) marks.push(glyph);
    }
    return base === null ? null : [base, ...marks];
  }

  /** Sets the glyph's pixels in colour `fg`, fitted to `span` pixels across. */
  #bits(
    left: number,
    top: number,
    span: number,
    glyph: Glyph,
    fg: number,
    bold: boolean,
    italic: boolean,
  ): void {
    const { indices, width } = this;
    const rowBytes = glyph.width / 8;
    // A glyph wider than its cells is squeezed (two pixels become one); a narrower one is
    // centred.
    const squeeze = glyph.width > span;
    const offset = glyph.width < span ? (span - glyph.width) >> 1 : 0;
    for (let y = 0; y < GLYPH_HEIGHT; y++) {
      let bits = glyph.bits[y * rowBytes]! << 8 |
        (rowBytes === 2 ? glyph.bits[y * rowBytes + 1]! : 0);
      if (bits === 0) continue;
      if (squeeze) {
        let squeezed = 0;
        for (let x = 0; x < 8; x++) if (bits & (0xc000 >> (2 * x))) squeezed |= 0x8000 >> x;
        bits = squeezed;
      }
      const drawn = squeeze ? 8 : glyph.width;
      if (bold) bits |= bits >> 1;
      const slant = italic && y < 7 ? 1 : 0;
      const rowStart = (top + y) * width + left;
      for (let x = 0; x < drawn + 1; x++) {
        if (!(bits & (0x8000 >> x))) continue;
        const at = offset + x + slant;
        if (at < span) indices[rowStart + at] = fg;
      }
    }
  }

  /** A hollow box inside the cells: the mark of a character the font has no glyph for. */
  #placeholder(left: number, top: number, span: number, look: CellLook): void {
    const { indices, width } = this;
    const right = left + span - 2;
    for (let y = top + 2; y < top + GLYPH_HEIGHT - 2; y++) {
      const edge = y === top + 2 || y === top + GLYPH_HEIGHT - 3;
      if (edge) indices.fill(look.fg, y * width + left + 1, y * width + right + 1);
      else {
        indices[y * width + left + 1] = look.fg;
        indices[y * width + right] = look.fg;
      }
    }
  }
}

/** `pixels` with each pixel repeated `scale` times across and down. */
function scaled(pixels: IndexedPixels, scale: number): IndexedPixels {
  if (scale === 1) return pixels;
  const width = pixels.width * scale;
  const height = pixels.height * scale;
  const indices = new Uint16Array(width * height);
  for (let y = 0; y < pixels.height; y++) {
    const from = y * pixels.width;
    const to = y * scale * width;
    for (let x = 0; x < pixels.width; x++) {
      indices.fill(pixels.indices[from + x]!, to + x * scale, to + (x + 1) * scale);
    }
    for (let copy = 1; copy < scale; copy++) {
      indices.copyWithin(to + copy * width, to, to + width);
    }
  }
  return { width, height, indices, colours: pixels.colours };
}

/**
 * A screenshot of `screen`'s cells (as the terminal's paint code left them, at 24-bit colour)
 * drawn in `theme`'s colours.
 */
export function screenshotOf(
  screen: Screen,
  theme: Theme,
  options: ScreenshotOptions = {},
): Promise<Screenshot> {
  return drawCells(cellFrame(screen, theme), options);
}

/** A screenshot of a frame of cells (`cellFrame()`), drawn wherever the frame was sent. */
export async function drawCells(
  frame: CellFrame,
  options: ScreenshotOptions = {},
): Promise<Screenshot> {
  const scale = checkScale(options.scale);
  if (frame.width < 1 || frame.height < 1) {
    throw new RangeError("a window of no cells has no picture");
  }
  const painter = new CellPainter(frame, frame.defaults, await loadGlyphs());
  painter.paint();
  const pixels = scaled(painter, scale);
  const png = await encodePng(pixels);
  const hex = (rgb: number) => `#${rgb.toString(16).padStart(6, "0")}`;
  return {
    png,
    width: pixels.width,
    height: pixels.height,
    columns: frame.width,
    rows: frame.height,
    scale,
    pixel(x: number, y: number): string {
      if (
        !Number.isInteger(x) || !Number.isInteger(y) || x < 0 || y < 0 || x >= pixels.width ||
        y >= pixels.height
      ) {
        throw new RangeError(
          `pixel (${x}, ${y}) is outside the ${pixels.width}×${pixels.height} picture`,
        );
      }
      return hex(pixels.colours[pixels.indices[y * pixels.width + x]!]!);
    },
    cellColours(column: number, row: number): string[] {
      if (
        !Number.isInteger(column) || !Number.isInteger(row) || column < 0 || row < 0 ||
        column >= frame.width || row >= frame.height
      ) {
        throw new RangeError(
          `cell (${column}, ${row}) is outside the ${frame.width}×${frame.height} window`,
        );
      }
      const counts = new Map<number, number>();
      const side = CELL_WIDTH * scale;
      const top = row * GLYPH_HEIGHT * scale;
      for (let y = top; y < top + GLYPH_HEIGHT * scale; y++) {
        for (let x = column * side; x < (column + 1) * side; x++) {
          const index = pixels.indices[y * pixels.width + x]!;
          counts.set(index, (counts.get(index) ?? 0) + 1);
        }
      }
      return [...counts].sort((a, b) => b[1] - a[1]).map(([index]) => hex(pixels.colours[index]!));
    },
  };
}
