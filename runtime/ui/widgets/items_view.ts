/**
 * What a list, a table and a tree view share on the app's side: the handlers they call when a
 * row (or item) is selected or activated, and the selection signal an app may pass in.
 *
 * @module
 */

import type { Signal } from "../../reactive/mod.ts";
import type { Rt } from "../rt.ts";
import { WidgetView } from "../widget_view.ts";

/** The handlers and the selection a view of rows hands to its widget. */
export interface ItemHandlers<T> {
  /** Called with the item each time another one is selected. */
  onSelect: ((item: T, rt: Rt) => void) | undefined;
  /** Called with the item a person or an agent activates (Enter, a double click). */
  onActivate: ((item: T, rt: Rt) => void) | undefined;
  /** The app's selection: the selected item's key, or null for none. */
  selection: Signal<unknown> | undefined;
}

/**
 * A view of many items (a list's rows, a table's rows, a tree's items) that an app follows
 * and may select from code.
 *
 * @example The app sets the selection, and a click changes it
 * ```ts
 * import assert from "node:assert/strict";
 * import { component, list, text, type Signal } from "@crownui/runtime";
 * import { render } from "@crownui/runtime/testing";
 *
 * let chosen: Signal<unknown> | undefined;
 * await using app = await render(component((cx) => {
 *   chosen = cx.signal<unknown>("b");
 *   return list(["a", "b", "c"], (item) => text(item)).selection(chosen);
 * }));
 * assert.deepEqual(app.query({ role: "list_item", state: "selected" }).map((m) => m.name), ["b"]);
 * await app.act(app.get({ role: "list_item", name: "c" }).id, { action: "click" });
 * assert.equal(chosen!.get(), "c");
 * ```
 */
export abstract class ItemsView<T> extends WidgetView {
  readonly #handlers: ItemHandlers<T> = {
    onSelect: undefined,
    onActivate: undefined,
    selection: undefined,
  };

  /** Calls `fn` with the item each time another one is selected (a click, a key, `select`). */
  onSelect(fn: (item: T, rt: Rt) => void): this {
    this.#handlers.onSelect = fn;
    return this;
  }

  /**
   * Calls `fn` with the item a person or an agent activates (Enter, a double click). A tree
   * view without it expands and collapses its items on those.
   */
  onActivate(fn: (item: T, rt: Rt) => void): this {
    this.#handlers.onActivate = fn;
    return this;
  }

  /**
   * Makes the selection the app's: `selection` holds the selected item's key (as the view's
   * `key` gives it; the item itself without one), or null for none. A click, the keys,
   * type-ahead or an agent's `select` set it; setting it selects that item (in a tree, if it
   * shows) and scrolls it into view, or selects none when no item has that key now.
   */
  selection(selection: Signal<unknown>): this {
    this.#handlers.selection = selection;
    return this;
  }

  /** The handlers and selection as they are when the widget is made. */
  protected get itemHandlers(): ItemHandlers<T> {
    return { ...this.#handlers };
  }
}
