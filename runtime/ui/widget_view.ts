/**
 * The base of every built-in view: the modifiers all widgets share (`.secure()`,
 * `.disabled()`, `.label()` and the layout ones) and the helpers that make an element.
 *
 * @module
 */

import type { Role, SemanticNode } from "../semantics/mod.ts";
import { Element, type LayoutStyle, showDisabled } from "./element.ts";
import { follow, type MountContext, type Prop, View } from "./view.ts";
import type { LabelWidget, Widget } from "./widget.ts";

/**
 * Where `createElement()` takes nodes from while `withNodeSource()` runs: a list row that
 * renders again offers its old nodes, so what keeps its place keeps its id.
 */
let nodeSource: ((role: Role) => SemanticNode | undefined) | null = null;

/**
 * Runs `fn` (a mount) with `source` offering a node for each element with a role that is
 * made; where it offers none, a new node is made as usual.
 */
export function withNodeSource<T>(
  source: (role: Role) => SemanticNode | undefined,
  fn: () => T,
): T {
  const previous = nodeSource;
  nodeSource = source;
  try {
    return fn();
  } finally {
    nodeSource = previous;
  }
}

/**
 * Makes an element held by `widget` (a kind string makes a box that only lays out its
 * children), with a semantic node when `role` is given.
 */
export function createElement(
  context: MountContext,
  widget: Widget | string,
  role: Role | null,
): Element {
  const node = role === null ? null : nodeSource?.(role) ?? context.host.tree.createNode(role);
  const element = new Element(widget, context.host, context.owner, node);
  context.host.registerElement(element);
  return element;
}

/** Mounts views as an element's children. Strings become text. */
export function mountChildren(
  context: MountContext,
  element: Element,
  children: readonly View[],
): void {
  for (const child of children) {
    if (!(child instanceof View)) {
      throw new TypeError(
        `a container's children must be views (text(), button(), ...), got ${typeof child}`,
      );
    }
    element.append(child.mount(context));
  }
}

/** A view with the modifiers every widget shares. */
export abstract class WidgetView extends View {
  #secure = false;
  #disabled: Prop<boolean> | undefined;
  #label: Prop<string> | undefined;
  #style: Partial<LayoutStyle> | null = null;

  /**
   * Marks the widget secure: its value is never exposed, and agents may not type into it or
   * press keys on it. A widget that holds a value (a text field, a slider, `widget({ value })`)
   * must get it from a declared secret, `cx.secret(initial)`, or from a binding or memo that
   * reads only secrets; otherwise mounting it throws a TypeError that says so.
   */
  secure(): this {
    this.#secure = true;
    return this;
  }

  /** Disables the widget (or enables it again); a disabled widget refuses every action. */
  disabled(disabled: Prop<boolean> = true): this {
    this.#disabled = disabled;
    return this;
  }

  /** Gives the widget an accessible name other than the text it shows. */
  label(name: Prop<string>): this {
    this.#label = name;
    return this;
  }

  /** Fixes the width in cells. */
  width(cells: number): this {
    (this.#style ??= {}).width = checkCells(cells, "width");
    return this;
  }

  /** Fixes the height in cells. */
  height(cells: number): this {
    (this.#style ??= {}).height = checkCells(cells, "height");
    return this;
  }

  /** Takes a share of the parent's spare room (1 by default). */
  grow(share = 1): this {
    (this.#style ??= {}).grow = checkCells(share, "grow");
    return this;
  }

  /** Leaves empty cells inside the edge. */
  padding(cells: number): this {
    (this.#style ??= {}).padding = checkCells(cells, "padding");
    return this;
  }

  /** Leaves empty cells between children. */
  gap(cells: number): this {
    (this.#style ??= {}).gap = checkCells(cells, "gap");
    return this;
  }

  /** True when `.secure()` was called. */
  protected get isSecure(): boolean {
    return this.#secure;
  }

  /** The name to use: the `.label()` override if any, else the widget's own. */
  protected nameProp(own: Prop<string> | undefined): Prop<string> | undefined {
    return this.#label ?? own;
  }

  /**
   * Shows `own` as the label of the element's widget and, unless `.label()` gave another, as
   * its name: one follower for both, so a binding runs once per change. Widgets are no part
   * of the package's API, so its docs leave this out.
   *
   * @ignore
   */
  protected followLabel(
    context: MountContext,
    element: Element,
    widget: LabelWidget,
    own: Prop<string>,
  ): void {
    const node = element.node;
    const override = this.#label;
    follow(context, own, (value) => {
      const text = String(value);
      widget.setLabel(text);
      if (override === undefined && node !== null) context.host.tree.setName(node, text);
    }, "a label binding");
    if (override !== undefined) followName(context, element, override);
  }

  /** Builds the element; modifiers are applied after. */
  protected abstract build(context: MountContext): Element;

  /** Mounts the widget and applies the shared modifiers. */
  mount(context: MountContext): Element {
    const element = this.build(context);
    if (this.#style !== null) element.setStyle(this.#style);
    const { node } = element;
    const tree = context.host.tree;
    if (this.#secure) {
      if (node !== null) tree.setState(node, "secure", true);
    }
    if (this.#disabled !== undefined) {
      follow(context, this.#disabled, (disabled) => {
        element.disabled = Boolean(disabled);
        showDisabled(element); // its own node and every node under it
      }, "a disabled binding");
    }
    return element;
  }
}

function checkCells(value: number, what: string): number {
  if (!Number.isInteger(value) || value < 0) {
    throw new RangeError(`${what} must be a whole number of cells, 0 or more, got ${value}`);
  }
  return value;
}

/** Follows a name property onto an element's node. */
export function followName(
  context: MountContext,
  element: Element,
  name: Prop<string> | undefined,
): void {
  const node = element.node;
  if (name === undefined || node === null) return;
  follow(
    context,
    name,
    (value) => context.host.tree.setName(node, String(value)),
    "a name binding",
  );
}
