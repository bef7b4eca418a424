/**
 * Layout in terminal cells, incremental. Two passes over elements:
 *
 * - *natural size*, bottom-up and cached: a leaf measures its content; a row sums its
 *   children's widths, a column their heights. Marking an element dirty drops its cache and
 *   its ancestors'; the next pass recomputes only those.
 * - *placement*, top-down: each container gives its children positions and sizes (spare room
 *   along its direction goes to children that grow). A subtree whose box, base offset and
 *   children did not change is skipped, so a change in one row of a long list costs the work
 *   of that row and its ancestors, not of the whole list.
 *
 * Placement writes each semantic node's bounds relative to its parent node; a scroll view's
 * content is offset by its scroll position, so scrolling changes one node's bounds.
 *
 * @module
 */

import type { LayoutNode, LayoutRecord, Size } from "./node.ts";

const EMPTY: Size = { width: 0, height: 0 };

function isEmpty(size: Size): boolean {
  return size.width === 0 && size.height === 0;
}

function isEmptyNatural(record: LayoutRecord): boolean {
  return record.naturalWidth === 0 && record.naturalHeight === 0;
}

/** The share of spare room `child` takes along its parent's direction: none when fixed there. */
function growShare(child: LayoutNode, column: boolean): number {
  const fixed = column ? child.layout.style.height : child.layout.style.width;
  return fixed === undefined ? child.layout.grows : 0;
}

/** Drops the cached natural size of `element` and its ancestors, and marks them for placement. */
export function invalidateLayout(element: LayoutNode): void {
  for (let current: LayoutNode | null = element; current !== null; current = current.parent) {
    // The rest is marked already.
    if (current.layout.naturalWidth < 0 && current.layout.placementDirty) break;
    current.layout.naturalWidth = -1;
    current.layout.placementDirty = true;
  }
}

/** The natural size of an element, from its content and children. */
export function naturalSize(element: LayoutNode): Size {
  const record = measured(element);
  return { width: record.naturalWidth, height: record.naturalHeight };
}

/** Layout's record of `element`, with its natural size measured (or still cached). */
function measured(element: LayoutNode): LayoutRecord {
  const record = element.layout;
  if (record.naturalWidth >= 0) return record;
  const style = element.layout.style;
  const inset = 2 * style.padding + (style.border ? 2 : 0);
  const header = element.measure() ?? EMPTY;
  let main = 0;
  let cross = 0;
  let counted = 0;
  let childGrows = false;
  let childFillsHeight = false;
  for (const child of element.children) {
    if (child.layout.style.overlay) continue;
    const size = measured(child);
    if (growShare(child, style.direction === "column") > 0) childGrows = true;
    if (child.layout.fillsHeight) childFillsHeight = true;
    if (isEmptyNatural(size)) continue;
    const childMain = style.direction === "column" ? size.naturalHeight : size.naturalWidth;
    const childCross = style.direction === "column" ? size.naturalWidth : size.naturalHeight;
    main += childMain + (counted > 0 ? style.gap : 0);
    cross = Math.max(cross, childCross);
    counted++;
  }
  const childrenWidth = style.direction === "column" ? cross : main;
  const childrenHeight = style.direction === "column" ? main : cross;
  let width = Math.max(header.width, childrenWidth);
  let height = header.height + childrenHeight;
  if (counted > 0 || !isEmpty(header)) {
    width += inset;
    height += inset;
  }
  if (style.width !== undefined) width = style.width;
  if (style.height !== undefined) height = style.height;
  // A column holding something that grows (a scroll view) grows too, so the room reaches it;
  // and what fills the height (a scroll view, a row holding one: a master/detail pane) takes
  // the room a column leaves, however it is nested.
  const column = style.direction === "column";
  const fillsHeight = style.height === undefined &&
    (style.scrolls || childFillsHeight || (column && childGrows));
  record.fillsHeight = fillsHeight;
  const inColumn = element.parent === null || element.parent.layout.style.direction === "column";
  element.layout.grows = style.grow > 0
    ? style.grow
    : (column && childGrows && style.height === undefined) || (inColumn && fillsHeight)
    ? 1
    : 0;
  record.naturalWidth = width;
  record.naturalHeight = height;
  return record;
}

/**
 * Places `element` at `x`, `y` (relative to its parent element) with the given size. `baseX`,
 * `baseY` are the offset of the parent element from the nearest semantic ancestor's origin.
 */
export function place(
  element: LayoutNode,
  x: number,
  y: number,
  width: number,
  height: number,
  baseX: number,
  baseY: number,
): void {
  const record = element.layout;
  const sameSize = record.width === width && record.height === height;
  const sameBox = sameSize && record.x === x && record.y === y;
  const sameBase = element.layout.placedBaseX === baseX && element.layout.placedBaseY === baseY;
  if (sameBox && sameBase && !element.layout.placementDirty) return;
  // An element with a node that only moved keeps its children where they were: they are
  // placed relative to it. So scrolling a 10,000-row list moves one box, not 10,000.
  const movedOnly = sameSize && !element.layout.placementDirty && element.node !== null;
  if (!sameBox) record.setBox(x, y, width, height);
  element.layout.placedBaseX = baseX;
  element.layout.placedBaseY = baseY;
  element.layout.placementDirty = false;

  let childBaseX = baseX + x;
  let childBaseY = baseY + y;
  if (element.node !== null) {
    element.host.tree.setBounds(element.node, { x: baseX + x, y: baseY + y, width, height });
    if (movedOnly) return;
    childBaseX = 0;
    childBaseY = 0;
  }
  element.arranged?.(width, height);
  placeChildren(element, width, height, childBaseX, childBaseY);
}

function placeChildren(
  element: LayoutNode,
  width: number,
  height: number,
  baseX: number,
  baseY: number,
): void {
  if (element.children.length === 0) return; // a leaf has nothing to place
  const style = element.layout.style;
  const frame = style.padding + (style.border ? 1 : 0);
  const header = element.measure() ?? EMPTY;
  const left = frame;
  const top = frame + header.height;
  const innerWidth = Math.max(0, width - 2 * frame);
  const innerHeight = Math.max(0, height - 2 * frame - header.height);
  const column = style.direction === "column";
  // A scroll view's content keeps its natural size on both axes: that is what scrolling is for.
  const scrolls = style.scrolls;

  // Spare room along the direction goes to children that grow, by their shares.
  let used = 0;
  let widest = 0;
  let shares = 0;
  let counted = 0;
  let growingSize = 0; // the natural sizes of the children that grow, summed
  for (const child of element.children) {
    if (child.layout.style.overlay) continue;
    const size = measured(child);
    const grows = growShare(child, column);
    if (isEmptyNatural(size) && grows === 0) continue;
    const natural = column ? size.naturalHeight : size.naturalWidth;
    used += natural + (counted > 0 ? style.gap : 0);
    widest = Math.max(widest, column ? size.naturalWidth : size.naturalHeight);
    shares += grows;
    if (grows > 0) growingSize += natural;
    counted++;
  }
  const room = (column ? innerHeight : innerWidth) - used;
  let spare = Math.max(0, room);
  // Negative: what does not fit. Growing children give way first, each in proportion to its
  // natural size, so that a wide preview beside a list shrinks rather than the list.
  let over = scrolls ? 0 : Math.min(0, room);
  const overAll = -over;
  let growingLeft = growingSize;

  let scroll = { x: 0, y: 0 };
  if (scrolls) {
    // Content that shrank (or a viewport that grew) must not leave the view scrolled past
    // the end of the content.
    const maxX = Math.max(0, (column ? widest : used) - innerWidth);
    const maxY = Math.max(0, (column ? used : widest) - innerHeight);
    if (element.layout.scroll.x > maxX || element.layout.scroll.y > maxY) {
      element.layout.scroll = {
        x: Math.min(element.layout.scroll.x, maxX),
        y: Math.min(element.layout.scroll.y, maxY),
      };
    }
    scroll = element.layout.scroll;
  }

  let offset = 0;
  counted = 0;
  for (const child of element.children) {
    if (child.layout.style.overlay) continue;
    const size = measured(child);
    const grows = growShare(child, column);
    if (isEmptyNatural(size) && grows === 0) {
      place(child, left, top, 0, 0, baseX, baseY);
      continue;
    }
    if (counted > 0) offset += style.gap;
    counted++;
    let main = column ? size.naturalHeight : size.naturalWidth;
    if (grows > 0 && shares > 0) {
      const extra = Math.floor((spare * grows) / shares);
      main += extra;
      spare -= extra;
      shares -= grows;
      if (over < 0) {
        const natural = main - extra;
        const share = growingLeft <= natural
          ? -over // the last one gives the rest
          : Math.round((overAll * natural) / growingSize);
        growingLeft -= natural;
        const give = Math.max(0, Math.min(main - 1, share, -over));
        main -= give;
        over += give;
      }
    }
    let cross = column ? size.naturalWidth : size.naturalHeight;
    if (column && !scrolls) cross = Math.min(cross, innerWidth || cross);
    if (!column && !scrolls && innerHeight > 0) {
      // Across a row, what fills the height gets the row's; the rest no more than it.
      cross = child.layout.fillsHeight ? innerHeight : Math.min(cross, innerHeight);
    }
    if (column) {
      place(child, left - scroll.x, top + offset - scroll.y, cross, main, baseX, baseY);
    } else {
      place(child, left + offset - scroll.x, top - scroll.y, main, cross, baseX, baseY);
    }
    offset += main;
  }
}

/**
 * Places overlays in a window of the given size, in order (a popup opened inside a dialog
 * comes after it): dialogs centred, popups (`anchored`) just below their parent, or above it
 * when there is no room below, kept inside the window.
 */
export function placeOverlays(overlays: Iterable<LayoutNode>, width: number, height: number): void {
  for (const element of overlays) {
    if (!element.mounted || element.parent === null) continue;
    const size = measured(element);
    const w = Math.min(size.naturalWidth, width);
    const h = Math.min(size.naturalHeight, height);
    // Window coordinates first, then made relative to the parent element.
    const origin = elementOrigin(element.parent);
    let x = Math.floor((width - w) / 2);
    let y = Math.floor((height - h) / 2);
    if (element.layout.style.anchored) {
      const below = origin.y + element.parent.layout.height;
      y = below + h <= height || origin.y - h < 0 ? Math.min(below, height - h) : origin.y - h;
      x = Math.max(0, Math.min(origin.x + (element.layout.style.anchorX ?? 0), width - w));
    }
    const base = semanticBase(element);
    place(element, x - origin.x, y - origin.y, w, h, base.x, base.y);
  }
}

/** The window coordinates of an element's top-left corner. */
export function elementOrigin(element: LayoutNode): { x: number; y: number } {
  let x = 0;
  let y = 0;
  for (let current: LayoutNode | null = element; current !== null; current = current.parent) {
    x += current.layout.x;
    y += current.layout.y;
  }
  return { x, y };
}

/** The offset of an element's parent from the origin of its nearest semantic ancestor. */
function semanticBase(element: LayoutNode): { x: number; y: number } {
  let x = 0;
  let y = 0;
  for (let current = element.parent; current !== null; current = current.parent) {
    if (current.node !== null) return { x, y };
    x += current.layout.x;
    y += current.layout.y;
  }
  return { x, y };
}

/**
 * Lays out the tree under the window element `root` in a window of `width` by `height`
 * cells, doing only the work that marked elements need.
 */
export function layoutWindow(
  root: LayoutNode,
  width: number,
  height: number,
  overlays: Iterable<LayoutNode> = [],
): void {
  measured(root);
  place(root, 0, 0, width, height, 0, 0);
  placeOverlays(overlays, width, height);
}
