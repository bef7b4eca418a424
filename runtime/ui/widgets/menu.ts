/**
 * `menu()` and `menuItem()`: a label, `Menu ▾`, that opens a popup of items below it (a
 * disclosure, shared with the select). Items exist only while it is open; choosing one closes
 * the menu first, then runs its handler.
 *
 * @module
 */

import type { Keybind } from "../../text/keybind.ts";
import { Disclosure } from "../disclosure.ts";
import type { Rt } from "../rt.ts";
import { settleHandler } from "../handler.ts";
import { fitFrom, interactiveStyle, type PaintArea } from "../surface.ts";
import type { MountContext, Prop } from "../view.ts";
import { LabelWidget, type Widget } from "../widget.ts";
import { mountChildren, mountWidget, WidgetView } from "../widget_view.ts";

/** A menu: `label ▾`, with its items in a popup below it while open. */
export class MenuWidget extends LabelWidget {
  /** Opens and closes the items' popup. */
  disclosure!: Disclosure;

  override get kind(): "menu" {
    return "menu";
  }

  /** True while the items show. */
  get open(): boolean {
    return this.disclosure.open;
  }

  override get focusable(): boolean {
    return true;
  }

  override face(): string {
    return `${this.label} ${this.open ? "▴" : "▾"}`;
  }

  override paint(area: PaintArea): void {
    area.surface.write(area.x, area.y, this.face(), interactiveStyle(area, "button"), area.clip);
  }

  /** Opens the menu (mounting its items) or closes it (unmounting them). */
  setOpen(open: boolean): void {
    this.disclosure.setOpen(open);
  }

  override activate(): void {
    this.setOpen(!this.open);
  }

  // Keys reach the menu from its focused item too (they bubble up to it).
  override key(keybind: Keybind): boolean {
    return this.disclosure.key(keybind);
  }
}

/** A menu: a label that opens a list of items. Items exist only while it is open. */
export class MenuView extends WidgetView {
  readonly #label: Prop<string>;
  readonly #items: readonly MenuItemView[];

  /** Apps call `menu()` instead. */
  constructor(label: Prop<string>, items: readonly MenuItemView[]) {
    super();
    this.#label = label;
    this.#items = items;
  }

  /** Makes the widget. */
  protected build(context: MountContext): Widget {
    const widget = mountWidget(context, new MenuWidget(), "menu");
    this.followLabel(context, widget, this.#label);
    widget.disclosure = new Disclosure(widget, context, {
      content: (inner, popup) => mountChildren(inner, popup, this.#items),
      changed: () => context.host.markLayoutDirty(widget), // ▾ becomes ▴
    });
    return widget;
  }
}

/** A menu labelled `label` with the given items. */
export function menu(label: Prop<string>, ...items: MenuItemView[]): MenuView {
  for (const item of items) {
    if (!(item instanceof MenuItemView)) {
      throw new TypeError("menu() items must be menuItem() views");
    }
  }
  return new MenuView(label, items);
}

/** One item of a menu: ` label `. */
export class MenuItemWidget extends LabelWidget {
  readonly #onSelect: (rt: Rt) => void;

  /** An item that calls `onSelect` when chosen. */
  constructor(onSelect: (rt: Rt) => void) {
    super();
    this.#onSelect = onSelect;
  }

  override get kind(): "menu_item" {
    return "menu_item";
  }

  override get focusable(): boolean {
    return true;
  }

  override face(): string {
    return ` ${this.label} `;
  }

  override paint(area: PaintArea): void {
    const face = fitFrom(area, area.x, this.face());
    area.surface.write(area.x, area.y, face, interactiveStyle(area, "text"), area.clip);
  }

  override activate(rt: Rt): void {
    // Close the menu first, as a real one does, then act on the choice.
    for (let current = this.parent; current !== null; current = current.parent) {
      if (current instanceof MenuWidget) {
        current.setOpen(false);
        break;
      }
    }
    settleHandler(this, "the menu item's handler", this.#onSelect(rt));
  }
}

/** One item of a menu. */
export class MenuItemView extends WidgetView {
  readonly #label: Prop<string>;
  readonly #onSelect: (rt: Rt) => void;

  /** Apps call `menuItem()` instead. */
  constructor(label: Prop<string>, onSelect: (rt: Rt) => void) {
    super();
    this.#label = label;
    this.#onSelect = onSelect;
  }

  /** Makes the widget. */
  protected build(context: MountContext): Widget {
    const widget = mountWidget(context, new MenuItemWidget(this.#onSelect), "menu_item");
    this.followLabel(context, widget, this.#label);
    return widget;
  }
}

/** A menu item that calls `onSelect` when chosen. */
export function menuItem(label: Prop<string>, onSelect: (rt: Rt) => void): MenuItemView {
  if (typeof onSelect !== "function") {
    throw new TypeError("menuItem() takes a label and a handler (rt) => void");
  }
  return new MenuItemView(label, onSelect);
}
