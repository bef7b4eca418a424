/**
 * Which children of an element overlap an area of it: what painting and hit testing ask of a
 * container. Children of a row or column are placed in order along its direction, so in a
 * long container (a 10,000-row list) a binary search finds the first child in view, and
 * painting or a click costs the rows on screen, not the rows in the list.
 *
 * The same search keeps the `offscreen` state of semantic nodes up to date after each
 * layout (`OffscreenTracker`), at a cost that follows the rows that came into or went out of
 * view, and brings a node into view by scrolling the scroll views around it
 * (`scrollIntoView`).
 *
 * @module
 */

import { intersectRects, isEmptyRect, type Rect } from "../text/rect.ts";
import { elementOrigin } from "./layout.ts";
import { insetLeft, insetTop, insetX, insetY, type LayoutNode } from "./node.ts";

export { intersectRects, isEmptyRect, type Rect };

/** Below this many children a plain scan is as fast as a search. */
const SCAN_LIMIT = 32;

function isPlaced(child: LayoutNode): boolean {
  return !child.layout.style.overlay && child.layout.width > 0 && child.layout.height > 0;
}

/**
 * The index of the first child that may reach past `from` along the direction: a lower
 * bound over the placed children, whose ends grow in child order. A child with no size is
 * judged by the next child that has one.
 */
function firstReaching(children: readonly LayoutNode[], column: boolean, from: number): number {
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
    const box = children[probe]!.layout;
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
export function childrenIn<N extends LayoutNode & { readonly children: readonly N[] }>(
  element: N,
  area: Rect,
): N[] {
  const children = element.children;
  const found: N[] = [];
  if (isEmptyRect(area)) return found;
  const column = element.layout.style.direction === "column";
  const long = children.length > SCAN_LIMIT;
  const start = long ? firstReaching(children, column, column ? area.y : area.x) : 0;
  const end = column ? area.y + area.height : area.x + area.width;
  for (let index = start; index < children.length; index++) {
    const child = children[index]!;
    if (!isPlaced(child)) continue;
    const box = child.layout;
    // Placed children follow one another along the direction: past the area, all are.
    if (long && (column ? box.y : box.x) >= end) break;
    if (!isEmptyRect(intersectRects(box, area))) found.push(child);
  }
  return found;
}

/** True when `rect` shows on `clip`; a rectangle with no size counts as the cell at its corner. */
function showsOn(rect: Rect, clip: Rect): boolean {
  const cell = { ...rect, width: Math.max(1, rect.width), height: Math.max(1, rect.height) };
  return !isEmptyRect(intersectRects(cell, clip));
}

/** The children of a long container last found in view: those outside were marked offscreen. */
interface ViewRange {
  /** The first child in view. */
  from: number;
  /** One past the last child in view. */
  to: number;
  /** How many children the container had. */
  count: number;
}

/**
 * Keeps the `offscreen` state of semantic nodes true to the layout: a node carries it when
 * its box shows nowhere in the window (scrolled out of its scroll view, clipped by an
 * ancestor, or past the window's edge) while its parent shows, so only the outermost such
 * node carries it. Each update walks what is in view; in a long container the children out
 * of view are marked once, and later updates touch only those that came into or left the
 * view, unless the container's children changed.
 */
export class OffscreenTracker {
  #inView = new Set<LayoutNode>();
  #ranges = new WeakMap<LayoutNode, ViewRange>();

  /** True when the element showed in the window at the last update. */
  inView(element: LayoutNode): boolean {
    return this.#inView.has(element);
  }

  /**
   * Recomputes where things are after a layout of the window `root` (`width` by `height`
   * cells) with its `overlays` above it. `childrenChanged` holds the elements whose children
   * changed since the last update.
   */
  update(
    root: LayoutNode,
    overlays: Iterable<LayoutNode>,
    width: number,
    height: number,
    childrenChanged: readonly LayoutNode[],
  ): void {
    const before = this.#inView;
    // A container whose subtree changed anywhere may hold a node out of view that is not
    // marked yet (one added inside a row without a node of its own): its marks are redone.
    const changedBelow = new Set<LayoutNode>();
    for (let index = 0; index < childrenChanged.length; index++) {
      const element = childrenChanged[index]!;
      for (let current: LayoutNode | null = element; current !== null; current = current.parent) {
        if (changedBelow.has(current)) break;
        changedBelow.add(current);
      }
    }
    const inView = new Set<LayoutNode>();
    const outOfView: LayoutNode[] = [];
    const window: Rect = { x: 0, y: 0, width, height };
    const visit = (element: LayoutNode, originX: number, originY: number, clip: Rect) => {
      inView.add(element);
      const box = element.layout;
      const left = originX + box.x;
      const top = originY + box.y;
      // A box with no size shows as the cell at its corner, and so does what is inside it (the
      // empty list of an empty scroll view is on screen, where its first row will be).
      const inner = intersectRects(clip, {
        x: left,
        y: top,
        width: Math.max(1, box.width),
        height: Math.max(1, box.height),
      });
      const children = element.children;
      const classify = (child: LayoutNode) => {
        if (child.layout.style.overlay) return; // drawn above everything: visited on its own
        const at = child.layout;
        const rect = { x: left + at.x, y: top + at.y, width: at.width, height: at.height };
        if (showsOn(rect, inner)) visit(child, left, top, inner);
        else outOfView.push(child);
      };
      if (children.length <= SCAN_LIMIT) {
        for (let index = 0; index < children.length; index++) classify(children[index]!);
        return;
      }
      const range = this.#viewRange(element, inner, left, top);
      for (let index = range.from; index < range.to; index++) classify(children[index]!);
      const last = this.#ranges.get(element);
      const lastValid = last !== undefined && before.has(element) &&
        !changedBelow.has(element) && last.count === children.length;
      if (lastValid) {
        // Those outside the last range were marked then; mark those that left it.
        for (let index = last.from; index < last.to; index++) {
          if (index < range.from || index >= range.to) outOfView.push(children[index]!);
        }
      } else {
        for (let index = 0; index < children.length; index++) {
          if (index < range.from || index >= range.to) outOfView.push(children[index]!);
        }
      }
      this.#ranges.set(element, range);
    };
    visit(root, 0, 0, window);
    for (const overlay of overlays) {
      if (!overlay.mounted || overlay.parent === null) continue;
      const origin = elementOrigin(overlay.parent);
      visit(overlay, origin.x, origin.y, window);
    }
    // What left the view with an ancestor is offscreen through that ancestor: the marks of
    // the children it had when it was in view go.
    for (const element of before) {
      if (inView.has(element) || !element.mounted) continue;
      for (const child of element.children) markOffscreen(child, false);
      this.#ranges.delete(element);
    }
    for (let index = 0; index < outOfView.length; index++) markOffscreen(outOfView[index]!, true);
    inView.forEach((element) => {
      if (element.node !== null) element.host.tree.setState(element.node, "offscreen", false);
    });
    this.#inView = inView;
  }

  /** The children of a long container that may show in `clip` (window cells). */
  #viewRange(element: LayoutNode, clip: Rect, left: number, top: number): ViewRange {
    const children = element.children;
    const column = element.layout.style.direction === "column";
    const start = column ? clip.y - top : clip.x - left;
    const end = start + (column ? clip.height : clip.width);
    const from = isEmptyRect(clip) ? children.length : firstReaching(children, column, start);
    let to = from;
    while (to < children.length) {
      const child = children[to]!;
      if (isPlaced(child) && (column ? child.layout.y : child.layout.x) >= end) break;
      to++;
    }
    return { from, to, count: children.length };
  }
}

/** Sets or clears `offscreen` on the outermost nodes at or under `element`. */
function markOffscreen(element: LayoutNode, on: boolean): void {
  if (!element.mounted) return;
  if (element.node !== null) {
    element.host.tree.setState(element.node, "offscreen", on);
    return;
  }
  const children = element.children;
  for (let index = 0; index < children.length; index++) markOffscreen(children[index]!, on);
}

/** How far to move a view from `viewStart` (`viewSize` long) so that a span shows in it. */
function scrollNeeded(start: number, size: number, viewStart: number, viewSize: number): number {
  if (start < viewStart) return start - viewStart;
  const overshoot = start + size - (viewStart + viewSize);
  // A span longer than the view shows its start.
  return overshoot > 0 ? Math.min(overshoot, start - viewStart) : 0;
}

/**
 * Scrolls every scroll view around `element`, innermost first, as little as brings the
 * element into its view, as a person scrolls to what they are about to use. `relayout` runs
 * after each scroll, so the next view out sees where the element went.
 */
export function scrollIntoView(element: LayoutNode, relayout: () => void): void {
  for (let view = element.parent; view !== null; view = view.parent) {
    if (!view.layout.style.scrolls || view.scroll === undefined) continue;
    const style = view.layout.style;
    // A view's own line sits above its children; a view without children (a table, which
    // shows its lines itself) measures its whole content instead, which is no header.
    const header = view.children.length > 0 ? view.measure()?.height ?? 0 : 0;
    const viewOrigin = elementOrigin(view);
    const target = elementOrigin(element);
    const dx = scrollNeeded(
      target.x,
      element.layout.width,
      viewOrigin.x + insetLeft(style),
      Math.max(0, view.layout.width - insetX(style)),
    );
    const dy = scrollNeeded(
      target.y,
      element.layout.height,
      viewOrigin.y + insetTop(style) + header,
      Math.max(0, view.layout.height - insetY(style) - header),
    );
    if (dx === 0 && dy === 0) continue;
    view.scroll(dx, dy);
    relayout();
  }
}
