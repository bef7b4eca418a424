/**
 * `slider()`: a value in a range, `label [━━━●────] value`, moved by the arrows, PageUp and
 * PageDown, Home and End, or by dragging the thumb.
 *
 * @module
 */

import { insetLeft } from "../../layout/node.ts";
import { cellWidth } from "../../text/cell_width.ts";
import type { Keybind } from "../../text/keybind.ts";
import { Signal } from "../../reactive/mod.ts";
import { interactiveStyle, type PaintArea } from "../surface.ts";
import { Binding, follow, type MountContext, type Prop } from "../view.ts";
import { LabelWidget, type Size, type Widget } from "../widget.ts";
import { mountWidget, WidgetView } from "../widget_view.ts";

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

  override get kind(): "slider" {
    return "slider";
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
    this.value = value;
    if (!this.#secure && this.node !== null) this.host.tree.setValue(this.node, String(value));
    this.host.markLayoutDirty(this);
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
    // `x` is in the slider's box; its face and track start inside its border and padding.
    const trackStart = insetLeft(this.layout.style) + cellWidth(this.face());
    const fraction = clamp((x - trackStart) / (SLIDER_TRACK - 1), 0, 1);
    this.#moveTo(this.min + fraction * (this.max - this.min));
  }

  override paint(area: PaintArea): void {
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
}

/** A slider over a range of numbers. */
export class SliderView extends WidgetView {
  readonly #options: SliderOptions;

  /** Apps call `slider()` instead. */
  constructor(options: SliderOptions) {
    super();
    this.#options = options;
  }

  /** Makes the widget. */
  protected build(context: MountContext): Widget {
    const { min, max, value: source } = this.#options;
    const widget = mountWidget(context, new SliderWidget(this.#options, this.isSecure), "slider");
    this.followLabel(context, widget, this.#options.label);
    follow(
      context,
      source,
      (value) => widget.show(clamp(Number(value), min, max)),
      "a slider's value",
      this.isSecure,
    );
    return widget;
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
