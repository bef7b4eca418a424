/**
 * Containers: `row` and `column` (layout only, invisible to agents), `scrollView`,
 * `dialog`, and `menu` with its `menuItem`s.
 *
 * @module
 */

import { disposeOwner, Owner, runWithOwner } from "../reactive/mod.ts";
import type { Element } from "./element.ts";
import type { Rt } from "./rt.ts";
import { type MountContext, type Prop, View } from "./view.ts";
import {
  createElement,
  followName,
  measureVisualLabel,
  mountChildren,
  WidgetView,
} from "./widget_view.ts";

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
    element.style.direction = this.#direction;
    element.style.gap = this.#direction === "row" ? 1 : 0;
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
    const element = createElement(context, "scroll_view", "scroll_view");
    element.style.grow = 1; // fill the room left, unless given a height
    followName(context, element, this.nameProp(undefined));
    mountChildren(context, element, [this.#child]);
    const scrollBy = (dx: number, dy: number): boolean => {
      const content = element.children[0];
      if (content === undefined) return false;
      const maxX = Math.max(0, content.box.width - element.box.width);
      const maxY = Math.max(0, content.box.height - element.box.height);
      const x = Math.min(maxX, Math.max(0, element.scroll.x + dx));
      const y = Math.min(maxY, Math.max(0, element.scroll.y + dy));
      if (x === element.scroll.x && y === element.scroll.y) return true;
      element.scroll = { x, y };
      element.placementDirty = true;
      context.host.markLayoutDirty(element);
      return true;
    };
    const page = () => Math.max(1, element.box.height - 1);
    element.behavior = {
      scroll: scrollBy,
      key: (keybind) => {
        if (keybind.ctrl || keybind.alt || keybind.meta) return false;
        const moves: Record<string, [number, number]> = {
          PageDown: [0, page()],
          PageUp: [0, -page()],
        };
        const move = moves[keybind.key];
        return move !== undefined && scrollBy(move[0], move[1]);
      },
    };
    return element;
  }
}

/** Shows `child` through a viewport that scrolls; fills the room its parent has left. */
export function scrollView(child: View): ScrollView {
  return new ScrollView(child);
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
    const element = createElement(context, "dialog", "dialog");
    Object.assign(element.style, { border: true, padding: 1, overlay: true });
    context.host.addOverlay(element);
    measureVisualLabel(element);
    this.followLabel(context, element, this.#title);
    const onClose = this.#onClose;
    element.behavior = {
      key: (keybind, rt) => {
        if (keybind.key !== "Escape" || onClose === undefined) return false;
        onClose(rt);
        return true;
      },
    };
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
    const element = createElement(context, "menu", "menu");
    const node = element.node!;
    const tree = context.host.tree;
    measureVisualLabel(element, 2); // " ▾"
    this.followLabel(context, element, this.#label);
    let itemsOwner: Owner | null = null;
    const setOpen = (open: boolean) => {
      if (open === (itemsOwner !== null)) return;
      if (open) {
        const owner = new Owner(context.host.runtime, context.owner);
        itemsOwner = owner;
        runWithOwner(
          owner,
          () => mountChildren({ host: context.host, owner }, element, this.#items),
        );
      } else {
        for (const child of [...element.children]) element.removeChild(child);
        disposeOwner(itemsOwner!);
        itemsOwner = null;
      }
      tree.setState(node, "expanded", open);
      tree.setState(node, "collapsed", !open);
    };
    element.state.close = () => setOpen(false);
    tree.setState(node, "collapsed", true);
    element.behavior = {
      focusable: true,
      activate: () => setOpen(itemsOwner === null),
      // Keys reach the menu from its focused item too (they bubble up to it): arrows move
      // between the items, opening the menu first; Escape closes it.
      key: (keybind) => {
        if (keybind.ctrl || keybind.alt || keybind.meta || keybind.shift) return false;
        if (keybind.key === "Escape") {
          if (itemsOwner === null) return false;
          setOpen(false);
          context.host.focus(element);
          return true;
        }
        const step = keybind.key === "ArrowDown" ? 1 : keybind.key === "ArrowUp" ? -1 : 0;
        if (step === 0) return false;
        setOpen(true);
        const items = element.children.filter((item) => !item.disabled);
        if (items.length === 0) return true;
        const at = items.indexOf(context.host.focused as Element);
        const next = at === -1
          ? (step === 1 ? 0 : items.length - 1)
          : (at + step + items.length) % items.length;
        context.host.focus(items[next]!);
        return true;
      },
    };
    return element;
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
    const element = createElement(context, "menu_item", "menu_item");
    measureVisualLabel(element, 2);
    this.followLabel(context, element, this.#label);
    element.behavior = {
      focusable: true,
      activate: (rt) => {
        // Close the menu first, as a real one does, then act on the choice.
        let menuElement: Element | null = element.parent;
        while (menuElement !== null && menuElement.kind !== "menu") {
          menuElement = menuElement.parent;
        }
        (menuElement?.state.close as (() => void) | undefined)?.();
        this.#onSelect(rt);
      },
    };
    return element;
  }
}

/** A menu item that calls `onSelect` when chosen. */
export function menuItem(label: Prop<string>, onSelect: (rt: Rt) => void): MenuItemView {
  if (typeof onSelect !== "function") {
    throw new TypeError("menuItem() takes a label and a handler (rt) => void");
  }
  return new MenuItemView(label, onSelect);
}
