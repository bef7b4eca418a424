/**
 * `textField()`: a single-line text field, `label: [text      ]`, with its cursor, selection
 * and the usual editing keys. A signal makes it two-way; `.secure()` keeps its value off the
 * tree and refuses agents' typing.
 *
 * @module
 */

import { cellWidth, graphemeWidth, splitGraphemes } from "../../text/cell_width.ts";
import type { Keybind } from "../../text/keybind.ts";
import { intersectRects } from "../../text/rect.ts";
import { TextEditState } from "../../text/text_edit.ts";
import { Signal } from "../../reactive/mod.ts";
import type { Rt } from "../rt.ts";
import { settleHandler } from "../handler.ts";
import type { PaintArea } from "../surface.ts";
import { follow, type MountContext, type Prop } from "../view.ts";
import { LabelWidget, type Size, type Widget } from "../widget.ts";
import { mountWidget, WidgetView } from "../widget_view.ts";

/** What `textField()` takes. */
export interface TextFieldOptions {
  /** The accessible name, shown before the field. */
  label: Prop<string>;
  /** A signal makes the field two-way; a plain string is its initial text. */
  value: Prop<string>;
  /** Called with the text on Enter. */
  onSubmit?: (value: string, rt: Rt) => void;
  /** The field's width in cells, without label (20 by default). */
  columns?: number;
}

/** The width of a text field's box when not given. */
export const DEFAULT_FIELD_COLUMNS = 20;

/** One grapheme of a text field's shown text, with where it sits in the value. */
interface ShownGrapheme {
  text: string;
  width: number;
  /** UTF-16 offsets in the value. */
  start: number;
  end: number;
}

function shownGraphemes(value: string, secure: boolean): ShownGrapheme[] {
  const shown: ShownGrapheme[] = [];
  let offset = 0;
  for (const grapheme of splitGraphemes(value)) {
    const start = offset;
    offset += grapheme.length;
    if (secure) shown.push({ text: "•", width: 1, start, end: offset });
    else shown.push({ text: grapheme, width: graphemeWidth(grapheme), start, end: offset });
  }
  return shown;
}

/** A single-line text field: `label: [text      ]`, with its cursor and selection. */
export class TextFieldWidget extends LabelWidget {
  /** The text being edited, with its cursor and selection. */
  readonly edit: TextEditState = new TextEditState();
  /** The width of the box in cells. */
  readonly columns: number;
  /** The first cell of the text shown in the box, so that the cursor stays in view. */
  shownFrom = 0;
  readonly #options: TextFieldOptions;
  readonly #secure: boolean;

  /** A field as `options` describe it; `secure` keeps its value off its node. */
  constructor(options: TextFieldOptions, secure: boolean) {
    super();
    this.#options = options;
    this.#secure = secure;
    this.columns = options.columns ?? DEFAULT_FIELD_COLUMNS;
  }

  override get kind(): "text_field" {
    return "text_field";
  }

  override get focusable(): boolean {
    return true;
  }

  override get textEdit(): TextEditState {
    return this.edit;
  }

  /** The label and the opening bracket; the box and `]` follow. */
  override face(): string {
    return `${this.label}: [`;
  }

  override measure(): Size {
    return { width: cellWidth(this.face()) + this.columns + 1, height: 1 };
  }

  /** The value changed: its node shows it (unless secure), and it is drawn anew. */
  showValue(): void {
    if (!this.#secure && this.node !== null) this.host.tree.setValue(this.node, this.edit.value);
    this.host.markLayoutDirty(this); // the cursor and text are drawn anew
  }

  #changed(): void {
    const source = this.#options.value;
    if (source instanceof Signal) source.set(this.edit.value);
    this.showValue();
  }

  override insertText(typed: string): void {
    this.edit.insert(typed);
    this.#changed();
  }

  override key(keybind: Keybind, rt: Rt): boolean {
    const { edit } = this;
    if (keybind.key === "Enter" && !keybind.ctrl && !keybind.alt && !keybind.meta) {
      if (this.#options.onSubmit === undefined) return false;
      settleHandler(this, "the submit handler", this.#options.onSubmit(edit.value, rt));
      return true;
    }
    const before = edit.value;
    if (!edit.applyKey(keybind)) return false;
    if (edit.value !== before) this.#changed();
    else this.host.markLayoutDirty(this);
    return true;
  }

  override doubleClick(): void {
    this.edit.selectAll();
  }

  override paint(area: PaintArea): void {
    const { surface, x, y, clip, focused, disabled } = area;
    const { columns, edit } = this;
    const labelStyle = disabled ? "disabled" : focused ? "heading" : "text";
    const boxX = surface.write(x, y, this.face(), labelStyle, clip);
    const box = { x: boxX, y, width: columns, height: 1 };
    const boxClip = intersectRects(clip, box);
    const fieldStyle = disabled ? "disabled" : "field";
    surface.fill(box, fieldStyle, clip);
    surface.write(boxX + columns, y, "]", labelStyle, clip);

    const shown = shownGraphemes(edit.value, this.secure);
    const selection = edit.selection;
    // The cell the cursor is in, counted from the start of the text.
    let cursorCell = 0;
    for (const grapheme of shown) {
      if (grapheme.start >= edit.cursor) break;
      cursorCell += grapheme.width;
    }
    // Scroll the text sideways just enough to keep the cursor in the box.
    let offset = this.shownFrom;
    if (cursorCell < offset) offset = cursorCell;
    if (cursorCell >= offset + columns) offset = cursorCell - columns + 1;
    let total = 0;
    for (const grapheme of shown) total += grapheme.width;
    if (total < columns) offset = 0;
    this.shownFrom = offset;

    let cell = 0;
    for (const grapheme of shown) {
      const at = cell;
      cell += grapheme.width;
      if (cell <= offset) continue;
      if (at - offset >= columns) break;
      const selected = selection !== null && grapheme.start >= selection.start &&
        grapheme.end <= selection.end;
      const style = focused && selected ? "cursor" : fieldStyle;
      surface.write(boxX + at - offset, y, grapheme.text, style, boxClip);
    }
    if (focused && selection === null) {
      const under = shown.find((grapheme) => grapheme.start === edit.cursor);
      surface.write(boxX + cursorCell - offset, y, under?.text ?? " ", "cursor", boxClip);
    }
  }
}

/** A single-line text field. */
export class TextFieldView extends WidgetView {
  readonly #options: TextFieldOptions;

  /** Apps call `textField()` instead. */
  constructor(options: TextFieldOptions) {
    super();
    this.#options = options;
  }

  /** Makes the widget. */
  protected build(context: MountContext): Widget {
    const options = this.#options;
    const secure = this.isSecure;
    const widget = mountWidget(context, new TextFieldWidget(options, secure), "text_field");
    const edit = widget.edit;
    this.followLabel(context, widget, options.label);
    follow(
      context,
      options.value,
      (value) => {
        if (String(value) === edit.value) return; // our own edit coming back
        edit.setValue(String(value));
        widget.showValue();
      },
      "a text field's value",
      secure,
    );
    // An empty field has the value "" from the start, so typing nothing changes no node.
    if (!secure) context.host.tree.setValue(widget.node!, edit.value);
    return widget;
  }
}

/** A single-line text field. */
export function textField(options: TextFieldOptions): TextFieldView {
  if (typeof options !== "object" || options === null || options.value === undefined) {
    throw new TypeError("textField() takes { label, value, onSubmit? }");
  }
  return new TextFieldView(options);
}
