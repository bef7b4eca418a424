/**
 * `Rt`: the runtime handle that bindings, event handlers and app tools receive. It is a ctx,
 * so signals can be read and written with it, and it reaches the app itself.
 *
 * @module
 */

import { type Ctx, ctxBrand } from "../reactive/mod.ts";

/** What an `Rt` needs from the app that made it. */
export interface RtHost {
  /** Asks the app to quit; `run()` then returns. */
  quit(): void;
  /** Asks for a frame soon; many requests make one frame. */
  requestFrame(): void;
}

/** The runtime handle: a ctx for signals, and a way to ask the app to quit. */
export class Rt implements Ctx {
  /** Marks this object as a ctx. */
  readonly [ctxBrand] = true as const;
  readonly #host: RtHost;

  /** Made by the app; apps receive it, they never construct one. */
  constructor(host: RtHost) {
    this.#host = host;
  }

  /** Asks the app to quit after the current frame. */
  quit(): void {
    this.#host.quit();
  }

  /** Asks for a frame even though no signal changed. */
  requestFrame(): void {
    this.#host.requestFrame();
  }
}
