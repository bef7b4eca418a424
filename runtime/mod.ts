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

export * from "./ui/mod.ts";
export { ToolArgumentsError, type ToolInput, type ToolOptions, typedTool } from "./ui/tools.ts";
export {
  type Consumer,
  type ConsumerState,
  Memo,
  type Owner,
  type Producer,
  type ReactiveRuntime,
  type Readable,
  Signal,
  type SignalNode,
  type SignalOptions,
} from "./reactive/mod.ts";
export { AppConfig, type AppSettings } from "./app/config.ts";
export { App, type AppOptions, type FrameTiming } from "./app/app.ts";
export type { Renderer, RenderSource } from "./app/renderer.ts";
export { type InspectSnapshot, inspectSnapshot, type SignalSnapshot } from "./app/inspect.ts";
export {
  type Action,
  ActionError,
  type ActionErrorKind,
  type Actor,
  type InputEnv,
} from "./input/action.ts";
export { type Keybind, parseKeybind } from "./input/keybind.ts";
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
export { HeadlessRenderer } from "./render/headless.ts";
export { chooseRenderer, run } from "./run.ts";
