/**
 * Which children of an element overlap an area of it: what painting and hit testing ask of a
 * container. Children of a row or column are placed in order along its direction, so in a
 * long container (a 10,000-row list) a binary search finds the first child in view, and
 * painting or a click costs the rows on screen, not the rows in the list.
 *
 * @module
 */

import type { Element } from "../ui/element.ts";

/** A rectangle in cells. */
export interface Rect {
  /** The left column. */
  x: number;
  /** The top row. */
  y: number;
  /** The width in cells. */
  width: number;
  /** The height in cells. */
  height: number;
}

/** Below this many children a plain scan is as fast as a search. */
const SCAN_LIMIT = 32;

/** The overlap of two rectangles; its width or height is 0 when they do not meet. */
export function intersectRects(a: Rect, b: Rect): Rect {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const right = Math.min(a.x + a.width, b.x + b.width);
  const bottom = Math.min(a.y + a.height, b.y + b.height);
  return { x, y, width: Math.max(0, right - x), height: Math.max(0, bottom - y) };
}

/** True when the rectangle covers no cell. */
export function isEmptyRect(rect: Rect): boolean {
  return rect.width <= 0 || rect.height <= 0;
}

function isPlaced(child: Element): boolean {
  return !child.style.overlay && child.box.width > 0 && child.box.height > 0;
}

/**
 * The index of the first child that may reach past `from` along the direction: a lower
 * bound over the placed children, whose ends grow in child order. A child with no size is
 * judged by the next child that has one.
 */
function firstReaching(children: readonly Element[], column: boolean, from: number): number {
  let low = 0;
  let high = children.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    let probe = middle;
    while (probe < high && !isPlaced(children[probe]!)) probe++;
    if (probe === high) {
      high = middle;
      continue;
    }
    const box = children[probe]!.box;
    const end = column ? box.y + box.height : box.x + box.width;
    if (end > from) high = middle;
    else low = probe + 1;
  }
  return low;
}

/**
 * The children of `element` that overlap `area`, in order (later ones are drawn on top).
 * `area` is in the element's own coordinates, as its children's boxes are. Overlays and
 * children without size are left out.
 */
export function childrenIn(element: Element, area: Rect): Element[] {
  const children = element.children;
  const found: Element[] = [];
  if (isEmptyRect(area)) return found;
  const column = element.style.direction === "column";
  const long = children.length > SCAN_LIMIT;
  const start = long ? firstReaching(children, column, column ? area.y : area.x) : 0;
  const end = column ? area.y + area.height : area.x + area.width;
  for (let index = start; index < children.length; index++) {
    const child = children[index]!;
    if (!isPlaced(child)) continue;
    const box = child.box;
    // Placed children follow one another along the direction: past the area, all are.
    if (long && (column ? box.y : box.x) >= end) break;
    if (!isEmptyRect(intersectRects(box, area))) found.push(child);
  }
  return found;
}
