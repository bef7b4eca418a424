/**
 * Rectangles of terminal cells: the geometry that layout, painting, hit testing and the
 * semantic tree's on-screen checks share.
 *
 * @module
 */

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
