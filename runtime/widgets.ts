/**
 * The view classes behind the view functions, for code that names them: `button()` returns a
 * `ButtonView`, `widget()` a `CustomView`, and every built-in widget extends `WidgetView`,
 * which carries the modifiers they share (`.secure()`, `.disabled()`, `.label()`, `.width()`,
 * `.height()`, `.grow()`). Also the mounted side, `Element` and what it is mounted with, for
 * renderers and tools that walk an app's elements.
 *
 * An app builds its UI from the functions in the main entry and rarely needs this one: the
 * types are inferred. Import from here to write a helper that takes or returns a widget.
 *
 * @example A helper that works on any widget and keeps its type
 * ```ts
 * import assert from "node:assert/strict";
 * import { button, text } from "@crownui/runtime";
 * import { ButtonView, TextView, type WidgetView } from "@crownui/runtime/widgets";
 *
 * function narrow<W extends WidgetView>(view: W, cells: number): W {
 *   return view.width(cells);
 * }
 *
 * const save: ButtonView = narrow(button("Save", () => {}), 8);
 * assert.ok(save instanceof ButtonView);
 * assert.ok(narrow(text("Notes"), 12) instanceof TextView);
 * ```
 *
 * @module
 */

export { WidgetView } from "./ui/widget_view.ts";
export {
  ButtonView,
  CheckboxView,
  CustomView,
  SliderView,
  TextFieldView,
  TextView,
} from "./ui/widgets.ts";
export { DialogView, MenuItemView, MenuView, ScrollView, StackView } from "./ui/containers.ts";
export { ListView } from "./ui/list.ts";
export { ShowView } from "./ui/show.ts";
export type { MountContext } from "./ui/view.ts";
export type { Behavior, Element, Host, LayoutStyle, Size } from "./ui/element.ts";
