/**
 * `text()` and `heading()`: a line of text (role `text` or `heading`; its name is the text).
 * Each `\n` starts a line; a line longer than its room ends in `…`, or, with `.wrap()`, the
 * text breaks at word boundaries. The node's name is always the whole text.
 *
 * @module
 */

import { insetX } from "../../layout/node.ts";
import { ELLIPSIS, fitText, type TextLine, textSize } from "../../text/fit.ts";
import type { MountContext, Prop } from "../view.ts";
import { LabelWidget, type Size, type Widget } from "../widget.ts";
import { mountWidget, WidgetView } from "../widget_view.ts";
import { FAILED_TEXT } from "../binding_failure.ts";
import type { PaintArea, StyleName } from "../surface.ts";
import { plainText, type Span, type TextContent, type TextStyle } from "../style.ts";

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

  /** Its lines: as wide as the widest, one row each (`\n` starts one). */
  override measure(): Size {
    return textSize(this.label);
  }

  /** The lines it shows in `width` cells and `height` rows. */
  protected lines(width: number, height: number): TextLine[] {
    return fitText(this.label, width, { maxLines: Math.max(1, height) });
  }

  override paint(area: PaintArea): void {
    const style = area.disabled ? "disabled" : this.#kind;
    // The room is what shows: a box that runs past its parent's is cut where the clip is.
    const room = Math.min(area.width, area.clip.x + area.clip.width - area.x);
    // The common case, decided from what layout measured: one line of plain text, no frame or
    // size of its own, that fits. (Its natural size is its line's, measured this frame.)
    const record = this.layout;
    if (
      this.spans === null && record.naturalHeight === 1 && record.naturalWidth <= room &&
      record.style.width === undefined && record.style.height === undefined &&
      !record.style.extras && !this.wraps
    ) {
      area.surface.write(area.x, area.y, this.label, style, area.clip);
      return;
    }
    const lines = this.lines(room, area.height);
    for (let index = 0; index < lines.length; index++) {
      this.#paintLine(area, area.y + index, lines[index]!, style);
    }
  }

  /** True for a text that wraps at word boundaries. */
  protected get wraps(): boolean {
    return false;
  }

  /** Paints one line: its part of the text, span by span, then `…` if it was cut. */
  #paintLine(area: PaintArea, y: number, line: TextLine, style: StyleName): void {
    const { surface, clip } = area;
    const spans = this.spans;
    if (spans === null) {
      const shown = this.label.slice(line.start, line.end) + (line.ellipsis ? ELLIPSIS : "");
      surface.write(area.x, y, shown, style, clip);
      return;
    }
    let x = area.x;
    let offset = 0;
    let last: Readonly<TextStyle> | null = null;
    for (const part of spans) {
      const text = typeof part === "string" ? part : part.text;
      const from = Math.max(offset, line.start);
      const to = Math.min(offset + text.length, line.end);
      if (from < to) {
        last = typeof part === "string" ? null : part.style;
        x = surface.write(x, y, text.slice(from - offset, to - offset), style, clip, last);
      }
      offset += text.length;
      if (offset >= line.end) break;
    }
    if (line.ellipsis) surface.write(x, y, ELLIPSIS, style, clip, last);
  }
}

/**
 * A text that wraps at word boundaries (`text(...).wrap()`): as tall as its lines at the
 * width layout gives it, which it learns by `reflow()`.
 */
class WrappedTextWidget extends TextWidget {
  /** The width its lines were broken for; -1 before it was first placed. */
  #wrapWidth = -1;
  /** Its lines at that width, until the label or the width changes. */
  #wrapped: TextLine[] | null = null;
  /** The height its last measure gave. */
  #measuredHeight = -1;

  protected override get wraps(): boolean {
    return true;
  }

  override setLabel(label: string): void {
    if (label !== this.label) this.#wrapped = null;
    super.setLabel(label);
  }

  #lines(): TextLine[] {
    return this.#wrapped ??= fitText(this.label, this.#wrapWidth, { wrap: true });
  }

  override measure(): Size {
    const size = textSize(this.label);
    if (this.#wrapWidth >= 0) size.height = this.#lines().length;
    this.#measuredHeight = size.height;
    return size;
  }

  override reflow(width: number): boolean {
    const room = Math.max(0, width - insetX(this.layout.style));
    if (room === this.#wrapWidth) return false;
    this.#wrapWidth = room;
    this.#wrapped = null;
    return this.#lines().length !== this.#measuredHeight;
  }

  protected override lines(width: number, height: number): TextLine[] {
    const lines = width === this.#wrapWidth
      ? this.#lines()
      : fitText(this.label, width, { wrap: true });
    if (lines.length <= Math.max(1, height)) return lines;
    return fitText(this.label, width, { wrap: true, maxLines: Math.max(1, height) });
  }
}

/** A line of text (role `text`; its name is the text). */
export class TextView extends WidgetView {
  readonly #content: TextProp;
  readonly #role: "text" | "heading";
  #wrap = false;

  /** Apps call `text()` or `heading()` instead. */
  constructor(content: TextProp, role: "text" | "heading") {
    super();
    this.#content = content;
    this.#role = role;
  }

  /**
   * Wraps the text at word boundaries instead of cutting it with `…`: it is as tall as its
   * lines at the width it gets (in a column, the column's; in a row, give it `.grow()` or a
   * `.width()`; in a scroll view, the view's, less a column for its scroll bar). A word wider than that is broken between characters.
   *
   * @example A paragraph in a 20-cell column
   * ```ts
   * import assert from "node:assert/strict";
   * import { column, text } from "@crownui/runtime";
   * import { render } from "@crownui/runtime/testing";
   *
   * const words = "The quick brown fox jumps over the lazy dog";
   * await using app = await render(column(text(words).wrap()).width(20));
   * assert.deepEqual(app.screen().lines.slice(0, 3), [
   *   "The quick brown fox",
   *   "jumps over the lazy",
   *   "dog",
   * ]);
   * assert.equal(app.get({ role: "text" }).name, words);
   * ```
   */
  wrap(wrap = true): this {
    this.#wrap = wrap;
    return this;
  }

  /** Makes the widget. */
  protected build(context: MountContext): Widget {
    const made = this.#wrap ? new WrappedTextWidget(this.#role) : new TextWidget(this.#role);
    const widget = mountWidget(context, made, this.#role);
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
