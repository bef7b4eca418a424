/**
 * The app's shared animation clock: what spins (a spinner, an indeterminate progress bar)
 * paints from its tick count, and the clock ticks, one timer for all of them, only while at
 * least one of them is on screen. After each frame's layout the frame loop asks
 * (`afterLayout()`): with an animated widget in view and no timer, one is set for the next
 * tick; with none in view, the timer is cleared. So an app whose spinner is scrolled away, in
 * a tab not chosen or unmounted has no timer at all, and nothing wakes it.
 *
 * The timer is a plain `setTimeout`, set anew after each tick's frame: the harness's manual
 * clock (`render(root, { clock: "manual" })`, `advance(ms)`) runs it as it runs the app's own.
 *
 * @module
 */

import type { Widget } from "../ui/widget.ts";

/** How long one tick of the animation clock lasts, in ms: 12.5 frames a second. */
export const ANIMATION_TICK_MS = 80;

/** The animation clock of one app. */
export class Animations {
  readonly #widgets = new Set<Widget>();
  readonly #requestFrame: () => void;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #tick = 0;
  #closed = false;

  /** A clock that asks for a frame (`requestFrame`) at each tick. */
  constructor(requestFrame: () => void) {
    this.#requestFrame = requestFrame;
  }

  /** How many ticks have passed: what an animated widget paints its phase from. */
  get tick(): number {
    return this.#tick;
  }

  /** True while the clock's timer is set (something that spins is on screen). */
  get running(): boolean {
    return this.#timer !== undefined;
  }

  /**
   * Animates `widget` while it is mounted and on screen; returns what stops it. A frame is
   * asked for, which starts the clock if the widget shows.
   */
  add(widget: Widget): () => void {
    this.#widgets.add(widget);
    this.#requestFrame();
    return () => {
      this.#widgets.delete(widget);
      this.#requestFrame(); // the frame stops the clock if nothing else spins
    };
  }

  /**
   * Starts or stops the clock after a frame's layout: it runs while one of the animated
   * widgets that are still mounted is in view (`inView`). Unmounted ones are forgotten.
   */
  afterLayout(inView: (widget: Widget) => boolean): void {
    let shown = false;
    for (const widget of this.#widgets) {
      if (!widget.mounted) this.#widgets.delete(widget);
      else if (inView(widget)) {
        shown = true;
        break;
      }
    }
    if (shown && this.#timer === undefined && !this.#closed) {
      this.#timer = setTimeout(() => {
        this.#timer = undefined;
        this.#tick++;
        this.#requestFrame();
      }, ANIMATION_TICK_MS);
    } else if (!shown && this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
  }

  /** Stops the clock for good (the app closed). */
  close(): void {
    this.#closed = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#widgets.clear();
  }
}
