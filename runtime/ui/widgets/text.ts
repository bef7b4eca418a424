/**
 * `text()` and `heading()`: a line of text (role `text` or `heading`; its name is the text).
 *
 * @module
 */

import type { MountContext, Prop } from "../view.ts";
import { LabelWidget, type Widget } from "../widget.ts";
import { mountWidget, WidgetView } from "../widget_view.ts";
import type { PaintArea } from "../surface.ts";

/** A line of text or a heading. */
export class TextWidget extends LabelWidget {
  readonly #kind: "text" | "heading";

  /** A widget for `text()` or `heading()`. */
  constructor(kind: "text" | "heading") {
    super();
    this.#kind = kind;
  }

  /** `text` or `heading`. */
  override get kind(): "text" | "heading" {
    return this.#kind;
  }

  override paint(area: PaintArea): void {
    const style = area.disabled ? "disabled" : this.#kind;
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

  /** Makes the widget. */
  protected build(context: MountContext): Widget {
    const widget = mountWidget(context, new TextWidget(this.#role), this.#role);
    this.followLabel(context, widget, this.#content);
    return widget;
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
