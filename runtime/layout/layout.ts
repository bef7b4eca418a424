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

import {
  FILLS_HEIGHT,
  insetLeft,
  insetTop,
  insetX,
  insetY,
  type LayoutNode,
  type LayoutRecord,
  type Size,
  WRAPS,
} from "./node.ts";

const EMPTY: Size = { width: 0, height: 0 };

function isEmpty(size: Size): boolean {
  return size.width === 0 && size.height === 0;
}

function isEmptyNatural(record: LayoutRecord): boolean {
  return record.naturalWidth === 0 && record.naturalHeight === 0;
}

/** True when `style` fixes its size along `column`'s direction (in cells or percent). */
function fixedAlong(style: LayoutNode["layout"]["style"], column: boolean): boolean {
  return column
    ? style.height !== undefined || style.heightPercent !== undefined
    : style.width !== undefined || style.widthPercent !== undefined;
}

/** The share of spare room `child` takes along its parent's direction: none when fixed there. */
function growShare(child: LayoutNode, column: boolean): number {
  return fixedAlong(child.layout.style, column) ? 0 : child.layout.grows;
}

/** `value` kept between `min` and `max` (either may be missing). */
function clamp(value: number, min: number | undefined, max: number | undefined): number {
  if (max !== undefined && value > max) value = max;
  if (min !== undefined && value < min) value = min;
  return value;
}

/** Set by `place()` when an element's height followed its new width: lay out again. */
let reflowed = false;

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
  const column = style.direction === "column";
  const header = element.measure() ?? EMPTY;
  let main = 0;
  let cross = 0;
  let counted = 0;
  let childGrows = false;
  let childFillsHeight = false;
  let childWraps = false;
  const children = element.children;
  for (let index = 0; index < children.length; index++) {
    const child = children[index]!;
    if (child.layout.style.overlay) continue;
    const size = measured(child);
    if (growShare(child, column) > 0) childGrows = true;
    if (child.layout.fills !== 0) {
      if (child.layout.fillsHeight) childFillsHeight = true;
      if (child.layout.wraps) childWraps = true;
    }
    if (isEmptyNatural(size)) continue;
    let childMain = column ? size.naturalHeight : size.naturalWidth;
    let childCross = column ? size.naturalWidth : size.naturalHeight;
    const cs = child.layout.style;
    if (cs.extras) {
      childMain += column ? cs.marginTop + cs.marginBottom : cs.marginLeft + cs.marginRight;
      childCross += column ? cs.marginLeft + cs.marginRight : cs.marginTop + cs.marginBottom;
    }
    main += childMain + (counted > 0 ? style.gap : 0);
    cross = Math.max(cross, childCross);
    counted++;
  }
  const childrenWidth = column ? cross : main;
  const childrenHeight = column ? main : cross;
  let width = Math.max(header.width, childrenWidth);
  let height = header.height + childrenHeight;
  if (counted > 0 || !isEmpty(header) || style.border) {
    width += insetX(style);
    height += insetY(style);
    if (style.border) width = Math.max(width, style.titleWidth); // a title shows whole
  }
  if (style.width !== undefined) width = style.width;
  if (style.height !== undefined) height = style.height;
  if (style.extras) {
    width = clamp(width, style.minWidth, style.maxWidth);
    height = clamp(height, style.minHeight, style.maxHeight);
  }
  // A column holding something that grows (a scroll view) grows too, so the room reaches it;
  // and what fills the height (a scroll view, a row holding one: a master/detail pane) takes
  // the room a column leaves, however it is nested.
  const fixedHeight = fixedAlong(style, true);
  const fillsHeight = !fixedHeight &&
    (style.scrolls || childFillsHeight || (column && childGrows));
  // Wrapping text inside, unless a fixed width settles its width here.
  const wraps = (childWraps || element.reflow !== undefined) && !fixedAlong(style, false);
  record.fills = (fillsHeight ? FILLS_HEIGHT : 0) | (wraps ? WRAPS : 0);
  const inColumn = element.parent === null || element.parent.layout.style.direction === "column";
  element.layout.grows = style.grow > 0
    ? style.grow
    : (column && childGrows && !fixedHeight) || (inColumn && fillsHeight)
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
  const newWidth = record.width !== width;
  if (!sameBox) record.setBox(x, y, width, height);
  element.layout.placedBaseX = baseX;
  element.layout.placedBaseY = baseY;
  element.layout.placementDirty = false;
  // A wrapped text is as tall as its lines at the width it got: when that changed its
  // height, it and its ancestors are measured and placed again (`layoutWindow()`'s next pass).
  if (newWidth && element.reflow !== undefined && element.reflow(width)) {
    invalidateLayout(element);
    reflowed = true;
  }

  let childBaseX = baseX + x;
  let childBaseY = baseY + y;
  if (element.node !== null) {
    element.host.tree.placeNode(element.node, baseX + x, baseY + y, width, height);
    if (movedOnly) return;
    childBaseX = 0;
    childBaseY = 0;
  }
  element.arranged?.(width, height);
  placeChildren(element, width, height, childBaseX, childBaseY);
}

/** A child's size along its parent's direction: natural, or its percentage of `room`. */
function mainSize(child: LayoutNode, size: LayoutRecord, column: boolean, room: number): number {
  const cs = child.layout.style;
  const natural = column ? size.naturalHeight : size.naturalWidth;
  if (!cs.extras) return natural;
  const percent = column ? cs.heightPercent : cs.widthPercent;
  if (percent === undefined) return natural;
  return column
    ? clamp(Math.floor((room * percent) / 100), cs.minHeight, cs.maxHeight)
    : clamp(Math.floor((room * percent) / 100), cs.minWidth, cs.maxWidth);
}

/**
 * A column child's width before alignment: its natural width, but in a scroll view, content
 * whose text wraps gets the view's width (less a column for the scroll bar) to wrap in, as
 * a scroll view scrolls what does not fit rather than narrowing it.
 */
function crossSize(child: LayoutNode, size: LayoutRecord, scrolls: boolean, room: number): number {
  if (!scrolls || !child.layout.wraps) return size.naturalWidth;
  return Math.max(1, room - 1);
}

/** A child's margins along its parent's direction, both ends together. */
function mainMargins(cs: LayoutNode["layout"]["style"], column: boolean): number {
  if (!cs.extras) return 0;
  return column ? cs.marginTop + cs.marginBottom : cs.marginLeft + cs.marginRight;
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
  const header = element.measure() ?? EMPTY;
  const left = insetLeft(style);
  const top = insetTop(style) + header.height;
  const innerWidth = Math.max(0, width - insetX(style));
  const innerHeight = Math.max(0, height - insetY(style) - header.height);
  const column = style.direction === "column";
  const roomMain = column ? innerHeight : innerWidth;
  const roomCross = column ? innerWidth : innerHeight;
  // A scroll view's content keeps its natural size on both axes: that is what scrolling is for.
  const scrolls = style.scrolls;

  // Spare room along the direction goes to children that grow, by their shares.
  let used = 0;
  let widest = 0;
  let shares = 0;
  let counted = 0;
  let growingSize = 0; // the natural sizes of the children that grow, summed
  const children = element.children;
  for (let index = 0; index < children.length; index++) {
    const child = children[index]!;
    if (child.layout.style.overlay) continue;
    const size = measured(child);
    const grows = growShare(child, column);
    if (isEmptyNatural(size) && grows === 0) continue;
    const natural = mainSize(child, size, column, roomMain);
    used += natural + mainMargins(child.layout.style, column) + (counted > 0 ? style.gap : 0);
    widest = Math.max(
      widest,
      column ? crossSize(child, size, scrolls, innerWidth) : size.naturalHeight,
    );
    shares += grows;
    if (grows > 0) growingSize += natural;
    counted++;
  }
  const room = roomMain - used;
  let spare = Math.max(0, room);
  // Negative: what does not fit. Growing children give way first, each in proportion to its
  // natural size, so that a wide preview beside a list shrinks rather than the list.
  let over = scrolls ? 0 : Math.min(0, room);
  const overAll = -over;
  let growingLeft = growingSize;

  // Room nobody grows into goes before, between or after the children, as `justify` says.
  let offset = 0;
  const between = !scrolls && shares === 0 && spare > 0 && style.justify !== "start"
    ? style.justify
    : null;
  if (between === "center") offset = Math.floor(spare / 2);
  else if (between === "end") offset = spare;
  const gaps = counted - 1;

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

  const align = scrolls ? "start" : style.align;
  counted = 0;
  for (let index = 0; index < children.length; index++) {
    const child = children[index]!;
    if (child.layout.style.overlay) continue;
    const size = measured(child);
    const grows = growShare(child, column);
    if (isEmptyNatural(size) && grows === 0) {
      place(child, left, top, 0, 0, baseX, baseY);
      continue;
    }
    if (counted > 0) {
      offset += style.gap;
      if (between === "between" && gaps > 0) {
        offset += Math.floor((spare * counted) / gaps) - Math.floor((spare * (counted - 1)) / gaps);
      }
    }
    counted++;
    const cs = child.layout.style;
    let main = mainSize(child, size, column, roomMain);
    if (grows > 0 && shares > 0) {
      const extra = Math.floor((spare * grows) / shares);
      main += extra;
      spare -= extra;
      shares -= grows;
      if (cs.extras) {
        // Past its most, the rest goes to those that grow after it.
        const most = column ? cs.maxHeight : cs.maxWidth;
        if (most !== undefined && main > most) {
          spare += main - most;
          main = most;
        }
      }
      if (over < 0) {
        const natural = main - extra;
        const share = growingLeft <= natural
          ? -over // the last one gives the rest
          : Math.round((overAll * natural) / growingSize);
        growingLeft -= natural;
        const least = Math.max(1, (cs.extras ? (column ? cs.minHeight : cs.minWidth) : 0) ?? 0);
        const give = Math.max(0, Math.min(main - least, share, -over));
        main -= give;
        over += give;
      }
    }
    let cross = column ? crossSize(child, size, scrolls, innerWidth) : size.naturalHeight;
    let crossStart = 0;
    let crossFree = roomCross;
    if (cs.extras) {
      crossStart = column ? cs.marginLeft : cs.marginTop;
      crossFree = Math.max(0, roomCross - crossStart - (column ? cs.marginRight : cs.marginBottom));
    }
    if (!scrolls) {
      if (column) cross = Math.min(cross, crossFree || cross);
      else if (innerHeight > 0) {
        // Across a row, what fills the height gets the row's; the rest no more than it.
        cross = child.layout.fillsHeight ? crossFree : Math.min(cross, crossFree);
      }
      if (align === "stretch" && !fixedAlong(cs, !column)) cross = crossFree;
      if (cs.extras) {
        const percent = column ? cs.widthPercent : cs.heightPercent;
        if (percent !== undefined) cross = Math.floor((roomCross * percent) / 100);
        cross = column
          ? clamp(cross, cs.minWidth, cs.maxWidth)
          : clamp(cross, cs.minHeight, cs.maxHeight);
      }
      if (align === "center") crossStart += Math.max(0, Math.floor((crossFree - cross) / 2));
      else if (align === "end") crossStart += Math.max(0, crossFree - cross);
    }
    const mainStart = cs.extras ? (column ? cs.marginTop : cs.marginLeft) : 0;
    if (column) {
      const y = top + offset + mainStart - scroll.y;
      place(child, left + crossStart - scroll.x, y, cross, main, baseX, baseY);
    } else {
      const x = left + offset + mainStart - scroll.x;
      place(child, x, top + crossStart - scroll.y, main, cross, baseX, baseY);
    }
    offset += main + mainMargins(cs, column);
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
  // A second pass only when a wrapped text's height followed the width it was given; a
  // third in case that moved another. Rarely more: a width seldom follows a height.
  for (let pass = 0; pass < 3; pass++) {
    reflowed = false;
    measured(root);
    place(root, 0, 0, width, height, 0, 0);
    placeOverlays(overlays, width, height);
    if (!reflowed) break;
  }
}
