/**
 * The view classes behind the view functions, for code that names them: `button()` returns a
 * `ButtonView`, `widget()` a `CustomView`, and every built-in widget extends `WidgetView`,
 * which carries the modifiers they share (`.secure()`, `.disabled()`, `.label()`, `.width()`,
 * `.height()`, `.grow()`). Also the mounted side, `Widget` (one object per mounted view: its place in the
 * tree, its node, and how it measures, paints and acts) and what it is mounted with, for
 * renderers and tools that walk an app's widgets.
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
  DialogView,
  type ItemHandlers,
  ItemsView,
  ListView,
  MenuItemView,
  MenuView,
  ProgressBarView,
  RadioGroupView,
  ScrollView,
  SelectView,
  SliderView,
  SpinnerView,
  StackView,
  SwitchView,
  TableView,
  TabsView,
  TextAreaView,
  TextFieldView,
  TextView,
  TreeViewView,
} from "./ui/widgets/mod.ts";
export { ShowView } from "./ui/show.ts";
export type { MountContext } from "./ui/view.ts";
export type { Host } from "./ui/host.ts";
export { type LayoutStyle, type Size, Widget } from "./ui/widget.ts";
