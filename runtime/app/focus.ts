/**
 * The app's focus, hover and open dialogs: which element has the keyboard, which one the
 * pointer is over, which dialogs are open (the top one keeps focus inside it), and where
 * focus goes when an element leaves or a dialog opens or closes. The app's `focus()`,
 * `moveFocus()`, `hover()` and the like come here.
 *
 * @module
 */

import { closest } from "../input/action.ts";
import type { SemanticTree } from "../semantics/mod.ts";
import type { Widget } from "../ui/widget.ts";
import { canFocus, firstFocusable, focusableAncestor, nextFocus } from "../ui/focus.ts";

/** True when `element` is `ancestor` or inside it. */
export function isWithin(element: Widget | null, ancestor: Widget): boolean {
  return element !== null && closest(element, (candidate) => candidate === ancestor) !== null;
}

/** Focus, hover and the open dialogs of one app. */
export class FocusState {
  readonly #tree: SemanticTree;
  readonly #root: Widget;
  readonly #changed: () => void;
  #focused: Widget | null = null;
  #hovered: Widget | null = null;
  /** Open dialogs and popups, in the order they opened (later ones are drawn above). */
  readonly #overlays = new Set<Widget>();
  /** The open popups (a menu's, a select's), with what closes each. */
  readonly #popups = new Map<Widget, () => void>();
  readonly #focusBeforeOverlay = new Map<Widget, Widget | null>();
  /** The dialog that opened since the last frame: focus moves into it once it has content. */
  #focusInto: Widget | null = null;
  /** The widget `.autofocus()` asked focus for since the last frame. */
  #autofocus: Widget | null = null;
  /** The widget focus moved to since the last frame: the frame scrolls it into view. */
  #reveal: Widget | null = null;

  /**
   * Creates the focus state of the app whose window element is `root`.
   *
   * @param tree the app's semantic tree, whose `focused` and `hovered` states follow
   * @param root the window element, the scope of Tab order when no dialog is open
   * @param changed asks for a frame after a change
   */
  constructor(tree: SemanticTree, root: Widget, changed: () => void) {
    this.#tree = tree;
    this.#root = root;
    this.#changed = changed;
  }

  /** The element with focus. */
  get focused(): Widget | null {
    return this.#focused;
  }

  /**
   * The open dialogs and popups, oldest first, as a live set (layout reads it every frame).
   */
  get overlaySet(): ReadonlySet<Widget> {
    return this.#overlays;
  }

  /**
   * Moves focus to `element`, or clears it with null; `focusChanged` runs on both sides. A
   * popup whose opener does not hold the newly focused element closes.
   */
  focus(element: Widget | null): void {
    if (element === this.#focused) return;
    const previous = this.#focused;
    this.#focused = element;
    if (previous !== null && previous.mounted) {
      if (previous.node !== null) this.#tree.setState(previous.node, "focused", false);
      previous.focusChanged?.(false);
    }
    if (element !== null) {
      if (element.node !== null) this.#tree.setState(element.node, "focused", true);
      element.focusChanged?.(true);
    }
    this.#reveal = element;
    this.#changed();
    this.dismissPopupsOutside(element);
  }

  /**
   * Closes the open popups whose opener does not hold `element` (focus or a click went
   * elsewhere); with null, every popup.
   */
  dismissPopupsOutside(element: Widget | null): void {
    for (const [popup, close] of [...this.#popups]) {
      const opener = popup.parent;
      if (!this.#popups.has(popup)) continue; // closed with an earlier one
      if (opener !== null && element !== null && isWithin(element, opener)) continue;
      close();
    }
  }

  /** Marks `element` as under the pointer, or none with null. */
  hover(element: Widget | null): void {
    if (element === this.#hovered) return;
    const previous = this.#hovered;
    this.#hovered = element;
    if (previous?.node && previous.mounted) this.#tree.setState(previous.node, "hovered", false);
    if (element?.node) this.#tree.setState(element.node, "hovered", true);
    this.#changed();
  }

  /** Moves focus to the next (1) or previous (-1) focusable element, within the top dialog. */
  moveFocus(direction: 1 | -1): void {
    // An open dialog keeps focus inside it, as a modal one does.
    const scope = this.topDialog() ?? this.#root;
    const next = nextFocus(scope, this.#focused, direction);
    if (next !== null) this.focus(next);
  }

  /** A dialog opened: focus moves into it at the next frame, and back when it closes. */
  addOverlay(element: Widget): void {
    this.#overlays.add(element);
    this.#focusBeforeOverlay.set(element, this.#focused);
    this.#focusInto = element;
  }

  /**
   * A popup opened below its opener (its parent): it is drawn above the content and closes
   * with `close` when focus goes elsewhere. It leaves with its widget.
   */
  addPopup(popup: Widget, close: () => void): void {
    this.#overlays.add(popup);
    this.#popups.set(popup, close);
  }

  /**
   * `element` and its subtree left the app: focus and hover inside it go, a dialog inside it
   * closes and gives focus back to where it was when it opened, or else focus goes to the
   * nearest ancestor that can take it, so the keyboard is never left nowhere.
   */
  elementRemoved(element: Widget): void {
    const lostFocus = isWithin(this.#focused, element);
    if (lostFocus) this.#focused = null; // its node is going away with it
    if (isWithin(this.#hovered, element)) this.#hovered = null;
    let restore: Widget | null = null;
    for (const overlay of this.#overlays) {
      if (!isWithin(overlay, element)) continue;
      this.#overlays.delete(overlay);
      if (this.#popups.delete(overlay)) continue;
      const before = this.#focusBeforeOverlay.get(overlay) ?? null;
      this.#focusBeforeOverlay.delete(overlay);
      if (this.#focusInto === overlay) this.#focusInto = null;
      if (lostFocus && before !== null && before.mounted && !isWithin(before, element)) {
        restore = before;
      }
    }
    if (!lostFocus) return;
    // A menu, when the item chosen goes away with it.
    restore ??= focusableAncestor(element);
    if (restore !== null) this.focus(restore);
  }

  /**
   * Focus asked for by code: `element` takes it now (a ref), or at the next frame after a
   * dialog opening meanwhile moved focus in (`deferred`, `.autofocus()`). Returns false, and
   * changes nothing, when it cannot take focus now or is behind the top dialog.
   */
  focusFromCode(element: Widget, deferred: boolean): boolean {
    if (deferred) {
      this.#autofocus = element;
      this.#changed();
      return true;
    }
    if (!this.#mayFocus(element)) return false;
    this.focus(element);
    return true;
  }

  #mayFocus(element: Widget): boolean {
    if (!element.mounted || !canFocus(element)) return false;
    const dialog = this.topDialog();
    return dialog === null || isWithin(element, dialog);
  }

  /** Gives focus to the widget `.autofocus()` asked it for, if it may take it. */
  applyAutofocus(): void {
    const element = this.#autofocus;
    this.#autofocus = null;
    // Mounted in the frame's structure: a dialog opening with it is open by now.
    if (element !== null && this.#mayFocus(element)) this.focus(element);
  }

  /** Moves focus into the dialog that opened since the last frame, now that it has content. */
  focusOpenedOverlay(): void {
    const overlay = this.#focusInto;
    this.#focusInto = null;
    if (overlay === null || !overlay.mounted) return;
    const first = firstFocusable(overlay);
    if (first !== null) this.focus(first);
  }

  /**
   * The widget focus moved to since the last call, if it is still mounted: the frame brings it
   * into view, on the key that moved focus, not one frame later.
   */
  takeReveal(): Widget | null {
    const reveal = this.#reveal;
    this.#reveal = null;
    return reveal !== null && reveal.mounted && reveal === this.#focused ? reveal : null;
  }

  /** The topmost open dialog, or null when none is open. */
  topDialog(): Widget | null {
    let top: Widget | null = null;
    for (const overlay of this.#overlays) {
      if (overlay.mounted && !this.#popups.has(overlay)) top = overlay;
    }
    return top;
  }

  /** True when `overlay` is an open popup rather than a dialog. */
  isPopup(overlay: Widget): boolean {
    return this.#popups.has(overlay);
  }
}
