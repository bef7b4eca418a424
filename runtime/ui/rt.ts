/**
 * `Rt`: the runtime handle that bindings, event handlers and app tools receive. It reaches
 * the app itself (to quit, to ask for a frame); reading and writing signals does not need it.
 *
 * @module
 */

/** What an `Rt` needs from the app that made it. */
export interface RtHost {
  /** Asks the app to quit; `run()` then returns. */
  quit(): void;
  /** Asks for a frame soon; many requests make one frame. */
  requestFrame(): void;
}

/** The runtime handle: a way to ask the app to quit or to run a frame. */
export class Rt {
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
