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
export * from "./widgets/mod.ts";
export { show, ShowView } from "./show.ts";
export type { Host } from "./host.ts";
export { type LayoutStyle, type Size, Widget } from "./widget.ts";
export { span, type TextStyle } from "./style.ts";
