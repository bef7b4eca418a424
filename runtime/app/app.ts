/**
 * One running app: its reactive runtime, element tree, semantic tree and tools, made of parts
 * by role — the frame loop (`frame_loop.ts`, which rebuilds structure with `structure.ts`),
 * focus and open dialogs (`focus.ts`), acting (`acting.ts`) and the frame timings inspection
 * reads (`frame_timings.ts`). `App` is what the rest of the runtime sees: its elements' host,
 * its input's environment, its renderer's source.
 *
 * @module
 */

import type { Action, Actor, InputEnv } from "../input/action.ts";
import { elementOrigin } from "../layout/layout.ts";
import { disposeOwner, Owner, ReactiveRuntime, runWithOwner } from "../reactive/mod.ts";
import { SemanticTree, type TreeUpdate } from "../semantics/mod.ts";
import { Element, type Host } from "../ui/element.ts";
import { Rt } from "../ui/rt.ts";
import { ToolRegistry } from "../ui/tools.ts";
import { View } from "../ui/view.ts";
import { Acting } from "./acting.ts";
import { FocusState } from "./focus.ts";
import { FrameLoop } from "./frame_loop.ts";
import type { FrameTiming } from "./frame_timings.ts";
import { log, logError, serverListeningLine } from "./log.ts";
import type { Renderer } from "./renderer.ts";

export { type FrameTiming, RECENT_FRAMES } from "./frame_timings.ts";

/** What an App is made with. */
export interface AppOptions {
  /** The window title, and the window node's name. */
  title: string;
  /** What draws the frames; one renderer per app. */
  renderer: Renderer;
}

/** A running app. Made by `run()` and by the test harness's `render()`. */
export class App implements Host, InputEnv {
  /** The window title. */
  readonly title: string;
  readonly tree: SemanticTree;
  /**
   * The reactive runtime of the app's signals, memos and effects. The reactive graph is no
   * part of the package's API, so its docs leave this out.
   *
   * @ignore
   */
  readonly runtime: ReactiveRuntime;
  readonly tools: ToolRegistry = new ToolRegistry();
  readonly rt: Rt;
  /** The window element: the root of every element. */
  readonly root: Element;
  /** The renderer that draws the app's frames. */
  readonly renderer: Renderer;
  /** Settles when the app is asked to quit. */
  readonly quitRequested: Promise<void>;
  readonly #rootOwner: Owner;
  readonly #frames: FrameLoop;
  readonly #focus: FocusState;
  readonly #acting: Acting;
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
    this.quitRequested = new Promise((resolve) => (this.#resolveQuit = resolve));
    this.rt = new Rt({ quit: () => this.quit(), requestFrame: () => this.requestFrame() });
    this.runtime = new ReactiveRuntime(() => this.requestFrame());
    this.#rootOwner = new Owner(this.runtime, null);
    this.tree = new SemanticTree(options.title);
    this.root = new Element("window", this, this.#rootOwner, this.tree.root);
    const reportError = (error: unknown, where: string) => this.reportError(error, where);
    const { runtime, tree, root, renderer } = this;
    const parts = { source: this, env: this, renderer, runtime, tree, root, reportError };
    const focus = (this.#focus = new FocusState(tree, root, () => this.requestFrame()));
    const frames = (this.#frames = new FrameLoop({ ...parts, focus }));
    this.#acting = new Acting({ ...parts, focus, frames });
    this.registerElement(this.root);
    runWithOwner(this.#rootOwner, () => {
      this.root.append(rootView.mount({ host: this, owner: this.#rootOwner }));
    });
    this.frame();
  }

  // ── Host: what elements tell the app ──────────────────────────────────────────────

  /** Remembers which element owns a node, so actions by id find it. */
  registerElement(element: Element): void {
    this.#acting.register(element);
  }

  markLayoutDirty(element: Element): void {
    this.#frames.markLayoutDirty(element);
  }

  markStructureDirty(element: Element): void {
    this.#frames.markStructureDirty(element);
  }

  elementRemoved(element: Element): void {
    this.#focus.elementRemoved(element);
    this.#acting.forget(element);
  }

  addOverlay(element: Element): void {
    this.#focus.addOverlay(element);
  }

  reportError(error: unknown, where: string): void {
    logError(error, where);
  }

  // ── Focus and hover (InputEnv) ──────────────────────────────────────────────────────

  /** The element with focus. */
  get focused(): Element | null {
    return this.#focus.focused;
  }

  /** The overlays (open dialogs), oldest first. */
  get overlays(): readonly Element[] {
    return [...this.#focus.overlaySet];
  }

  focus(element: Element | null): void {
    this.#focus.focus(element);
  }

  hover(element: Element | null): void {
    this.#focus.hover(element);
  }

  moveFocus(direction: 1 | -1): void {
    this.#focus.moveFocus(direction);
  }

  origin(element: Element): { x: number; y: number } {
    return elementOrigin(element);
  }

  runEffects(): void {
    this.#frames.runEffects();
  }

  // ── Frames ──────────────────────────────────────────────────────────────────────────

  /**
   * Timings of the recent frames (up to `RECENT_FRAMES`), oldest first. Frames caused by
   * typing into a secure node (`type_text` or `press_key` on it, and any frame those chain
   * to) are left out, so inspection cannot time a secret's keystrokes.
   */
  get frames(): FrameTiming[] {
    return this.#frames.frames;
  }

  /** Asks for a frame soon (coalesced: many requests, one frame). */
  requestFrame(): void {
    this.#frames?.request(); // effects may ask while the app is being put together
  }

  /** True when a frame is waiting to run. */
  get framePending(): boolean {
    return this.#frames.pending;
  }

  /** Calls `listener` with the changes of every frame that changed the tree. */
  onTreeUpdate(listener: (update: TreeUpdate) => void): () => void {
    return this.#frames.onTreeUpdate(listener);
  }

  /**
   * Runs one frame now: effects, structure, layout, render, revision, timings. Returns the
   * tree update, or null when the frame changed nothing.
   */
  frame(): TreeUpdate | null {
    return this.#frames.run();
  }

  // ── Acting ──────────────────────────────────────────────────────────────────────────

  /** The element behind a node id. */
  elementById(id: number): Element | undefined {
    return this.#acting.elementById(id);
  }

  /**
   * Performs `action` on node `id` as input would, at `revision` (the current one when
   * omitted), runs the frame it caused and returns the revision after it. Checks run in the
   * contract's order (arguments, node, modal dialog, disabled, revision); an offscreen node
   * is scrolled into view first. Throws ActionError with the contract's message when refused.
   */
  act(id: number, action: Action | unknown, revision?: number, actor: Actor = "agent"): number {
    return this.#acting.act(id, action, revision, actor);
  }

  /**
   * Performs a checked action on an element as input would (a person's clicks and keys come
   * here) and runs the frame it caused; returns the revision after it. Throws ActionError
   * when the guards refuse; an error thrown by the app's handler is reported.
   */
  actOn(element: Element, action: Action, actor: Actor): number {
    return this.#acting.actOn(element, action, actor);
  }

  // ── The agent server ────────────────────────────────────────────────────────────────

  /** Where the app's MCP server listens now, or null when it does not. */
  get serverSocket(): string | null {
    return this.#serverSocket;
  }

  /**
   * Tells the app where its MCP server listens, or null once it has stopped; the agent
   * bridge calls this. A renderer that shows the socket (the terminal's status line) is told
   * in turn; otherwise the line `MCP server listening <path>` goes to the log.
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

  // ── Life ────────────────────────────────────────────────────────────────────────────

  /** Asks the app to quit; `run()` then returns. */
  quit(): void {
    if (this.#quitRequested) return;
    this.#quitRequested = true;
    this.#resolveQuit();
  }

  /** True once closed. */
  get closed(): boolean {
    return this.#frames.closed;
  }

  /** Unmounts everything (cleanups run, tools go) and releases the renderer. */
  close(): void {
    if (this.closed) return;
    this.#frames.close();
    try {
      disposeOwner(this.#rootOwner);
    } catch (error) {
      this.reportError(error, "a cleanup");
    }
    this.renderer.close();
    this.quit();
  }
}
