/**
 * `spinner()`: work going on for an unknown time, `⠹ Syncing` (role `progress_bar` with no
 * value and the state `busy`). Its dot turns on the app's shared animation clock, and only
 * while it is on screen: a spinner scrolled out of view, in a tab not chosen or unmounted
 * keeps no timer, so an app with nothing spinning in view is never woken. With `busy` bound
 * to false it stops, shows `·` and loses the state. It takes no focus and no keys.
 *
 * @module
 */

import type { PaintArea } from "../surface.ts";
import { follow, type MountContext, type Prop } from "../view.ts";
import { LabelWidget, type Widget } from "../widget.ts";
import { mountWidget, WidgetView } from "../widget_view.ts";

/** What `spinner()` takes. */
export interface SpinnerOptions {
  /** The accessible name, shown after the dot. */
  label: Prop<string>;
  /** Whether it spins (and is `busy`); true unless given. */
  busy?: Prop<boolean>;
}

/** The dots a spinner turns through, one a tick of the animation clock. */
export const SPINNER_FRAMES: readonly string[] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/** A spinner: `⠋ label`, turning while busy. */
export class SpinnerWidget extends LabelWidget {
  /** True while it spins. */
  busy = false;
  #stopAnimation: (() => void) | null = null;

  override get kind(): "spinner" {
    return "spinner";
  }

  /** The dot shown now: the animation clock's frame while busy, `·` when stopped. */
  glyph(): string {
    return this.busy ? SPINNER_FRAMES[this.host.animationTick % SPINNER_FRAMES.length]! : "·";
  }

  override face(): string {
    return this.label === "" ? "⠋" : `⠋ ${this.label}`;
  }

  /** Spins (and is `busy`) or stops. */
  setBusy(busy: boolean): void {
    this.busy = busy;
    this.host.tree.setState(this.node!, "busy", busy);
    if (busy && this.#stopAnimation === null) this.#stopAnimation = this.host.animate(this);
    else if (!busy && this.#stopAnimation !== null) {
      this.#stopAnimation();
      this.#stopAnimation = null;
    }
    this.host.markLayoutDirty(this);
  }

  override paint(area: PaintArea): void {
    const { surface, x, y, clip, disabled } = area;
    const after = surface.write(x, y, this.glyph(), disabled ? "disabled" : "thumb", clip);
    if (this.label !== "") {
      surface.write(after, y, ` ${this.label}`, disabled ? "disabled" : "text", clip);
    }
  }
}

/** A spinner. */
export class SpinnerView extends WidgetView {
  readonly #options: SpinnerOptions;

  /** Apps call `spinner()` instead. */
  constructor(options: SpinnerOptions) {
    super();
    this.#options = options;
  }

  /** Makes the widget. */
  protected build(context: MountContext): Widget {
    const { label, busy = true } = this.#options;
    const widget = mountWidget(context, new SpinnerWidget(), "progress_bar");
    this.followLabel(context, widget, label);
    follow(context, busy, (on) => widget.setBusy(Boolean(on)), "a spinner's busy");
    return widget;
  }
}

/**
 * A spinner named `label`: a `progress_bar` with no value and the state `busy`, its dot
 * turning on the app's animation clock while it is on screen (and no timer at all while it
 * is not). `busy` bound to false stops it.
 *
 * @example It turns as the clock moves, and only while shown
 * ```ts
 * import assert from "node:assert/strict";
 * import { component, spinner } from "@crownui/runtime";
 * import { render } from "@crownui/runtime/testing";
 *
 * await using app = await render(component(() => spinner({ label: "Syncing" })), {
 *   clock: "manual",
 * });
 * assert.match(app.tree(), /progress_bar "Syncing" #\d+ busy/);
 * const first = app.screen().lines[0];
 * await app.advance(80); // one tick of the animation clock
 * assert.notEqual(app.screen().lines[0], first);
 * assert.match(app.screen().lines[0]!, /^. Syncing$/);
 * ```
 */
export function spinner(options: SpinnerOptions): SpinnerView {
  if (typeof options !== "object" || options === null) {
    throw new TypeError("spinner() takes { label, busy? }");
  }
  return new SpinnerView(options);
}
