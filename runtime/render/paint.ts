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
import { childrenIn } from "../layout/visible.ts";
import { intersectRects, isEmptyRect, type Rect } from "../text/rect.ts";
import type { Widget } from "../ui/widget.ts";
import type { PaintArea, Surface } from "../ui/surface.ts";

/** Paints the frame of `source` onto `surface` (which should be blank) within `area`. */
export function paintElements(surface: Surface, source: RenderSource, area: Rect): void {
  const focused = source.focused;
  paintElement(surface, focused, source.root, 0, 0, area, false);
  for (const overlay of source.overlays) {
    if (!overlay.mounted || overlay.parent === null) continue;
    const origin = elementOrigin(overlay.parent);
    const disabled = overlay.parent.effectivelyDisabled;
    paintElement(surface, focused, overlay, origin.x, origin.y, area, disabled);
  }
}

function paintElement(
  surface: Surface,
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
  const disabled = disabledAbove || element.disabled;
  const inset = element.layout.style.padding + (element.layout.style.border ? 1 : 0);
  const area: PaintArea = {
    surface,
    bounds,
    clip: visible,
    x: bounds.x + inset,
    y: bounds.y + inset,
    focused: focused === element,
    hovered: element.node?.has("hovered") ?? false,
    disabled,
  };
  element.paint(area);
  const inside = {
    x: visible.x - bounds.x,
    y: visible.y - bounds.y,
    width: visible.width,
    height: visible.height,
  };
  for (const child of childrenIn(element, inside)) {
    paintElement(surface, focused, child, bounds.x, bounds.y, visible, disabled);
  }
  element.paintOver(area);
}
