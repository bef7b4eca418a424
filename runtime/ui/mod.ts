/**
 * Components, bindings, views and tools: what an app builds its UI from.
 *
 * @module
 */

export { Component, component, Cx } from "./component.ts";
export { bind, Binding, type MountContext, type Prop, View } from "./view.ts";
export { Rt, type RtHost } from "./rt.ts";
export { AppTool, type JsonSchema, type ToolHandler, ToolRegistry } from "./tools.ts";
export { WidgetView } from "./widget_view.ts";
export {
  button,
  ButtonView,
  checkbox,
  CheckboxView,
  CustomView,
  type Handler,
  heading,
  slider,
  type SliderOptions,
  SliderView,
  text,
  textField,
  type TextFieldOptions,
  TextFieldView,
  TextView,
  widget,
  type WidgetOptions,
} from "./widgets.ts";
export {
  column,
  dialog,
  DialogView,
  menu,
  menuItem,
  MenuItemView,
  MenuView,
  row,
  ScrollView,
  scrollView,
  StackView,
} from "./containers.ts";
export { list, type ListItems, ListView } from "./list.ts";
export { show, ShowView } from "./show.ts";
export type { Behavior, Element, Host, LayoutStyle, Size } from "./element.ts";
