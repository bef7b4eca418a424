/**
 * `text()` and `heading()`: a line of text (role `text` or `heading`; its name is the text).
 *
 * @module
 */

import type { MountContext, Prop } from "../view.ts";
import { LabelWidget, type Widget } from "../widget.ts";
import { mountWidget, WidgetView } from "../widget_view.ts";
import { FAILED_TEXT } from "../binding_failure.ts";
import type { PaintArea } from "../surface.ts";
import { plainText, type Span, type TextContent } from "../style.ts";

/** What `text()` and `heading()` show: a string or spans, plain, bound, or a signal or memo. */
export type TextProp = Prop<string> | Prop<TextContent>;

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

  /** The runs of text with their own styles, when the content has spans; else null. */
  spans: readonly (string | Span)[] | null = null;

  /** Shows `content`: its plain text is the label; spans keep their styles. */
  show(content: TextContent): string {
    const spans = typeof content === "string" ? null : content;
    const label = plainText(content);
    if (spans !== this.spans && label === this.label) this.host.markLayoutDirty(this);
    this.spans = spans;
    this.setLabel(label);
    return label;
  }

  override paint(area: PaintArea): void {
    const style = area.disabled ? "disabled" : this.#kind;
    const spans = this.spans;
    if (spans === null) {
      area.surface.write(area.x, area.y, this.label, style, area.clip);
      return;
    }
    let x = area.x;
    for (const part of spans) {
      x = typeof part === "string"
        ? area.surface.write(x, area.y, part, style, area.clip)
        : area.surface.write(x, area.y, part.text, style, area.clip, part.style);
    }
  }
}

/** A line of text (role `text`; its name is the text). */
export class TextView extends WidgetView {
  readonly #content: TextProp;
  readonly #role: "text" | "heading";

  /** Apps call `text()` or `heading()` instead. */
  constructor(content: TextProp, role: "text" | "heading") {
    super();
    this.#content = content;
    this.#role = role;
  }

  /** Makes the widget. */
  protected build(context: MountContext): Widget {
    const widget = mountWidget(context, new TextWidget(this.#role), this.#role);
    this.followContent(context, widget, this.#content as Prop<TextContent>, (content) => {
      if (typeof content !== "string" && !Array.isArray(content)) content = String(content);
      return widget.show(content);
    }, FAILED_TEXT);
    return widget;
  }
}

/**
 * Shows a line of text: a string, or strings and `span()`s with styles of their own. Its node
 * (role `text`) is named by the plain text.
 *
 * @example A word in the error colour
 * ```ts
 * import assert from "node:assert/strict";
 * import { component, span, text } from "@crownui/runtime";
 * import { render } from "@crownui/runtime/testing";
 *
 * await using app = await render(component(() =>
 *   text(["Sync ", span("failed", { fg: "error", bold: true }), ": offline"])
 * ));
 * assert.equal(app.get({ role: "text" }).name, "Sync failed: offline");
 * ```
 */
export function text(content: TextProp): TextView {
  return new TextView(content, "text");
}

/** Shows a heading: a string, or strings and `span()`s. */
export function heading(content: TextProp): TextView {
  return new TextView(content, "heading");
}
