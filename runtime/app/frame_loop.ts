/**
 * The app's frame loop: frames are asked for (coalesced into one), and each runs the queued
 * effects, then rebuilds the semantic structure that changed, lays the window out, marks
 * what is offscreen and which dialog is modal, renders, commits the revision and records its
 * timings (`frame_timings.ts`).
 *
 * @module
 */

import { invalidateLayout, layoutWindow } from "../layout/layout.ts";
import { OffscreenTracker, scrollIntoView } from "../layout/visible.ts";
import type { ReactiveRuntime } from "../reactive/mod.ts";
import type { SemanticTree, TreeUpdate } from "../semantics/mod.ts";
import type { Widget } from "../ui/widget.ts";
import type { FocusState } from "./focus.ts";
import { StructureChanges } from "./structure.ts";
import { Animations } from "./animations.ts";
import { type FrameTiming, recordFrame } from "./frame_timings.ts";
import type { Renderer, RenderSource } from "./renderer.ts";

/** What the frame loop runs frames of: the parts of one app. */
export interface FrameParts {
  /** The app as its renderer sees it. */
  source: RenderSource;
  renderer: Renderer;
  runtime: ReactiveRuntime;
  tree: SemanticTree;
  root: Widget;
  focus: FocusState;
  reportError(error: unknown, where: string): void;
  /** Told the window's size at the start of every frame, before the effects run. */
  sized(width: number, height: number): void;
}

/** Runs the frames of one app. */
export class FrameLoop {
  /** Timings of the recent frames, oldest first (secure typing left out). */
  readonly frames: FrameTiming[] = [];
  /** Set while the frames being run were caused by typing into a secure node. */
  secureInput = false;
  /** The shared animation clock: it ticks only while something that spins is in view. */
  readonly animations: Animations = new Animations(() => this.request());
  readonly #parts: FrameParts;
  readonly #structure = new StructureChanges();
  readonly #updateListeners = new Set<(update: TreeUpdate) => void>();
  readonly #offscreen = new OffscreenTracker();
  /** The dialog whose node carries `modal`: the topmost open one. */
  #modal: Widget | null = null;
  #scheduled = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #inFrame = false;
  #closed = false;

  /**
   * Creates the loop; nothing runs until a frame is asked for.
   *
   * @param parts the app's parts that a frame works on
   */
  constructor(parts: FrameParts) {
    this.#parts = parts;
  }

  /** True once closed: no frame runs any more. */
  get closed(): boolean {
    return this.#closed;
  }

  /** True when a frame is waiting to run. */
  get pending(): boolean {
    return this.#scheduled;
  }

  /** True when the last layout left `element` in view. */
  inView(element: Widget): boolean {
    return this.#offscreen.inView(element);
  }

  /** The element's natural size may have changed: lay it out at the next frame. */
  markLayoutDirty(element: Widget): void {
    invalidateLayout(element);
    this.request();
  }

  /** The element's children changed: rebuild the semantic children around it. */
  markStructureDirty(element: Widget): void {
    this.#structure.mark(element);
    this.request();
  }

  /** Asks for a frame soon (coalesced: many requests, one frame). */
  request(): void {
    if (this.#scheduled || this.#closed || this.#inFrame) return;
    this.#scheduled = true;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.run();
    }, 0);
  }

  /** Calls `listener` with the changes of every frame that changed the tree. */
  onTreeUpdate(listener: (update: TreeUpdate) => void): () => void {
    this.#updateListeners.add(listener);
    return () => this.#updateListeners.delete(listener);
  }

  /** Runs the queued effects; an error is reported and the app goes on. */
  runEffects(): void {
    try {
      this.#parts.runtime.flush();
    } catch (error) {
      this.#parts.reportError(error, "the effects of a frame");
    }
  }

  /** Runs one frame now; returns the tree update, or null when the frame changed nothing. */
  run(): TreeUpdate | null {
    if (this.#closed) return null;
    const { renderer, runtime, tree } = this.#parts;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#scheduled = false;
    this.#inFrame = true;
    const at = Date.now();
    const start = performance.now();
    let update: TreeUpdate | null = null;
    let afterEffects = start;
    let afterLayout = start;
    let afterRender = start;
    try {
      const size = renderer.size();
      this.#parts.sized(size.width, size.height); // what reads the size follows in this frame
      this.runEffects();
      afterEffects = performance.now();
      // A failure in one phase is reported and the frame goes on: the app keeps running.
      try {
        this.#structure.rebuild(tree);
        this.#parts.focus.focusOpenedOverlay();
        this.#parts.focus.applyAutofocus();
        const { width, height } = renderer.size();
        const { root, focus } = this.#parts;
        layoutWindow(root, width, height, focus.overlaySet);
        const reveal = focus.takeReveal();
        if (reveal !== null) {
          scrollIntoView(reveal, () => layoutWindow(root, width, height, focus.overlaySet));
        }
        this.#updateWhereThingsAre(width, height);
        this.animations.afterLayout((element) => this.#offscreen.inView(element));
      } catch (error) {
        this.#parts.reportError(error, "the layout of a frame");
      }
      afterLayout = performance.now();
      try {
        renderer.render(this.#parts.source);
      } catch (error) {
        this.#parts.reportError(error, "the renderer");
      }
      afterRender = performance.now();
      update = tree.commit();
    } finally {
      this.#inFrame = false;
    }
    const end = performance.now();
    const hidden = this.secureInput;
    // A frame the typing chained to (an effect writing a signal) is hidden too.
    this.secureInput = hidden && (runtime.pending || this.#structure.pending);
    if (!hidden) {
      recordFrame(this.frames, {
        revision: tree.revision,
        changed: update !== null,
        effectsMs: afterEffects - start,
        layoutMs: afterLayout - afterEffects,
        renderMs: afterRender - afterLayout,
        totalMs: end - start,
        at,
      });
    }
    if (update !== null) {
      for (const listener of this.#updateListeners) listener(update);
    }
    // Effects queued by the frame's own work (a binding writing a signal) get a frame too.
    if (runtime.pending || this.#structure.pending) this.request();
    return update;
  }

  /** Stops the loop: the frame waiting, if any, never runs. */
  close(): void {
    this.#closed = true;
    this.animations.close();
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#scheduled = false;
  }

  /** Sets `offscreen` from the layout just made, and `modal` on the topmost open dialog. */
  #updateWhereThingsAre(width: number, height: number): void {
    const { root, focus, tree } = this.#parts;
    const changed = this.#structure.childrenChanged;
    this.#offscreen.update(root, focus.overlaySet, width, height, changed);
    this.#structure.offscreenUpdated();
    const top = focus.topDialog();
    if (top === this.#modal) return;
    if (this.#modal?.node && this.#modal.mounted) tree.setState(this.#modal.node, "modal", false);
    if (top?.node) tree.setState(top.node, "modal", true);
    this.#modal = top;
  }
}
