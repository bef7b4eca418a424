/**
 * Elements: the mounted widgets of an app. Every element has a layout box; an element with a
 * role also has a semantic node, so agents and screen readers see it. An element without a
 * role (a row, a column, a custom widget nobody named) is transparent: its children's nodes
 * hang from the nearest ancestor that has one.
 *
 * @module
 */

import type { Keybind } from "../text/keybind.ts";
import type { Owner, ReactiveRuntime } from "../reactive/mod.ts";
import type { Bounds, SemanticNode, SemanticTree } from "../semantics/mod.ts";
import type { Rt } from "./rt.ts";
import type { ToolRegistry } from "./tools.ts";
import { boxWidget, type Widget } from "./widget.ts";

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

/** The input an element handles. Handlers receive the app's `rt`. */
export interface Behavior {
  /** Whether Tab and clicks can focus it. */
  focusable?: boolean;
  /** A click, or Enter or Space while it has focus. */
  activate?(rt: Rt): void;
  /** The double-click event that follows two clicks. */
  doubleClick?(rt: Rt): void;
  /** A key while it has focus; returns true when handled (else the key goes to the parent). */
  key?(keybind: Keybind, rt: Rt): boolean;
  /** Typed text while it has focus (text fields). */
  insertText?(text: string, rt: Rt): void;
  /** Scrolls by a delta in cells; returns true when the position moved or could move. */
  scroll?(dx: number, dy: number): boolean;
  /** Moves to a point in window cells (sliders). */
  dragTo?(x: number, y: number, rt: Rt): void;
  /** Called when the element gains or loses focus. */
  focusChanged?(focused: boolean): void;
}

/** What elements need from the app they are mounted in. */
export interface Host {
  /** The app's semantic tree: elements with a role keep their node in it. */
  readonly tree: SemanticTree;
  /**
   * The reactive runtime the app's signals, memos and effects belong to. The reactive graph is
   * no part of the package's API, so its docs leave this out.
   *
   * @ignore
   */
  readonly runtime: ReactiveRuntime;
  /** The app tools components register. */
  readonly tools: ToolRegistry;
  /** The runtime handle that bindings, handlers and tools receive. */
  readonly rt: Rt;
  /** Records a new element, so that actions by node id can find it. */
  registerElement(element: Element): void;
  /** The element's natural size may have changed: lay it out at the next frame. */
  markLayoutDirty(element: Element): void;
  /** The element's children changed: rebuild the semantic children around it. */
  markStructureDirty(element: Element): void;
  /** The element and its subtree left the app: drop focus, hover and the like. */
  elementRemoved(element: Element): void;
  /** Moves focus to the element. */
  focus(element: Element): void;
  /** The element that has focus, if any. */
  readonly focused: Element | null;
  /** Lays the element out above the window's content (dialogs). */
  addOverlay(element: Element): void;
  /** Reports an error thrown by app code (a binding, a handler) without stopping the app. */
  reportError(error: unknown, where: string): void;
}

const layoutDefaults: LayoutStyle = {
  direction: "column",
  gap: 0,
  padding: 0,
  border: false,
  grow: 0,
  overlay: false,
};

// Shared starting values: most elements never scroll, and every one is placed at least once.
const NOT_PLACED: Bounds = Object.freeze({ x: 0, y: 0, width: 0, height: 0 });
const NO_SCROLL = Object.freeze({ x: 0, y: 0 });

/** One mounted widget: its place in the tree, and the widget that measures, paints and acts. */
export class Element {
  /**
   * How it measures, paints and behaves. Widgets are no part of the package's API, so its
   * docs leave this out.
   *
   * @ignore
   */
  readonly widget: Widget;
  /** The app the element is mounted in. */
  readonly host: Host;
  /**
   * The reactive scope its bindings live in. The reactive graph is no part of the package's
   * API, so its docs leave this out.
   *
   * @ignore
   */
  readonly owner: Owner;
  /** The parent element; null for the window element and one not appended yet or detached. */
  parent: Element | null = null;
  /** The child elements, in layout and reading order. */
  children: Element[] = [];
  /** The semantic node, when the element has a role. */
  readonly node: SemanticNode | null;
  /** How it lays out its children; starts from the defaults (a column, no gap). */
  style: LayoutStyle;
  /** True when the element itself is disabled; see `effectivelyDisabled` for ancestors. */
  disabled = false;
  /** True for a secure field: agents never read its value nor type into it. */
  secure = false;

  // Layout results and caches, owned by the layout layer.
  /** Position relative to the parent element, and size, in cells. */
  box: Bounds = NOT_PLACED;
  /** The natural size, cached until the element or a descendant is marked dirty. */
  natural: Size | null = null;
  /** The share of spare room it takes: its own grow, or 1 for a column holding growth. */
  grows = 0;
  /** True when the children must be placed again. */
  placementDirty = true;
  /** The x offset from the semantic parent's origin used at the last placement. */
  placedBaseX: number = Number.NaN;
  /** The y offset from the semantic parent's origin used at the last placement. */
  placedBaseY: number = Number.NaN;
  /** Scroll position of a scroll view, in cells. */
  scroll: { readonly x: number; readonly y: number } = NO_SCROLL;
  /** False once removed from the app. */
  mounted = true;

  /**
   * Creates an element with the default style; views call `createElement()` instead. A kind
   * instead of a widget makes a box that only lays out its children. It takes the reactive
   * graph's scope, which is no part of the package's API, so its docs leave this out.
   *
   * @ignore
   */
  constructor(
    widget: Widget | string,
    host: Host,
    owner: Owner,
    node: SemanticNode | null,
  ) {
    this.widget = typeof widget === "string" ? boxWidget(widget) : widget;
    this.widget.attach(this);
    this.host = host;
    this.owner = owner;
    this.node = node;
    this.style = { ...layoutDefaults };
  }

  /** The widget kind, for inspection and debugging: `button`, `row`, `list_item`, ... */
  get kind(): string {
    return this.widget.kind;
  }

  /** The input it handles: its widget's action methods. */
  get behavior(): Behavior {
    return this.widget;
  }

  /**
   * Measures the element's own content (its label line), without children.
   *
   * @deprecated Layout asks the widget: `element.widget.measure(element)`.
   */
  get measureContent(): (() => Size) | null {
    const measured = this.widget.measure(this);
    return measured === null ? null : () => this.widget.measure(this) ?? measured;
  }

  /**
   * The widget's state as plain data (`visual`, `checked`, `edit`, ...), for inspection.
   *
   * @deprecated Read the widget's typed fields instead.
   */
  get state(): Readonly<Record<string, unknown>> {
    return this.widget.inspect();
  }

  /** True when the element or an ancestor is disabled. */
  get effectivelyDisabled(): boolean {
    if (this.disabled) return true;
    for (let element = this.parent; element !== null; element = element.parent) {
      if (element.disabled) return true;
    }
    return false;
  }

  /** Appends a child element and tells the host. */
  append(child: Element): void {
    child.parent = this;
    this.children.push(child);
    if (this.effectivelyDisabled) showDisabled(child); // it joins a disabled container
    this.host.markStructureDirty(this);
    this.host.markLayoutDirty(this);
  }

  /** Replaces the children (a list reordering them, say) and tells the host. */
  setChildren(children: Element[]): void {
    const disabled = this.effectivelyDisabled;
    for (const child of children) {
      const joining = child.parent !== this;
      child.parent = this;
      if (joining && disabled) showDisabled(child);
    }
    this.children = children;
    this.host.markStructureDirty(this);
    this.host.markLayoutDirty(this);
  }

  /**
   * Removes a child and its subtree from the app: their semantic nodes leave the tree for
   * good. The caller disposes the reactive scope that owned them.
   */
  removeChild(child: Element): void {
    const index = this.children.indexOf(child);
    if (index >= 0) this.children.splice(index, 1);
    detach(child);
    this.host.markStructureDirty(this);
    this.host.markLayoutDirty(this);
  }

  /** The nearest ancestor-or-self that has a semantic node. */
  get semanticElement(): Element | null {
    if (this.node !== null) return this;
    for (let element = this.parent; element !== null; element = element.parent) {
      if (element.node !== null) return element;
    }
    return null;
  }
}

/**
 * Writes the `disabled` state of every node under `element` (itself included) from whether
 * it or an ancestor is disabled, so that a disabled row's buttons show as disabled, as they
 * act.
 */
export function showDisabled(element: Element): void {
  const stack = [element];
  while (stack.length > 0) {
    const current = stack.pop()!;
    if (current.node !== null) {
      current.host.tree.setState(current.node, "disabled", current.effectivelyDisabled);
    }
    stack.push(...current.children);
  }
}

/** Takes an element out of the app: marks its subtree unmounted and removes its nodes. */
export function detach(element: Element): void {
  element.host.elementRemoved(element);
  const stack = [element];
  while (stack.length > 0) {
    const current = stack.pop()!;
    current.mounted = false;
    // Removing a node takes its whole semantic subtree; nested nodes are then already gone.
    if (current.node !== null) current.host.tree.remove(current.node);
    stack.push(...current.children);
  }
  element.parent = null;
}
