/**
 * Containers: `row` and `column` (layout only, invisible to agents), `scrollView`,
 * `dialog`, and `menu` with its `menuItem`s.
 *
 * @module
 */

import { LAYOUT_DEFAULTS, type LayoutStyle, scrollContent } from "../layout/node.ts";
import { disposeOwner, Owner, runWithOwner } from "../reactive/mod.ts";
import type { Keybind } from "../text/keybind.ts";
import type { Element } from "./element.ts";
import type { Rt } from "./rt.ts";
import { interactiveStyle, type PaintArea } from "./surface.ts";
import { type MountContext, type Prop, View } from "./view.ts";
import { LabelWidget, Widget } from "./widget.ts";
import { createElement, followName, mountChildren, WidgetView } from "./widget_view.ts";

/** The style of every row: one object for all of them, as a style is replaced, never changed. */
const ROW_STYLE: Readonly<LayoutStyle> = Object.freeze({
  ...LAYOUT_DEFAULTS,
  direction: "row",
  gap: 1,
});

/** A row or column of views; it has no role, so agents see only its children. */
export class StackView extends WidgetView {
  readonly #direction: "row" | "column";
  readonly #children: readonly View[];

  /** Apps call `row()` or `column()` instead. */
  constructor(direction: "row" | "column", children: readonly View[]) {
    super();
    this.#direction = direction;
    this.#children = children;
  }

  /** Makes the element. */
  protected build(context: MountContext): Element {
    const element = createElement(context, this.#direction, null);
    if (this.#direction === "row") element.layout.style = ROW_STYLE;
    mountChildren(context, element, this.#children);
    return element;
  }
}

/** Lays views out left to right, one cell apart. */
export function row(...children: View[]): StackView {
  return new StackView("row", children);
}

/** Lays views out top to bottom. */
export function column(...children: View[]): StackView {
  return new StackView("column", children);
}

/** A viewport that scrolls its one child, with a scroll bar when the child is taller. */
export class ScrollWidget extends Widget {
  readonly kind = "scroll_view";
  /** The element that holds it. */
  element!: Element;

  override attach(element: Element): void {
    this.element = element;
  }

  override scroll(dx: number, dy: number): boolean {
    const element = this.element;
    const before = element.layout.scroll;
    if (!scrollContent(element, dx, dy)) return false;
    if (element.layout.scroll !== before) element.host.markLayoutDirty(element);
    return true;
  }

  override key(keybind: Keybind): boolean {
    if (keybind.ctrl || keybind.alt || keybind.meta) return false;
    const page = Math.max(1, this.element.layout.height - 1);
    if (keybind.key === "PageDown") return this.scroll(0, page);
    if (keybind.key === "PageUp") return this.scroll(0, -page);
    return false;
  }

  /**
   * A scroll bar in the last column, when the content is taller than the view and narrower,
   * so that the bar covers nothing.
   */
  override paintOver(element: Element, area: PaintArea): void {
    const content = element.children[0];
    if (content === undefined) return;
    const { bounds, clip, surface } = area;
    const { height, width } = bounds;
    const total = content.layout.height;
    if (total <= height || content.layout.width >= width || height < 1) return;
    const column = bounds.x + width - 1;
    const thumbSize = Math.max(1, Math.round((height * height) / total));
    const thumbStart = Math.round(
      (element.layout.scroll.y / (total - height)) * (height - thumbSize),
    );
    for (let row = 0; row < height; row++) {
      const onThumb = row >= thumbStart && row < thumbStart + thumbSize;
      const style = onThumb ? "thumb" : "track";
      surface.write(column, bounds.y + row, onThumb ? "┃" : "│", style, clip);
    }
  }
}

/** A viewport onto a taller (or wider) child, scrolled by the wheel, keys or agents. */
export class ScrollView extends WidgetView {
  readonly #child: View;

  /** Apps call `scrollView()` instead. */
  constructor(child: View) {
    super();
    this.#child = child;
  }

  /** Makes the element. */
  protected build(context: MountContext): Element {
    const element = createElement(context, new ScrollWidget(), "scroll_view");
    element.setStyle({ grow: 1 }); // fill the room left, unless given a height
    followName(context, element, this.nameProp(undefined));
    mountChildren(context, element, [this.#child]);
    return element;
  }
}

/** Shows `child` through a viewport that scrolls; fills the room its parent has left. */
export function scrollView(child: View): ScrollView {
  return new ScrollView(child);
}

/** A dialog: a framed box with its title in its first row. */
export class DialogWidget extends LabelWidget {
  readonly kind = "dialog";
  readonly #onClose: ((rt: Rt) => void) | undefined;

  /** A dialog that calls `onClose` on Escape. */
  constructor(onClose: ((rt: Rt) => void) | undefined) {
    super();
    this.#onClose = onClose;
  }

  override key(keybind: Keybind, rt: Rt): boolean {
    if (keybind.key !== "Escape" || this.#onClose === undefined) return false;
    this.#onClose(rt);
    return true;
  }

  override paint(_element: Element, area: PaintArea): void {
    const { surface, bounds, clip } = area;
    const { x, y, width, height } = bounds;
    surface.fill(bounds, "dialog", clip);
    if (width >= 2 && height >= 2) {
      const horizontal = "─".repeat(width - 2);
      surface.write(x, y, `┌${horizontal}┐`, "border", clip);
      for (let row = y + 1; row < y + height - 1; row++) {
        surface.write(x, row, "│", "border", clip);
        surface.write(x + width - 1, row, "│", "border", clip);
      }
      surface.write(x, y + height - 1, `└${horizontal}┘`, "border", clip);
    }
    // The title sits in the header row the layout keeps for it, inside the padding.
    surface.write(area.x, area.y, this.label, "dialogTitle", clip);
  }
}

/** A dialog: a framed box above the window's content. */
export class DialogView extends WidgetView {
  readonly #title: Prop<string>;
  readonly #children: readonly View[];
  #onClose: ((rt: Rt) => void) | undefined;

  /** Apps call `dialog()` instead. */
  constructor(title: Prop<string>, children: readonly View[]) {
    super();
    this.#title = title;
    this.#children = children;
  }

  /** Calls `fn` when the user presses Escape inside the dialog. */
  onClose(fn: (rt: Rt) => void): this {
    this.#onClose = fn;
    return this;
  }

  /** Makes the element. */
  protected build(context: MountContext): Element {
    const widget = new DialogWidget(this.#onClose);
    const element = createElement(context, widget, "dialog");
    element.setStyle({ border: true, padding: 1, overlay: true });
    context.host.addOverlay(element);
    this.followLabel(context, element, widget, this.#title);
    mountChildren(context, element, this.#children);
    return element;
  }
}

/** A dialog titled `title` (show it with `show()`; give it `.onClose()` for Escape). */
export function dialog(title: Prop<string>, ...children: View[]): DialogView {
  return new DialogView(title, children);
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

  /** Makes the element. */
  protected build(context: MountContext): Element {
    const widget = new MenuWidget(context, this.#items);
    const element = createElement(context, widget, "menu");
    this.followLabel(context, element, widget, this.#label);
    context.host.tree.setState(element.node!, "collapsed", true);
    return element;
  }
}

/** A menu: `label ▾`, with its items below it while open. */
export class MenuWidget extends LabelWidget {
  readonly kind = "menu";
  readonly #context: MountContext;
  readonly #items: readonly MenuItemView[];
  /** The scope of the items while the menu is open; null while closed. */
  #itemsOwner: Owner | null = null;

  /** A menu that mounts `items` in `context` when it opens. */
  constructor(context: MountContext, items: readonly MenuItemView[]) {
    super();
    this.#context = context;
    this.#items = items;
  }

  /** True while the items show. */
  get open(): boolean {
    return this.#itemsOwner !== null;
  }

  override get focusable(): boolean {
    return true;
  }

  override face(): string {
    return `${this.label} ${this.open ? "▴" : "▾"}`;
  }

  override paint(_element: Element, area: PaintArea): void {
    area.surface.write(area.x, area.y, this.face(), interactiveStyle(area, "button"), area.clip);
  }

  /** Opens the menu (mounting its items) or closes it (unmounting them). */
  setOpen(open: boolean): void {
    if (open === this.open) return;
    const element = this.element;
    const host = element.host;
    if (open) {
      const owner = new Owner(host.runtime, this.#context.owner);
      this.#itemsOwner = owner;
      runWithOwner(owner, () => mountChildren({ host, owner }, element, this.#items));
    } else {
      for (const child of [...element.children]) element.removeChild(child);
      disposeOwner(this.#itemsOwner!);
      this.#itemsOwner = null;
    }
    host.tree.setState(element.node!, "expanded", open);
    host.tree.setState(element.node!, "collapsed", !open);
  }

  override activate(): void {
    this.setOpen(!this.open);
  }

  // Keys reach the menu from its focused item too (they bubble up to it): arrows move
  // between the items, opening the menu first; Escape closes it.
  override key(keybind: Keybind): boolean {
    if (keybind.ctrl || keybind.alt || keybind.meta || keybind.shift) return false;
    const element = this.element;
    const host = element.host;
    if (keybind.key === "Escape") {
      if (!this.open) return false;
      this.setOpen(false);
      host.focus(element);
      return true;
    }
    const step = keybind.key === "ArrowDown" ? 1 : keybind.key === "ArrowUp" ? -1 : 0;
    if (step === 0) return false;
    this.setOpen(true);
    const items = element.children.filter((item) => !item.disabled);
    if (items.length === 0) return true;
    const at = host.focused === null ? -1 : items.indexOf(host.focused);
    const next = at === -1
      ? (step === 1 ? 0 : items.length - 1)
      : (at + step + items.length) % items.length;
    host.focus(items[next]!);
    return true;
  }

  override inspect(): Record<string, unknown> {
    return { visual: this.label, open: this.open };
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

  /** Makes the element. */
  protected build(context: MountContext): Element {
    const widget = new MenuItemWidget(this.#onSelect);
    const element = createElement(context, widget, "menu_item");
    this.followLabel(context, element, widget, this.#label);
    return element;
  }
}

/** One item of a menu: ` label `. */
export class MenuItemWidget extends LabelWidget {
  readonly kind = "menu_item";
  readonly #onSelect: (rt: Rt) => void;

  /** An item that calls `onSelect` when chosen. */
  constructor(onSelect: (rt: Rt) => void) {
    super();
    this.#onSelect = onSelect;
  }

  override get focusable(): boolean {
    return true;
  }

  override face(): string {
    return ` ${this.label} `;
  }

  override paint(_element: Element, area: PaintArea): void {
    area.surface.write(area.x, area.y, this.face(), interactiveStyle(area, "text"), area.clip);
  }

  override activate(rt: Rt): void {
    // Close the menu first, as a real one does, then act on the choice.
    for (let current = this.element.parent; current !== null; current = current.parent) {
      if (current.widget instanceof MenuWidget) {
        current.widget.setOpen(false);
        break;
      }
    }
    this.#onSelect(rt);
  }
}

/** A menu item that calls `onSelect` when chosen. */
export function menuItem(label: Prop<string>, onSelect: (rt: Rt) => void): MenuItemView {
  if (typeof onSelect !== "function") {
    throw new TypeError("menuItem() takes a label and a handler (rt) => void");
  }
  return new MenuItemView(label, onSelect);
}
