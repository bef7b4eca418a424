/**
 * What layout needs of an element, and what it keeps for each: the shape of the tree it lays
 * out (`LayoutNode`, which ui's `Widget` implements), the style that says how, and the
 * per-element record of its results and caches (`LayoutRecord`: box, natural size, scroll
 * position). Layout knows no widget: it asks a node to measure its own line.
 *
 * @module
 */

import type { Bounds, SemanticNode, SemanticTree } from "../semantics/mod.ts";

/** A width and a height in cells. */
export interface Size {
  /** The width in cells. */
  width: number;
  /** The height in cells. */
  height: number;
}

/** How an element lays out its children. */
export interface LayoutStyle {
  /** `column` stacks children top to bottom, `row` left to right. */
  direction: "row" | "column";
  /** Empty cells between children. */
  gap: number;
  /** Empty cells inside the edge, on every side. */
  padding: number;
  /** A one-cell frame inside the edge (dialogs). */
  border: boolean;
  /** A fixed width instead of the natural one. */
  width?: number | undefined;
  /** A fixed height instead of the natural one. */
  height?: number | undefined;
  /** A share of the parent's spare room along its direction; 0 takes none. */
  grow: number;
  /** Laid out above the window's content, centred, instead of in the parent's flow. */
  overlay: boolean;
  /** With `overlay`: placed just below its parent (a popup under its opener), not centred. */
  anchored: boolean;
  /** With `anchored`: how many cells right of its parent's left edge it starts (0 if not given). */
  anchorX?: number | undefined;
  /** Scrolls its content (a scroll view): the content keeps its natural size on both axes. */
  scrolls: boolean;
}

/** The style an element starts with: a column, no gap, no padding. */
export const LAYOUT_DEFAULTS: Readonly<LayoutStyle> = Object.freeze({
  direction: "column",
  gap: 0,
  padding: 0,
  border: false,
  grow: 0,
  overlay: false,
  anchored: false,
  scrolls: false,
});

// A shared starting value: most elements never scroll.
const NO_SCROLL = Object.freeze({ x: 0, y: 0 });

/** Layout's record of one element: its style, and the results and caches of laying it out. */
export class LayoutRecord {
  /** How it lays out its children: the shared defaults until it is given a style of its own. */
  style: Readonly<LayoutStyle> = LAYOUT_DEFAULTS;
  // The box is four numbers on the record, not an object of its own: one fewer object per
  // element. The record is itself a `Rect` of them. `setBox()` writes them.
  /** The box's x, relative to the parent element, in cells; 0 until placed. */
  x = 0;
  /** The box's y, relative to the parent element, in cells. */
  y = 0;
  /** The box's width in cells. */
  width = 0;
  /** The box's height in cells. */
  height = 0;
  /** The natural width, cached until the element or a descendant is marked dirty; -1 when not. */
  naturalWidth = -1;
  /** The natural height, with the natural width. */
  naturalHeight = 0;
  /** The share of spare room it takes: its own grow, or 1 for a column holding growth. */
  grows = 0;
  /**
   * True when it takes all the height its parent has to give: a scroll view without a fixed
   * height, or a row or column holding one. Cached with the natural size.
   */
  fillsHeight = false;
  /** True when the children must be placed again. */
  placementDirty = true;
  // The base offsets start at 0, not NaN: a field that ever held NaN holds a boxed double
  // for good, and `placementDirty` makes the first placement happen whatever they say.
  /** The x offset from the semantic parent's origin used at the last placement. */
  placedBaseX = 0;
  /** The y offset from the semantic parent's origin used at the last placement. */
  placedBaseY = 0;
  /** Scroll position of a scroll view, in cells. */
  scroll: { readonly x: number; readonly y: number } = NO_SCROLL;

  /** The box as an object, made when first asked for and kept until the box changes. */
  #box: Bounds | null = null;

  /**
   * Position relative to the parent element, and size, in cells, as one object: the same
   * object until the element is placed elsewhere. Layout and painting read the four fields
   * `x`, `y`, `width`, `height` instead, and most boxes are never made.
   */
  get box(): Bounds {
    return this.#box ??= { x: this.x, y: this.y, width: this.width, height: this.height };
  }

  /** Moves and sizes the box. */
  setBox(x: number, y: number, width: number, height: number): void {
    this.x = x;
    this.y = y;
    this.width = width;
    this.height = height;
    this.#box = null;
  }
}

/** One element as layout sees it. */
export interface LayoutNode {
  /** The parent; null for the window and for an element not in the tree. */
  readonly parent: LayoutNode | null;
  /** The children, in layout order. */
  readonly children: readonly LayoutNode[];
  /** Layout's record for it: its style, box, natural size and scroll position. */
  readonly layout: LayoutRecord;
  /** Its semantic node, whose bounds layout writes; null for a box without a role. */
  readonly node: SemanticNode | null;
  /** False once removed from the app. */
  readonly mounted: boolean;
  /** The app's semantic tree. */
  readonly host: { readonly tree: SemanticTree };
  /** Scrolls its content by a delta in cells (a scroll view, whose style `scrolls`). */
  scroll?(dx: number, dy: number): boolean;
  /** The size of its own line (a label), without children; null for none. */
  measure(): Size | null;
  /**
   * Called each time it is placed anew (a new size, or marked for layout), before its
   * children are placed: what shows a window onto lines of its own (a table) arranges them.
   */
  arranged?(width: number, height: number): void;
}

/**
 * Moves a scroll view's content by (`dx`, `dy`) cells, kept within the content; marks it for
 * placement when it moved. Returns false when it has no content to scroll.
 */
export function scrollContent(view: LayoutNode, dx: number, dy: number): boolean {
  const content = view.children[0];
  if (content === undefined) return false;
  const record = view.layout;
  const maxX = Math.max(0, content.layout.width - record.width);
  const maxY = Math.max(0, content.layout.height - record.height);
  const x = Math.min(maxX, Math.max(0, record.scroll.x + dx));
  const y = Math.min(maxY, Math.max(0, record.scroll.y + dy));
  if (x !== record.scroll.x || y !== record.scroll.y) {
    record.scroll = { x, y };
    record.placementDirty = true;
  }
  return true;
}
