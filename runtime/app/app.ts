/**
 * One running app: its reactive runtime, element tree, semantic tree and tools, and the
 * frame loop that ties them together — effects, then semantic structure, then layout, then
 * render, then the revision, then the frame's timings. Actions from agents and tests enter
 * through `act()`, which checks the arguments, the node, the modal dialog, the node's own
 * guards and the revision, in that order, scrolls the node into view when it is offscreen,
 * performs the action as input would, runs the frame it caused and answers with that
 * frame's revision.
 *
 * @module
 */

import {
  type Action,
  ActionError,
  type Actor,
  behindModalMessage,
  guardAction,
  type InputEnv,
  noNodeMessage,
  parseAction,
  performAction,
  staleRevisionMessage,
} from "../input/action.ts";
import { elementOrigin, invalidateLayout, layoutWindow } from "../layout/layout.ts";
import { OffscreenTracker, scrollIntoView } from "../layout/visible.ts";
import { disposeOwner, Owner, ReactiveRuntime, runWithOwner } from "../reactive/mod.ts";
import { type SemanticNode, SemanticTree, type TreeUpdate } from "../semantics/mod.ts";
import { Element, type Host } from "../ui/element.ts";
import { firstFocusable, focusableAncestor, nextFocus } from "../ui/focus.ts";
import { Rt } from "../ui/rt.ts";
import { ToolRegistry } from "../ui/tools.ts";
import { View } from "../ui/view.ts";
import { log, logError, serverListeningLine } from "./log.ts";
import type { Renderer } from "./renderer.ts";

/** The timings of one frame, in milliseconds. */
export interface FrameTiming {
  /** The revision after the frame. */
  revision: number;
  /** Whether the frame changed the tree. */
  changed: boolean;
  /** Time spent running queued effects. */
  effectsMs: number;
  /** Time spent rebuilding structure and laying out the window. */
  layoutMs: number;
  /** Time the renderer took to draw. */
  renderMs: number;
  /** The whole frame, commit included. */
  totalMs: number;
  /** When the frame started, in ms since the epoch. */
  at: number;
}

/** How many recent frames an app keeps for inspection. */
export const RECENT_FRAMES = 120;

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
  /**
   * Timings of the recent frames (up to `RECENT_FRAMES`), oldest first. Frames caused by
   * typing into a secure node (`type_text` or `press_key` on it, and any frame those chain
   * to) are left out, so inspection cannot time a secret's keystrokes.
   */
  readonly frames: FrameTiming[] = [];
  readonly #rootOwner: Owner;
  readonly #elements = new WeakMap<SemanticNode, Element>();
  readonly #structureDirty = new Set<Element>();
  readonly #overlays = new Set<Element>();
  readonly #updateListeners = new Set<(update: TreeUpdate) => void>();
  readonly #offscreen = new OffscreenTracker();
  /** Elements whose children changed since the offscreen states were last updated. */
  readonly #childrenChanged = new Set<Element>();
  /** The dialog whose node carries `modal`: the topmost open one. */
  #modal: Element | null = null;
  #focused: Element | null = null;
  readonly #focusBeforeOverlay = new Map<Element, Element | null>();
  #focusInto: Element | null = null;
  #hovered: Element | null = null;
  #frameScheduled = false;
  #frameTimer: ReturnType<typeof setTimeout> | undefined;
  #inFrame = false;
  /** Set while the frames being run were caused by typing into a secure node. */
  #secureInput = false;
  #closed = false;
  #quitRequested = false;
  #serverSocket: string | null = null;
  #resolveQuit!: () => void;
  /** Settles when the app is asked to quit. */
  readonly quitRequested: Promise<void>;

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
    this.registerElement(this.root);
    runWithOwner(this.#rootOwner, () => {
      this.root.append(rootView.mount({ host: this, owner: this.#rootOwner }));
    });
    this.frame();
  }

  // ── Host ────────────────────────────────────────────────────────────────────────────

  /** Remembers which element owns a node, so actions by id find it. */
  registerElement(element: Element): void {
    if (element.node !== null) this.#elements.set(element.node, element);
  }

  markLayoutDirty(element: Element): void {
    invalidateLayout(element);
    this.requestFrame();
  }

  markStructureDirty(element: Element): void {
    this.#structureDirty.add(element);
    this.#childrenChanged.add(element);
    this.requestFrame();
  }

  elementRemoved(element: Element): void {
    const inside = (candidate: Element | null) => {
      for (let current = candidate; current !== null; current = current.parent) {
        if (current === element) return true;
      }
      return false;
    };
    const lostFocus = inside(this.#focused);
    if (lostFocus) this.#focused = null; // its node is going away with it
    if (inside(this.#hovered)) this.#hovered = null;
    let restore: Element | null = null;
    for (const overlay of this.#overlays) {
      if (!inside(overlay)) continue;
      this.#overlays.delete(overlay);
      // A closing dialog gives focus back to where it was when the dialog opened.
      const before = this.#focusBeforeOverlay.get(overlay) ?? null;
      this.#focusBeforeOverlay.delete(overlay);
      if (this.#focusInto === overlay) this.#focusInto = null;
      if (lostFocus && before !== null && before.mounted && !inside(before)) restore = before;
    }
    if (!lostFocus) return;
    // Otherwise focus goes to the nearest ancestor that can take it (a menu, when the item
    // chosen goes away with it), so the keyboard is never left nowhere.
    restore ??= focusableAncestor(element);
    if (restore !== null) this.focus(restore);
  }

  addOverlay(element: Element): void {
    this.#overlays.add(element);
    // Focus moves into a dialog when it opens (at the next frame, once its content exists).
    this.#focusBeforeOverlay.set(element, this.#focused);
    this.#focusInto = element;
  }

  reportError(error: unknown, where: string): void {
    logError(error, where);
  }

  // ── Focus and hover (InputEnv) ──────────────────────────────────────────────────────

  /** The element with focus. */
  get focused(): Element | null {
    return this.#focused;
  }

  /** The overlays (open dialogs), oldest first. */
  get overlays(): readonly Element[] {
    return [...this.#overlays];
  }

  focus(element: Element | null): void {
    if (element === this.#focused) return;
    const previous = this.#focused;
    this.#focused = element;
    if (previous !== null && previous.mounted) {
      if (previous.node !== null) this.tree.setState(previous.node, "focused", false);
      previous.behavior.focusChanged?.(false);
    }
    if (element !== null) {
      if (element.node !== null) this.tree.setState(element.node, "focused", true);
      element.behavior.focusChanged?.(true);
    }
    this.requestFrame();
  }

  hover(element: Element | null): void {
    if (element === this.#hovered) return;
    const previous = this.#hovered;
    this.#hovered = element;
    if (previous?.node && previous.mounted) this.tree.setState(previous.node, "hovered", false);
    if (element?.node) this.tree.setState(element.node, "hovered", true);
    this.requestFrame();
  }

  moveFocus(direction: 1 | -1): void {
    // An open dialog keeps focus inside it, as a modal one does.
    const scope = [...this.#overlays].at(-1) ?? this.root;
    const next = nextFocus(scope, this.#focused, direction);
    if (next !== null) this.focus(next);
  }

  origin(element: Element): { x: number; y: number } {
    return elementOrigin(element);
  }

  runEffects(): void {
    try {
      this.runtime.flush();
    } catch (error) {
      this.reportError(error, "the effects of a frame");
    }
  }

  // ── Frames ──────────────────────────────────────────────────────────────────────────

  /** Asks for a frame soon (coalesced: many requests, one frame). */
  requestFrame(): void {
    if (this.#frameScheduled || this.#closed || this.#inFrame) return;
    this.#frameScheduled = true;
    this.#frameTimer = setTimeout(() => {
      this.#frameTimer = undefined;
      this.frame();
    }, 0);
  }

  /** True when a frame is waiting to run. */
  get framePending(): boolean {
    return this.#frameScheduled;
  }

  /** Calls `listener` with the changes of every frame that changed the tree. */
  onTreeUpdate(listener: (update: TreeUpdate) => void): () => void {
    this.#updateListeners.add(listener);
    return () => this.#updateListeners.delete(listener);
  }

  /**
   * Runs one frame now: effects, structure, layout, render, revision, timings. Returns the
   * tree update, or null when the frame changed nothing.
   */
  frame(): TreeUpdate | null {
    if (this.#closed) return null;
    if (this.#frameTimer !== undefined) clearTimeout(this.#frameTimer);
    this.#frameTimer = undefined;
    this.#frameScheduled = false;
    this.#inFrame = true;
    const at = Date.now();
    const start = performance.now();
    let update: TreeUpdate | null = null;
    let afterEffects = start;
    let afterLayout = start;
    let afterRender = start;
    try {
      this.runEffects();
      afterEffects = performance.now();
      // A failure in one phase is reported and the frame goes on: the app keeps running.
      try {
        this.#rebuildStructure();
        this.#focusOpenedOverlay();
        const { width, height } = this.renderer.size();
        layoutWindow(this.root, width, height, this.#overlays);
        this.#updateWhereThingsAre(width, height);
      } catch (error) {
        this.reportError(error, "the layout of a frame");
      }
      afterLayout = performance.now();
      try {
        this.renderer.render(this);
      } catch (error) {
        this.reportError(error, "the renderer");
      }
      afterRender = performance.now();
      update = this.tree.commit();
    } finally {
      this.#inFrame = false;
    }
    const end = performance.now();
    const hidden = this.#secureInput;
    // A frame the typing chained to (an effect writing a signal) is hidden too.
    this.#secureInput = hidden && (this.runtime.pending || this.#structureDirty.size > 0);
    if (!hidden) {
      this.#recordFrame({
        revision: this.tree.revision,
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
    if (this.runtime.pending || this.#structureDirty.size > 0) this.requestFrame();
    return update;
  }

  #recordFrame(timing: FrameTiming): void {
    this.frames.push(timing);
    if (this.frames.length > RECENT_FRAMES) {
      this.frames.splice(0, this.frames.length - RECENT_FRAMES);
    }
  }

  /** Sets `offscreen` from the layout just made, and `modal` on the topmost open dialog. */
  #updateWhereThingsAre(width: number, height: number): void {
    this.#offscreen.update(this.root, this.#overlays, width, height, this.#childrenChanged);
    this.#childrenChanged.clear();
    const top = this.#topDialog();
    if (top === this.#modal) return;
    if (this.#modal?.node && this.#modal.mounted) {
      this.tree.setState(this.#modal.node, "modal", false);
    }
    if (top?.node) this.tree.setState(top.node, "modal", true);
    this.#modal = top;
  }

  /** The topmost open dialog, or null when none is open. */
  #topDialog(): Element | null {
    let top: Element | null = null;
    for (const overlay of this.#overlays) if (overlay.mounted) top = overlay;
    return top;
  }

  #focusOpenedOverlay(): void {
    const overlay = this.#focusInto;
    this.#focusInto = null;
    if (overlay === null || !overlay.mounted) return;
    const first = firstFocusable(overlay);
    if (first !== null) this.focus(first);
  }

  #rebuildStructure(): void {
    if (this.#structureDirty.size === 0) return;
    const parents = new Set<Element>();
    for (const element of this.#structureDirty) {
      if (!element.mounted) continue;
      const semantic = element.semanticElement;
      if (semantic !== null) parents.add(semantic);
    }
    this.#structureDirty.clear();
    for (const parent of parents) {
      if (!parent.mounted) continue;
      const nodes: SemanticNode[] = [];
      collectChildNodes(parent, nodes);
      this.tree.setChildren(parent.node!, nodes);
    }
  }

  // ── Acting ──────────────────────────────────────────────────────────────────────────

  /** The element behind a node id. */
  elementById(id: number): Element | undefined {
    const node = this.tree.get(id);
    if (node === undefined) return undefined;
    const element = this.#elements.get(node);
    return element?.mounted ? element : undefined;
  }

  /**
   * Performs `action` on node `id` as input would, at `revision` (the current one when
   * omitted), runs the frame it caused and returns the revision after it. Checks run in the
   * contract's order — arguments, the node exists, it is not behind a modal dialog, it takes
   * the action (not disabled), the revision — so the first refusal is the one that matters
   * most to the caller. A node that is offscreen is scrolled into view first, as a person
   * would (the action `scroll` excepted: it moves the view itself); the revision returned is
   * after both. Throws ActionError with the contract's message when refused.
   */
  act(id: number, action: Action | unknown, revision?: number, actor: Actor = "agent"): number {
    if (this.#closed) throw new Error("the app has closed");
    if (this.#frameScheduled || this.runtime.pending) this.frame(); // answer between frames
    if (typeof id !== "number" || !Number.isInteger(id)) {
      throw new ActionError("invalid", "invalid arguments: id must be a whole number");
    }
    if (revision !== undefined && (typeof revision !== "number" || !Number.isInteger(revision))) {
      throw new ActionError("invalid", "invalid arguments: revision must be a whole number");
    }
    const parsed = parseAction(action);
    const element = this.elementById(id);
    if (element === undefined) throw new ActionError("no_node", noNodeMessage(id));
    // People reach only the top dialog already: hit testing and focus stop at it.
    const modal = actor === "agent" ? this.#topDialog() : null;
    if (modal !== null && !isWithin(element, modal)) {
      throw new ActionError("modal", behindModalMessage(modal.node?.id ?? 0));
    }
    guardAction(element, parsed, actor);
    if (revision !== undefined && revision !== this.tree.revision) {
      throw new ActionError("stale_revision", staleRevisionMessage(this.tree.revision));
    }
    if (parsed.action !== "scroll" && !this.#offscreen.inView(element)) {
      scrollIntoView(element, () => this.frame());
      // The scroll's frame ran the app's effects: the node may have gone with them.
      if (!element.mounted) throw new ActionError("no_node", noNodeMessage(id));
    }
    return this.actOn(element, parsed, actor);
  }

  /**
   * Performs a checked action on an element as input would and runs the frame it caused;
   * returns the revision after it. `act()` comes here after its checks; a person's clicks
   * and keys (`runtime/input/person.ts`) come here with the element under the pointer or
   * with focus. Throws ActionError when the guards refuse the action; an error thrown by
   * the app's handler is reported and the app goes on.
   */
  actOn(element: Element, action: Action, actor: Actor): number {
    if (this.#closed) throw new Error("the app has closed");
    const typing = action.action === "type_text" || action.action === "press_key";
    const secureBefore = this.#secureInput;
    // The frame a keystroke causes would give away its time, to the millisecond.
    if (typing && element.secure) this.#secureInput = true;
    try {
      performAction(this, element, action, actor);
    } catch (error) {
      if (error instanceof ActionError) {
        this.#secureInput = secureBefore; // refused: no frame follows
        throw error;
      }
      this.reportError(error, `the ${action.action} handler`);
    }
    this.frame();
    return this.tree.revision;
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
    if (!this.#closed && this.renderer.serverListening !== undefined) {
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
    return this.#closed;
  }

  /** Unmounts everything (cleanups run, tools go) and releases the renderer. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#frameTimer !== undefined) clearTimeout(this.#frameTimer);
    this.#frameScheduled = false;
    try {
      disposeOwner(this.#rootOwner);
    } catch (error) {
      this.reportError(error, "a cleanup");
    }
    this.renderer.close();
    this.quit();
  }
}

/** True when `element` is `ancestor` or inside it. */
function isWithin(element: Element, ancestor: Element): boolean {
  for (let current: Element | null = element; current !== null; current = current.parent) {
    if (current === ancestor) return true;
  }
  return false;
}

function collectChildNodes(element: Element, into: SemanticNode[]): void {
  for (const child of element.children) {
    if (child.node !== null) into.push(child.node);
    else collectChildNodes(child, into);
  }
}
