/**
 * Shared setup for the reactive layer's tests: a runtime that counts its schedule requests, a
 * root owner, and a helper that starts an effect the way the app runtime does (create
 * it, then run it once).
 *
 * @module
 */

import { EffectNode } from "./computed.ts";
import { Owner, ReactiveRuntime } from "./graph.ts";

/** A fresh runtime and its root owner, plus how often the runtime asked for a frame. */
export interface ReactiveHarness {
  runtime: ReactiveRuntime;
  owner: Owner;
  /** How many times `onSchedule` was called so far. */
  readonly schedules: number;
}

/** Creates a runtime with a root owner for a test. */
export function setup(): ReactiveHarness {
  let schedules = 0;
  const runtime = new ReactiveRuntime(() => schedules++);
  return {
    runtime,
    owner: new Owner(runtime, null),
    get schedules() {
      return schedules;
    },
  };
}

/**
 * Creates an effect owned by `owner` and runs it the first time, as the app runtime does.
 * Without `onError`, an error in the effect fails the test when it is thrown.
 */
export function startEffect(
  owner: Owner,
  fn: () => void,
  onError: (error: unknown) => void = (error) => {
    throw error;
  },
): EffectNode {
  const effect = new EffectNode(owner, fn, onError);
  effect.update();
  return effect;
}
