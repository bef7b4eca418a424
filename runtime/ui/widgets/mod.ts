/**
 * The built-in widgets, one file each: the view function an app calls, the view class it
 * returns, and the widget it mounts.
 *
 * @module
 */

export { button, ButtonView, ButtonWidget, type Handler } from "./button.ts";
export { checkbox, CheckboxView, CheckboxWidget } from "./checkbox.ts";
export type { Choice, ChoiceList, ChoiceOptions, LabelledChoice } from "./choices.ts";
export { CustomView, CustomWidget, widget, type WidgetOptions } from "./custom.ts";
export { type ItemHandlers, ItemsView } from "./items_view.ts";
export { dialog, DialogView, DialogWidget } from "./dialog.ts";
export { list, type ListItems, ListView } from "./list.ts";
export { menu, menuItem, MenuItemView, MenuItemWidget, MenuView, MenuWidget } from "./menu.ts";
export {
  radioGroup,
  type RadioGroupOptions,
  RadioGroupView,
  RadioGroupWidget,
} from "./radio_group.ts";
export { ScrollView, scrollView, ScrollWidget } from "./scroll_view.ts";
export {
  columnWidths,
  table,
  type TableColumn,
  type TableOptions,
  TableView,
  TableWidget,
} from "./table.ts";
export {
  type TreeChildren,
  treeView,
  type TreeViewOptions,
  TreeViewView,
  TreeViewWidget,
} from "./tree_view.ts";
export { select, type SelectOptions, SelectView, SelectWidget } from "./select.ts";
export { slider, type SliderOptions, SliderView, SliderWidget } from "./slider.ts";
export { column, row, StackView } from "./stack.ts";
export { type SwitchOptions, SwitchView, SwitchWidget, toggleSwitch } from "./switch.ts";
export { heading, text, TextView, TextWidget } from "./text.ts";
export {
  DEFAULT_AREA_COLUMNS,
  DEFAULT_AREA_ROWS,
  textArea,
  type TextAreaOptions,
  TextAreaView,
  TextAreaWidget,
} from "./text_area.ts";
export {
  DEFAULT_FIELD_COLUMNS,
  textField,
  type TextFieldOptions,
  TextFieldView,
  TextFieldWidget,
} from "./text_field.ts";
export {
  tab,
  TabListWidget,
  TabPanelWidget,
  tabs,
  type TabsOptions,
  type TabSpec,
  TabsView,
  TabWidget,
} from "./tabs.ts";
export {
  progressBar,
  type ProgressBarOptions,
  ProgressBarView,
  ProgressBarWidget,
} from "./progress_bar.ts";
export {
  spinner,
  SPINNER_FRAMES,
  type SpinnerOptions,
  SpinnerView,
  SpinnerWidget,
} from "./spinner.ts";
export {
  type NotifyOptions,
  STATUS_KINDS,
  type StatusKind,
  StatusMessageWidget,
} from "./status.ts";
