/**
 * `progressBar()`: how far a task has gone, `Download [██████▌░░░░░░░░░░░░░] 33%` (role
 * `progress_bar`, its value the text after the bar: `33%`, or `3/10` with `format: "count"`).
 * A value of null means the task's length is unknown: the bar then shows a block moving to
 * and fro, the node has no value and carries the state `busy`, and the block moves on the
 * app's shared animation clock only while the bar is on screen. It takes no focus and no
 * keys: it only shows; a disabled one is drawn muted.
 *
 * @module
 */

import type { Memo, Signal } from "../../reactive/mod.ts";
import { cellWidth } from "../../text/cell_width.ts";
import type { PaintArea } from "../surface.ts";
import { follow, type MountContext, type Prop } from "../view.ts";
import { LabelWidget, type Widget } from "../widget.ts";
import { mountWidget, WidgetView } from "../widget_view.ts";

/** What `progressBar()` takes. */
export interface ProgressBarOptions {
  /** The accessible name, shown before the bar. */
  label: Prop<string>;
  /**
   * How far the task has gone, from 0 to `max` (values outside are brought inside); null while
   * that is unknown (the bar is busy).
   */
  value: Prop<number | null> | Signal<number> | Memo<number>;
  /** The value at which the task is done; 100 by default. */
  max?: number;
  /** How the value reads: `"percent"` (`40%`, the default) or `"count"` (`3/10`). */
  format?: "percent" | "count";
  /** The bar's width in cells, without its brackets; 20 by default. */
  cells?: number;
}

/** Eighths of a cell, for the end of the filled part. */
const EIGHTHS = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"];
/** The cells of the block an indeterminate bar moves to and fro. */
const BLOCK_CELLS = 4;

/** A progress bar: `label [████░░░░] 50%`. */
export class ProgressBarWidget extends LabelWidget {
  /** The value shown, or null while busy. */
  value: number | null = null;
  /** The value at which the task is done. */
  readonly max: number;
  /** How the value reads. */
  readonly format: "percent" | "count";
  /** The bar's width in cells, without its brackets. */
  readonly cells: number;
  #stopAnimation: (() => void) | null = null;

  /** A bar of `cells` cells for values up to `max`, read as `format` says. */
  constructor(max: number, format: "percent" | "count", cells: number) {
    super();
    this.max = max;
    this.format = format;
    this.cells = cells;
  }

  override get kind(): "progress_bar" {
    return "progress_bar";
  }

  /** The value as its node has it (`40%`, `3/10`), or undefined while busy. */
  valueText(): string | undefined {
    const value = this.value;
    if (value === null) return undefined;
    if (this.format === "count") return `${formatNumber(value)}/${formatNumber(this.max)}`;
    return `${Math.floor((value * 100) / this.max + 1e-9)}%`;
  }

  /** The widest value text, so the line keeps its width as the value grows. */
  #widestValue(): number {
    return this.format === "count" ? 2 * formatNumber(this.max).length + 1 : 4;
  }

  /** The value text, padded to the widest one. */
  #tail(): string {
    return (this.valueText() ?? "").padStart(this.#widestValue());
  }

  #lead(): string {
    return this.label === "" ? "" : `${this.label} `;
  }

  override face(): string {
    return `${this.#lead()}[${" ".repeat(this.cells)}] ${this.#tail()}`;
  }

  /** Shows `value` (null: busy): the bar, the node's value and its `busy` state. */
  show(value: number | null): void {
    const shown = value === null ? null : Math.min(this.max, Math.max(0, value));
    this.value = shown;
    const tree = this.host.tree;
    tree.setValue(this.node!, this.valueText());
    tree.setState(this.node!, "busy", shown === null);
    if (shown === null && this.#stopAnimation === null) {
      this.#stopAnimation = this.host.animate(this);
    } else if (shown !== null && this.#stopAnimation !== null) {
      this.#stopAnimation();
      this.#stopAnimation = null;
    }
    this.host.markLayoutDirty(this);
  }

  override paint(area: PaintArea): void {
    const { surface, x, y, clip, disabled } = area;
    const text = disabled ? "disabled" : "text";
    let at = surface.write(x, y, `${this.#lead()}[`, text, clip);
    const cells = this.cells;
    if (this.value === null) {
      // A block that moves one cell a tick, to the far end and back.
      const span = Math.max(1, cells - BLOCK_CELLS);
      const step = this.host.animationTick % (2 * span);
      const start = step <= span ? step : 2 * span - step;
      const block = Math.min(BLOCK_CELLS, cells);
      at = surface.write(at, y, "░".repeat(start), disabled ? "disabled" : "track", clip);
      at = surface.write(at, y, "█".repeat(block), disabled ? "disabled" : "thumb", clip);
      at = surface.write(
        at,
        y,
        "░".repeat(cells - start - block),
        disabled ? "disabled" : "track",
        clip,
      );
    } else {
      const eighths = Math.floor((this.value / this.max) * cells * 8);
      const full = Math.floor(eighths / 8);
      const part = EIGHTHS[eighths % 8]!;
      const filled = "█".repeat(full) + part;
      at = surface.write(at, y, filled, disabled ? "disabled" : "thumb", clip);
      const rest = cells - full - cellWidth(part);
      at = surface.write(at, y, "░".repeat(rest), disabled ? "disabled" : "track", clip);
    }
    surface.write(at, y, `] ${this.#tail()}`, text, clip);
  }
}

/** A whole number as it is, another with up to one decimal. */
function formatNumber(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

/** A progress bar. */
export class ProgressBarView extends WidgetView {
  readonly #options: ProgressBarOptions;

  /** Apps call `progressBar()` instead. */
  constructor(options: ProgressBarOptions) {
    super();
    this.#options = options;
  }

  /** Makes the widget. */
  protected build(context: MountContext): Widget {
    const { label, value, max = 100, format = "percent", cells = 20 } = this.#options;
    const widget = mountWidget(
      context,
      new ProgressBarWidget(max, format, cells),
      "progress_bar",
    );
    this.followLabel(context, widget, label);
    follow(context, value as Prop<number | null>, (shown) => {
      const number = shown === null || shown === undefined ? null : Number(shown);
      widget.show(number === null || Number.isNaN(number) ? null : number);
    }, "a progress bar's value");
    return widget;
  }
}

/**
 * A progress bar named `label`: `value` (a number from 0 to `max`, bound to a signal as a rule)
 * fills the bar and reads as `40%`, or as `3/10` with `format: "count"`; null while the
 * task's length is unknown, when the bar is `busy` and a block moves in it (only while it
 * is on screen).
 *
 * @example A download that a button moves; the node's value follows
 * ```ts
 * import assert from "node:assert/strict";
 * import { button, column, component, progressBar } from "@crownui/runtime";
 * import { render } from "@crownui/runtime/testing";
 *
 * await using app = await render(component((cx) => {
 *   const done = cx.signal<number | null>(0, { name: "done" });
 *   return column(
 *     progressBar({ label: "Download", value: done }),
 *     button("+40", () => done.set((done.get() ?? 0) + 40)),
 *     button("Unknown", () => done.set(null)),
 *   );
 * }));
 * await app.act(app.get({ role: "button", name: "+40" }).id, { action: "click" });
 * assert.equal(app.get({ role: "progress_bar" }).value, "40%");
 * assert.equal(app.screen().lines[0], "Download [████████░░░░░░░░░░░░]  40%");
 * await app.act(app.get({ role: "button", name: "Unknown" }).id, { action: "click" });
 * assert.deepEqual(app.get({ role: "progress_bar" }).states, ["busy"]);
 * ```
 */
export function progressBar(options: ProgressBarOptions): ProgressBarView {
  if (typeof options !== "object" || options === null || !("value" in options)) {
    throw new TypeError("progressBar() takes { label, value, max?, format?, cells? }");
  }
  const { max = 100, format = "percent", cells = 20 } = options;
  if (!(typeof max === "number" && Number.isFinite(max) && max > 0)) {
    throw new RangeError(`progressBar()'s max must be a number above 0, got ${max}`);
  }
  if (format !== "percent" && format !== "count") {
    throw new TypeError(
      `progressBar()'s format is "percent" or "count", got ${JSON.stringify(format)}`,
    );
  }
  if (!Number.isInteger(cells) || cells < 1) {
    throw new RangeError(`progressBar()'s cells must be a whole number above 0, got ${cells}`);
  }
  return new ProgressBarView(options);
}
