/**
 * `list(items, render, key?)`: a list (role `list`) whose rows are `list_item`s. Rows are
 * keyed: when the items change, rows whose key remains keep their element, node ids and
 * state; new keys mount rows, gone keys unmount theirs (their tools and cleanups go too).
 * A kept row whose item is a new value renders again, on the node ids it had where its
 * shape allows. A row is named by its first text unless `rowLabel()` names it.
 *
 * @module
 */

import { settleHandler } from "../handler.ts";
import { insetY } from "../../layout/node.ts";
import { disposeOwner, Owner, runWithOwner, untracked } from "../../reactive/mod.ts";
import type { Memo, Signal } from "../../reactive/mod.ts";
import { type Role, type SemanticNode, type SemanticTree, STATES } from "../../semantics/mod.ts";
import type { Keybind } from "../../text/keybind.ts";
import { canFocus } from "../focus.ts";
import type { Rt } from "../rt.ts";
import type { PaintArea } from "../surface.ts";
import { TypeAhead } from "../type_ahead.ts";
import { follow, type MountContext, type Prop, View } from "../view.ts";
import { detach, Widget } from "../widget.ts";
import { followName, mountWidget, withNodeSource } from "../widget_view.ts";
import { ItemsView } from "./items_view.ts";

/**
 * One row of a list: selected by a click, moved from by the arrows, PageUp/PageDown,
 * Home/End and type-ahead, shaded when selected. The widget is the list's record of the row
 * too (its key, item and the scope of its render), so a row makes no object for it.
 */
class ListRowWidget<T> extends Widget {
  /** The list it belongs to. */
  readonly list: ListWidget<T>;
  /** The row's key among its list's rows. */
  rowKey: unknown;
  /** The item the row shows: the one it was last rendered from. */
  item: T;
  /** Owns what the last render made (its followers, cleanups, tools, the label); set once rendered. */
  rendered!: Owner;

  constructor(list: ListWidget<T>, key: unknown, item: T) {
    super();
    this.list = list;
    this.rowKey = key;
    this.item = item;
  }

  override get kind(): string {
    return "list_item";
  }

  override get focusable(): boolean {
    return true;
  }

  override activate(rt: Rt): void {
    this.list.select(this, rt);
  }

  override doubleClick(rt: Rt): void {
    this.list.activateItem(this, rt);
  }

  // Keys from the row's own controls reach it too (they bubble up), so the arrows move from a
  // row's checkbox to the next row.
  override key(keybind: Keybind, rt: Rt): boolean {
    if (keybind.ctrl || keybind.alt || keybind.meta) return false;
    const list = this.list;
    switch (keybind.key) {
      case "Enter":
        return list.activateItem(this, rt);
      case "ArrowDown":
        return list.moveBy(this, 1, rt);
      case "ArrowUp":
        return list.moveBy(this, -1, rt);
      case "PageDown":
        return list.moveBy(this, list.pageRows(), rt);
      case "PageUp":
        return list.moveBy(this, -list.pageRows(), rt);
      case "Home":
        return list.moveBy(this, -Infinity, rt);
      case "End":
        return list.moveBy(this, Infinity, rt);
      default:
        return !keybind.shift || keybind.key.length === 1
          ? list.typeAhead(this, keybind.key, rt)
          : false;
    }
  }

  override paint(area: PaintArea): void {
    if (area.focused) area.surface.fill(area.bounds, "focusedRow", area.clip);
    else if (this.node?.has("selected")) {
      area.surface.fill(area.bounds, "selectedRow", area.clip);
    }
  }
}

/** What a list widget needs of its view: the handlers the app gave. */
interface ListHandlers<T> {
  onSelect: ((item: T, rt: Rt) => void) | undefined;
  onActivate: ((item: T, rt: Rt) => void) | undefined;
  /** The app's selection, holding the selected row's key, when it passed one. */
  selection: Signal<unknown> | undefined;
}

/**
 * A list: its rows, the selected one, and the keys that move between them. It is one Tab
 * stop: Tab enters it at the row that has focus inside it, else at the selected row, else at
 * the first, and leaves it after that row's own controls.
 */
class ListWidget<T> extends Widget {
  /** The rows by key, in the order of the items. */
  rows = new Map<unknown, ListRowWidget<T>>();
  /** The selected row, if it is mounted. */
  selected: ListRowWidget<T> | null = null;
  readonly #handlers: ListHandlers<T>;
  readonly #typeAhead = new TypeAhead();

  constructor(handlers: ListHandlers<T>) {
    super();
    this.#handlers = handlers;
  }

  override get kind(): string {
    return "list";
  }

  override tabEntry(): Widget | null {
    const focused = this.host.focused;
    if (focused !== null) {
      for (let current: Widget | null = focused; current !== null; current = current.parent) {
        if (current.parent === this) return current;
      }
    }
    if (this.selected !== null && this.selected.mounted) return this.selected;
    return this.children[0] ?? null;
  }

  /** Selects `row` (a click, a key, the app's selection): it shows `selected`. */
  select(row: ListRowWidget<T>, rt: Rt | null): void {
    if (this.selected === row) return;
    this.#show(row);
    const selection = this.#handlers.selection;
    if (selection !== undefined && !Object.is(selection.get(), row.rowKey)) {
      selection.set(row.rowKey);
    }
    if (rt !== null) {
      settleHandler(this, "the onSelect handler", this.#handlers.onSelect?.(row.item, rt));
    }
  }

  /** Shows `row` (or none) as the selected one, without telling the app. */
  #show(row: ListRowWidget<T> | null): void {
    const tree = this.host.tree;
    if (this.selected !== null && this.selected.mounted) {
      tree.setState(this.selected.node!, "selected", false);
    }
    this.selected = row;
    if (row !== null) tree.setState(row.node!, "selected", true);
  }

  /** Follows the app's selection: the row of that key is selected, or none. */
  showSelection(key: unknown): void {
    const row = this.rows.get(key) ?? null;
    if (row !== this.selected) this.#show(row);
  }

  /** Runs the list's onActivate for `row`; false when it has none. */
  activateItem(row: ListRowWidget<T>, rt: Rt): boolean {
    const onActivate = this.#handlers.onActivate;
    if (onActivate === undefined) return false;
    settleHandler(this, "the onActivate handler", onActivate(row.item, rt));
    return true;
  }

  /**
   * Selects and focuses the row `offset` rows from `row` (kept to the first and last;
   * ±Infinity for Home and End); false when that is `row` itself and it has focus already.
   */
  moveBy(row: ListRowWidget<T>, offset: number, rt: Rt): boolean {
    const children = this.children;
    const at = children.indexOf(row);
    if (at < 0 || children.length === 0) return false;
    const index = Math.max(0, Math.min(children.length - 1, at + offset));
    const next = children[index] as ListRowWidget<T>;
    // At the end already: the key is left to the parent (a scroll view may still scroll).
    if (next === row && this.host.focused === row) return false;
    this.select(next, rt);
    this.host.focus(next);
    return true;
  }

  /** How many rows PageUp and PageDown move: the rows the scroll view around the list shows. */
  pageRows(): number {
    let view: Widget | null = this.parent;
    while (view !== null && !view.layout.style.scrolls) view = view.parent;
    // The rows in view: its box less its border and padding.
    const box = (view ?? this).layout;
    const height = box.height - insetY(box.style);
    const rowHeight = Math.max(1, this.children[0]?.layout.height ?? 1);
    return Math.max(1, Math.floor(height / rowHeight) - 1);
  }

  /**
   * Type-ahead: a typed character, added to those typed within the last second, moves to
   * the next row whose name starts with them (ignoring case), as in a file manager. False
   * when the key is not a character, or no row matches.
   */
  typeAhead(row: ListRowWidget<T>, key: string, rt: Rt): boolean {
    const children = this.children;
    const index = this.#typeAhead.find(
      key,
      children.indexOf(row),
      children.length,
      (at) => children[at]!.node?.name,
    );
    if (index < 0) return false;
    const next = children[index] as ListRowWidget<T>;
    this.select(next, rt);
    this.host.focus(next);
    return true;
  }

  override choose(option: string, rt: Rt): boolean {
    for (const row of this.rows.values()) {
      if (row.node?.name !== option) continue;
      this.select(row, rt);
      this.host.focus(row);
      return true;
    }
    return false;
  }

  override optionNames(): readonly string[] {
    const names: string[] = [];
    for (const row of this.rows.values()) {
      if (row.node?.name !== undefined) names.push(row.node.name);
    }
    return names;
  }
}

/** What a list's items can be: an array, a binding, or a signal or memo of an array. */
export type ListItems<T> = Prop<readonly T[]> | Signal<T[]> | Memo<T[]>;

/** A list's record of one row: its widget. */
type Row<T> = ListRowWidget<T>;

/** A list of rows rendered from items. */
export class ListView<T> extends ItemsView<T> {
  readonly #items: ListItems<T>;
  readonly #render: (item: T, index: number) => View;
  readonly #key: (item: T, index: number) => unknown;
  #rowLabel: ((item: T) => Prop<string>) | undefined;

  /** Apps call `list()` instead. */
  constructor(
    items: ListItems<T>,
    render: (item: T, index: number) => View,
    key: (item: T, index: number) => unknown,
  ) {
    super();
    this.#items = items;
    this.#render = render;
    this.#key = key;
  }

  /**
   * Names each row: `label` gets the row's item and returns its name, a string or a binding
   * that follows signals. Without it a row is named by its first text, as screen readers
   * name it from its content. `label` runs each time the row renders, so the name follows
   * the current item (a new item under the same key renders the row again); a binding it
   * returns follows its signals in between.
   *
   * @example Rows named by their note's title, not by their first text
   * ```ts
   * import assert from "node:assert/strict";
   * import { button, checkbox, component, list, row } from "@crownui/runtime";
   * import { render } from "@crownui/runtime/testing";
   *
   * type Note = { id: number; title: string; done: boolean };
   * await using app = await render(component((cx) => {
   *   const notes = cx.signal<Note[]>([{ id: 1, title: "Milk", done: false }]);
   *   return list(
   *     notes,
   *     (note) => row(checkbox("Done", note.done), button("Open", () => {})),
   *     (note) => note.id,
   *   ).rowLabel((note) => note.title);
   * }));
   * assert.equal(app.get({ role: "list_item" }).name, "Milk");
   * ```
   */
  rowLabel(label: (item: T) => Prop<string>): this {
    if (typeof label !== "function") {
      throw new TypeError("rowLabel() takes a function (item) => name");
    }
    this.#rowLabel = label;
    return this;
  }

  /** Makes the widget and keeps its rows in step with the items. */
  protected build(context: MountContext): Widget {
    const handlers = this.itemHandlers;
    const { host } = context;
    const element = mountWidget(
      context,
      new ListWidget<T>(handlers),
      "list",
    );
    followName(context, element, this.nameProp(undefined));

    // Renders `item` into the row element, in a scope of its own that is returned.
    const renderInto = (rowElement: Widget, item: T, index: number): Owner => {
      const owner = new Owner(host.runtime, context.owner);
      try {
        runWithOwner(owner, () => {
          if (this.#rowLabel !== undefined) {
            followName({ host, owner }, rowElement, this.#rowLabel(item));
          }
          const view = this.#render(item, index);
          if (!(view instanceof View)) {
            throw new TypeError("list() needs a render function that returns a view");
          }
          rowElement.append(view.mount({ host, owner }));
        });
      } catch (error) {
        disposeOwner(owner);
        throw error;
      }
      return owner;
    };

    const mountRow = (key: unknown, item: T, index: number): Row<T> => {
      const row = mountWidget(context, new ListRowWidget(element, key, item), "list_item");
      row.rendered = renderInto(row, item, index);
      return row;
    };

    // A kept row whose item is a new value renders again. The row's element and node stay
    // (selection, focus on the row); its old nodes are offered to the new render by role, in
    // the order they were made, so a row whose shape did not change keeps every node id.
    const renderAgain = (row: Row<T>, item: T, index: number) => {
      const old = [...row.children];
      const focused = host.focused;
      const focusInside = focused !== null && old.some((element) => contains(element, focused));
      const typed = focusInside ? focused.textEdit?.value : undefined;
      const typedSecure = focused?.secure; // before its node goes to the new render
      const pool = nodesOf(old);
      const reused = new Set<SemanticNode>();
      let next = 0;
      const take = (role: Role): SemanticNode | undefined => {
        for (let index = next; index < pool.length; index++) {
          const node = pool[index]!;
          if (node.role !== role) continue;
          next = index + 1;
          reused.add(node);
          clearNode(host.tree, node);
          return node;
        }
        return undefined;
      };
      disposeOwner(row.rendered); // its tools and cleanups go before the new render makes its own
      for (const element of old) host.elementRemoved(element); // focus falls back to the row
      row.setChildren([]);
      try {
        row.rendered = withNodeSource(take, () => renderInto(row, item, index));
      } finally {
        for (const element of old) retire(element);
        for (const node of pool) if (!reused.has(node)) host.tree.remove(node);
      }
      if (!focusInside) return;
      // Focus goes back to the element that took the focused node, if the new render has one.
      const heir = findElement(row, (element) => element.node === focused.node);
      if (heir === undefined) return;
      if (canFocus(heir)) host.focus(heir);
      // What the user typed into a focused field stays (even when the new render disables the
      // field), written through the field as typing; never from a secure field into one that
      // is not (that would show a password).
      const edit = heir.textEdit;
      if (
        typed !== undefined && edit !== null && edit.value !== typed &&
        heir.secure === typedSecure
      ) {
        edit.selectAll();
        heir.insertText?.(typed, host.rt);
      }
    };

    follow(context, this.#items as Prop<readonly T[]>, (items) => {
      if (!Array.isArray(items)) {
        throw new TypeError(`list() items must be an array, got ${typeof items}`);
      }
      untracked(() => {
        const next = new Map<unknown, Row<T>>();
        const order: Widget[] = [];
        // How many times each repeated key came so far; made at the first repeat (keys rarely repeat).
        let repeats: Map<unknown, number> | null = null;
        items.forEach((item: T, index: number) => {
          let key = this.#key(item, index);
          if (next.has(key)) {
            // Repeated keys stay distinct: the second of "a" is "a\u00001", the third "a\u00002".
            repeats ??= new Map();
            const count = repeats.get(key) ?? 1;
            repeats.set(key, count + 1);
            key = `${String(key)}\u0000${count}`;
          }
          let row = element.rows.get(key);
          if (row === undefined) row = mountRow(key, item, index);
          else if (!Object.is(row.item, item)) {
            row.item = item;
            renderAgain(row, item, index);
          }
          next.set(key, row);
          order.push(row);
        });
        // The rows that stay are the list's children and its node's children first, so that
        // removing the others costs each its own subtree, not a search of the whole list: one
        // child removed at a time would make filtering n rows down cost n × n.
        const gone: Row<T>[] = [];
        element.rows.forEach((row, key) => {
          if (!next.has(key)) gone.push(row);
        });
        element.rows = next;
        element.setChildren(order);
        if (gone.length > 0) {
          host.tree.setChildren(element.node!, nodesOfRows(order));
          for (const row of gone) {
            detach(row);
            disposeOwner(row.rendered);
            if (element.selected === row) element.selected = null;
          }
        }
        if (handlers.selection !== undefined) element.showSelection(handlers.selection.get());
      });
    }, "list()");
    const selection = handlers.selection;
    if (selection !== undefined) {
      follow(
        context,
        selection,
        (key) => untracked(() => element.showSelection(key)),
        "a list's selection",
      );
    }
    return element;
  }
}

/**
 * A list with one row per item: `render(item, index)` makes a row's view, and `key` tells
 * rows apart across changes (the item itself by default). A row always shows its current
 * item:
 *
 * - A row whose key stays and whose item is the same value (`Object.is`: `===`, with `NaN`
 *   equal to itself) is left alone, even when it moves: `render` does not run, and its
 *   element, node ids and state (signals its components made, focus, selection) stay.
 * - A row whose key stays but whose item is a new value (`{ id: 1, title: "new" }` in place
 *   of `{ id: 1, title: "old" }`, as an immutable update makes) renders again: the old
 *   render's cleanups run and its tools go, then `render` runs with the new item. The row's
 *   `list_item` keeps its id, selection and focus. The new render takes the old nodes' ids
 *   by role, in the order its nodes are made, so a row of the same shape keeps every id; a
 *   node the new shape adds gets a new id and one it drops is gone. Signals the row's
 *   components made start again (keep such state in the item, as a signal field, or outside
 *   the list). Focus inside the row goes to the node that took the focused node's id, or to
 *   the row when there is none or it is now disabled; a focused text field keeps what was
 *   typed, written through the field as typing (so into its signal, if it has one), unless
 *   it was secure and its heir is not. A field without focus that holds its own text starts
 *   from the new render.
 * - A new key mounts a row, a gone key unmounts its row. Without a key function the item is
 *   its own key, so a replaced item is a new row in its place.
 *
 * Mutating an item object in place inside a list's array does not re-render its row: a row
 * follows its item's identity, so replace the item with a new object, as in
 * `notes.update((l) => { l[0] = { ...l[0]!, done: true }; })`.
 *
 * People move through a list with the arrows, PageUp and PageDown (a view's worth of rows),
 * Home and End, and type-ahead (typed letters go to the next row whose name starts with
 * them); the row moved to is selected and scrolled into view in the same frame. A list is one
 * Tab stop: Tab enters at the row that has focus, else the selected one, else the first, then
 * visits that row's own controls and leaves the list. The arrows work from a row's controls
 * too. `.selection(signal)` makes the selection the app's; agents pick a row by its name with
 * `{"action": "select", "option": "<name>"}` on the list.
 *
 * `index` is the item's position when the row rendered. A row costs its element and scope
 * only: nothing per row follows the item. Replacing n items renders n rows again; to change
 * one field often without rendering the row again, make that field a signal.
 *
 * @example A new item under the same key shows at once, on the same node ids
 * ```ts
 * import assert from "node:assert/strict";
 * import { button, component, list, row, type Signal, text } from "@crownui/runtime";
 * import { render } from "@crownui/runtime/testing";
 *
 * type Note = { id: number; title: string };
 * let notes: Signal<Note[]> | undefined;
 * await using app = await render(component((cx) => {
 *   notes = cx.signal<Note[]>([{ id: 1, title: "old" }]);
 *   return list(notes, (note) => row(text(note.title), button("Open", () => {})), (note) => note.id);
 * }));
 * const open = app.get({ role: "button", name: "Open" }).id;
 * notes!.set([{ id: 1, title: "new" }]);
 * await app.settle();
 * assert.equal(app.get({ role: "list_item" }).name, "new");
 * assert.equal(app.get({ role: "button", name: "Open" }).id, open);
 * ```
 */
export function list<T>(
  items: ListItems<T>,
  render: (item: T, index: number) => View,
  key: (item: T, index: number) => unknown = (item) => item,
): ListView<T> {
  if (typeof render !== "function") {
    throw new TypeError(
      "list() takes items, a render function (item, index) => view and an optional key",
    );
  }
  return new ListView(items, render, key);
}

/** The nodes of list rows, in order (every row has one). */
function nodesOfRows(rows: readonly Widget[]): SemanticNode[] {
  return rows.map((row) => row.node!);
}

/** True when `element` is `ancestor` or inside it. */
function contains(ancestor: Widget, element: Widget): boolean {
  for (let current: Widget | null = element; current !== null; current = current.parent) {
    if (current === ancestor) return true;
  }
  return false;
}

/** The first element under `root` (depth first) that `test` accepts. */
function findElement(root: Widget, test: (element: Widget) => boolean): Widget | undefined {
  const stack = [...root.children].reverse();
  while (stack.length > 0) {
    const element = stack.pop()!;
    if (test(element)) return element;
    for (let index = element.children.length - 1; index >= 0; index--) {
      stack.push(element.children[index]!);
    }
  }
  return undefined;
}

/** The nodes of the elements' subtrees, parents before children: the order they were made. */
function nodesOf(elements: readonly Widget[]): SemanticNode[] {
  const nodes: SemanticNode[] = [];
  const stack = [...elements].reverse();
  while (stack.length > 0) {
    const element = stack.pop()!;
    if (element.node !== null) nodes.push(element.node);
    for (let index = element.children.length - 1; index >= 0; index--) {
      stack.push(element.children[index]!);
    }
  }
  return nodes;
}

/** Empties a node for a new element: detached, no children, no name, value or state. */
function clearNode(tree: SemanticTree, node: SemanticNode): void {
  const parent = node.parent;
  if (parent !== null) tree.setChildren(parent, parent.children.filter((child) => child !== node));
  tree.setChildren(node, []);
  for (const state of STATES) tree.setState(node, state, false);
  tree.setName(node, undefined);
  tree.setValue(node, undefined);
}

/** Marks an element subtree as gone from the app, leaving its nodes to the caller. */
function retire(element: Widget): void {
  element.parent = null;
  const stack = [element];
  while (stack.length > 0) {
    const current = stack.pop()!;
    current.mounted = false;
    stack.push(...current.children);
  }
}
