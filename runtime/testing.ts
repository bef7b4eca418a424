/**
 * A Testing-Library-style harness: render a component headless, read its tree, query nodes
 * and act on them exactly as agents do, without sockets. `await using` closes the app when
 * the block ends, also when an assertion throws.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bind, button, component, row, text } from "@crownui/runtime";
 * import { render } from "@crownui/runtime/testing";
 *
 * const counter = component((cx) => {
 *   const count = cx.signal(0);
 *   return row(
 *     button("+1", () => count.set(count.get() + 1)),
 *     text(bind(() => `Count: ${count.get()}`)),
 *   );
 * });
 *
 * await using app = await render(counter, { title: "Counter" });
 * const plus = app.get({ role: "button", name: "+1" });
 * await app.act(plus.id, { action: "click" });
 * assert.match(app.tree(), /text "Count: 1"/);
 * ```
 *
 * @module
 */

import { App } from "./app/app.ts";
import { AppCalls } from "./app/app_calls.ts";
import type { InspectSnapshot } from "./app/inspect.ts";
import type { Action } from "./input/action.ts";
import { HeadlessRenderer } from "./render/headless.ts";
import {
  findNodes,
  formatTree,
  type NodeMatch,
  type NodeQuery,
  type TreeView,
  treeViewText,
} from "./semantics/mod.ts";
import { type AppTool, checkToolArguments } from "./ui/tools.ts";
import type { ToolProgress } from "./ui/tool_call.ts";
import type { View } from "./ui/view.ts";
import type { Theme } from "./ui/theme.ts";
import type { ColourDepth } from "./render/terminal/colour.ts";
import { pasteText, pressKey, typeText } from "./input/person.ts";
import { parseKeybind } from "./text/keybind.ts";
import { ManualClock, realTick } from "./testing/clock.ts";
import { type TestScreen, testScreen } from "./testing/screen.ts";
import type { ScreenshotOptions } from "./render/picture/picture.ts";
import { type AppScreenshot, appScreenshot } from "./render/picture/app_screenshot.ts";

/** What `render()` takes besides the root. */
export interface RenderOptions {
  /** The window title (and the window node's name); "Test" by default. */
  title?: string;
  /** The window width in cells; 80 by default. */
  width?: number;
  /** The window height in cells; 24 by default. */
  height?: number;
  /**
   * `"manual"`: while the app is open, timers, intervals and `Date.now()` follow a clock that
   * only `advance(ms)` moves, so a test runs an app's timers and async handlers without
   * waiting. One manual-clock app at a time. `"real"` by default.
   */
  clock?: "manual" | "real";
  /** The theme the app is drawn in (what `screen()` shows); the dark one by default. */
  theme?: Theme;
}

/**
 * A rendered app under test. Declare it with `await using` so that it is closed when the
 * scope ends; `close()` does the same by hand and may be called more than once.
 */
export interface TestApp {
  /** The app itself, for what the harness does not wrap. */
  readonly app: App;
  /** The current revision. */
  readonly revision: number;
  /**
   * The tree as indented text: the whole of it, as `ui://tree` gives it, or with a view the
   * text `ui_tree` gives for those arguments (a budget of 32,768 bytes unless it sets one).
   * An unknown `view.root` throws RangeError.
   */
  tree(view?: TreeView): string;
  /**
   * The nodes that match, in tree order: `ui_query`'s own search, with the same keys (`role`,
   * `name`, `text`, `within`, `state`, `id`, `limit`, `full`), refusals and matches (`value`,
   * `states`, `description`, `path`). Unlike `ui_query` it returns every match unless `limit`
   * is given.
   */
  query(query: NodeQuery): NodeMatch[];
  /** The one node that matches; throws listing the matches when there are none or several. */
  get(query: NodeQuery): NodeMatch;
  /**
   * Acts on node `id` as an agent does, at `revision` (the current one when omitted); returns
   * the revision after the frame the action caused. Throws ActionError with the contract's
   * messages: an action that would activate a destructive control (a click, a double click,
   * Enter or Space on it) is refused as through the socket unless `options.confirm` is true.
   */
  act(
    id: number,
    action: Action,
    revision?: number,
    options?: { confirm?: boolean },
  ): Promise<number>;
  /**
   * Acts as the person at the keyboard does: like `act`, but secure fields accept typing and
   * destructive controls need no confirmation.
   */
  userAct(id: number, action: Action): Promise<number>;
  /**
   * Presses a key as the person does, on whatever has focus (`"Tab"`, `"Ctrl+S"`,
   * `"ArrowDown"`): two presses of ArrowDown move two rows. Returns the revision after.
   */
  press(keybind: string): Promise<number>;
  /**
   * Types text as the person does: into the focused field, or as key presses (so a space on a
   * focused button clicks it). Returns the revision after.
   */
  type(text: string): Promise<number>;
  /**
   * Pastes text as the person does in a terminal (a bracketed paste): whole into the focused
   * widget that takes typed text, line breaks kept in a text area and dropped elsewhere (a
   * pasted line never presses Enter); nothing happens when no such widget has focus. Returns
   * the revision after.
   */
  paste(text: string): Promise<number>;
  /**
   * What the person sees: the cells of the last frame with their looks, in the app's theme at
   * `depth` (24-bit colour unless given; `"none"` is what `NO_COLOR` shows).
   */
  screen(options?: { depth?: ColourDepth }): TestScreen;
  /**
   * Gives the window a new size in cells, as a person resizing the terminal does, and runs the
   * frame that lays the app out in it (what reads `cx.windowSize()` follows). Returns the
   * revision after. Throws RangeError unless both are whole numbers of 1 or more.
   */
  resize(columns: number, rows: number): Promise<number>;
  /**
   * A PNG of the window, as `ui_screenshot` makes it when no compositor offers one (the same
   * code): the cells of the last frame drawn in the theme's colours, 8×16 pixels a cell at
   * `scale` 1 (up to 3), with the revision it shows. `pixel(x, y)` reads a pixel's colour
   * back as `#rrggbb`, `cellColours(column, row)` a cell's colours, the most used first.
   *
   * @example A word styled `error` is drawn in the theme's error colour
   * ```ts
   * import assert from "node:assert/strict";
   * import { text } from "@crownui/runtime";
   * import { render } from "@crownui/runtime/testing";
   *
   * await using app = await render(text("failed").style({ fg: "error" }), { width: 10, height: 1 });
   * const shot = await app.screenshot();
   * assert.deepEqual([shot.width, shot.height], [80, 16]);
   * // The dark theme's background, then its error colour (the palette's red).
   * assert.deepEqual(shot.cellColours(0, 0), ["#121212", "#cd0000"]);
   * ```
   */
  screenshot(options?: ScreenshotOptions): Promise<AppScreenshot>;
  /**
   * With `clock: "manual"`: moves the clock `ms` on, running the timers, intervals and async
   * handlers that fall due, and the frames they cause. Throws with the real clock.
   */
  advance(ms: number): Promise<void>;
  /** The inspect snapshot (tree, layout, signals, frames). */
  snapshot(): InspectSnapshot;
  /** The app tools registered now. */
  tools(): AppTool[];
  /**
   * Calls app tool `name` with `args` and runs the frame it caused; returns its result.
   * The arguments are checked against the tool's JSON Schema first, by the same check the
   * server makes, so a call the socket would refuse throws `ToolArgumentsError`
   * (`invalid arguments: x: expected number, received string`) and never reaches the
   * handler. Two things differ from a call through the socket, on purpose: a destructive
   * tool runs without `"confirm": true` (a `confirm` given is taken out, as the server does),
   * and the result is the handler's text as it is, not wrapped as app text. The tool's
   * deadline holds as it does through the socket (5 seconds unless it declares another):
   * past it the call throws `ToolTimeoutError`; `options.onProgress` gets each report the
   * handler makes with `call.progress()`. A tool the app does not offer now throws with the
   * server's message, `unknown tool "name": call tools/list for the tools this app offers now`.
   */
  callTool(
    name: string,
    args?: Record<string, unknown>,
    options?: { onProgress?: (report: ToolProgress) => void },
  ): Promise<string>;
  /** Runs pending frames until none is left (after async handlers, timers). */
  settle(): Promise<void>;
  /** Unmounts the app: cleanups run, tools go. A second call does nothing. */
  close(): Promise<void>;
  /** Closes the app when an `await using` declaration goes out of scope, as `close()` does. */
  [Symbol.asyncDispose](): Promise<void>;
}

/** Renders `root` headless and returns a handle to drive it. */
export function render(root: View, options: RenderOptions = {}): Promise<TestApp> {
  const clock = options.clock === "manual" ? new ManualClock() : null;
  clock?.install();
  const renderer = new HeadlessRenderer(options.width, options.height);
  let app: App;
  try {
    app = new App(root, {
      title: options.title ?? "Test",
      renderer,
      ...(options.theme === undefined ? {} : { theme: options.theme }),
    });
  } catch (error) {
    clock?.uninstall();
    throw error;
  }
  const settleFrames = () => {
    if (app.framePending) app.frame();
  };
  const asPerson = (perform: () => void) =>
    Promise.resolve().then(() => {
      settleFrames();
      perform();
      settleFrames();
      return app.tree.revision;
    });
  // The same adapter and the same argument check the app's server uses; the harness throws
  // their errors as they are and returns the handler's text raw (no `confirm`, no wrapping:
  // those are the server's).
  const calls = new AppCalls(app);
  // The server's ui_query itself, keys, refusals and matches (with value and states), but for
  // the limit: a test gets every match unless it sets one.
  const query = (q: NodeQuery) => {
    if (app.framePending) app.frame();
    const limit = q.limit ?? Number.MAX_SAFE_INTEGER;
    return findNodes(app.tree.root, { ...q, limit }, (id) => app.tree.get(id)).nodes;
  };
  const testApp: TestApp = {
    app,
    get revision() {
      if (app.framePending) app.frame();
      return app.tree.revision;
    },
    tree(view) {
      if (app.framePending) app.frame();
      if (view === undefined) return formatTree(app.tree.root);
      return treeViewText(app.tree.root, view, (id) => app.tree.get(id));
    },
    query,
    get(q) {
      const matches = query(q);
      if (matches.length === 1) return matches[0]!;
      const listed = matches.map((m) => `#${m.id} ${m.path}`).join("; ");
      throw new Error(
        `expected exactly one node for ${JSON.stringify(q)}, found ${matches.length}${
          listed ? `: ${listed}` : ""
        }`,
      );
    },
    act(id, action, revision, options = {}) {
      return Promise.resolve().then(() =>
        calls.act(id, action, revision, "agent", options.confirm === true)
      );
    },
    userAct(id, action) {
      return Promise.resolve().then(() => calls.act(id, action, undefined, "user"));
    },
    press(keybind) {
      return asPerson(() => void pressKey(app, parseKeybind(keybind)));
    },
    type(text) {
      return asPerson(() => typeText(app, text));
    },
    paste(text) {
      return asPerson(() => pasteText(app, text));
    },
    screen(screenOptions = {}) {
      settleFrames();
      return testScreen(renderer.paint(screenOptions.depth ?? "truecolor"));
    },
    resize(columns, rows) {
      return Promise.resolve().then(() => {
        renderer.resize(columns, rows);
        app.frame();
        settleFrames();
        return app.tree.revision;
      });
    },
    screenshot(screenshotOptions = {}) {
      return appScreenshot(app, screenshotOptions);
    },
    async advance(ms) {
      if (clock === null) {
        throw new Error('advance() needs a manual clock: render(root, { clock: "manual" })');
      }
      await clock.advance(ms, settleFrames);
    },
    snapshot() {
      return calls.inspect();
    },
    tools() {
      return app.tools.list();
    },
    async callTool(name, args = {}, options = {}) {
      const tool = app.tools.get(name);
      let handlerArgs = args;
      if (tool?.isDestructive) {
        const { confirm: _confirm, ...rest } = args;
        handlerArgs = rest;
      }
      if (tool !== undefined) checkToolArguments(tool.inputSchema, handlerArgs, tool.isDestructive);
      const onProgress = options.onProgress;
      return await calls.callTool(
        name,
        JSON.stringify(handlerArgs),
        onProgress === undefined ? {} : { onProgress },
      );
    },
    async settle() {
      for (let round = 0; round < 100 && app.framePending; round++) {
        await realTick();
        if (app.framePending) app.frame();
      }
    },
    close() {
      app.close();
      clock?.uninstall();
      return Promise.resolve();
    },
    [Symbol.asyncDispose]() {
      return testApp.close();
    },
  };
  return Promise.resolve(testApp);
}

export type { Action } from "./input/action.ts";
export { ActionError } from "./input/action.ts";
export type { NodeMatch, NodeQuery, QueryMatch, TreeView } from "./semantics/mod.ts";
export type { ColourDepth } from "./render/terminal/colour.ts";
export type { TestScreen } from "./testing/screen.ts";
export type { Screenshot, ScreenshotOptions } from "./render/picture/picture.ts";
export type { AppScreenshot } from "./render/picture/app_screenshot.ts";
export { assertSnapshot, type SnapshotContext, SnapshotError } from "./testing/snapshot.ts";
