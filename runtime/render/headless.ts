/**
 * The headless renderer: draws nothing as frames go and has a fixed window size. Used for
 * tests, CI and apps run without a terminal; agents see the same tree as with the terminal
 * renderer. Asked for its screen, it paints the last frame with the terminal's paint code
 * onto a cell buffer: its rows as text (`screen()`), or the cells with their looks
 * (`paint()`).
 *
 * @module
 */

import type { Renderer, RenderSource } from "../app/renderer.ts";
import type { ColourDepth } from "./terminal/colour.ts";
import { paintFrame } from "./terminal/paint.ts";
import { Screen } from "./terminal/screen.ts";

/** The window size a headless app has unless told otherwise. */
export const HEADLESS_SIZE = { width: 80, height: 24 } as const;

/** A renderer that draws nothing. */
export class HeadlessRenderer implements Renderer {
  /** Always `headless`. */
  readonly kind = "headless";
  #width: number;
  #height: number;
  #frames = 0;
  #source: RenderSource | null = null;

  /** Makes a headless renderer with a window of `width` by `height` cells. */
  constructor(width: number = HEADLESS_SIZE.width, height: number = HEADLESS_SIZE.height) {
    this.#width = width;
    this.#height = height;
  }

  /** How many frames it was asked to draw. */
  get frames(): number {
    return this.#frames;
  }

  /** The window size. */
  size(): { width: number; height: number } {
    return { width: this.#width, height: this.#height };
  }

  /**
   * Gives the window a new size, as a terminal's resize does; the app lays out at its next
   * frame (ask for one). Throws RangeError unless both are whole numbers of 1 or more.
   *
   * @example An app laid out again in a smaller window
   * ```ts
   * import assert from "node:assert/strict";
   * import { bind, component, HeadlessRenderer, text } from "@crownui/runtime";
   * import { render } from "@crownui/runtime/testing";
   *
   * await using test = await render(component((cx) => {
   *   const size = cx.windowSize();
   *   return text(bind(() => `${size.get().columns} columns`));
   * }), { width: 80, height: 24 });
   * const renderer = test.app.renderer as HeadlessRenderer;
   * renderer.resize(40, 10);
   * test.app.frame();
   * assert.deepEqual(renderer.size(), { width: 40, height: 10 });
   * assert.equal(test.get({ role: "text" }).name, "40 columns");
   * ```
   */
  resize(width: number, height: number): void {
    for (const [what, cells] of [["width", width], ["height", height]] as const) {
      if (!Number.isInteger(cells) || cells < 1) {
        throw new RangeError(
          `the window's ${what} must be a whole number of cells, 1 or more, got ${cells}`,
        );
      }
    }
    this.#width = width;
    this.#height = height;
  }

  /** Counts the frame; draws nothing. */
  render(source: RenderSource): void {
    this.#frames++;
    this.#source = source;
  }

  /**
   * The window's rows as text, as the last frame would show them: painted now, by the same
   * code the terminal renderer paints with. Blank before the first frame and after close.
   */
  screen(): string[] {
    const screen = this.paint("none");
    return Array.from({ length: this.#height }, (_, y) => screen.line(y));
  }

  /**
   * The last frame painted now into a screen of cells with their looks, in the app's theme at
   * `depth` (24-bit colour unless given), by the same code the terminal renderer paints with.
   * The cell buffer is the renderers' own: tests read it through the harness's `screen()`.
   *
   * @ignore
   */
  paint(depth: ColourDepth = "truecolor"): Screen {
    const screen = new Screen(this.#width, this.#height);
    if (this.#source !== null) paintFrame(screen, this.#source, this.#source.theme, depth);
    return screen;
  }

  /** Forgets the last frame. */
  close(): void {
    this.#source = null;
  }
}
