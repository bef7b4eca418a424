/**
 * `checkbox()`: `[x] label`, toggled by a click or by Enter or Space while focused. A signal
 * makes it two-way; a plain boolean is its initial state.
 *
 * @module
 */

import { settleHandler } from "../handler.ts";
import { Signal } from "../../reactive/mod.ts";
import type { Rt } from "../rt.ts";
import { fitFrom, interactiveStyle, type PaintArea } from "../surface.ts";
import { Binding, follow, type MountContext, type Prop } from "../view.ts";
import { LabelWidget, type Widget } from "../widget.ts";
import { mountWidget, WidgetView } from "../widget_view.ts";

/** A checkbox: `[x] label`. */
export class CheckboxWidget extends LabelWidget {
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

  override get kind(): string {
    return "checkbox";
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
    if (this.node !== null) this.host.tree.setState(this.node, "checked", checked);
  }

  override paint(area: PaintArea): void {
    const { surface, x, y, clip } = area;
    const style = interactiveStyle(area, "text");
    const after = surface.write(x, y, "[", style, clip);
    const markStyle = this.checked && style === "text" ? "checked" : style;
    const mark = surface.write(after, y, this.checked ? "x" : " ", markStyle, clip);
    surface.write(mark, y, fitFrom(area, mark, `] ${this.label}`), style, clip);
  }

  override activate(rt: Rt): void {
    const source = this.#source;
    // The signal, not the shown state: a second toggle before the frame sees the first.
    const current = source instanceof Signal ? source.get() : this.checked;
    const next = !current;
    if (source instanceof Signal) source.set(next);
    else if (!(source instanceof Binding)) this.show(next); // a plain value: the box keeps its own state
    settleHandler(this, "the change handler", this.#onToggle?.(next, rt));
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

  /** Makes the widget. */
  protected build(context: MountContext): Widget {
    const widget = mountWidget(
      context,
      new CheckboxWidget(this.#checked, this.#onToggle),
      "checkbox",
    );
    this.followLabel(context, widget, this.#label);
    follow(context, this.#checked, (checked) => widget.show(Boolean(checked)));
    return widget;
  }
}

/** A checkbox labelled `label`. */
export function checkbox(label: Prop<string>, checked: Prop<boolean>): CheckboxView {
  return new CheckboxView(label, checked);
}
