/**
 * Focus from code: `focusRef()` names a view (`textField(...).ref(ref)`), so a handler can move
 * the focus to it (`ref.focus()`): after an error, to the field that needs fixing; after Add,
 * to the new row's first field.
 *
 * @module
 */

import type { Widget } from "./widget.ts";

/** A handle on a mounted view, for moving focus to it from code. Made by `focusRef()`. */
export class FocusRef {
  #widget: Widget | null = null;

  /**
   * Points the ref at `widget` (the view given `.ref(ref)` mounted). The views do this;
   * widgets are the runtime's own.
   *
   * @ignore
   */
  attach(widget: Widget): void {
    this.#widget = widget;
  }

  /**
   * Points the ref at nothing if it points at `widget` (which unmounted).
   *
   * @ignore
   */
  detach(widget: Widget): void {
    if (this.#widget === widget) this.#widget = null;
  }

  /** True while the view it names is mounted. */
  get mounted(): boolean {
    return this.#widget !== null && this.#widget.mounted;
  }

  /** True while the view it names has focus. */
  get focused(): boolean {
    const widget = this.#widget;
    return widget !== null && widget.mounted && widget.host.focused === widget;
  }

  /**
   * Moves focus to the view it names, as a click would, and returns true; returns false, and
   * leaves focus where it is, when the view is not mounted, cannot take focus (disabled, or a
   * plain text), or is behind an open dialog.
   *
   * @example A button that sends the person to the field to fix
   * ```ts
   * import assert from "node:assert/strict";
   * import { button, column, component, focusRef, textField } from "@crownui/runtime";
   * import { render } from "@crownui/runtime/testing";
   *
   * await using app = await render(component((cx) => {
   *   const email = cx.signal("");
   *   const field = focusRef();
   *   return column(
   *     textField({ label: "Email", value: email }).ref(field),
   *     button("Check", () => {
   *       if (!email.get().includes("@")) field.focus();
   *     }),
   *   );
   * }));
   * await app.act(app.get({ role: "button", name: "Check" }).id, { action: "click" });
   * assert.ok(app.get({ role: "text_field" }).states.includes("focused"));
   * ```
   */
  focus(): boolean {
    const widget = this.#widget;
    if (widget === null || !widget.mounted) return false;
    return widget.host.focusFromCode(widget, false);
  }
}

/**
 * Makes a ref to give a view with `.ref(ref)`; `ref.focus()` then moves focus to it.
 *
 * @example Focus moves to the field a handler names
 * ```ts
 * import assert from "node:assert/strict";
 * import { button, column, component, focusRef, textField } from "@crownui/runtime";
 * import { render } from "@crownui/runtime/testing";
 *
 * await using app = await render(component((cx) => {
 *   const title = focusRef();
 *   return column(
 *     button("New note", () => title.focus()),
 *     textField({ label: "Title", value: cx.signal("") }).ref(title),
 *   );
 * }));
 * await app.act(app.get({ role: "button" }).id, { action: "click" });
 * assert.equal(app.app.focused?.node?.role, "text_field");
 * ```
 */
export function focusRef(): FocusRef {
  return new FocusRef();
}
