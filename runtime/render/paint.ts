/**
 * Paints a frame onto a surface: each element's widget paints its own box (a renderer never
 * asks what kind of widget it is), children above their parent, everything clipped to its
 * ancestors' boxes, dialogs last, above the content. Only what is visible is visited: a
 * container asks for the children that overlap the visible part of it (`childrenIn`), so a
 * 10,000-row list paints the rows in view. The terminal renderer paints onto its cell buffer
 * with this; the headless renderer paints onto one when asked for its screen.
 *
 * @module
 */

import type { RenderSource } from "../app/renderer.ts";
import { elementOrigin } from "../layout/layout.ts";
import { insetLeft, insetTop, insetX, insetY } from "../layout/node.ts";
import { childrenIn } from "../layout/visible.ts";
import { borderLookOf, paintBorder } from "../ui/border.ts";
import { intersectRects, isEmptyRect, type Rect } from "../text/rect.ts";
import type { Widget } from "../ui/widget.ts";
import { mergeStyles, type TextStyle } from "../ui/style.ts";
import type { PaintArea, StyleName, Surface } from "../ui/surface.ts";

/**
 * A surface that lays a widget's own style (and its ancestors': styles are inherited, as
 * colours are in CSS) on every look painted through it, under a span's style.
 */
class StyledSurface implements Surface {
  readonly #inner: Surface;
  /** The style laid on every look. */
  readonly style: Readonly<TextStyle>;
  readonly #merged = new WeakMap<Readonly<TextStyle>, Readonly<TextStyle>>();

  constructor(inner: Surface, style: Readonly<TextStyle>) {
    this.#inner = inner;
    this.style = style;
  }

  #over(over: Readonly<TextStyle> | null | undefined): Readonly<TextStyle> {
    if (over === null || over === undefined) return this.style;
    let merged = this.#merged.get(over);
    if (merged === undefined) this.#merged.set(over, merged = { ...this.style, ...over });
    return merged;
  }

  write(
    x: number,
    y: number,
    text: string,
    style: StyleName,
    clip: Rect,
    over?: Readonly<TextStyle> | null,
  ): number {
    return this.#inner.write(x, y, text, style, clip, this.#over(over));
  }

  fill(rect: Rect, style: StyleName, clip: Rect, over?: Readonly<TextStyle> | null): void {
    this.#inner.fill(rect, style, clip, this.#over(over));
  }
}

/** The surface `element` paints on: `surface` with its own style (and its parent's) laid on. */
function surfaceFor(surface: Surface, element: Widget): Surface {
  if (element.look === null) return surface;
  const inherited = surface instanceof StyledSurface ? surface.style : null;
  const inner = surface instanceof StyledSurface ? surfaceBelow.get(surface)! : surface;
  const styled = new StyledSurface(inner, mergeStyles(inherited, element.look)!);
  surfaceBelow.set(styled, inner);
  return styled;
}

const surfaceBelow = new WeakMap<StyledSurface, Surface>();

/** The styles an overlay inherits from its ancestors. */
function inheritedStyle(element: Widget | null): Readonly<TextStyle> | null {
  const styles: Readonly<TextStyle>[] = [];
  for (let current = element; current !== null; current = current.parent) {
    if (current.look !== null) styles.push(current.look);
  }
  let style: Readonly<TextStyle> | null = null;
  for (let index = styles.length - 1; index >= 0; index--) {
    style = mergeStyles(style, styles[index]!);
  }
  return style;
}

/** Paints the frame of `source` onto `surface` (which should be blank) within `area`. */
export function paintElements(surface: Surface, source: RenderSource, area: Rect): void {
  const focused = source.focused;
  paintElement(surface, focused, source.root, 0, 0, area, false);
  for (const overlay of source.overlays) {
    if (!overlay.mounted || overlay.parent === null) continue;
    const origin = elementOrigin(overlay.parent);
    const disabled = overlay.parent.effectivelyDisabled;
    const style = inheritedStyle(overlay.parent);
    const below = style === null ? surface : new StyledSurface(surface, style);
    if (below !== surface) surfaceBelow.set(below as StyledSurface, surface);
    paintElement(below, focused, overlay, origin.x, origin.y, area, disabled);
  }
}

function paintElement(
  parentSurface: Surface,
  focused: Widget | null,
  element: Widget,
  originX: number,
  originY: number,
  clip: Rect,
  disabledAbove: boolean,
): void {
  const box = element.layout;
  const bounds = { x: originX + box.x, y: originY + box.y, width: box.width, height: box.height };
  const visible = intersectRects(clip, bounds);
  if (isEmptyRect(visible)) return;
  const surface = surfaceFor(parentSurface, element);
  const disabled = disabledAbove || element.disabled;
  const style = element.layout.style;
  const area: PaintArea = {
    surface,
    bounds,
    clip: visible,
    x: bounds.x + insetLeft(style),
    y: bounds.y + insetTop(style),
    width: Math.max(0, box.width - insetX(style)),
    height: Math.max(0, box.height - insetY(style)),
    focused: focused === element,
    hovered: element.node?.has("hovered") ?? false,
    disabled,
  };
  element.paint(area);
  let within = visible;
  if (style.border) {
    paintBorder(surface, bounds, visible, borderLookOf(element));
    // Children show inside the frame, never over it.
    const frame = {
      x: bounds.x + 1,
      y: bounds.y + 1,
      width: box.width - 2,
      height: box.height - 2,
    };
    within = intersectRects(visible, frame);
    if (isEmptyRect(within)) return;
  }
  const inside = {
    x: within.x - bounds.x,
    y: within.y - bounds.y,
    width: within.width,
    height: within.height,
  };
  for (const child of childrenIn(element, inside)) {
    paintElement(surface, focused, child, bounds.x, bounds.y, within, disabled);
  }
  element.paintOver(within === visible ? area : { ...area, clip: within });
}
