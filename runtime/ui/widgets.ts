/**
 * The leaf widgets: text, heading, button, checkbox, text field, slider, and `widget()` for
 * an app's own. Each view sets its node's role, name, value and states; its widget measures
 * and paints it and handles its input, all in one place.
 *
 * @module
 */

import { cellWidth, graphemeWidth, splitGraphemes } from "../text/cell_width.ts";
import type { Keybind } from "../text/keybind.ts";
import { intersectRects } from "../text/rect.ts";
import { TextEditState } from "../text/text_edit.ts";
import { Signal } from "../reactive/mod.ts";
import { isRole, type Role } from "../semantics/mod.ts";
import type { Element, Size } from "./element.ts";
import type { Rt } from "./rt.ts";
import { interactiveStyle, type PaintArea } from "./surface.ts";
import { Binding, follow, type MountContext, type Prop, type View } from "./view.ts";
import { LabelWidget } from "./widget.ts";
import { createElement, followName, mountChildren, WidgetView } from "./widget_view.ts";

/** A line of text or a heading. */
export class TextWidget extends LabelWidget {
  /** `text` or `heading`. */
  readonly kind: "text" | "heading";

  /** A widget for `text()` or `heading()`. */
  constructor(kind: "text" | "heading") {
    super();
    this.kind = kind;
  }

  override paint(_element: Element, area: PaintArea): void {
    const style = area.disabled ? "disabled" : this.kind;
    area.surface.write(area.x, area.y, this.label, style, area.clip);
  }
}

/** A line of text (role `text`; its name is the text). */
export class TextView extends WidgetView {
  readonly #content: Prop<string>;
  readonly #role: "text" | "heading";

  /** Apps call `text()` or `heading()` instead. */
  constructor(content: Prop<string>, role: "text" | "heading") {
    super();
    this.#content = content;
    this.#role = role;
  }

  /** Makes the element. */
  protected build(context: MountContext): Element {
    const widget = new TextWidget(this.#role);
    const element = createElement(context, widget, this.#role);
    this.followLabel(context, element, widget, this.#content);
    return element;
  }
}

/** Shows a line of text. */
export function text(content: Prop<string>): TextView {
  return new TextView(content, "text");
}

/** Shows a heading. */
export function heading(content: Prop<string>): TextView {
  return new TextView(content, "heading");
}

/** A handler of a click or a key: gets the app's `rt`. */
export type Handler = (rt: Rt) => void;

/** A push button: `[ label ]`. */
export class ButtonWidget extends LabelWidget {
  get kind(): "button" {
    return "button";
  }
  readonly #onClick: Handler;

  /** A button that calls `onClick`. */
  constructor(onClick: Handler) {
    super();
    this.#onClick = onClick;
  }

  override get focusable(): boolean {
    return true;
  }

  override face(): string {
    return `[ ${this.label} ]`;
  }

  override paint(_element: Element, area: PaintArea): void {
    area.surface.write(area.x, area.y, this.face(), interactiveStyle(area, "button"), area.clip);
  }

  override activate(rt: Rt): void {
    this.#onClick(rt);
  }
}

/** A push button. */
export class ButtonView extends WidgetView {
  readonly #label: Prop<string>;
  readonly #onClick: Handler;

  /** Apps call `button()` instead. */
  constructor(label: Prop<string>, onClick: Handler) {
    super();
    this.#label = label;
    this.#onClick = onClick;
  }

  /** Makes the element. */
  protected build(context: MountContext): Element {
    const widget = new ButtonWidget(this.#onClick);
    const element = createElement(context, widget, "button");
    this.followLabel(context, element, widget, this.#label);
    return element;
  }
}

/** A button that calls `onClick` when clicked, or on Enter or Space while focused. */
export function button(label: Prop<string>, onClick: Handler): ButtonView {
  if (typeof onClick !== "function") {
    throw new TypeError("button() takes a label and a click handler (rt) => void");
  }
  return new ButtonView(label, onClick);
}

/** A checkbox: `[x] label`. */
export class CheckboxWidget extends LabelWidget {
  get kind(): "checkbox" {
    return "checkbox";
  }
  /** The state it shows. */
  checked = false;
  readonly #source: Prop<boolean>;
  readonly #onToggle: ((checked: boolean, rt: Rt) => void) | undefined;

  /** A checkbox following `source`, calling `onToggle` when toggled. */
  constructor(source: Prop<boolean>, onToggle: ((checked: boolean, rt: Rt) => void) | undefined) {
    super();
    this.#source = source;
    this.#onToggle = onToggle;
  }

  override get focusable(): boolean {
    return true;
  }

  override face(): string {
    return `[${this.checked ? "x" : " "}] ${this.label}`;
  }

  /** Shows `checked` on the box and its node. */
  show(checked: boolean): void {
    this.checked = checked;
    const node = this.element.node;
    if (node !== null) this.element.host.tree.setState(node, "checked", checked);
  }

  override paint(_element: Element, area: PaintArea): void {
    const { surface, x, y, clip } = area;
    const style = interactiveStyle(area, "text");
    const after = surface.write(x, y, "[", style, clip);
    const markStyle = this.checked && style === "text" ? "checked" : style;
    const mark = surface.write(after, y, this.checked ? "x" : " ", markStyle, clip);
    surface.write(mark, y, `] ${this.label}`, style, clip);
  }

  override activate(rt: Rt): void {
    const source = this.#source;
    // The signal, not the shown state: a second toggle before the frame sees the first.
    const current = source instanceof Signal ? source.get() : this.checked;
    const next = !current;
    if (source instanceof Signal) source.set(next);
    else if (!(source instanceof Binding)) this.show(next); // a plain value: the box keeps its own state
    this.#onToggle?.(next, rt);
  }

  override inspect(): Record<string, unknown> {
    return { visual: this.label, checked: this.checked };
  }
}

/** A checkbox: a signal makes it two-way; a plain boolean is its initial state. */
export class CheckboxView extends WidgetView {
  readonly #label: Prop<string>;
  readonly #checked: Prop<boolean>;
  #onToggle: ((checked: boolean, rt: Rt) => void) | undefined;

  /** Apps call `checkbox()` instead. */
  constructor(label: Prop<string>, checked: Prop<boolean>) {
    super();
    this.#label = label;
    this.#checked = checked;
  }

  /** Calls `fn` with the new state each time the user or an agent toggles it. */
  onToggle(fn: (checked: boolean, rt: Rt) => void): this {
    this.#onToggle = fn;
    return this;
  }

  /** Makes the element. */
  protected build(context: MountContext): Element {
    const widget = new CheckboxWidget(this.#checked, this.#onToggle);
    const element = createElement(context, widget, "checkbox");
    this.followLabel(context, element, widget, this.#label);
    follow(context, this.#checked, (checked) => widget.show(Boolean(checked)));
    return element;
  }
}

/** A checkbox labelled `label`. */
export function checkbox(label: Prop<string>, checked: Prop<boolean>): CheckboxView {
  return new CheckboxView(label, checked);
}

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
  get kind(): "text_field" {
    return "text_field";
  }
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
    const { element } = this;
    if (!this.#secure && element.node !== null) {
      element.host.tree.setValue(element.node, this.edit.value);
    }
    element.host.markLayoutDirty(element); // the cursor and text are drawn anew
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
      this.#options.onSubmit(edit.value, rt);
      return true;
    }
    const before = edit.value;
    if (!edit.applyKey(keybind)) return false;
    if (edit.value !== before) this.#changed();
    else this.element.host.markLayoutDirty(this.element);
    return true;
  }

  override doubleClick(): void {
    this.edit.selectAll();
  }

  override paint(element: Element, area: PaintArea): void {
    const { surface, x, y, clip, focused, disabled } = area;
    const { columns, edit } = this;
    const labelStyle = disabled ? "disabled" : focused ? "heading" : "text";
    const boxX = surface.write(x, y, this.face(), labelStyle, clip);
    const box = { x: boxX, y, width: columns, height: 1 };
    const boxClip = intersectRects(clip, box);
    const fieldStyle = disabled ? "disabled" : "field";
    surface.fill(box, fieldStyle, clip);
    surface.write(boxX + columns, y, "]", labelStyle, clip);

    const shown = shownGraphemes(edit.value, element.secure);
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

  override inspect(): Record<string, unknown> {
    return { visual: this.label, edit: this.edit, columns: this.columns };
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

  /** Makes the element. */
  protected build(context: MountContext): Element {
    const options = this.#options;
    const secure = this.isSecure;
    const widget = new TextFieldWidget(options, secure);
    const element = createElement(context, widget, "text_field");
    const edit = widget.edit;
    this.followLabel(context, element, widget, options.label);
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
    if (!secure) context.host.tree.setValue(element.node!, edit.value);
    return element;
  }
}

/** A single-line text field. */
export function textField(options: TextFieldOptions): TextFieldView {
  if (typeof options !== "object" || options === null || options.value === undefined) {
    throw new TypeError("textField() takes { label, value, onSubmit? }");
  }
  return new TextFieldView(options);
}

/** What `slider()` takes. */
export interface SliderOptions {
  /** The accessible name, shown before the track. */
  label: Prop<string>;
  /** A signal makes the slider two-way; a plain number is its initial value. */
  value: Prop<number>;
  /** The lowest value. */
  min: number;
  /** The highest value; above `min`. */
  max: number;
  /** The smallest change (1 by default). */
  step?: number;
}

/** The width of a slider's track in cells. */
export const SLIDER_TRACK = 20;

/** A slider: `label [━━━●────] value`. */
export class SliderWidget extends LabelWidget {
  get kind(): "slider" {
    return "slider";
  }
  /** The value shown. */
  value = 0;
  /** The lowest value. */
  readonly min: number;
  /** The highest value. */
  readonly max: number;
  /** The smallest change. */
  readonly step: number;
  readonly #source: Prop<number>;
  readonly #secure: boolean;

  /** A slider as `options` describe it; `secure` keeps its value off its node. */
  constructor(options: SliderOptions, secure: boolean) {
    super();
    this.min = options.min;
    this.max = options.max;
    this.step = options.step ?? 1;
    this.#source = options.value;
    this.#secure = secure;
  }

  override get focusable(): boolean {
    return true;
  }

  /** The label and the opening bracket; the track and `] value` follow. */
  override face(): string {
    return `${this.label} [`;
  }

  override measure(): Size {
    const width = cellWidth(this.face()) + SLIDER_TRACK + cellWidth(`] ${this.value}`);
    return { width, height: 1 };
  }

  /** Shows `value` on the track and its node. */
  show(value: number): void {
    const { element } = this;
    this.value = value;
    if (!this.#secure && element.node !== null) {
      element.host.tree.setValue(element.node, String(value));
    }
    element.host.markLayoutDirty(element);
  }

  #moveTo(raw: number): void {
    const { min, max, step } = this;
    const source = this.#source;
    const snapped = clamp(min + Math.round((raw - min) / step) * step, min, max);
    const next = Number(snapped.toFixed(10)); // no 0.30000000000000004
    if (source instanceof Signal ? next === source.get() : next === this.value) return;
    if (source instanceof Signal) source.set(next);
    if (!(source instanceof Signal) && !(source instanceof Binding)) this.show(next);
  }

  override key(keybind: Keybind): boolean {
    const { min, max, step } = this;
    const source = this.#source;
    // The signal, not the shown value: a second key before the frame sees the first.
    const current = source instanceof Signal ? clamp(Number(source.get()), min, max) : this.value;
    const moves: Record<string, number> = {
      ArrowRight: current + step,
      ArrowUp: current + step,
      ArrowLeft: current - step,
      ArrowDown: current - step,
      PageUp: current + 10 * step,
      PageDown: current - 10 * step,
      Home: min,
      End: max,
    };
    const target = moves[keybind.key];
    if (target === undefined || keybind.ctrl || keybind.alt || keybind.meta) return false;
    this.#moveTo(target);
    return true;
  }

  override dragTo(x: number, _y: number): void {
    const trackStart = cellWidth(this.face());
    const fraction = clamp((x - trackStart) / (SLIDER_TRACK - 1), 0, 1);
    this.#moveTo(this.min + fraction * (this.max - this.min));
  }

  override paint(_element: Element, area: PaintArea): void {
    const { surface, x, y, clip, disabled } = area;
    const style = interactiveStyle(area, "text");
    const { min, max, value } = this;
    let cursor = surface.write(x, y, this.face(), style, clip);
    const fraction = max === min ? 0 : (value - min) / (max - min);
    const thumb = Math.round(Math.min(1, Math.max(0, fraction)) * (SLIDER_TRACK - 1));
    const trackStyle = disabled ? "disabled" : "track";
    const thumbStyle = disabled ? "disabled" : "thumb";
    cursor = surface.write(cursor, y, "━".repeat(thumb), thumbStyle, clip);
    cursor = surface.write(cursor, y, "●", thumbStyle, clip);
    cursor = surface.write(cursor, y, "─".repeat(SLIDER_TRACK - 1 - thumb), trackStyle, clip);
    surface.write(cursor, y, `] ${value}`, style, clip);
  }

  override inspect(): Record<string, unknown> {
    const { min, max, step } = this;
    return { visual: this.label, value: this.value, range: { min, max, step } };
  }
}

/** A slider over a range of numbers. */
export class SliderView extends WidgetView {
  readonly #options: SliderOptions;

  /** Apps call `slider()` instead. */
  constructor(options: SliderOptions) {
    super();
    this.#options = options;
  }

  /** Makes the element. */
  protected build(context: MountContext): Element {
    const { min, max, value: source } = this.#options;
    const widget = new SliderWidget(this.#options, this.isSecure);
    const element = createElement(context, widget, "slider");
    this.followLabel(context, element, widget, this.#options.label);
    follow(
      context,
      source,
      (value) => widget.show(clamp(Number(value), min, max)),
      "a slider's value",
      this.isSecure,
    );
    return element;
  }
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}

/** A slider from `min` to `max`. */
export function slider(options: SliderOptions): SliderView {
  const { min, max } = options;
  const step = options.step ?? 1;
  if (!(Number.isFinite(min) && Number.isFinite(max) && min < max)) {
    throw new RangeError(`slider() needs finite min < max, got min ${min} and max ${max}`);
  }
  if (!(Number.isFinite(step) && step > 0)) {
    throw new RangeError(`slider() needs a step above 0, got ${step}`);
  }
  return new SliderView(options);
}

/** What an app's own widget is: its role, name and the input it handles. */
export interface WidgetOptions {
  /** The role; without one (or without a name) the widget is invisible to agents. */
  role?: Role;
  /** The accessible name agents and screen readers know it by. */
  name?: Prop<string>;
  /** The value agents read, such as a progress bar's percentage. */
  value?: Prop<string>;
  /** Whether the node has the `checked` state. */
  checked?: Prop<boolean>;
  /** Whether the node has the `selected` state. */
  selected?: Prop<boolean>;
  /** Whether the node has the `expanded` state. */
  expanded?: Prop<boolean>;
  /** The text it draws on its own line. */
  content?: Prop<string>;
  /** Whether Tab and clicks can focus it; false by default. */
  focusable?: boolean;
  /** Runs on a click, or on Enter or Space while it has focus. */
  onClick?: Handler;
  /** Handles a key while it has focus; returns true when handled, else the parent gets the key. */
  onKey?: (keybind: Keybind, rt: Rt) => boolean;
  /** Lays children out in a row instead of a column. */
  direction?: "row" | "column";
}

/** An app's own widget: its content line, and the input its options handle. */
export class CustomWidget extends LabelWidget {
  get kind(): "widget" {
    return "widget";
  }
  readonly #focusable: boolean;
  readonly #content: boolean;

  /** A widget as `options` describe it. */
  constructor(options: WidgetOptions) {
    super();
    this.#focusable = options.focusable ?? false;
    this.#content = options.content !== undefined;
    if (options.onClick) this.activate = options.onClick;
    if (options.onKey) this.key = options.onKey;
  }

  override get focusable(): boolean {
    return this.#focusable;
  }

  override measure(): Size | null {
    return this.#content ? super.measure() : null;
  }

  override paint(_element: Element, area: PaintArea): void {
    if (this.label === "") return;
    const style = area.disabled ? "disabled" : "text";
    area.surface.write(area.x, area.y, this.label, style, area.clip);
  }
}

/** An app's own widget. */
export class CustomView extends WidgetView {
  readonly #options: WidgetOptions;
  readonly #children: readonly View[];

  /** Apps call `widget()` instead. */
  constructor(options: WidgetOptions, children: readonly View[]) {
    super();
    this.#options = options;
    this.#children = children;
  }

  /** Makes the element. */
  protected build(context: MountContext): Element {
    const options = this.#options;
    const name = this.nameProp(options.name);
    const visible = options.role !== undefined && name !== undefined;
    const widget = new CustomWidget(options);
    const element = createElement(context, widget, visible ? options.role! : null);
    const node = element.node;
    const tree = context.host.tree;
    if (options.direction !== undefined) element.setStyle({ direction: options.direction });
    if (options.content !== undefined) {
      follow(context, options.content, (value) => widget.setLabel(String(value)));
    }
    if (node !== null) {
      followName(context, element, name);
      if (options.value !== undefined) {
        const secure = this.isSecure;
        follow(
          context,
          options.value,
          (value) => {
            if (!secure) tree.setValue(node, String(value));
          },
          "a widget's value",
          secure,
        );
      }
      for (const state of ["checked", "selected", "expanded"] as const) {
        const prop = options[state];
        if (prop !== undefined) {
          follow(context, prop, (on) => tree.setState(node, state, Boolean(on)));
        }
      }
    }
    mountChildren(context, element, this.#children);
    return element;
  }
}

/**
 * An app's own widget with a role and a name of its choosing. One without a role or a name
 * stays invisible to agents, as it would to a screen reader; its children still show.
 */
export function widget(options: WidgetOptions, ...children: View[]): CustomView {
  if (options.role !== undefined && !isRole(options.role)) {
    throw new TypeError(
      `widget() got an unknown role ${
        JSON.stringify(options.role)
      }; use one of the snake_case roles such as button, checkbox, list_item`,
    );
  }
  return new CustomView(options, children);
}
