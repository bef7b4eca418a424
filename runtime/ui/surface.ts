/**
 * The surface widgets paint onto: cells addressed by column and row, written with a style
 * named by what it shows ("button", "focus", "field", ...). Each renderer implements it (the
 * terminal's cell buffer maps the names to its theme's colors); widgets know no renderer, as
 * a Ratatui widget knows only its area and the buffer.
 *
 * @module
 */

import { cellWidth } from "../text/cell_width.ts";
import { ellipsize } from "../text/fit.ts";
import type { Rect } from "../text/rect.ts";
import type { TextStyle } from "./style.ts";

/** What a run of cells shows; a renderer's theme gives each its look. */
export type StyleName =
  | "text"
  | "heading"
  | "button"
  | "focus"
  | "hover"
  | "disabled"
  | "field"
  | "cursor"
  | "checked"
  | "selectedRow"
  | "focusedRow"
  | "dialog"
  | "dialogTitle"
  | "border"
  | "track"
  | "thumb"
  | "status";

/**
 * Cells to paint on. Nothing outside `clip` changes. `over` is a style laid on the look
 * (a widget's own `.style()`, a styled span), field by field.
 */
export interface Surface {
  /**
   * Writes `text` from column `x` of row `y`, each grapheme over as many cells as it is wide;
   * returns the column after the last cell written (or skipped by the clip).
   */
  write(
    x: number,
    y: number,
    text: string,
    style: StyleName,
    clip: Rect,
    over?: Readonly<TextStyle> | null,
  ): number;
  /** Paints every cell of `rect` with `style`, keeping what they show. */
  fill(rect: Rect, style: StyleName, clip: Rect, over?: Readonly<TextStyle> | null): void;
}

/** Where and how one element paints this frame. */
export interface PaintArea {
  /** The surface to paint on. */
  readonly surface: Surface;
  /** The element's box, in surface cells. */
  readonly bounds: Rect;
  /** The part of the box that shows (clipped by its ancestors and the app's area). */
  readonly clip: Rect;
  /** The column its content starts at: inside its padding and border. */
  readonly x: number;
  /** The row its content starts at: inside its padding and border. */
  readonly y: number;
  /** The columns its content has from `x`: the box inside its padding and border. */
  readonly width: number;
  /** The rows its content has from `y`. */
  readonly height: number;
  /** True when the element has focus. */
  readonly focused: boolean;
  /** True when the pointer is over it. */
  readonly hovered: boolean;
  /** True when it or an ancestor is disabled. */
  readonly disabled: boolean;
}

/** How an interactive widget looks in its state: disabled beats focus beats hover. */
export function interactiveStyle(area: PaintArea, normal: StyleName): StyleName {
  if (area.disabled) return "disabled";
  if (area.focused) return "focus";
  return area.hovered ? "hover" : normal;
}

/**
 * `text` as it fits from column `x` to the end of the area's room (its content box, cut by
 * the clip): whole when it fits, else cut to end in `…`. A label painted with it shows a
 * person that there is more; its node's name stays whole.
 */
export function fitFrom(area: PaintArea, x: number, text: string): string {
  const room = roomFrom(area, x);
  return cellWidth(text) <= room ? text : ellipsize(text, room);
}

/**
 * The label to paint so that `face` (its line, which holds `label` once, with decoration such
 * as brackets) fits the area's room from its start: `label` whole when it fits, else cut to
 * end in `…`, the decoration kept.
 */
export function labelThatFits(area: PaintArea, face: string, label: string): string {
  const width = cellWidth(face);
  const room = roomFrom(area, area.x);
  if (width <= room) return label;
  return ellipsize(label, Math.max(1, room - (width - cellWidth(label))));
}

/** The cells from column `x` to the end of the area's room (its content box, cut by the clip). */
export function roomFrom(area: PaintArea, x: number): number {
  return Math.max(0, Math.min(area.x + area.width, area.clip.x + area.clip.width) - x);
}
