/**
 * A widget: the one object that says how an element measures, paints and behaves. Each
 * mounted element holds one. The built-in widgets and `widget()` are subclasses; layout asks
 * `measure()`, a renderer calls `paint()` with a surface, and input calls the action methods
 * (`activate`, `key`, ...). The widget keeps its own typed state (a text field's editing, a
 * slider's value); its semantic node's name, value and states are set by it or by the view
 * that made it.
 *
 * @module
 */

import { cellWidth } from "../text/cell_width.ts";
import type { Keybind } from "../text/keybind.ts";
import type { TextEditState } from "../text/text_edit.ts";
import type { SemanticNode } from "../semantics/mod.ts";
import type { Behavior, Element, Host, Size } from "./element.ts";
import type { Rt } from "./rt.ts";
import type { PaintArea } from "./surface.ts";

/** How an element measures, paints and behaves. */
export abstract class Widget implements Behavior {
  /** The widget kind, for inspection and debugging: `button`, `row`, `list_item`, ... */
  abstract readonly kind: string;
  /** The app its element is mounted in; the element sets it when it is made. */
  host!: Host;
  /** Its element's semantic node, when the element has a role; the element sets it. */
  node: SemanticNode | null = null;
  /** True when its element itself is disabled (`element.disabled` reads and writes it). */
  disabled = false;
  /** False once its element is removed from the app. */
  mounted = true;

  /** Whether Tab and clicks can focus it; false unless a widget says so. */
  get focusable(): boolean {
    return false;
  }

  /** Called once with the element that holds it, when the element is made. */
  attach(_element: Element): void {}

  /** The size of its own content (its label line), without children; null for none. */
  measure(_element: Element): Size | null {
    return null;
  }

  /** Paints its own content; children are painted after it, above it. */
  paint(_element: Element, _area: PaintArea): void {}

  /** Paints what goes above its children (a scroll bar). */
  paintOver(_element: Element, _area: PaintArea): void {}

  /** The text field's editing state, for a widget that edits text; else null. */
  get textEdit(): TextEditState | null {
    return null;
  }

  /** Its state as plain data, for inspection and debugging. */
  inspect(): Record<string, unknown> {
    return {};
  }

  /** A click, or Enter or Space while it has focus. */
  activate?(rt: Rt): void;
  /** The double-click event that follows two clicks. */
  doubleClick?(rt: Rt): void;
  /** A key while it has focus; returns true when handled (else the key goes to the parent). */
  key?(keybind: Keybind, rt: Rt): boolean;
  /** Typed text while it has focus (text fields). */
  insertText?(text: string, rt: Rt): void;
  /** Scrolls by a delta in cells; returns true when the position moved or could move. */
  scroll?(dx: number, dy: number): boolean;
  /** Moves to a point in window cells (sliders). */
  dragTo?(x: number, y: number, rt: Rt): void;
  /** Called when the element gains or loses focus. */
  focusChanged?(focused: boolean): void;
}

/** A widget that lays out children and draws nothing itself (a row, the window, `show()`). */
export class BoxWidget extends Widget {
  /** The kind it reports. */
  readonly kind: string;

  /** A box widget reporting `kind`. */
  constructor(kind: string) {
    super();
    this.kind = kind;
  }
}

/**
 * A box widget of `kind` for one element: each element's widget holds that element's node and
 * flags, so box widgets are not shared.
 */
export function boxWidget(kind: string): BoxWidget {
  return new BoxWidget(kind);
}

/**
 * A widget with a line of its own (a label, a title, a text), measured by the cells of what
 * it paints there. Subclasses give that line by `face()`, so what is measured and what is
 * painted cannot disagree.
 */
export abstract class LabelWidget extends Widget {
  /** The label it shows; a change is laid out at the next frame. */
  label = "";
  /** The element that holds it. */
  element!: Element;

  override attach(element: Element): void {
    this.element = element;
  }

  /** The whole line it paints: the label with its decoration (`[ label ]` for a button). */
  face(): string {
    return this.label;
  }

  override measure(): Size | null {
    return { width: cellWidth(this.face()), height: 1 };
  }

  /** Shows `label`; lays the element out again when it changed. */
  setLabel(label: string): void {
    if (this.label === label) return;
    this.label = label;
    this.element.host.markLayoutDirty(this.element);
  }

  override inspect(): Record<string, unknown> {
    return { visual: this.label };
  }
}
