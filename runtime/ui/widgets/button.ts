/**
 * `button()`: a push button, `[ label ]`, that runs its handler on a click or on Enter or
 * Space while focused.
 *
 * @module
 */

import type { Rt } from "../rt.ts";
import { settleHandler } from "../handler.ts";
import { interactiveStyle, labelThatFits, type PaintArea } from "../surface.ts";
import type { MountContext, Prop } from "../view.ts";
import { LabelWidget, type Widget } from "../widget.ts";
import { mountWidget, WidgetView } from "../widget_view.ts";

/** A handler of a click or a key: gets the app's `rt`. */
export type Handler = (rt: Rt) => void;

/** A push button: `[ label ]`. */
export class ButtonWidget extends LabelWidget {
  readonly #onClick: Handler;

  /** A button that calls `onClick`. */
  constructor(onClick: Handler) {
    super();
    this.#onClick = onClick;
  }

  override get kind(): "button" {
    return "button";
  }

  override get focusable(): boolean {
    return true;
  }

  override face(): string {
    return `[ ${this.label} ]`;
  }

  override paint(area: PaintArea): void {
    // Cut, `[ Save ch… ]`: the brackets stay, the label ends in `…`.
    const face = `[ ${labelThatFits(area, this.face(), this.label)} ]`;
    area.surface.write(area.x, area.y, face, interactiveStyle(area, "button"), area.clip);
  }

  override activate(rt: Rt): void {
    settleHandler(this, "the click handler", this.#onClick(rt));
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

  /** Makes the widget. */
  protected build(context: MountContext): Widget {
    const widget = mountWidget(context, new ButtonWidget(this.#onClick), "button");
    this.followLabel(context, widget, this.#label);
    return widget;
  }
}

/** A button that calls `onClick` when clicked, or on Enter or Space while focused. */
export function button(label: Prop<string>, onClick: Handler): ButtonView {
  if (typeof onClick !== "function") {
    throw new TypeError("button() takes a label and a click handler (rt) => void");
  }
  return new ButtonView(label, onClick);
}
