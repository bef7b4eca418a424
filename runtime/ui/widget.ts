/**
 * Widgets: the mounted side of every view, one object each, as a Textual widget is its DOM
 * node. A widget holds its place in the tree (parent, children), layout's record of it, its
 * semantic node (when it has a role), the app it is mounted in, its reactive scope and its
 * flags; and it says how it measures, paints and takes input. Layout asks `measure()`, a
 * renderer calls `paint()` with a surface, and input calls the action methods (`activate`,
 * `key`, ...). The built-in widgets (one file each under `widgets/`) and `widget()` are
 * subclasses; a widget without a role (a row, a column) is transparent to agents: its
 * children's nodes hang from the nearest ancestor that has one.
 *
 * @module
 */

import { cellWidth } from "../text/cell_width.ts";
import type { Keybind } from "../text/keybind.ts";
import type { TextEditState } from "../text/text_edit.ts";
import { LayoutRecord, type LayoutStyle, type Size, withLayout } from "../layout/node.ts";
import type { Owner } from "../reactive/mod.ts";
import type { SemanticNode } from "../semantics/mod.ts";
import type { Host } from "./host.ts";
import type { Rt } from "./rt.ts";
import type { TextStyle } from "./style.ts";
import type { PaintArea } from "./surface.ts";

export type { Host, LayoutStyle, Size };

/** The children of every widget that has none: most are leaves, so they share one array. */
const NO_CHILDREN: readonly Widget[] = Object.freeze([]);

/** Children arrays up to this long are kept at their exact length as children are appended. */
const EXACT_UP_TO = 16;

/** One mounted widget: its place in the tree, its node, and how it measures, paints and acts. */
export class Widget {
  /**
   * The app it is mounted in; set when it is mounted (`mountWidget()`), before any of its
   * methods run.
   */
  host!: Host;
  /**
   * The reactive scope its bindings live in. The reactive graph is no part of the package's
   * API, so its docs leave this out.
   *
   * @ignore
   */
  owner!: Owner;
  /** Its semantic node, when it has a role; set when it is mounted. */
  node: SemanticNode | null = null;
  /** The parent widget; null for the window and for one not appended yet or detached. */
  parent: Widget | null = null;
  /** True when the widget itself is disabled; see `effectivelyDisabled` for ancestors. */
  disabled = false;
  /** False once removed from the app. */
  mounted = true;
  /**
   * Its own style (`.style()`), laid on every look it and its children paint with; null for
   * none, most widgets. Styles are for people: they never reach the semantic tree.
   */
  look: Readonly<TextStyle> | null = null;
  /**
   * Layout's results and caches for it (style, box, natural size, scroll position). Layout's
   * records are no part of the package's API, so its docs leave this out.
   *
   * @ignore
   */
  readonly layout: LayoutRecord = new LayoutRecord();
  /** Its children once it has any; null for a leaf. */
  #children: Widget[] | null = null;

  /** The widget kind, for inspection and debugging: `button`, `row`, `list_item`, ... */
  get kind(): string {
    return "widget";
  }

  /** Whether Tab and clicks can focus it; false unless a widget says so. */
  get focusable(): boolean {
    return false;
  }

  /** The size of its own content (its label line), without children; null for none. */
  measure(): Size | null {
    return null;
  }

  /**
   * Paints its own content; children are painted after it, above it. The surface is the
   * renderers' own, so the package's docs leave this out.
   *
   * @ignore
   */
  paint(_area: PaintArea): void {}

  /**
   * Paints what goes above its children (a scroll bar).
   *
   * @ignore
   */
  paintOver(_area: PaintArea): void {}

  /**
   * The text it edits (a text field's), for a widget that edits text; else null. The editing
   * state is the runtime's own, so the package's docs leave this out.
   *
   * @ignore
   */
  get textEdit(): TextEditState | null {
    return null;
  }

  /**
   * True when a line break typed into it is text (a text area): `type_text` and a paste hand
   * line breaks over as they are. Elsewhere each line break in `type_text` presses Enter.
   */
  get takesLineBreaks(): boolean {
    return false;
  }

  /** A click, or Enter or Space while it has focus. */
  activate?(rt: Rt): void;
  /**
   * A person's click at (x, y) in the widget's own cells, after the click itself (a text area
   * puts its cursor there).
   */
  clickAt?(x: number, y: number, rt: Rt): void;
  /** The double-click event that follows two clicks. */
  doubleClick?(rt: Rt): void;
  /** A key while it has focus; returns true when handled (else the key goes to the parent). */
  key?(keybind: Keybind, rt: Rt): boolean;
  /** Typed text while it has focus (text fields). */
  insertText?(text: string, rt: Rt): void;
  /** Scrolls by a delta in cells; returns true when the position moved or could move. */
  scroll?(dx: number, dy: number): boolean;
  /**
   * Told the width layout placed it at, for a widget whose height follows its width (a
   * wrapped text); returns true when its measured size changed with it.
   */
  reflow?(width: number): boolean;
  /** Moves to a point in the widget's own cells (sliders). */
  dragTo?(x: number, y: number, rt: Rt): void;
  /** Called when the widget gains or loses focus. */
  focusChanged?(focused: boolean): void;
  /**
   * Picks the option (a select's option, a radio button, a tab, a list row) named exactly
   * `option`, as the `select` action asks; false when it has none of that name.
   */
  choose?(option: string, rt: Rt): boolean;
  /** The names of the options `choose()` takes, for a refusal to list. */
  optionNames?(): readonly string[];
  /**
   * For a widget that is one Tab stop over many children (a list, roving focus): the one
   * child Tab walks into, or null for none. Its other children are skipped by Tab.
   */
  tabEntry?(): Widget | null;
  /**
   * Called by layout each time it places the widget anew (its size changed, or it was marked
   * for layout): a widget that shows a window onto many lines of its own (a table, a tree
   * view) works out here what its box shows, and where its own nodes are.
   */
  arranged?(width: number, height: number): void;
  /**
   * For a widget that keeps semantic nodes of its own below its node (a table's rows and
   * cells, a tree view's items): the widget that acts for `node` (brought into view first),
   * or undefined when it keeps no such node. Actions by node id ask it.
   */
  elementFor?(node: SemanticNode): Widget | undefined;
  /**
   * For a widget that paints parts of its own (a table's rows and headers): the widget that
   * stands for the part at (`x`, `y`) of its own cells, or null for none. A person's clicks
   * and the pointer ask it.
   */
  hitChild?(x: number, y: number): Widget | null;

  /**
   * How it lays out its children: the shared defaults (a column, no gap) until `setStyle()`
   * gives it a style of its own.
   */
  get style(): Readonly<LayoutStyle> {
    return this.layout.style;
  }

  /** Changes how it lays out its children: the widget gets a style of its own. */
  setStyle(changes: Readonly<Partial<LayoutStyle>>): void {
    this.layout.style = withLayout(this.layout.style, changes);
  }

  /** The child widgets, in layout and reading order. */
  get children(): readonly Widget[] {
    return this.#children ?? NO_CHILDREN;
  }

  /**
   * True for a secure field: agents never read its value nor type into it. Its node's
   * `secure` state is the one record of it.
   */
  get secure(): boolean {
    return this.node?.has("secure") ?? false;
  }

  /** True when the widget or an ancestor is disabled. */
  get effectivelyDisabled(): boolean {
    if (this.disabled) return true;
    for (let widget = this.parent; widget !== null; widget = widget.parent) {
      if (widget.disabled) return true;
    }
    return false;
  }

  /** Appends a child widget and tells the host. */
  append(child: Widget): void {
    child.parent = this;
    const children = this.#children;
    // A short array is copied to its exact length: `push` would leave room for 16 more on each
    // widget with a few children, most of them. A long one grows by `push`, whose spare room
    // is then a small share of it.
    if (children === null) this.#children = [child];
    else if (children.length < EXACT_UP_TO) this.#children = children.concat(child);
    else children.push(child);
    if (this.effectivelyDisabled) showDisabled(child); // it joins a disabled container
    this.host.markStructureDirty(this);
    this.host.markLayoutDirty(this);
  }

  /**
   * Appends several child widgets at once (a container's children as they mount): one
   * children array of exactly their number and one word to the host, not one per child.
   * With `owned` the widget may keep `added` itself as its children (the caller made it
   * for that and changes it no more).
   */
  appendAll(added: Widget[], owned = false): void {
    if (added.length === 0) return;
    const disabled = this.effectivelyDisabled;
    for (let index = 0; index < added.length; index++) {
      const child = added[index]!;
      child.parent = this;
      if (disabled) showDisabled(child); // it joins a disabled container
    }
    const children = this.#children;
    this.#children = children === null ? (owned ? added : added.slice()) : children.concat(added);
    this.host.markStructureDirty(this);
    this.host.markLayoutDirty(this);
  }

  /** Replaces the children (a list reordering them, say) and tells the host. */
  setChildren(children: Widget[]): void {
    const disabled = this.effectivelyDisabled;
    for (let index = 0; index < children.length; index++) {
      const child = children[index]!;
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
  removeChild(child: Widget): void {
    const index = this.children.indexOf(child);
    if (index >= 0) this.#children!.splice(index, 1);
    detach(child);
    this.host.markStructureDirty(this);
    this.host.markLayoutDirty(this);
  }

  /** The nearest ancestor-or-self that has a semantic node. */
  get semanticElement(): Widget | null {
    if (this.node !== null) return this;
    for (let widget = this.parent; widget !== null; widget = widget.parent) {
      if (widget.node !== null) return widget;
    }
    return null;
  }
}

/** A widget that lays out children and draws nothing itself (a row, the window, `show()`). */
export class BoxWidget extends Widget {
  readonly #kind: string;

  /** A box reporting `kind`: `row`, `column`, `window`, `show`, ... */
  constructor(kind: string) {
    super();
    this.#kind = kind;
  }

  override get kind(): string {
    return this.#kind;
  }
}

/**
 * A widget with a line of its own (a label, a title, a text), measured by the cells of what
 * it paints there. Subclasses give that line by `face()`, so what is measured and what is
 * painted cannot disagree.
 */
export abstract class LabelWidget extends Widget {
  /** The label it shows; a change is laid out at the next frame. */
  label = "";

  /** The whole line it paints: the label with its decoration (`[ label ]` for a button). */
  face(): string {
    return this.label;
  }

  override measure(): Size | null {
    return { width: cellWidth(this.face()), height: 1 };
  }

  /** Shows `label`; lays the widget out again when it changed. */
  setLabel(label: string): void {
    if (this.label === label) return;
    this.label = label;
    this.host.markLayoutDirty(this);
  }
}

/**
 * Writes the `disabled` state of every node under `widget` (itself included) from whether
 * it or an ancestor is disabled, so that a disabled row's buttons show as disabled, as they
 * act.
 */
export function showDisabled(widget: Widget): void {
  const stack = [widget];
  while (stack.length > 0) {
    const current = stack.pop()!;
    if (current.node !== null) {
      current.host.tree.setState(current.node, "disabled", current.effectivelyDisabled);
    }
    pushChildren(stack, current);
  }
}

/** Takes a widget out of the app: marks its subtree unmounted and removes its nodes. */
export function detach(widget: Widget): void {
  widget.host.elementRemoved(widget);
  unmount(widget);
  widget.parent = null;
}

/**
 * Marks `current` and its subtree unmounted and removes their nodes, depth first and the
 * last child first (the order the ids are reported removed in). Recursion: no stack to make
 * for each of the rows a list drops.
 */
function unmount(current: Widget): void {
  current.mounted = false;
  // Removing a node takes its whole semantic subtree; nested nodes are then already gone.
  if (current.node !== null) current.host.tree.remove(current.node);
  const children = current.children;
  for (let index = children.length - 1; index >= 0; index--) unmount(children[index]!);
}

/** Pushes the children of `widget` onto `stack` (an indexed loop: no iterator to make). */
function pushChildren(stack: Widget[], widget: Widget): void {
  const children = widget.children;
  for (let index = 0; index < children.length; index++) stack.push(children[index]!);
}
