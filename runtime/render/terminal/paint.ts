/**
 * The terminal's side of painting: its theme (the cell style of each style name widgets
 * paint with, in color or, as `NO_COLOR` asks, without) and the screen as a `Surface`. What
 * each widget looks like is the widget's own (`runtime/ui/`); the walk over the elements is
 * shared with the headless renderer (`runtime/render/paint.ts`).
 *
 * @module
 */

import type { RenderSource } from "../../app/renderer.ts";
import type { Rect } from "../../text/rect.ts";
import type { StyleName, Surface } from "../../ui/surface.ts";
import { paintElements } from "../paint.ts";
import { type Screen, styleCode } from "./screen.ts";

/** The packed styles a frame is painted with. */
export interface Theme {
  /** Plain text. */
  text: number;
  /** Headings and titles. */
  heading: number;
  /** Buttons and menus at rest. */
  button: number;
  /** The focused widget. */
  focus: number;
  /** The widget under the pointer. */
  hover: number;
  /** Disabled widgets. */
  disabled: number;
  /** A text field's box. */
  field: number;
  /** A text field's cursor and selection. */
  cursor: number;
  /** The mark of a checked checkbox. */
  checked: number;
  /** A selected list row. */
  selectedRow: number;
  /** The focused list row. */
  focusedRow: number;
  /** A dialog's inside. */
  dialog: number;
  /** A dialog's frame. */
  border: number;
  /** A slider's or scroll bar's track. */
  track: number;
  /** A slider's or scroll bar's thumb. */
  thumb: number;
  /** The status line. */
  status: number;
}

/** The theme for a terminal with colors, or (`color` false, as `NO_COLOR` asks) without. */
export function makeTheme(color: boolean): Theme {
  const c = (style: Parameters<typeof styleCode>[0], plain = style) =>
    styleCode(color ? style : plain);
  return {
    text: 0,
    heading: styleCode({ bold: true }),
    button: c({ fg: 6 }, {}),
    focus: styleCode({ inverse: true, bold: true }),
    hover: c({ fg: 6, underline: true }, { underline: true }),
    disabled: c({ fg: 8 }, { dim: true }),
    field: c({ bg: 236 }, { underline: true }),
    cursor: styleCode({ inverse: true }),
    checked: c({ fg: 2, bold: true }, { bold: true }),
    selectedRow: c({ bg: 237 }, {}),
    focusedRow: c({ bg: 24 }, { bold: true }),
    dialog: c({ bg: 235 }, {}),
    border: c({ fg: 6, bg: 235 }, {}),
    track: c({ fg: 8 }, {}),
    thumb: c({ fg: 6, bold: true }, { bold: true }),
    status: styleCode({ inverse: true }),
  };
}

/** The theme's style for each style name a widget paints with. */
function stylesOf(theme: Theme): Record<StyleName, number> {
  return {
    text: theme.text,
    heading: theme.heading,
    button: theme.button,
    focus: theme.focus,
    hover: theme.hover,
    disabled: theme.disabled,
    field: theme.field,
    cursor: theme.cursor,
    checked: theme.checked,
    selectedRow: theme.selectedRow,
    focusedRow: theme.focusedRow,
    dialog: theme.dialog,
    dialogTitle: theme.heading | theme.dialog,
    border: theme.border,
    track: theme.track,
    thumb: theme.thumb,
  };
}

/** A screen as the surface widgets paint on: style names become the theme's cell styles. */
export class ScreenSurface implements Surface {
  readonly #screen: Screen;
  readonly #styles: Record<StyleName, number>;

  /** Paints onto `screen` with `theme`. */
  constructor(screen: Screen, theme: Theme) {
    this.#screen = screen;
    this.#styles = stylesOf(theme);
  }

  /** Writes `text` at (x, y) in the theme's `style`; returns the column after it. */
  write(x: number, y: number, text: string, style: StyleName, clip: Rect): number {
    return this.#screen.write(x, y, text, this.#styles[style], clip);
  }

  /** Paints `rect` with the theme's `style`. */
  fill(rect: Rect, style: StyleName, clip: Rect): void {
    this.#screen.fill(rect, this.#styles[style], clip);
  }
}

/**
 * Paints the frame of `source` into `screen` (which should be blank) within `area`, the
 * part of the screen the app owns.
 */
export function paintFrame(
  screen: Screen,
  source: RenderSource,
  theme: Theme,
  area: Rect = screen.area,
): void {
  paintElements(new ScreenSurface(screen, theme), source, area);
}
