/**
 * `textArea()`: text of several lines, its label on a line of its own and the text below it in
 * a box of `rows` rows. Enter inserts a line break; the arrows, Home and End, PageUp and
 * PageDown, Ctrl+A and Shift with the arrows move and select as in an editor (ArrowUp and
 * ArrowDown keep the column); typed and pasted text goes in at the cursor. Long lines wrap at
 * the last space that fits (a word longer than a row breaks at its edge): nothing scrolls
 * sideways. The box scrolls down and up to keep the cursor in view, with a scroll bar in its
 * last column while the text has more rows than it shows; the wheel scrolls it too. A click
 * puts the cursor where it points, a double click selects a word, a drag selects. Role `text_area`; its value is the whole text, lines
 * separated by `\n`.
 *
 * @module
 */

import { cellWidth, graphemeWidth, splitGraphemes } from "../../text/cell_width.ts";
import { insetLeft, insetTop, insetX, insetY } from "../../layout/node.ts";
import type { Keybind } from "../../text/keybind.ts";
import { intersectRects } from "../../text/rect.ts";
import { normaliseLineBreaks, type TextEditState } from "../../text/text_edit.ts";
import { TextLinesState, type TextView } from "../../text/text_lines.ts";
import { Signal } from "../../reactive/mod.ts";
import type { PaintArea, StyleName } from "../surface.ts";
import { follow, type MountContext, type Prop } from "../view.ts";
import { LabelWidget, type Size, type Widget } from "../widget.ts";
import { mountWidget, WidgetView } from "../widget_view.ts";
import { paintScrollBar } from "./scroll_view.ts";

/** What `textArea()` takes. */
export interface TextAreaOptions {
  /** The accessible name, shown on the line above the box. */
  label: Prop<string>;
  /** A signal makes the area two-way; a plain string is its initial text. */
  value: Prop<string>;
  /** The cells of a row of text, where lines wrap (40 by default); the scroll bar is one more. */
  columns?: number;
  /** How many rows of text the box shows (5 by default); more scroll. */
  rows?: number;
}

/** The width of a text area's rows when not given. */
export const DEFAULT_AREA_COLUMNS = 40;
/** How many rows a text area shows when not given. */
export const DEFAULT_AREA_ROWS = 5;

/** Text of several lines in a box that wraps and scrolls it, with its cursor and selection. */
export class TextAreaWidget extends LabelWidget {
  /** The text being edited, wrapped into rows, with its cursor and selection. */
  readonly lines: TextLinesState = new TextLinesState();
  /** The first row of text the box shows. */
  shownFrom = 0;
  readonly #columns: number;
  readonly #rows: number;
  readonly #options: TextAreaOptions;
  readonly #secure: boolean;
  /** Where the last click put the cursor, until a drag moves on from it. */
  #pressedAt: number | null = null;
  /**
   * True when the person or an agent moved the cursor or edited since the box last kept the
   * cursor in view. Text the app sets shows from its top.
   */
  #follow = false;

  /** An area as `options` describe it; `secure` keeps its value off its node. */
  constructor(options: TextAreaOptions, secure: boolean) {
    super();
    this.#options = options;
    this.#secure = secure;
    this.#columns = checkCount(options.columns ?? DEFAULT_AREA_COLUMNS, "columns");
    this.#rows = checkCount(options.rows ?? DEFAULT_AREA_ROWS, "rows");
  }

  override get kind(): "text_area" {
    return "text_area";
  }

  override get focusable(): boolean {
    return true;
  }

  override get takesLineBreaks(): boolean {
    return true;
  }

  override get textEdit(): TextEditState {
    return this.lines.edit;
  }

  /** The label line. */
  override face(): string {
    return `${this.label}:`;
  }

  override measure(): Size {
    return {
      width: Math.max(cellWidth(this.face()), this.#columns + 1),
      height: 1 + this.#rows,
    };
  }

  /**
   * The room the text has: its box as last laid out, less the label line and the scroll bar
   * column (as asked for, before the first layout).
   */
  get view(): TextView {
    const { width, height, style } = this.layout;
    if (width === 0 && height === 0) return { width: this.#columns, height: this.#rows };
    return {
      width: Math.max(1, width - insetX(style) - 1),
      height: Math.max(1, height - insetY(style) - 1),
    };
  }

  /** The value changed: its node shows it, and it is drawn anew. */
  showValue(): void {
    if (!this.#secure && this.node !== null) this.host.tree.setValue(this.node, this.lines.value);
    this.host.markLayoutDirty(this);
  }

  /** The app set the text: it shows from its top, the cursor at its end. */
  setText(text: string): void {
    this.lines.setValue(text);
    this.shownFrom = 0;
    this.#follow = false;
    this.showValue();
  }

  #moved(): void {
    this.#follow = true;
    this.host.markLayoutDirty(this); // the cursor and text are drawn anew
  }

  #changed(): void {
    const source = this.#options.value;
    if (source instanceof Signal) source.set(this.lines.value);
    this.showValue();
    this.#follow = true;
  }

  override insertText(typed: string): void {
    this.lines.insert(typed);
    this.#changed();
  }

  override key(keybind: Keybind): boolean {
    const before = this.lines.value;
    if (!this.lines.applyKey(keybind, this.view)) return false;
    if (this.lines.value !== before) this.#changed();
    else this.#moved();
    return true;
  }

  /** A click at (x, y) in its own cells: in the box, the cursor goes there. */
  override clickAt(x: number, y: number): void {
    const inset = this.#inset();
    const row = y - inset.y - 1;
    if (row < 0) return; // the label: focus only
    this.lines.placeAt(this.shownFrom + row, x - inset.x, this.view.width);
    this.#pressedAt = this.lines.cursor;
    this.#moved();
  }

  /**
   * A press moved to (x, y) in its own cells (a person's mouse drag, an agent's `drag`): the
   * selection runs from its anchor (where the press put the cursor) to the text there. Above
   * or below the box it reaches the row past the edge, so a drag out of the box scrolls it.
   */
  override dragTo(x: number, y: number): void {
    const inset = this.#inset();
    const row = this.shownFrom + y - inset.y - 1;
    const offset = this.lines.offsetAt(row, x - inset.x, this.view.width);
    // The press itself comes as a drag to where it was: it keeps what the click (or a
    // double click's word) made.
    if (offset === this.#pressedAt) return;
    this.#pressedAt = null;
    this.lines.edit.moveTo(offset, true);
    this.#moved();
  }

  /** The cells of padding and border around its content. */
  #inset(): { x: number; y: number } {
    return { x: insetLeft(this.layout.style), y: insetTop(this.layout.style) };
  }

  /** A double click selects the word at the cursor (a person's click has just put it there). */
  override doubleClick(): void {
    this.lines.selectWord();
    this.#moved();
  }

  override scroll(_dx: number, dy: number): boolean {
    const { width, height } = this.view;
    const last = Math.max(0, this.lines.rows(width).count - height);
    const next = Math.min(last, Math.max(0, this.shownFrom + dy));
    if (last === 0) return false;
    if (next !== this.shownFrom) {
      this.shownFrom = next;
      this.host.markLayoutDirty(this);
    }
    return true;
  }

  override paint(area: PaintArea): void {
    const { surface, x, y, clip, focused, disabled, hovered } = area;
    const { lines } = this;
    const labelStyle: StyleName = disabled
      ? "disabled"
      : focused
      ? "heading"
      : hovered
      ? "hover"
      : "text";
    surface.write(x, y, this.face(), labelStyle, clip);
    const { width, height } = this.view;
    const box = { x, y: y + 1, width, height };
    const boxClip = intersectRects(clip, box);
    const fieldStyle: StyleName = disabled ? "disabled" : "field";
    surface.fill({ ...box, width: width + 1 }, fieldStyle, clip);

    const rows = lines.rows(width);
    const cursorRow = rows.indexAt(lines.cursor);
    let top = Math.min(this.shownFrom, Math.max(0, rows.count - height));
    if (this.#follow) {
      if (cursorRow < top) top = cursorRow;
      if (cursorRow >= top + height) top = cursorRow - height + 1;
      this.#follow = false;
    }
    this.shownFrom = top;

    const text = lines.value;
    const selection = focused ? lines.selection : null;
    for (let index = top; index < Math.min(rows.count, top + height); index++) {
      const row = rows.row(index);
      const rowY = box.y + index - top;
      let cell = 0;
      let offset = row.start;
      for (const grapheme of splitGraphemes(text.slice(row.start, row.end))) {
        const end = offset + grapheme.length;
        const selected = selection !== null && offset >= selection.start && end <= selection.end;
        surface.write(x + cell, rowY, grapheme, selected ? "cursor" : fieldStyle, boxClip);
        cell += graphemeWidth(grapheme);
        offset = end;
      }
      // A selected line break shows as one selected cell after its line.
      const breakSelected = selection !== null && row.endsLine && row.end < text.length &&
        row.end >= selection.start && row.end < selection.end;
      if (breakSelected) surface.write(x + cell, rowY, " ", "cursor", boxClip);
      if (focused && selection === null && index === cursorRow) {
        const { cell: at } = lines.cursorPlace(width);
        const under = splitGraphemes(text.slice(lines.cursor, row.end))[0];
        surface.write(x + at, rowY, under ?? " ", "cursor", boxClip);
      }
    }
    // The bar in the column after the text, while the text has more rows than show.
    const bar = { x: x + width, y: box.y, height };
    paintScrollBar(surface, clip, bar, rows.count, top, disabled);
  }
}

function checkCount(value: number, what: string): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new RangeError(`textArea() needs ${what} to be a whole number from 1, got ${value}`);
  }
  return value;
}

/** Text of several lines. */
export class TextAreaView extends WidgetView {
  readonly #options: TextAreaOptions;

  /** Apps call `textArea()` instead. */
  constructor(options: TextAreaOptions) {
    super();
    this.#options = options;
  }

  /** Makes the widget. */
  protected build(context: MountContext): Widget {
    const options = this.#options;
    const secure = this.isSecure;
    const widget = mountWidget(context, new TextAreaWidget(options, secure), "text_area");
    this.followLabel(context, widget, options.label);
    follow(
      context,
      options.value,
      (value) => {
        const text = normaliseLineBreaks(String(value));
        if (text === widget.lines.value) return; // our own edit coming back
        widget.setText(text);
      },
      "a text area's value",
      secure,
    );
    // An empty area has the value "" from the start, so typing nothing changes no node.
    if (!secure) context.host.tree.setValue(widget.node!, widget.lines.value);
    return widget;
  }
}

/**
 * Text of several lines: its label, then a box of `rows` rows of `columns` cells (and a
 * scroll bar column) that wraps long lines and scrolls to keep the cursor in view. A signal as
 * `value` makes it two-way. Agents type with `type_text` (a `\n` in the text is a line break)
 * and press keys with `press_key`; its node's value is the whole text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { component, textArea } from "@crownui/runtime";
 * import { render } from "@crownui/runtime/testing";
 *
 * let notes = "";
 * await using app = await render(component((cx) => {
 *   const text = cx.signal("Buy milk", { name: "notes" });
 *   cx.effect(() => void (notes = text.get()));
 *   return textArea({ label: "Notes", value: text, columns: 20, rows: 3 });
 * }));
 * const area = app.get({ role: "text_area", name: "Notes" });
 * await app.act(area.id, { action: "type_text", text: "\nCall Anna" });
 * assert.equal(notes, "Buy milk\nCall Anna");
 * // ArrowUp keeps the column: from the end of "Call Anna" to after "Buy milk".
 * await app.press("ArrowUp");
 * await app.type("!");
 * assert.equal(app.get({ role: "text_area" }).value, "Buy milk!\nCall Anna");
 * assert.deepEqual(app.screen().lines.slice(0, 3), [
 *   "Notes:",
 *   "Buy milk!",
 *   "Call Anna",
 * ]);
 * ```
 */
export function textArea(options: TextAreaOptions): TextAreaView {
  if (typeof options !== "object" || options === null || options.value === undefined) {
    throw new TypeError("textArea() takes { label, value, columns?, rows? }");
  }
  checkCount(options.columns ?? DEFAULT_AREA_COLUMNS, "columns");
  checkCount(options.rows ?? DEFAULT_AREA_ROWS, "rows");
  return new TextAreaView(options);
}
