/**
 * What inspection reads of the app's frames: the timings of the recent ones. A frame caused
 * by typing into a secure node is never recorded, so inspection cannot time a secret's
 * keystrokes.
 *
 * @module
 */

/** The timings of one frame, in milliseconds. */
export interface FrameTiming {
  /** The revision after the frame. */
  revision: number;
  /** Whether the frame changed the tree. */
  changed: boolean;
  /** Time spent running queued effects. */
  effectsMs: number;
  /** Time spent rebuilding structure and laying out the window. */
  layoutMs: number;
  /** Time the renderer took to draw. */
  renderMs: number;
  /** The whole frame, commit included. */
  totalMs: number;
  /** When the frame started, in ms since the epoch. */
  at: number;
}

/** How many recent frames an app keeps for inspection. */
export const RECENT_FRAMES = 120;

/** Adds `timing` to `frames`, dropping the oldest beyond `RECENT_FRAMES`. */
export function recordFrame(frames: FrameTiming[], timing: FrameTiming): void {
  frames.push(timing);
  if (frames.length > RECENT_FRAMES) frames.splice(0, frames.length - RECENT_FRAMES);
}
