/**
 * Borders: the one-cell frame any widget may have (`.border()`), dialogs and popups included.
 * Layout keeps a cell on each side for it (`LayoutStyle.border`); what it looks like — its
 * lines, its title, its style — is kept here, by widget, and painted by the renderers' walk
 * after the widget's own paint, so that every frame on screen is drawn by the same code.
 * Borders are for people: they never reach the semantic tree.
 *
 * @module
 */

import { ellipsize } from "../text/fit.ts";
import type { Rect } from "../text/rect.ts";
import type { TextStyle } from "./style.ts";
import type { Surface } from "./surface.ts";

/**
 * The kinds of line a border is drawn with, for `.border(kind)`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { BORDER_KINDS } from "@crownui/runtime";
 *
 * assert.deepEqual(BORDER_KINDS, ["single", "double", "rounded", "heavy"]);
 * ```
 */
export const BORDER_KINDS = ["single", "double", "rounded", "heavy"] as const;

/** A kind of border: `single` (┌─┐), `double` (╔═╗), `rounded` (╭─╮) or `heavy` (┏━┓). */
export type BorderKind = typeof BORDER_KINDS[number];

/** The six characters of each kind: top-left, top-right, bottom-left, bottom-right, across, down. */
const LINES: Readonly<Record<BorderKind, readonly string[]>> = {
  single: ["┌", "┐", "└", "┘", "─", "│"],
  double: ["╔", "╗", "╚", "╝", "═", "║"],
  rounded: ["╭", "╮", "╰", "╯", "─", "│"],
  heavy: ["┏", "┓", "┗", "┛", "━", "┃"],
};

/** How a widget's border looks. */
export interface BorderLook {
  /** Its lines. */
  readonly kind: BorderKind;
  /** The title in its top line, or "" for none. */
  readonly title: string;
  /** Laid on the theme's `border` look for its lines; null for none. */
  readonly style: Readonly<TextStyle> | null;
  /** Laid on the theme's `heading` look for its title; null for none. */
  readonly titleStyle: Readonly<TextStyle> | null;
}

/** The look of a border nobody described: single lines, no title (dialogs, popups). */
export const PLAIN_BORDER: BorderLook = Object.freeze({
  kind: "single",
  title: "",
  style: null,
  titleStyle: null,
});

/** The border looks of the widgets that were given one, by widget. */
const looks = new WeakMap<object, BorderLook>();

/** Gives `widget` a border look (the layout's border cell is the caller's to switch on). */
export function setBorderLook(widget: object, look: BorderLook): void {
  looks.set(widget, look);
}

/** The border look of `widget`: its own, or single lines without a title. */
export function borderLookOf(widget: object): BorderLook {
  return looks.get(widget) ?? PLAIN_BORDER;
}

/** Checks a border kind given by an app. */
export function checkBorderKind(kind: unknown): BorderKind {
  if (typeof kind === "string" && (BORDER_KINDS as readonly string[]).includes(kind)) {
    return kind as BorderKind;
  }
  throw new TypeError(
    `border() takes a kind of line: ${BORDER_KINDS.map((name) => `"${name}"`).join(", ")}; got ${
      JSON.stringify(kind)
    }`,
  );
}

/**
 * Paints a border of `look` round `bounds` (clipped to `clip`), its title in the top line
 * (`╭─ Title ───╮`), cut with `…` when the box is too narrow for it. A box narrower or
 * shorter than two cells has no room for a frame and gets none.
 */
export function paintBorder(surface: Surface, bounds: Rect, clip: Rect, look: BorderLook): void {
  const { x, y, width, height } = bounds;
  if (width < 2 || height < 2) return;
  const [topLeft, topRight, bottomLeft, bottomRight, across, down] = LINES[look.kind];
  const line = across!.repeat(width - 2);
  surface.write(x, y, topLeft + line + topRight!, "border", clip, look.style);
  for (let row = y + 1; row < y + height - 1; row++) {
    surface.write(x, row, down!, "border", clip, look.style);
    surface.write(x + width - 1, row, down!, "border", clip, look.style);
  }
  surface.write(x, y + height - 1, bottomLeft + line + bottomRight!, "border", clip, look.style);
  if (look.title === "") return;
  // ╭─ Title ─╮: a corner, a line, a space either side, at least one line after.
  const room = width - 6;
  if (room < 1) return;
  const title = ellipsize(look.title, room);
  surface.write(x + 2, y, ` ${title} `, "heading", clip, look.titleStyle ?? look.style);
}
