/**
 * Elements: the mounted widgets of an app, each a widget's place in the tree. An element
 * holds its widget (how it measures, paints and acts, and its app, semantic node and flags),
 * its reactive owner, its parent and children, and layout's record of it; an element with a
 * role has a semantic node, so agents and screen readers see it. An element without a role (a row, a column, a custom widget nobody named)
 * is transparent: its children's nodes hang from the nearest ancestor that has one.
 *
 * @module
 */

import type { Keybind } from "../text/keybind.ts";
import { LayoutRecord, type LayoutStyle, type Size } from "../layout/node.ts";
import type { Owner, ReactiveRuntime } from "../reactive/mod.ts";
import type { Bounds, SemanticNode, SemanticTree } from "../semantics/mod.ts";
import type { Rt } from "./rt.ts";
import type { ToolRegistry } from "./tools.ts";
import { boxWidget, type Widget } from "./widget.ts";

export type { LayoutStyle, Size };

/** The children of every element that has none: most are leaves, so they share one array. */
const NO_CHILDREN: readonly Element[] = Object.freeze([]);

/** Children arrays up to this long are kept at their exact length as children are appended. */
const EXACT_UP_TO = 16;

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

/** One mounted widget: its place in the tree, and the widget that measures, paints and acts. */
export class Element {
  /**
   * How it measures, paints and behaves. Widgets are no part of the package's API, so its
   * docs leave this out.
   *
   * @ignore
   */
  readonly widget: Widget;
  /**
   * The reactive scope its bindings live in. The reactive graph is no part of the package's
   * API, so its docs leave this out.
   *
   * @ignore
   */
  readonly owner: Owner;
  /** The parent element; null for the window element and one not appended yet or detached. */
  parent: Element | null = null;
  /** Its children once it has any; null for a leaf. */
  #children: Element[] | null = null;
  /**
   * Layout's results and caches for it (box, natural size, scroll position). Layout's
   * records are no part of the package's API, so its docs leave this out.
   *
   * @ignore
   */
  readonly layout: LayoutRecord = new LayoutRecord();

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
    const held = typeof widget === "string" ? boxWidget(widget) : widget;
    // The widget keeps the element's app and semantic node: it owns what agents see of it.
    held.host = host;
    held.node = node;
    this.widget = held;
    this.owner = owner;
    held.attach(this);
  }

  // The app, the semantic node and the flags are the widget's; these read and write them.
  /** The app the element is mounted in. */
  get host(): Host {
    return this.widget.host;
  }

  /** The semantic node, when the element has a role. */
  get node(): SemanticNode | null {
    return this.widget.node;
  }

  /** True when the element itself is disabled; see `effectivelyDisabled` for ancestors. */
  get disabled(): boolean {
    return this.widget.disabled;
  }

  set disabled(disabled: boolean) {
    this.widget.disabled = disabled;
  }

  /** False once removed from the app. */
  get mounted(): boolean {
    return this.widget.mounted;
  }

  set mounted(mounted: boolean) {
    this.widget.mounted = mounted;
  }

  /**
   * How it lays out its children: the shared defaults (a column, no gap) until `setStyle()`
   * gives it a style of its own.
   */
  get style(): Readonly<LayoutStyle> {
    return this.layout.style;
  }

  /** Changes how it lays out its children: the element gets a style of its own. */
  setStyle(changes: Readonly<Partial<LayoutStyle>>): void {
    this.layout.style = { ...this.layout.style, ...changes };
  }

  /** The child elements, in layout and reading order. */
  get children(): readonly Element[] {
    return this.#children ?? NO_CHILDREN;
  }

  /** The size of its own line (its label), without children, as its widget measures it. */
  measure(): Size | null {
    return this.widget.measure(this);
  }

  /** Position relative to the parent element, and size, in cells, from the last layout. */
  get box(): Bounds {
    return this.layout.box;
  }

  /** Scroll position of a scroll view, in cells. */
  get scroll(): { readonly x: number; readonly y: number } {
    return this.layout.scroll;
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

  /**
   * True for a secure field: agents never read its value nor type into it. Its node's
   * `secure` state is the one record of it.
   */
  get secure(): boolean {
    return this.node?.has("secure") ?? false;
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
    const children = this.#children;
    // A short array is copied to its exact length: `push` would leave room for 16 more on each
    // element with a few children, most of them. A long one grows by `push`, whose spare room
    // is then a small share of it.
    if (children === null) this.#children = [child];
    else if (children.length < EXACT_UP_TO) this.#children = children.concat(child);
    else children.push(child);
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
    this.#children = children.length === 0 ? null : children;
    this.host.markStructureDirty(this);
    this.host.markLayoutDirty(this);
  }

  /**
   * Removes a child and its subtree from the app: their semantic nodes leave the tree for
   * good. The caller disposes the reactive scope that owned them.
   */
  removeChild(child: Element): void {
    const index = this.children.indexOf(child);
    if (index >= 0) this.#children!.splice(index, 1);
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
