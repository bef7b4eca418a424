/**
 * The parts an `App` is made of — its window element, focus and open dialogs (`focus.ts`),
 * frame loop (`frame_loop.ts`) and acting (`acting.ts`) — and the host its elements report
 * to (ui/host.ts): a new element, a layout or structure to redo, an element gone,
 * a dialog opened. Widgets talk to this object, so `App` keeps only what its users call.
 *
 * @module
 */

import type { InputEnv } from "../input/action.ts";
import { disposeOwner, type Owner, type ReactiveRuntime, Signal } from "../reactive/mod.ts";
import type { SemanticTree } from "../semantics/mod.ts";
import { BoxWidget, type Host, type Widget } from "../ui/widget.ts";
import type { WindowSize } from "../ui/host.ts";
import { Keybinds } from "../ui/keybinds.ts";
import type { Rt } from "../ui/rt.ts";
import type { ToolRegistry } from "../ui/tools.ts";
import { type StatusKind, StatusMessages } from "../ui/widgets/status.ts";
import { Acting } from "./acting.ts";
import { FocusState } from "./focus.ts";
import { FrameLoop } from "./frame_loop.ts";
import { AppKeys } from "./keys.ts";
import type { Renderer, RenderSource } from "./renderer.ts";

/**
 * What the parts are made for: the app, as its renderer and its input see it, with its state.
 * The parts read `root`, `focused` and `overlays` only once a frame runs.
 */
export interface AppCore extends RenderSource, InputEnv {
  /** What draws the app's frames. */
  readonly renderer: Renderer;
  /** The reactive runtime of the app's signals, memos and effects. */
  readonly runtime: ReactiveRuntime;
  /** The app's tools. */
  readonly tools: ToolRegistry;
  /** Asks for a frame soon. */
  requestFrame(): void;
  /** Reports an error thrown by app code without stopping the app. */
  reportError(error: unknown, where: string): void;
}

/** The parts of one app, and the host of its elements. */
export class AppParts implements Host {
  /** The app's semantic tree. */
  readonly tree: SemanticTree;
  /** The reactive runtime of the app's signals, memos and effects. */
  readonly runtime: ReactiveRuntime;
  /** The app's tools. */
  readonly tools: ToolRegistry;
  /** The runtime handle the app's views are given. */
  readonly rt: Rt;
  /** The window element: the root of every element. */
  readonly root: Widget;
  /** Focus, hover and the open dialogs. */
  readonly focusState: FocusState;
  /** The frame loop. */
  readonly frames: FrameLoop;
  /** Acting by node id and on elements. */
  readonly acting: Acting;
  /** The app-wide keybindings components register. */
  readonly keybinds: Keybinds;
  /** The keybindings at work, and the help view. */
  readonly keys: AppKeys;
  readonly #app: AppCore;
  /** The window's size, once something asked for it. */
  #windowSize: Signal<WindowSize> | null = null;
  readonly #owner: Owner;
  readonly #reportError: (error: unknown, where: string) => void;
  /** The status messages `cx.notify()` shows. */
  readonly status: StatusMessages;

  /**
   * Makes the window element, then the parts that work on it, and registers the window.
   *
   * @param app the app the parts are of
   * @param owner the owner of everything the window mounts
   */
  constructor(app: AppCore, owner: Owner) {
    const { tree, runtime, renderer } = app;
    this.tree = tree;
    this.runtime = runtime;
    this.tools = app.tools;
    this.rt = app.rt;
    this.#app = app;
    this.#owner = owner;
    const reportError = (this.#reportError = (error: unknown, where: string) => {
      app.reportError(error, where);
    });
    const root = (this.root = new BoxWidget("window"));
    root.host = this;
    root.owner = owner;
    root.node = tree.root;
    const common = { source: app, env: app, renderer, runtime, tree, root, reportError };
    const focus = (this.focusState = new FocusState(tree, root, () => app.requestFrame()));
    const sized = (width: number, height: number) => this.#sized(width, height);
    const frames = (this.frames = new FrameLoop({ ...common, focus, sized }));
    this.acting = new Acting({ ...common, focus, frames });
    this.status = new StatusMessages(this, root, owner);
    const keybinds = (this.keybinds = new Keybinds(() => app.requestFrame()));
    this.keys = new AppKeys({ ...common, host: this, owner, focus, keybinds, rt: app.rt });
    this.registerElement(root);
  }

  /** Stops the frame loop, unmounts everything (cleanups run, tools go), frees the renderer. */
  close(): void {
    this.frames.close();
    this.status.close();
    try {
      disposeOwner(this.#owner);
    } catch (error) {
      this.reportError(error, "a cleanup");
    }
    this.#app.renderer.close();
  }

  /** Remembers which element owns a node, so actions by id find it. */
  registerElement(element: Widget): void {
    this.acting.register(element);
  }

  /** Lays `element` out again at the next frame. */
  markLayoutDirty(element: Widget): void {
    this.frames.markLayoutDirty(element);
  }

  /** Rebuilds the semantic children around `element` at the next frame. */
  markStructureDirty(element: Widget): void {
    this.frames.markStructureDirty(element);
  }

  /** Forgets an element that left the app: its focus, hover, dialog and node id. */
  elementRemoved(element: Widget): void {
    this.focusState.elementRemoved(element);
    this.acting.forget(element);
  }

  /** Moves focus to `element`. */
  focus(element: Widget): void {
    this.focusState.focus(element);
  }

  /** The element with focus. */
  get focused(): Widget | null {
    return this.focusState.focused;
  }

  /** Opens `element` as an overlay (a dialog) above the window's content. */
  addOverlay(element: Widget): void {
    this.focusState.addOverlay(element);
  }

  /** Opens `popup` below its opener, above the content; `close` closes it. */
  addPopup(popup: Widget, close: () => void): void {
    this.focusState.addPopup(popup, close);
  }

  /** Shows a status message: `text` of `kind`, for `durationMs`. */
  notify(text: string, kind: StatusKind, durationMs: number): void {
    this.status.show(text, kind, durationMs);
  }

  /** Animates `widget` on the app's shared clock while it shows; returns what stops it. */
  animate(widget: Widget): () => void {
    return this.frames.animations.add(widget);
  }

  /** How many ticks the animation clock has made. */
  get animationTick(): number {
    return this.frames.animations.tick;
  }

  /** Reports an error thrown by app code without stopping the app. */
  reportError(error: unknown, where: string): void {
    this.#reportError(error, where);
  }

  /** The signal of the window's size, made at the first call. */
  windowSize(): Signal<WindowSize> {
    if (this.#windowSize === null) {
      const { width, height } = this.#app.renderer.size();
      this.#windowSize = new Signal<WindowSize>(this.#owner, { columns: width, rows: height }, {
        name: "window size",
        equals: (a, b) => a.columns === b.columns && a.rows === b.rows,
      });
    }
    return this.#windowSize;
  }

  /** Focus asked for by code (see `FocusState.focusFromCode()`). */
  focusFromCode(widget: Widget, deferred: boolean): boolean {
    return this.focusState.focusFromCode(widget, deferred);
  }

  #sized(width: number, height: number): void {
    this.#windowSize?.set({ columns: width, rows: height });
  }
}
