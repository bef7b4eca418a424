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

/** Where children go across a container (`align`): a column's children left to right. */
export type Align = "start" | "center" | "end" | "stretch";

/** Where children go along a container when they leave room (`justify`). */
export type Justify = "start" | "center" | "end" | "between";

/** How an element lays out its children. */
export interface LayoutStyle {
  /** `column` stacks children top to bottom, `row` left to right. */
  direction: "row" | "column";
  /** Empty cells between children. */
  gap: number;
  /** Empty cells inside the top edge (inside the border, if any). */
  padTop: number;
  /** Empty cells inside the right edge. */
  padRight: number;
  /** Empty cells inside the bottom edge. */
  padBottom: number;
  /** Empty cells inside the left edge. */
  padLeft: number;
  /** Empty cells outside the top edge, kept by the parent. */
  marginTop: number;
  /** Empty cells outside the right edge. */
  marginRight: number;
  /** Empty cells outside the bottom edge. */
  marginBottom: number;
  /** Empty cells outside the left edge. */
  marginLeft: number;
  /** A one-cell frame inside the edge (a border, a dialog's frame). */
  border: boolean;
  /** With `border`: the least width its title asks for (0 without a title). */
  titleWidth: number;
  /** A fixed width instead of the natural one. */
  width?: number | undefined;
  /** A fixed height instead of the natural one. */
  height?: number | undefined;
  /** A width in percent of the parent's room inside its padding (instead of `width`). */
  widthPercent?: number | undefined;
  /** A height in percent of the parent's room inside its padding. */
  heightPercent?: number | undefined;
  /** The least width it is given. */
  minWidth?: number | undefined;
  /** The most width it is given. */
  maxWidth?: number | undefined;
  /** The least height it is given. */
  minHeight?: number | undefined;
  /** The most height it is given. */
  maxHeight?: number | undefined;
  /** Where its children go across its direction; `start` by default. */
  align: Align;
  /** Where its children go along its direction when room is left; `start` by default. */
  justify: Justify;
  /**
   * True when a margin, a percentage, a least or a most size is set: layout looks for them
   * only then, so that the common element costs one test. `withLayout()` keeps it right.
   */
  extras: boolean;
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
  padTop: 0,
  padRight: 0,
  padBottom: 0,
  padLeft: 0,
  marginTop: 0,
  marginRight: 0,
  marginBottom: 0,
  marginLeft: 0,
  border: false,
  titleWidth: 0,
  align: "start",
  justify: "start",
  extras: false,
  grow: 0,
  overlay: false,
  anchored: false,
  scrolls: false,
});

/** `base` with `changes` laid on it, frozen, with `extras` said again. */
export function withLayout(
  base: Readonly<LayoutStyle>,
  changes: Readonly<Partial<LayoutStyle>>,
): Readonly<LayoutStyle> {
  const style = { ...base, ...changes };
  style.extras = style.marginTop !== 0 || style.marginRight !== 0 ||
    style.marginBottom !== 0 || style.marginLeft !== 0 ||
    style.widthPercent !== undefined || style.heightPercent !== undefined ||
    style.minWidth !== undefined || style.maxWidth !== undefined ||
    style.minHeight !== undefined || style.maxHeight !== undefined;
  return Object.freeze(style);
}

/** The cells a style keeps inside its left edge: its padding and its border. */
export function insetLeft(style: Readonly<LayoutStyle>): number {
  return style.padLeft + (style.border ? 1 : 0);
}

/** The cells a style keeps inside its top edge. */
export function insetTop(style: Readonly<LayoutStyle>): number {
  return style.padTop + (style.border ? 1 : 0);
}

/** The cells a style keeps inside its left and right edges together. */
export function insetX(style: Readonly<LayoutStyle>): number {
  return style.padLeft + style.padRight + (style.border ? 2 : 0);
}

/** The cells a style keeps inside its top and bottom edges together. */
export function insetY(style: Readonly<LayoutStyle>): number {
  return style.padTop + style.padBottom + (style.border ? 2 : 0);
}

/** `LayoutRecord.fills`: it takes all the height its parent has to give. */
export const FILLS_HEIGHT = 1;
/** `LayoutRecord.fills`: text in it wraps at the width it is given. */
export const WRAPS = 2;

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
   * What it takes from its parent, cached with the natural size: `FILLS_HEIGHT` when it takes
   * all the height its parent has to give (a scroll view without a fixed height, or a row or
   * column holding one); `WRAPS` when text in it wraps at the width it gets (so a scroll view
   * gives it its own width rather than its natural one). One number, not two fields.
   */
  fills = 0;

  /** True when it takes all the height its parent has to give (see `fills`). */
  get fillsHeight(): boolean {
    return (this.fills & FILLS_HEIGHT) !== 0;
  }

  /** True when text in it wraps at the width it is given (see `fills`). */
  get wraps(): boolean {
    return (this.fills & WRAPS) !== 0;
  }
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
  /**
   * For an element whose height follows its width (a wrapped text): told the width it was
   * placed at, returns true when its measured size changed with it, so that layout measures
   * and places it (and its ancestors) again.
   */
  reflow?(width: number): boolean;
}

/**
 * Moves a scroll view's content by (`dx`, `dy`) cells, kept within the content; marks it for
 * placement when it moved. Returns false when it has no content to scroll.
 */
export function scrollContent(view: LayoutNode, dx: number, dy: number): boolean {
  const content = view.children[0];
  if (content === undefined) return false;
  const record = view.layout;
  const maxX = Math.max(0, content.layout.width - (record.width - insetX(record.style)));
  const maxY = Math.max(0, content.layout.height - (record.height - insetY(record.style)));
  const x = Math.min(maxX, Math.max(0, record.scroll.x + dx));
  const y = Math.min(maxY, Math.max(0, record.scroll.y + dy));
  if (x !== record.scroll.x || y !== record.scroll.y) {
    record.scroll = { x, y };
    record.placementDirty = true;
  }
  return true;
}
