/**
 * `list(items, render, key?)`: a list (role `list`) whose rows are `list_item`s. Rows are
 * keyed: when the items change, rows whose key remains keep their element, node ids and
 * state; new keys mount rows, gone keys unmount theirs (their tools and cleanups go too).
 * A row is named by its first text unless `rowLabel()` names it.
 *
 * @module
 */

import { disposeOwner, Owner, runWithOwner, untracked } from "../reactive/mod.ts";
import type { Element } from "./element.ts";
import type { Rt } from "./rt.ts";
import { follow, isReactive, type MountContext, type Prop, View } from "./view.ts";
import type { Memo, Signal } from "../reactive/mod.ts";

/** What a list's items can be: an array, a binding, or a signal or memo of an array. */
export type ListItems<T> = Prop<readonly T[]> | Signal<T[]> | Memo<T[]>;
import { createElement, followName, WidgetView } from "./widget_view.ts";

interface Row<T> {
  key: unknown;
  item: T;
  owner: Owner;
  element: Element;
}

/** A list of rows rendered from items. */
export class ListView<T> extends WidgetView {
  readonly #items: ListItems<T>;
  readonly #render: (item: T, index: number) => View;
  readonly #key: (item: T, index: number) => unknown;
  #onSelect: ((item: T, rt: Rt) => void) | undefined;
  #onActivate: ((item: T, rt: Rt) => void) | undefined;
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

  /** Calls `fn` when a row is selected (a click, or arrow keys). */
  onSelect(fn: (item: T, rt: Rt) => void): this {
    this.#onSelect = fn;
    return this;
  }

  /** Calls `fn` when a row is activated (a double click, or Enter). */
  onActivate(fn: (item: T, rt: Rt) => void): this {
    this.#onActivate = fn;
    return this;
  }

  /**
   * Names each row: `label` gets the row's item and returns its name, a string or a binding
   * that follows signals. Without it a row is named by its first text, as screen readers
   * name it from its content. A string is worked out again when a kept row (same key) gets a
   * new item value; a binding is made once, when the row mounts, and followed from then on.
   *
   * @example
   * ```ts ignore
   * list(notes, (note) => row(checkbox("Done", note.done), button("Open", open)), (note) => note.id)
   *   .rowLabel((note) => note.title);
   * ```
   */
  rowLabel(label: (item: T) => Prop<string>): this {
    if (typeof label !== "function") {
      throw new TypeError("rowLabel() takes a function (item) => name");
    }
    this.#rowLabel = label;
    return this;
  }

  /** Makes the element and keeps its rows in step with the items. */
  protected build(context: MountContext): Element {
    const { host } = context;
    const element = createElement(context, "list", "list");
    followName(context, element, this.nameProp(undefined));
    let rows = new Map<unknown, Row<T>>();
    let selected: Row<T> | null = null;

    const select = (row: Row<T>, rt: Rt) => {
      if (selected === row) return;
      if (selected !== null && selected.element.mounted) {
        host.tree.setState(selected.element.node!, "selected", false);
      }
      selected = row;
      host.tree.setState(row.element.node!, "selected", true);
      this.#onSelect?.(row.item, rt);
    };
    const neighbour = (row: Row<T>, offset: number): Row<T> | undefined => {
      const index = element.children.indexOf(row.element) + offset;
      const target = element.children[index];
      return target === undefined ? undefined : target.state.row as Row<T>;
    };

    const mountRow = (key: unknown, item: T, index: number): Row<T> => {
      const owner = new Owner(host.runtime, context.owner);
      const rowElement = createElement({ host, owner }, "list_item", "list_item");
      const row: Row<T> = { key, item, owner, element: rowElement };
      rowElement.state.row = row;
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
      rowElement.behavior = {
        focusable: true,
        activate: (rt) => select(row, rt),
        doubleClick: (rt) => this.#onActivate?.(row.item, rt),
        key: (keybind, rt) => {
          if (keybind.ctrl || keybind.alt || keybind.meta) return false;
          if (keybind.key === "Enter" && this.#onActivate !== undefined) {
            this.#onActivate(row.item, rt);
            return true;
          }
          const offset = keybind.key === "ArrowDown" ? 1 : keybind.key === "ArrowUp" ? -1 : 0;
          const next = offset === 0 ? undefined : neighbour(row, offset);
          if (next === undefined) return false;
          select(next, rt);
          host.focus(next.element);
          return true;
        },
      };
      return row;
    };

    // A kept row whose item is a new value takes the name of the new item; a label that is a
    // binding follows its signals on its own.
    const relabel = (row: Row<T>, item: T) => {
      if (this.#rowLabel === undefined) return;
      const label = this.#rowLabel(item);
      if (!isReactive(label)) host.tree.setName(row.element.node!, String(label));
    };

    follow(context, this.#items as Prop<readonly T[]>, (items) => {
      if (!Array.isArray(items)) {
        throw new TypeError(`list() items must be an array, got ${typeof items}`);
      }
      untracked(() => {
        const next = new Map<unknown, Row<T>>();
        const order: Element[] = [];
        const seen = new Map<unknown, number>();
        items.forEach((item: T, index: number) => {
          let key = this.#key(item, index);
          const count = seen.get(key) ?? 0;
          seen.set(key, count + 1);
          if (count > 0) key = `${String(key)}\u0000${count}`; // repeated keys stay distinct
          const row = rows.get(key) ?? mountRow(key, item, index);
          if (row.item !== item) relabel(row, item);
          row.item = item;
          next.set(key, row);
          order.push(row.element);
        });
        for (const [key, row] of rows) {
          if (next.has(key)) continue;
          element.removeChild(row.element);
          disposeOwner(row.owner);
          if (selected === row) selected = null;
        }
        rows = next;
        element.setChildren(order);
      });
    }, "list()");
    return element;
  }
}

/**
 * A list with one row per item. `key` tells rows apart across changes (the item itself by
 * default); a row whose key stays keeps its element and node ids.
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
