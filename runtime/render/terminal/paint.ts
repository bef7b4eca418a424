/**
 * The terminal's side of painting: the screen as a `Surface`, on which each look a widget
 * paints with (`button`, `focus`, ...) becomes the theme's style for it, with the widget's
 * own style over it, in colours brought to codes of the screen's palette. What each widget
 * looks like is the widget's own (`runtime/ui/`); the walk over the widgets is shared with
 * the headless renderer (`runtime/render/paint.ts`).
 *
 * @module
 */

import type { RenderSource } from "../../app/renderer.ts";
import type { Rect } from "../../text/rect.ts";
import { isMeaning, type TextStyle } from "../../ui/style.ts";
import type { StyleName, Surface } from "../../ui/surface.ts";
import type { Theme } from "../../ui/theme.ts";
import { paintElements } from "../paint.ts";
import { colourCode, type ColourDepth } from "./colour.ts";
import { ATTRIBUTE } from "./palette.ts";
import type { Screen } from "./screen.ts";

/** The palette look of `style` in `theme`, on `screen`'s palette. */
function lookOf(screen: Screen, theme: Theme, style: Readonly<TextStyle>): number {
  const code = (colour: TextStyle["fg"]) => {
    if (colour === undefined) return 0;
    return colourCode(isMeaning(colour) ? theme.colours[colour] : colour);
  };
  let attributes = 0;
  for (const [name, bit] of Object.entries(ATTRIBUTE)) {
    if (style[name as keyof typeof ATTRIBUTE]) attributes |= bit;
  }
  return screen.palette.look(code(style.fg), code(style.bg), attributes);
}

/**
 * A screen as the surface widgets paint on: each look becomes the theme's style for it, at
 * the colour depth given (without colour, the look's `mono` form).
 */
export class ScreenSurface implements Surface {
  readonly #screen: Screen;
  readonly #theme: Theme;
  readonly #depth: ColourDepth;
  readonly #looks = new Map<StyleName, number>();
  readonly #overLooks = new WeakMap<Readonly<TextStyle>, Map<StyleName, number>>();

  /** Paints onto `screen` with `theme`, for a terminal of `depth`. */
  constructor(screen: Screen, theme: Theme, depth: ColourDepth) {
    this.#screen = screen;
    this.#theme = theme;
    this.#depth = depth;
  }

  /** The palette look of `name` in the theme, with `over` laid on it. */
  look(name: StyleName, over: Readonly<TextStyle> | null = null): number {
    const cache = over === null ? this.#looks : this.#overLooksOf(over);
    let look = cache.get(name);
    if (look === undefined) {
      const { mono, ...coloured } = this.#theme.styles[name];
      let style: Readonly<TextStyle> = this.#depth === "none" && mono !== undefined
        ? mono
        : coloured;
      if (over !== null) style = { ...style, ...over };
      if (this.#depth === "none" && (style.fg !== undefined || style.bg !== undefined)) {
        const { fg: _fg, bg: _bg, ...attributes } = style;
        style = attributes; // what a terminal without colour shows
      }
      look = lookOf(this.#screen, this.#theme, style);
      cache.set(name, look);
    }
    return look;
  }

  #overLooksOf(over: Readonly<TextStyle>): Map<StyleName, number> {
    let looks = this.#overLooks.get(over);
    if (looks === undefined) this.#overLooks.set(over, looks = new Map());
    return looks;
  }

  /** Writes `text` at (x, y) in the theme's `style`; returns the column after it. */
  write(
    x: number,
    y: number,
    text: string,
    style: StyleName,
    clip: Rect,
    over: Readonly<TextStyle> | null = null,
  ): number {
    return this.#screen.write(x, y, text, this.look(style, over), clip);
  }

  /** Paints `rect` with the theme's `style`. */
  fill(rect: Rect, style: StyleName, clip: Rect, over: Readonly<TextStyle> | null = null): void {
    this.#screen.fill(rect, this.look(style, over), clip);
  }
}

/**
 * Paints the frame of `source` into `screen` (which should be blank) within `area`, the
 * part of the screen the app owns, with `theme` at `depth`. Returns the surface, whose looks
 * the caller may paint more with (the status line).
 */
export function paintFrame(
  screen: Screen,
  source: RenderSource,
  theme: Theme,
  depth: ColourDepth,
  area: Rect = screen.area,
): ScreenSurface {
  const surface = new ScreenSurface(screen, theme, depth);
  paintElements(surface, source, area);
  return surface;
}
