/**
 * The headless renderer: draws nothing and has a fixed window size. Used for tests, CI and
 * apps run without a terminal; agents see the same tree as with the terminal renderer.
 *
 * @module
 */

import type { Renderer, RenderSource } from "../app/renderer.ts";

/** The window size a headless app has unless told otherwise. */
export const HEADLESS_SIZE = { width: 80, height: 24 } as const;

/** A renderer that draws nothing. */
export class HeadlessRenderer implements Renderer {
  readonly kind = "headless";
  readonly #width: number;
  readonly #height: number;
  /** How many frames it was asked to draw. */
  frames = 0;

  /** Makes a headless renderer with a window of `width` by `height` cells. */
  constructor(width: number = HEADLESS_SIZE.width, height: number = HEADLESS_SIZE.height) {
    this.#width = width;
    this.#height = height;
  }

  /** The fixed window size. */
  size(): { width: number; height: number } {
    return { width: this.#width, height: this.#height };
  }

  /** Counts the frame; draws nothing. */
  render(_source: RenderSource): void {
    this.frames++;
  }

  /** Nothing to release. */
  close(): void {}
}
