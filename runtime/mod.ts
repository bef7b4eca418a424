/**
 * CrownUI for Deno: a reactive terminal UI whose semantic tree people, screen readers, tests
 * and AI agents all use. Build a root component, then `run()` it:
 *
 * ```ts
 * import { AppConfig, bind, button, component, row, run, text } from "@crownui/runtime";
 *
 * const counter = component((cx) => {
 *   const count = cx.signal(0, { name: "count" });
 *   return row(
 *     button("+1", () => count.set(count.get() + 1)),
 *     text(bind(() => `Count: ${count.get()}`)),
 *   );
 * });
 *
 * // With `deno run` this takes over the terminal; under `deno test --doc` it is not the main
 * // module, so the example is type-checked and defines the app without running it.
 * if (import.meta.main) await run(counter, new AppConfig("Counter").mcp(true));
 * ```
 *
 * @module
 */

// What an app author builds with and names. The classes the view functions return live in
// the ./widgets entry (runtime/widgets.ts); the reactive graph under signals and memos (its
// nodes, owners and runtime) is exported from no entry. tests/public_surface_test.ts pins both.

// Components, bindings and the handle handlers receive.
export { Component, component, Cx } from "./ui/component.ts";
export { bind, Binding, type Prop, View } from "./ui/view.ts";
export { Rt, type RtHost } from "./ui/rt.ts";

// Views: the functions an app calls (their classes and modifiers: ./widgets).
export {
  button,
  checkbox,
  type Handler,
  heading,
  slider,
  type SliderOptions,
  text,
  textArea,
  type TextAreaOptions,
  textField,
  type TextFieldOptions,
  widget,
  type WidgetOptions,
} from "./ui/widgets/mod.ts";
export { column, dialog, menu, menuItem, row, scrollView } from "./ui/widgets/mod.ts";
export { list, type ListItems } from "./ui/widgets/mod.ts";
export { table, type TableColumn, type TableOptions } from "./ui/widgets/mod.ts";
export { type TreeChildren, treeView, type TreeViewOptions } from "./ui/widgets/mod.ts";
export {
  type Choice,
  type ChoiceList,
  type ChoiceOptions,
  type LabelledChoice,
  radioGroup,
  type RadioGroupOptions,
  select,
  type SelectOptions,
  type SwitchOptions,
  toggleSwitch,
} from "./ui/widgets/mod.ts";
export { tab, tabs, type TabsOptions, type TabSpec } from "./ui/widgets/mod.ts";
export {
  progressBar,
  type ProgressBarOptions,
  spinner,
  type SpinnerOptions,
} from "./ui/widgets/mod.ts";
export { type NotifyOptions, STATUS_KINDS, type StatusKind } from "./ui/widgets/mod.ts";
export { show } from "./ui/show.ts";

// Keys and focus.
export { FocusRef, focusRef } from "./ui/focus_ref.ts";
export type { KeybindInfo, KeybindOptions } from "./ui/keybinds.ts";
export type { WindowSize } from "./ui/host.ts";

// Styles and themes.
export {
  type Colour,
  MEANING_COLOURS,
  type MeaningColour,
  type Span,
  span,
  TERMINAL_COLOURS,
  type TerminalColour,
  type TextContent,
  type TextStyle,
} from "./ui/style.ts";
export {
  type ConcreteColour,
  DARK_THEME,
  defineTheme,
  LIGHT_THEME,
  type Theme,
  type ThemeChanges,
  type ThemeStyle,
} from "./ui/theme.ts";
export type { StyleName } from "./ui/surface.ts";
export type { TextProp } from "./ui/widgets/text.ts";

// Layout and borders: what the layout modifiers of every view take.
export { BORDER_KINDS, type BorderKind } from "./ui/border.ts";
export type { BorderOptions, Dimension, Sides } from "./ui/widget_view.ts";
export type { Align, Justify } from "./layout/node.ts";

// Signals and memos.
export { Memo, type Readable, Signal, type SignalOptions } from "./reactive/signal.ts";

// App tools.
export {
  AppTool,
  type JsonSchema,
  ToolArgumentsError,
  type ToolHandler,
  type ToolInput,
  type ToolOptions,
  ToolRegistry,
  typedTool,
} from "./ui/tools.ts";
export { type ToolCall, type ToolProgress, ToolTimeoutError } from "./ui/tool_call.ts";

// Running an app, and embedding one.
export { AppConfig, type AppSettings } from "./app/config.ts";
export { App, type AppOptions, type FrameTiming } from "./app/app.ts";
export type { Renderer, RenderSource } from "./app/renderer.ts";
export { HeadlessRenderer } from "./render/headless.ts";
export { chooseRenderer, run } from "./run.ts";
export { type InspectSnapshot, inspectSnapshot, type SignalSnapshot } from "./app/inspect.ts";
export {
  DurableFile,
  type DurableFileOptions,
  FileInUseError,
  type LockHolder,
} from "./app/durable_file.ts";

// Actions and keybinds.
export {
  type Action,
  ActionError,
  type ActionErrorKind,
  type Actor,
  type InputEnv,
} from "./input/action.ts";
export { type Keybind, parseKeybind } from "./text/keybind.ts";

// The semantic tree agents and screen readers read.
export {
  type Bounds,
  type LayoutEntry,
  type NodeData,
  type NodeQuery,
  type QueryMatch,
  type Role,
  ROLES,
  type SemanticNode,
  type SemanticTree,
  type State,
  STATES,
  type TreeJson,
  type TreeUpdate,
} from "./semantics/mod.ts";
