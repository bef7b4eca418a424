/**
 * One running app, made of parts by role (`app_parts.ts`): the frame loop (`frame_loop.ts`,
 * with `structure.ts`), focus and open dialogs (`focus.ts`), acting (`acting.ts`) and frame
 * timings (`frame_timings.ts`). Its elements report to the parts; `App` delegates to them and
 * is its input's environment and its renderer's source.
 *
 * @module
 */

import type { Action, Actor } from "../input/action.ts";
import type { Keybind } from "../text/keybind.ts";
import type { KeybindInfo } from "../ui/keybinds.ts";
import { elementOrigin } from "../layout/layout.ts";
import { Owner, ReactiveRuntime, runWithOwner } from "../reactive/mod.ts";
import { SemanticTree, type TreeUpdate } from "../semantics/mod.ts";
import type { Widget } from "../ui/widget.ts";
import { Rt } from "../ui/rt.ts";
import { ToolRegistry } from "../ui/tools.ts";
import { View } from "../ui/view.ts";
import { AppParts } from "./app_parts.ts";
import type { FrameTiming } from "./frame_timings.ts";
import { log, logError, serverListeningLine } from "./log.ts";
import type { Renderer } from "./renderer.ts";
import { DARK_THEME, type Theme } from "../ui/theme.ts";
import { failureText } from "../ui/binding_failure.ts";

export { type FrameTiming, RECENT_FRAMES } from "./frame_timings.ts";

/** How long the status message of an error from app code shows, in ms. */
const ERROR_SHOWN_MS = 8000;

/** What an App is made with. */
export interface AppOptions {
  /** The window title, and the window node's name. */
  title: string;
  /** What draws the frames; one renderer per app. */
  renderer: Renderer;
  /** The theme the app is drawn in; the dark one unless given. */
  theme?: Theme;
}

/** A running app. Made by `run()` and by the test harness's `render()`. */
export class App {
  /** The window title. */
  readonly title: string;
  /** The semantic tree: what agents and the tree text see. */
  readonly tree: SemanticTree;
  /** @ignore the reactive runtime of the app's signals: the graph is no part of the API */
  readonly runtime: ReactiveRuntime;
  /** The tools the app has now. */
  readonly tools: ToolRegistry = new ToolRegistry();
  /** The runtime handle the app's views are given. */
  readonly rt: Rt;
  /** @ignore the window element, root of all: elements are internal, an author has views */
  readonly root: Widget;
  /** The renderer that draws the app's frames. */
  readonly renderer: Renderer;
  /** The theme the app is drawn in. */
  readonly theme: Theme;
  /** Settles when the app is asked to quit. */
  readonly quitRequested: Promise<void>;
  readonly #parts: AppParts;
  #quitRequested = false;
  #serverSocket: string | null = null;
  #resolveQuit!: () => void;

  /** Mounts `rootView` and runs the first frame; throws TypeError when the root is not a view. */
  constructor(rootView: View, options: AppOptions) {
    if (!(rootView instanceof View)) {
      throw new TypeError("the root must be a view, such as component((cx) => ...)");
    }
    this.title = options.title;
    this.renderer = options.renderer;
    this.theme = options.theme ?? DARK_THEME;
    this.quitRequested = new Promise((resolve) => (this.#resolveQuit = resolve));
    this.rt = new Rt({ quit: () => this.quit(), requestFrame: () => this.requestFrame() });
    this.runtime = new ReactiveRuntime(() => this.requestFrame());
    const owner = new Owner(this.runtime, null);
    this.tree = new SemanticTree(options.title);
    const parts = (this.#parts = new AppParts(this, owner));
    this.root = parts.root;
    runWithOwner(owner, () => this.root.append(rootView.mount({ host: parts, owner })));
    this.frame();
  }

  // What a person's input needs (PersonEnv, InputEnv): input is internal, so docs hide these.

  /** @ignore for input and the parts: logs an error thrown by app code, saying `where` */
  reportError(error: unknown, where: string): void {
    logError(error, where);
    this.#showError(error, where);
  }

  /**
   * Tells the person an error happened: a status message of kind `error` saying what failed
   * (`The click handler failed: disk full`), unless the same one shows already (an error
   * that comes back each frame makes one message, and no frame of its own). Agents see it
   * as a `status` node, in the receipt of the action that caused it.
   */
  #showError(error: unknown, where: string): void {
    const parts = this.#parts;
    if (parts === undefined || parts.frames.closed) return; // putting the app together, or closing
    const said = failureText(where, error);
    // "the click handler" starts a sentence as "The click handler"; "list()" stays as it is.
    const text = /^(the|an?) /.test(said) ? said.charAt(0).toUpperCase() + said.slice(1) : said;
    if (parts.status.shown.some((message) => message.node?.name === text)) return;
    try {
      parts.notify(text, "error", ERROR_SHOWN_MS);
    } catch (showing) {
      logError(showing, "showing an error");
    }
  }
  /** @ignore for input: where `element` starts, in window cells */
  origin(element: Widget): { x: number; y: number } {
    return elementOrigin(element);
  }
  /** @ignore for input: runs the effects earlier input queued, without ending the frame */
  runEffects(): void {
    this.#parts.frames.runEffects();
  }
  /** @ignore for input: marks `element` as under the pointer (null: none) */
  hover(element: Widget | null): void {
    this.#parts.focusState.hover(element);
  }

  /** The element with focus. */
  get focused(): Widget | null {
    return this.#parts.focusState.focused;
  }

  /** The overlays (open dialogs), oldest first. */
  get overlays(): readonly Widget[] {
    return [...this.#parts.focusState.overlaySet];
  }

  /** Gives focus to `element` (null: none). */
  focus(element: Widget | null): void {
    this.#parts.focusState.focus(element);
  }

  /** @ignore for input: presses a key on the app's keybindings (see `InputEnv.appKey`) */
  appKey(keybind: Keybind, priority: boolean, target: Widget | null): boolean {
    return this.#parts.keys.press(keybind, priority, target);
  }

  /**
   * The app's keybindings now (`cx.keybind()`), oldest first, with whether each applies: what
   * `inspect_snapshot`'s `keybinds` and the `?` help view list.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { component, text } from "@crownui/runtime";
   * import { render } from "@crownui/runtime/testing";
   *
   * await using test = await render(component((cx) => {
   *   cx.keybind("ctrl+s", "Save", () => {});
   *   return text("Draft");
   * }));
   * assert.deepEqual(test.app.keybinds, [{ key: "Ctrl+S", description: "Save", applies: true }]);
   * ```
   */
  get keybinds(): KeybindInfo[] {
    return this.#parts.keys.list();
  }

  /** @ignore for the renderer: true when a keybinding that applies now takes `keybind` */
  bindsKey(keybind: Keybind): boolean {
    return this.#parts.keys.binds(keybind);
  }

  /** @ignore for the renderer: the bindings the hint line shows now */
  keyHints(): { key: string; description: string }[] {
    return this.#parts.keys.hints();
  }

  /** True while the `?` help view is open. */
  get helpOpen(): boolean {
    return this.#parts.keys.helpOpen;
  }

  /**
   * Opens the help view (the keys, as `?` and F1 do), or closes it when it is open.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { text } from "@crownui/runtime";
   * import { render } from "@crownui/runtime/testing";
   *
   * await using test = await render(text("Hello"));
   * test.app.toggleHelp();
   * assert.equal(test.app.helpOpen, true);
   * assert.equal(test.get({ role: "dialog" }).name, "Keys");
   * test.app.toggleHelp();
   * assert.equal(test.query({ role: "dialog" }).length, 0);
   * ```
   */
  toggleHelp(): void {
    this.#parts.keys.toggleHelp();
    this.requestFrame();
  }

  /** Moves focus to the next (1) or previous (-1) focusable element, as Tab does. */
  moveFocus(direction: 1 | -1): void {
    this.#parts.focusState.moveFocus(direction);
  }

  /** Timings of the last 120 frames at most, oldest first, none caused by secure typing. */
  get frames(): FrameTiming[] {
    return this.#parts.frames.frames;
  }

  /** Asks for a frame soon (coalesced: many requests, one frame). */
  requestFrame(): void {
    this.#parts?.frames.request(); // effects may ask while the app is being put together
  }

  /** True when a frame is waiting to run. */
  get framePending(): boolean {
    return this.#parts.frames.pending;
  }

  /** Calls `listener` with the changes of every frame that changed the tree. */
  onTreeUpdate(listener: (update: TreeUpdate) => void): () => void {
    return this.#parts.frames.onTreeUpdate(listener);
  }

  /** Runs one frame now; returns its tree update, or null when it changed nothing. */
  frame(): TreeUpdate | null {
    return this.#parts.frames.run();
  }

  /** The element behind a node id. */
  elementById(id: number): Widget | undefined {
    return this.#parts.acting.elementById(id);
  }

  /**
   * Performs `action` on node `id` as input would, at `revision` (the current one when
   * omitted), runs its frame and returns the revision after it. Checks run in the contract's
   * order (arguments, node, modal dialog, disabled, revision, then for an agent the
   * `confirmed` that activating a destructive control needs); an offscreen node is scrolled
   * into view first. Throws ActionError with the contract's message when refused.
   */
  act(
    id: number,
    action: Action | unknown,
    revision?: number,
    actor: Actor = "agent",
    confirmed = false,
  ): number {
    return this.#parts.acting.act(id, action, revision, actor, confirmed);
  }

  /** @ignore for input: performs a checked action on an element as `act()` does by id */
  actOn(element: Widget, action: Action, actor: Actor): number {
    return this.#parts.acting.actOn(element, action, actor);
  }

  /** Where the app's MCP server listens now, or null when it does not. */
  get serverSocket(): string | null {
    return this.#serverSocket;
  }

  /**
   * Tells the app where its MCP server listens (null: stopped); the agent bridge calls it.
   * A renderer that shows the socket is told, else `MCP server listening <path>` is logged.
   * @ignore the agent bridge's, not an app author's
   */
  announceServer(socketPath: string | null): void {
    this.#serverSocket = socketPath;
    if (!this.closed && this.renderer.serverListening !== undefined) {
      this.renderer.serverListening(socketPath);
      this.requestFrame();
    } else if (socketPath !== null) {
      log(serverListeningLine(socketPath));
    }
  }

  /** Asks the app to quit; `run()` then returns. */
  quit(): void {
    if (this.#quitRequested) return;
    this.#quitRequested = true;
    this.#resolveQuit();
  }

  /** True once closed. */
  get closed(): boolean {
    return this.#parts.frames.closed;
  }

  /** Unmounts everything (cleanups run, tools go) and releases the renderer. */
  close(): void {
    if (this.closed) return;
    this.#parts.close();
    this.quit();
  }
}
