/**
 * What a mounted widget needs from the app it is mounted in: its semantic tree, its reactive
 * runtime and tools, and the calls that report a change (a new widget, a layout or structure
 * to redo, a widget gone, focus, an overlay, an error). The app's parts implement it.
 *
 * @module
 */

import type { ReactiveRuntime } from "../reactive/mod.ts";
import type { SemanticTree } from "../semantics/mod.ts";
import type { Signal } from "../reactive/mod.ts";
import type { Keybinds } from "./keybinds.ts";
import type { Rt } from "./rt.ts";
import type { StatusKind } from "./widgets/status.ts";
import type { ToolRegistry } from "./tools.ts";
import type { Widget } from "./widget.ts";

/** What widgets need from the app they are mounted in. */
export interface Host {
  /** The app's semantic tree: widgets with a role keep their node in it. */
  readonly tree: SemanticTree;
  /**
   * The reactive runtime the app's signals, memos and effects belong to. The reactive graph is
   * no part of the package's API, so its docs leave this out.
   *
   * @ignore
   */
  readonly runtime: ReactiveRuntime;
  /** The app tools components register. */
  readonly tools: ToolRegistry;
  /** The runtime handle that bindings, handlers and tools receive. */
  readonly rt: Rt;
  /** Records a new widget, so that actions by node id can find it. */
  registerElement(widget: Widget): void;
  /** The widget's natural size may have changed: lay it out at the next frame. */
  markLayoutDirty(widget: Widget): void;
  /** The widget's children changed: rebuild the semantic children around it. */
  markStructureDirty(widget: Widget): void;
  /** The widget and its subtree left the app: drop focus, hover and the like. */
  elementRemoved(widget: Widget): void;
  /** Moves focus to the widget. */
  focus(widget: Widget): void;
  /** The widget that has focus, if any. */
  readonly focused: Widget | null;
  /** Lays the widget out above the window's content (dialogs). */
  addOverlay(widget: Widget): void;
  /**
   * Lays `popup` out just below its parent (its opener), above the content; `close` closes it
   * when focus goes elsewhere. It leaves when it is removed.
   */
  addPopup(popup: Widget, close: () => void): void;
  /**
   * Animates `widget` (a spinner) on the app's shared clock while it is mounted and on screen:
   * a frame is drawn at each tick, and no timer runs while nothing animated shows. Returns
   * what stops it.
   */
  animate(widget: Widget): () => void;
  /** How many ticks the animation clock has made: what an animated widget paints from. */
  readonly animationTick: number;
  /**
   * Shows a status message (`cx.notify()`): `text` at the bottom of the app's area in the
   * colour of `kind`, and a `status` node, for `durationMs`.
   */
  notify(text: string, kind: StatusKind, durationMs: number): void;
  /** Reports an error thrown by app code (a binding, a handler) without stopping the app. */
  reportError(error: unknown, where: string): void;
  /**
   * The app-wide keybindings components register (`cx.keybind()`). The registry is the
   * runtime's own; apps use `cx.keybind()`.
   *
   * @ignore
   */
  readonly keybinds: Keybinds;
  /**
   * The signal of the window's size in cells, made when first asked for and set at each frame
   * whose size differs (a resize). The reactive graph is no part of the package's API.
   *
   * @ignore
   */
  windowSize(): Signal<WindowSize>;
  /**
   * Focus asked for by code: `.autofocus()` (`deferred`: at the next frame, once a dialog
   * opening with it has moved focus in) or a ref's `focus()` (now). Refused, returning false,
   * for a widget that cannot take focus now or is behind an open dialog.
   */
  focusFromCode(widget: Widget, deferred: boolean): boolean;
}

/** The window's size, in cells: what the app lays out in. */
export interface WindowSize {
  /** Its width. */
  readonly columns: number;
  /** Its height (in the terminal, its rows less the status line). */
  readonly rows: number;
}
