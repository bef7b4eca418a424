/**
 * A disclosure: a widget (the opener: a menu, a select) that opens a popup of transient
 * children below itself, above the content, and closes it again. The menu and the select are
 * both made with it, as Textual's Select is an option list in an overlay, so opening,
 * closing, the arrow keys, Escape and where focus goes are written once:
 *
 * - opening mounts the popup's content in a scope of its own; closing unmounts it (its
 *   cleanups run, its nodes go) and shows `collapsed` on the opener's node again;
 * - ArrowDown and ArrowUp open it and move between its items (wrapping), Home and End go to
 *   the first and last; Escape closes it and gives focus back to the opener;
 * - focus moving outside the opener and its popup (Tab, a click elsewhere) closes it.
 *
 * @module
 */

import { disposeOwner, Owner, runWithOwner } from "../reactive/mod.ts";
import type { Keybind } from "../text/keybind.ts";
import { canFocus, walkFocusable } from "./focus.ts";
import type { PaintArea } from "./surface.ts";
import type { MountContext } from "./view.ts";
import { Widget } from "./widget.ts";
import { mountWidget } from "./widget_view.ts";

/** The box a disclosure's items show in: framed, painted over what is under it. */
export class PopupWidget extends Widget {
  override get kind(): "popup" {
    return "popup";
  }

  override paint(area: PaintArea): void {
    // The frame is the shared border's (`runtime/ui/border.ts`), drawn after this.
    area.surface.fill(area.bounds, "dialog", area.clip);
  }
}

/** What a disclosure shows and tells. */
export interface DisclosureOptions {
  /** Mounts the popup's content into `popup`, in a scope that lives while it is open. */
  content(context: MountContext, popup: Widget): void;
  /** Called after it opened (true) or closed (false). */
  changed?(open: boolean): void;
  /**
   * The index of the item that stands for the opener's value (a select's chosen option), or
   * -1 for none: the arrows go to it first, from the opener, instead of to the first or last
   * item. A menu has none.
   */
  current?(): number;
  /**
   * How many cells right of the opener's left edge the popup starts (a select's box, after
   * its label); 0 without it.
   */
  indent?(): number;
}

/** Opens and closes a popup of items below an opener widget. */
export class Disclosure {
  readonly #opener: Widget;
  readonly #context: MountContext;
  readonly #options: DisclosureOptions;
  /** The popup and the scope of its content while open; null while closed. */
  #open: { popup: PopupWidget; owner: Owner } | null = null;

  /**
   * A disclosure for `opener`, mounted in `context`, whose node (if any) shows `collapsed`
   * from now on and `expanded` while open.
   */
  constructor(opener: Widget, context: MountContext, options: DisclosureOptions) {
    this.#opener = opener;
    this.#context = context;
    this.#options = options;
    if (opener.node !== null) context.host.tree.setState(opener.node, "collapsed", true);
  }

  /** True while the popup shows. */
  get open(): boolean {
    return this.#open !== null;
  }

  /** The popup while open, else null. */
  get popup(): Widget | null {
    return this.#open?.popup ?? null;
  }

  /** Opens the popup (mounting its content) or closes it (unmounting it). */
  setOpen(open: boolean): void {
    if (open === this.open) return;
    const opener = this.#opener;
    const host = opener.host;
    if (open) {
      const owner = new Owner(host.runtime, this.#context.owner);
      const context = { host, owner };
      const popup = mountWidget(context, new PopupWidget(), null);
      const anchorX = this.#options.indent?.() ?? 0;
      popup.setStyle({ border: true, overlay: true, anchored: true, anchorX });
      this.#open = { popup, owner };
      runWithOwner(owner, () => this.#options.content(context, popup));
      opener.append(popup);
      host.addPopup(popup, () => this.setOpen(false));
    } else {
      const { popup, owner } = this.#open!;
      this.#open = null;
      if (popup.mounted) opener.removeChild(popup);
      disposeOwner(owner);
    }
    if (opener.node !== null && opener.mounted) {
      host.tree.setState(opener.node, "expanded", open);
      host.tree.setState(opener.node, "collapsed", !open);
    }
    this.#options.changed?.(open);
  }

  /** The popup's items that can take focus now, in order; none while closed. */
  items(): Widget[] {
    const popup = this.popup;
    if (popup === null) return [];
    const items: Widget[] = [];
    walkFocusable(popup, (item) => void items.push(item));
    return items.filter(canFocus);
  }

  /** Opens the popup if needed and focuses its item at `index` (clamped); false when none. */
  focusItem(index: number): boolean {
    this.setOpen(true);
    const items = this.items();
    const item = items[Math.max(0, Math.min(index, items.length - 1))];
    if (item === undefined) return false;
    this.#opener.host.focus(item);
    return true;
  }

  /** Closes the popup and gives focus back to the opener. */
  close(): void {
    if (!this.open) return;
    this.#opener.host.focus(this.#opener);
    this.setOpen(false);
  }

  /**
   * The keys of a disclosure, from the opener or from an item inside it (keys bubble up to
   * the opener): ArrowDown/ArrowUp open and move (from the opener, to the current item if
   * there is one), Home/End go to the ends while open, Escape closes. Returns true when the
   * key was one of these.
   */
  key(keybind: Keybind): boolean {
    if (keybind.ctrl || keybind.alt || keybind.meta || keybind.shift) return false;
    switch (keybind.key) {
      case "Escape":
        if (!this.open) return false;
        this.close();
        return true;
      case "ArrowDown":
      case "ArrowUp": {
        const step = keybind.key === "ArrowDown" ? 1 : -1;
        this.setOpen(true);
        const items = this.items();
        if (items.length === 0) return true;
        const focused = this.#opener.host.focused;
        const at = focused === null ? -1 : items.indexOf(focused);
        const current = this.#options.current?.() ?? -1;
        const next = at !== -1
          ? (at + step + items.length) % items.length
          : current >= 0 && current < items.length
          ? current
          : (step === 1 ? 0 : items.length - 1);
        this.#opener.host.focus(items[next]!);
        return true;
      }
      case "Home":
      case "End":
        if (!this.open) return false;
        return this.focusItem(keybind.key === "Home" ? 0 : Number.MAX_SAFE_INTEGER);
      default:
        return false;
    }
  }
}
