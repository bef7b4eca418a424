/**
 * The base of every built-in view: the modifiers all widgets share (`.secure()`,
 * `.disabled()`, `.label()` and the layout ones) and the helpers that make an element.
 *
 * @module
 */

import type { Role, SemanticNode } from "../semantics/mod.ts";
import { follow, isReactive, type MountContext, type Prop, View } from "./view.ts";
import { cellWidth } from "../text/cell_width.ts";
import { checkStyle, type TextStyle } from "./style.ts";
import { FocusRef } from "./focus_ref.ts";
import { claimMounted, FAILED_TEXT, mountingView, setNotes } from "./binding_failure.ts";
import { type BorderKind, checkBorderKind, setBorderLook } from "./border.ts";
import type { Align, Justify } from "../layout/node.ts";
import { type LabelWidget, type LayoutStyle, showDisabled, type Widget } from "./widget.ts";

/**
 * Where `mountWidget()` takes nodes from while `withNodeSource()` runs: a list row that
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
 * Mounts `widget` in `context`: it joins the app and the context's scope, with a semantic
 * node when `role` is given, and actions by node id can find it. Returns the widget.
 */
export function mountWidget<W extends Widget>(
  context: MountContext,
  widget: W,
  role: Role | null,
): W {
  widget.host = context.host;
  widget.owner = context.owner;
  claimMounted(widget);
  if (role !== null) widget.node = nodeSource?.(role) ?? context.host.tree.createNode(role);
  context.host.registerElement(widget);
  return widget;
}

/** Mounts views as a widget's children. */
export function mountChildren(
  context: MountContext,
  element: Widget,
  children: readonly View[],
): void {
  // Exactly as long as the children, so that it can be the widget's own array.
  const mounted = new Array<Widget>(children.length);
  let count = 0;
  try {
    for (; count < children.length; count++) {
      const child = children[count];
      if (!(child instanceof View)) {
        throw new TypeError(
          `a container's children must be views (text(), button(), ...), got ${typeof child}`,
        );
      }
      mounted[count] = child.mount(context);
    }
  } finally {
    // Appended together, even those mounted before a child that threw, as one by one before.
    element.appendAll(count === mounted.length ? mounted : mounted.slice(0, count), true);
  }
}

/** A view with the modifiers every widget shares. */
export abstract class WidgetView extends View {
  #secure = false;
  #disabled: Prop<boolean> | undefined;
  #label: Prop<string> | undefined;
  #style: Partial<LayoutStyle> | null = null;
  #border: { kind: BorderKind; options: BorderOptions } | null = null;
  /** What `.invalid()`, `.description()` and `.required()` said; most views say none of it. */
  #notes: Notes | null = null;

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

  /**
   * Marks the widget invalid while `message` is a non-empty string: its node gets the state
   * `invalid` and the message as its description (in its tree line, after the value), so a
   * person's screen reader and an agent both learn what is wrong. A binding follows its
   * signals: `.invalid(bind(() => email.get().includes("@") ? null : "needs an @"))`. An
   * empty string, null or false clears it, and the description goes back to
   * `.description()`'s.
   */
  invalid(message: Prop<string | null | false>): this {
    (this.#notes ??= {}).invalid = message;
    return this;
  }

  /** Gives the widget a description: more about it than its name says (a hint, a format). */
  description(text: Prop<string>): this {
    (this.#notes ??= {}).description = text;
    return this;
  }

  /** Marks the widget as one that must be filled in (the state `required`). */
  required(required: Prop<boolean> = true): this {
    (this.#notes ??= {}).required = required;
    return this;
  }

  /**
   * Marks the control destructive (the state `destructive`): activating it deletes or
   * overwrites the user's data, such as a Delete button or a "Delete all" menu item. An
   * agent's click, double click, or Enter or Space on it is refused unless its `ui_act` says
   * `"confirm": true`, as a destructive app tool's call is; people's own clicks and keys work
   * as ever.
   *
   * @example
   * ```ts
   * import { button, column, text } from "@crownui/runtime";
   * import { render } from "@crownui/runtime/testing";
   * import assert from "node:assert/strict";
   *
   * let deleted = 0;
   * await using app = await render(
   *   column(text("Draft"), button("Delete", () => deleted++).destructive()),
   * );
   * const del = app.get({ role: "button", name: "Delete" });
   * assert.deepEqual(del.states, ["destructive"]);
   * await assert.rejects(app.act(del.id, { action: "click" }), /"confirm": true/);
   * await app.act(del.id, { action: "click" }, undefined, { confirm: true });
   * assert.equal(deleted, 1);
   * ```
   */
  destructive(destructive: Prop<boolean> = true): this {
    (this.#notes ??= {}).destructive = destructive;
    return this;
  }

  /**
   * Gives the widget focus when it mounts (at the frame that shows it): the first field of a
   * form, the field of a dialog that opens. The widget must take focus (a button, a field, a
   * list row); behind an open dialog it is left alone. When several mount at once, the last
   * one mounted has focus.
   *
   * @example The search field has focus from the start
   * ```ts
   * import assert from "node:assert/strict";
   * import { button, column, component, textField } from "@crownui/runtime";
   * import { render } from "@crownui/runtime/testing";
   *
   * await using app = await render(component((cx) => column(
   *   button("Clear", () => {}),
   *   textField({ label: "Search", value: cx.signal("") }).autofocus(),
   * )));
   * await app.type("milk");
   * assert.equal(app.get({ role: "text_field" }).value, "milk");
   * ```
   */
  autofocus(on = true): this {
    (this.#notes ??= {}).autofocus = Boolean(on);
    return this;
  }

  /**
   * Names the widget with `ref` (from `focusRef()`), so code can move focus to it with
   * `ref.focus()`. The ref names it while it is mounted.
   *
   * @example A handler moves focus to a field
   * ```ts
   * import assert from "node:assert/strict";
   * import { button, column, component, focusRef, textField } from "@crownui/runtime";
   * import { render } from "@crownui/runtime/testing";
   *
   * await using app = await render(component((cx) => {
   *   const name = focusRef();
   *   return column(
   *     textField({ label: "Name", value: cx.signal("") }).ref(name),
   *     button("Edit name", () => name.focus()),
   *   );
   * }));
   * await app.act(app.get({ role: "button" }).id, { action: "click" });
   * assert.ok(app.get({ role: "text_field" }).states.includes("focused"));
   * ```
   */
  ref(ref: FocusRef): this {
    if (!(ref instanceof FocusRef)) {
      throw new TypeError(".ref() takes a ref made with focusRef()");
    }
    (this.#notes ??= {}).ref = ref;
    return this;
  }

  /**
   * Fixes the width: in cells (`.width(20)`), or as a percentage of the room inside the
   * parent's padding and border (`.width("50%")`). The border and padding are inside it. A
   * row or column is as wide as its content unless it is given a width, grows or is
   * stretched (`.align("stretch")` on its parent): give the parent of a percentage a width.
   *
   * @example Half of a 40-cell row, and a text cut with … in 8 cells
   * ```ts
   * import assert from "node:assert/strict";
   * import { column, row, text } from "@crownui/runtime";
   * import { render } from "@crownui/runtime/testing";
   *
   * await using app = await render(
   *   column(
   *     row(column(text("left")).width("50%").border()).width(40),
   *     text("Quarterly report").width(8),
   *   ),
   *   { width: 60, height: 4 },
   * );
   * assert.equal(app.screen().lines[0]!.length, 20);
   * assert.equal(app.screen().lines[3], "Quarter…");
   * ```
   */
  width(size: Dimension): this {
    const style = (this.#style ??= {});
    if (typeof size === "string") {
      style.widthPercent = checkPercent(size, "width");
      style.width = undefined;
    } else {
      style.width = checkCells(size, "width");
      style.widthPercent = undefined;
    }
    return this;
  }

  /** Fixes the height: in cells, or as a percentage of the parent's room (`"50%"`). */
  height(size: Dimension): this {
    const style = (this.#style ??= {});
    if (typeof size === "string") {
      style.heightPercent = checkPercent(size, "height");
      style.height = undefined;
    } else {
      style.height = checkCells(size, "height");
      style.heightPercent = undefined;
    }
    return this;
  }

  /** Never narrower than `cells`, whatever its content, growing or shrinking says. */
  minWidth(cells: number): this {
    (this.#style ??= {}).minWidth = checkCells(cells, "minWidth");
    return this;
  }

  /** Never wider than `cells`: a growing view stops there and leaves the rest to others. */
  maxWidth(cells: number): this {
    (this.#style ??= {}).maxWidth = checkCells(cells, "maxWidth");
    return this;
  }

  /** Never shorter than `cells`. */
  minHeight(cells: number): this {
    (this.#style ??= {}).minHeight = checkCells(cells, "minHeight");
    return this;
  }

  /** Never taller than `cells`. */
  maxHeight(cells: number): this {
    (this.#style ??= {}).maxHeight = checkCells(cells, "maxHeight");
    return this;
  }

  /**
   * Takes a share of the parent's spare room along the parent's direction (1 by default): two
   * views with `.grow(1)` and `.grow(2)` take a third and two thirds of it.
   */
  grow(share = 1): this {
    (this.#style ??= {}).grow = checkCells(share, "grow");
    return this;
  }

  /**
   * Leaves empty cells inside the edge (inside the border): the same on every side
   * (`.padding(1)`), or per side (`.padding({ x: 2, top: 1 })`; `x` is left and right, `y`
   * top and bottom, a side named outright wins).
   *
   * @example Two cells either side, one above
   * ```ts
   * import assert from "node:assert/strict";
   * import { column, text } from "@crownui/runtime";
   * import { render } from "@crownui/runtime/testing";
   *
   * await using app = await render(column(text("hi")).padding({ x: 2, top: 1 }));
   * assert.deepEqual(app.screen().lines.slice(0, 2), ["", "  hi"]);
   * ```
   */
  padding(cells: Sides): this {
    const [top, right, bottom, left] = sides(cells, "padding");
    Object.assign(this.#style ??= {}, {
      padTop: top,
      padRight: right,
      padBottom: bottom,
      padLeft: left,
    });
    return this;
  }

  /**
   * Leaves empty cells outside the edge, between this view and its neighbours and its
   * parent's edge: `.margin(1)` or per side, as `.padding()` takes them.
   */
  margin(cells: Sides): this {
    const [top, right, bottom, left] = sides(cells, "margin");
    Object.assign(this.#style ??= {}, {
      marginTop: top,
      marginRight: right,
      marginBottom: bottom,
      marginLeft: left,
    });
    return this;
  }

  /** Leaves empty cells between children. */
  gap(cells: number): this {
    (this.#style ??= {}).gap = checkCells(cells, "gap");
    return this;
  }

  /**
   * Where the children go across this view's direction (a column's children left and right, a
   * row's up and down): `"start"` (the default), `"center"`, `"end"`, or `"stretch"`, as
   * wide (or tall) as the room.
   *
   * @example Centred in a 12-cell column
   * ```ts
   * import assert from "node:assert/strict";
   * import { column, text } from "@crownui/runtime";
   * import { render } from "@crownui/runtime/testing";
   *
   * await using app = await render(column(text("ok")).width(12).align("center"));
   * assert.equal(app.screen().lines[0], "     ok");
   * ```
   */
  align(where: Align): this {
    (this.#style ??= {}).align = checkChoice(where, ALIGNS, "align");
    return this;
  }

  /**
   * Where the children go along this view's direction when they leave room and none grows:
   * `"start"` (the default), `"center"`, `"end"`, or `"between"`, the room shared out
   * between them (first at the start, last at the end).
   *
   * @example Two texts at the ends of a 20-cell row
   * ```ts
   * import assert from "node:assert/strict";
   * import { row, text } from "@crownui/runtime";
   * import { render } from "@crownui/runtime/testing";
   *
   * await using app = await render(row(text("Name"), text("Size")).width(20).justify("between"));
   * assert.equal(app.screen().lines[0], "Name            Size");
   * ```
   */
  justify(where: Justify): this {
    (this.#style ??= {}).justify = checkChoice(where, JUSTIFIES, "justify");
    return this;
  }

  /**
   * Draws a border round the view, one cell on each side, inside its size: `"single"` (the
   * default), `"double"`, `"rounded"` or `"heavy"`, with a title in its top line and styles of
   * its own (`style` for the lines, `titleStyle` for the title). A row or column with a title
   * becomes a `group` node named by it, so agents see the panes people see; other views keep
   * their own node and name. Padding goes inside the border.
   *
   * @example A titled pane: drawn for people, a named group for agents
   * ```ts
   * import assert from "node:assert/strict";
   * import { column, text } from "@crownui/runtime";
   * import { render } from "@crownui/runtime/testing";
   *
   * await using app = await render(
   *   column(text("notes.txt"), text("todo.md")).border("rounded", { title: "Files" }),
   *   { width: 20, height: 4 },
   * );
   * assert.deepEqual(app.screen().lines.slice(0, 4), [
   *   "╭─ Files ─╮",
   *   "│notes.txt│",
   *   "│todo.md  │",
   *   "╰─────────╯",
   * ]);
   * assert.equal(app.get({ role: "group" }).name, "Files");
   * ```
   */
  border(kind: BorderKind = "single", options: BorderOptions = {}): this {
    checkBorderKind(kind);
    if (typeof options !== "object" || options === null) {
      throw new TypeError('border() takes a kind and options such as { title: "Files" }');
    }
    if (options.style !== undefined) checkStyle(options.style, "border()'s style");
    if (options.titleStyle !== undefined) checkStyle(options.titleStyle, "border()'s titleStyle");
    this.#border = { kind, options };
    return this;
  }

  /** True when `.border()` gave a title: a row or column then makes a `group` node. */
  protected get titled(): boolean {
    return this.#border?.options.title !== undefined;
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
   * Shows `own` as the widget's label and, unless `.label()` gave another, as its name: one
   * follower for both, so a binding runs once per change. Label widgets are the runtime's
   * own, so the package's docs leave this out.
   *
   * @ignore
   */
  protected followLabel(context: MountContext, widget: LabelWidget, own: Prop<string>): void {
    this.followContent(context, widget, own, (value) => {
      const text = String(value);
      widget.setLabel(text);
      return text;
    }, FAILED_TEXT);
  }

  /**
   * Follows `own` with `show`, which shows it and returns the text it shows; that text names
   * the node unless `.label()` gave another name. While the binding fails, `failedValue` is
   * shown instead (`⚠ error`), so a stale value never passes for a current one.
   *
   * @ignore
   */
  protected followContent<T>(
    context: MountContext,
    widget: Widget,
    own: Prop<T>,
    show: (value: T) => string,
    failedValue?: T,
  ): void {
    const node = widget.node;
    const override = this.#label;
    const showing = (value: T) => {
      const text = show(value);
      if (override === undefined && node !== null) context.host.tree.setName(node, text);
    };
    const failed = failedValue === undefined ? undefined : () => showing(failedValue);
    follow(context, own, showing, "a label binding", false, failed);
    if (override !== undefined) followName(context, widget, override);
  }

  /**
   * Gives the widget a style of its own, over its theme's looks: colours (by meaning, such as
   * `"error"`, or outright), bold, dim, italic, underline, strikethrough, inverse. Its children
   * inherit it. A binding follows its signals:
   * `.style(bind(() => failed.get() ? { fg: "error", bold: true } : {}))`. Styles are for
   * people; agents read states.
   */
  style(style: Prop<TextStyle>): this {
    if (!isReactive(style)) checkStyle(style);
    (this.#notes ??= {}).style = style;
    return this;
  }

  /** Follows `.border()`'s look onto the widget, and its title onto a group's name. */
  #followBorder(context: MountContext, element: Widget): void {
    const { kind, options } = this.#border!;
    const style = options.style === undefined ? null : checkStyle(options.style);
    const titleStyle = options.titleStyle === undefined ? null : checkStyle(options.titleStyle);
    const node = element.node;
    const names = node !== null && node.role === "group" && this.#label === undefined;
    if (options.title === undefined) {
      setBorderLook(element, Object.freeze({ kind, title: "", style, titleStyle }));
      return;
    }
    follow(context, options.title, (value) => {
      const title = String(value);
      setBorderLook(element, Object.freeze({ kind, title, style, titleStyle }));
      // ╭─ Title ─╮: the box is wide enough for its title, unless given a width.
      element.setStyle({ titleWidth: title === "" ? 0 : cellWidth(title) + 6 });
      if (names) context.host.tree.setName(node, title);
      context.host.markLayoutDirty(element); // painted anew
    }, "a border title binding");
  }

  /** Builds the widget; modifiers are applied after. */
  protected abstract build(context: MountContext): Widget;

  /** Mounts the widget and applies the shared modifiers. */
  mount(context: MountContext): Widget {
    return mountingView(() => this.#mount(context));
  }

  #mount(context: MountContext): Widget {
    const element = this.build(context);
    if (this.#border !== null) (this.#style ??= {}).border = true;
    if (this.#style !== null) element.setStyle(this.#style);
    const { node } = element;
    const tree = context.host.tree;
    if (this.#border !== null) this.#followBorder(context, element);
    if (this.#secure) {
      if (node !== null) tree.setState(node, "secure", true);
    }
    if (this.#disabled !== undefined) {
      follow(context, this.#disabled, (disabled) => {
        element.disabled = Boolean(disabled);
        showDisabled(element); // its own node and every node under it
      }, "a disabled binding");
    }
    const notes = this.#notes;
    if (notes?.style !== undefined) {
      follow(context, notes.style, (style) => {
        const look = Object.keys(style ?? {}).length === 0 ? null : checkStyle(style);
        element.look = look;
        context.host.markLayoutDirty(element); // painted anew
      }, "a style binding");
    }
    if (notes !== null && node !== null) followNotes(context, node, notes);
    const ref = notes?.ref;
    if (ref !== undefined) {
      ref.attach(element);
      context.owner.cleanups.push(() => ref.detach(element));
    }
    if (notes?.autofocus === true) context.host.focusFromCode(element, true);
    return element;
  }
}

/** What `.invalid()`, `.description()`, `.required()` and `.destructive()` give a widget. */
interface Notes {
  invalid?: Prop<string | null | false>;
  description?: Prop<string>;
  required?: Prop<boolean>;
  destructive?: Prop<boolean>;
  style?: Prop<TextStyle>;
  autofocus?: boolean;
  ref?: FocusRef;
}

/** Follows a widget's notes onto its node: `invalid` and its message, the description, `required`. */
function followNotes(context: MountContext, node: SemanticNode, notes: Notes): void {
  const tree = context.host.tree;
  let message: string | null = null;
  let description: string | undefined;
  const show = () => setNotes(tree, node, message, description); // after a failing binding's
  if (notes.description !== undefined) {
    follow(context, notes.description, (text) => {
      description = String(text);
      show();
    }, "a description binding");
  }
  if (notes.invalid !== undefined) {
    follow(context, notes.invalid, (value) => {
      message = typeof value === "string" && value !== "" ? value : null;
      show();
    }, "an invalid binding");
  }
  if (notes.required !== undefined) {
    follow(context, notes.required, (on) => tree.setState(node, "required", Boolean(on)));
  }
  if (notes.destructive !== undefined) {
    follow(context, notes.destructive, (on) => tree.setState(node, "destructive", Boolean(on)));
  }
}

/** A size: whole cells, or a percentage of the parent's room such as `"50%"`. */
export type Dimension = number | `${number}%`;

/**
 * Cells on each side: one number for all four, or some sides (`x` for left and right, `y`
 * for top and bottom; a side named outright wins); a side left out is 0.
 */
export type Sides = number | {
  top?: number;
  right?: number;
  bottom?: number;
  left?: number;
  x?: number;
  y?: number;
};

/** What `.border()` takes besides its kind. */
export interface BorderOptions {
  /** A title in the border's top line; a binding follows its signals. */
  title?: Prop<string>;
  /** Laid on the theme's border look, for the lines (and the title, without `titleStyle`). */
  style?: TextStyle;
  /** Laid on the theme's heading look, for the title. */
  titleStyle?: TextStyle;
}

const ALIGNS: readonly Align[] = ["start", "center", "end", "stretch"];
const JUSTIFIES: readonly Justify[] = ["start", "center", "end", "between"];

function checkChoice<T extends string>(value: T, choices: readonly T[], what: string): T {
  if (!choices.includes(value)) {
    throw new TypeError(
      `${what}() takes ${choices.map((choice) => `"${choice}"`).join(", ")}; got ${
        JSON.stringify(value)
      }`,
    );
  }
  return value;
}

function checkPercent(value: string, what: string): number {
  const match = /^(\d+(?:\.\d+)?)%$/.exec(value);
  const percent = match === null ? NaN : Number(match[1]);
  if (!(percent >= 0 && percent <= 100)) {
    throw new RangeError(
      `${what} takes whole cells or a percentage from "0%" to "100%", got ${JSON.stringify(value)}`,
    );
  }
  return percent;
}

/** Top, right, bottom, left, from what `.padding()` or `.margin()` was given. */
function sides(value: Sides, what: string): [number, number, number, number] {
  if (typeof value === "number") {
    const cells = checkCells(value, what);
    return [cells, cells, cells, cells];
  }
  if (typeof value !== "object" || value === null) {
    throw new TypeError(`${what}() takes a number of cells or sides such as { x: 2, top: 1 }`);
  }
  for (const key of Object.keys(value)) {
    if (!["top", "right", "bottom", "left", "x", "y"].includes(key)) {
      throw new TypeError(
        `${what}() has no side ${JSON.stringify(key)}; sides are top, right, bottom, left, x, y`,
      );
    }
  }
  const side = (own: number | undefined, shared: number | undefined, name: string) =>
    checkCells(own ?? shared ?? 0, `${what}'s ${name}`);
  return [
    side(value.top, value.y, "top"),
    side(value.right, value.x, "right"),
    side(value.bottom, value.y, "bottom"),
    side(value.left, value.x, "left"),
  ];
}

function checkCells(value: number, what: string): number {
  if (!Number.isInteger(value) || value < 0) {
    throw new RangeError(`${what} must be a whole number of cells, 0 or more, got ${value}`);
  }
  return value;
}

/** Follows a name property onto a widget's node. */
export function followName(
  context: MountContext,
  element: Widget,
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
