/**
 * The leaf widgets: text, heading, button, checkbox, text field, slider, and `widget()` for
 * an app's own. Each sets its node's role, name, value and states, and the input it handles.
 *
 * @module
 */

import { cellWidth } from "../text/cell_width.ts";
import type { Keybind } from "../text/keybind.ts";
import { TextEditState } from "../text/text_edit.ts";
import { Signal } from "../reactive/mod.ts";
import { isRole, type Role } from "../semantics/mod.ts";
import type { Element } from "./element.ts";
import type { Rt } from "./rt.ts";
import { Binding, follow, type MountContext, type Prop, type View } from "./view.ts";
import {
  createElement,
  followName,
  measureVisualLabel,
  mountChildren,
  setVisualLabel,
  WidgetView,
} from "./widget_view.ts";

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
    const element = createElement(context, this.#role, this.#role);
    measureVisualLabel(element);
    this.followLabel(context, element, this.#content);
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
    const element = createElement(context, "button", "button");
    measureVisualLabel(element, 4); // "[ " and " ]"
    this.followLabel(context, element, this.#label);
    element.behavior = { focusable: true, activate: this.#onClick };
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
    const element = createElement(context, "checkbox", "checkbox");
    const node = element.node!;
    const tree = context.host.tree;
    measureVisualLabel(element, 4); // "[x] "
    this.followLabel(context, element, this.#label);
    const show = (checked: boolean) => {
      element.state.checked = checked;
      tree.setState(node, "checked", checked);
    };
    follow(context, this.#checked, (checked) => show(Boolean(checked)));
    const source = this.#checked;
    element.behavior = {
      focusable: true,
      activate: (rt) => {
        // The signal, not the shown state: a second toggle before the frame sees the first.
        const current = source instanceof Signal ? source.get() : element.state.checked;
        const next = !current;
        if (source instanceof Signal) source.set(next);
        else if (!(source instanceof Binding)) show(next); // a plain value: the box keeps its own state
        this.#onToggle?.(next, rt);
      },
    };
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
    const element = createElement(context, "text_field", "text_field");
    const node = element.node!;
    const tree = context.host.tree;
    const edit = new TextEditState();
    element.state.edit = edit;
    const columns = options.columns ?? DEFAULT_FIELD_COLUMNS;
    element.state.columns = columns;
    measureVisualLabel(element, 2 + 2 + columns); // ": " + "[" + box + "]"
    this.followLabel(context, element, options.label);
    const secure = this.isSecure;
    const source = options.value;
    const showValue = () => {
      if (!secure) tree.setValue(node, edit.value);
      context.host.markLayoutDirty(element); // the cursor and text are drawn anew
    };
    follow(
      context,
      source,
      (value) => {
        if (String(value) === edit.value) return; // our own edit coming back
        edit.setValue(String(value));
        showValue();
      },
      "a text field's value",
      secure,
    );
    // An empty field has the value "" from the start, so typing nothing changes no node.
    if (!secure) tree.setValue(node, edit.value);
    const changed = () => {
      if (source instanceof Signal) source.set(edit.value);
      showValue();
    };
    element.behavior = {
      focusable: true,
      insertText: (typed) => {
        edit.insert(typed);
        changed();
      },
      key: (keybind: Keybind, rt) => {
        if (keybind.key === "Enter" && !keybind.ctrl && !keybind.alt && !keybind.meta) {
          if (options.onSubmit === undefined) return false;
          options.onSubmit(edit.value, rt);
          return true;
        }
        const before = edit.value;
        if (!edit.applyKey(keybind)) return false;
        if (edit.value !== before) changed();
        else context.host.markLayoutDirty(element);
        return true;
      },
      doubleClick: () => edit.selectAll(),
    };
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
    const step = this.#options.step ?? 1;
    const element = createElement(context, "slider", "slider");
    const node = element.node!;
    const tree = context.host.tree;
    element.state.range = { min, max, step };
    this.followLabel(context, element, this.#options.label);
    element.measureContent = () => ({
      // "label [track] value"
      width: cellWidth(String(element.state.visual)) + 1 + SLIDER_TRACK + 2 + 1 +
        cellWidth(String(element.state.value)),
      height: 1,
    });
    const secure = this.isSecure;
    const show = (value: number) => {
      element.state.value = value;
      if (!secure) tree.setValue(node, String(value));
      context.host.markLayoutDirty(element);
    };
    follow(
      context,
      source,
      (value) => show(clamp(Number(value), min, max)),
      "a slider's value",
      secure,
    );
    const moveTo = (raw: number) => {
      const snapped = clamp(min + Math.round((raw - min) / step) * step, min, max);
      const next = Number(snapped.toFixed(10)); // no 0.30000000000000004
      if (source instanceof Signal ? next === source.get() : next === element.state.value) return;
      if (source instanceof Signal) source.set(next);
      if (!(source instanceof Signal) && !(source instanceof Binding)) show(next);
    };
    element.behavior = {
      focusable: true,
      key: (keybind) => {
        // The signal, not the shown value: a second key before the frame sees the first.
        const current = source instanceof Signal
          ? clamp(Number(source.get()), min, max)
          : Number(element.state.value);
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
        moveTo(target);
        return true;
      },
      dragTo: (x, _y) => {
        const trackStart = cellWidth(String(element.state.visual)) + 2;
        const fraction = clamp((x - trackStart) / (SLIDER_TRACK - 1), 0, 1);
        moveTo(min + fraction * (max - min));
      },
    };
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
    const element = createElement(context, "widget", visible ? options.role! : null);
    const node = element.node;
    const tree = context.host.tree;
    if (options.direction !== undefined) element.style.direction = options.direction;
    if (options.content !== undefined) {
      measureVisualLabel(element);
      follow(context, options.content, (value) => setVisualLabel(element, String(value)));
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
    const behavior: Element["behavior"] = { focusable: options.focusable ?? false };
    if (options.onClick) behavior.activate = options.onClick;
    if (options.onKey) behavior.key = options.onKey;
    element.behavior = behavior;
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
