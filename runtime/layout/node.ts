/**
 * What layout needs of an element, and what it keeps for each: the shape of the tree it lays
 * out (`LayoutNode`, which ui's `Element` implements), the style that says how, and the
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
}

/** The style an element starts with: a column, no gap, no padding. */
export const LAYOUT_DEFAULTS: Readonly<LayoutStyle> = Object.freeze({
  direction: "column",
  gap: 0,
  padding: 0,
  border: false,
  grow: 0,
  overlay: false,
});

/** A scroll position: where a scroll view's content starts, in cells. */
export interface ScrollPosition {
  /** Cells scrolled to the right. */
  readonly x: number;
  /** Cells scrolled down. */
  readonly y: number;
}

/** The scroll position every record starts at, shared: most elements never scroll. */
export const NO_SCROLL: ScrollPosition = Object.freeze({ x: 0, y: 0 });

/**
 * Layout's record of one element: its style, and the results and caches of laying it out.
 * ui's `Element` is its own record (one object an element, not two); a record starts as
 * `style` `LAYOUT_DEFAULTS`, box 0, `naturalWidth` -1, `placementDirty` true, the rest 0 and
 * `scroll` `NO_SCROLL`.
 */
export interface LayoutRecord {
  /** How it lays out its children: the shared defaults until it is given a style of its own. */
  style: Readonly<LayoutStyle>;
  // The box is four numbers on the record, not an object of its own: one fewer object per
  // element. `setBox()` writes them.
  /** The box's x, relative to the parent element, in cells; 0 until placed. */
  readonly x: number;
  /** The box's y, relative to the parent element, in cells. */
  readonly y: number;
  /** The box's width in cells. */
  readonly width: number;
  /** The box's height in cells. */
  readonly height: number;
  /**
   * Position relative to the parent element, and size, in cells, as one object: the same
   * object until the box changes. Layout and painting read `x`, `y`, `width`, `height`.
   */
  readonly box: Bounds;
  /** Moves and sizes the box. */
  setBox(x: number, y: number, width: number, height: number): void;
  /** The natural width, cached until the element or a descendant is marked dirty; -1 when not. */
  naturalWidth: number;
  /** The natural height, with the natural width. */
  naturalHeight: number;
  /** The share of spare room it takes: its own grow, or 1 for a column holding growth. */
  grows: number;
  /** True when the children must be placed again. */
  placementDirty: boolean;
  /** The x offset from the semantic parent's origin used at the last placement. */
  placedBaseX: number;
  /** The y offset from the semantic parent's origin used at the last placement. */
  placedBaseY: number;
  /** Scroll position of a scroll view, in cells. */
  scroll: ScrollPosition;
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
  /** Whether it scrolls its content (a scroll view), and how. */
  readonly behavior: { scroll?(dx: number, dy: number): boolean };
  /** The size of its own line (a label), without children; null for none. */
  measure(): Size | null;
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
