/**
 * Shared setup for the reactive layer's tests: a runtime that counts its schedule requests, a
 * root owner, a ctx, and a helper that starts an effect the way the app runtime does (create
 * it, then run it once).
 *
 * @module
 */

import { EffectNode } from "./computed.ts";
import { Owner, ReactiveRuntime } from "./graph.ts";
import { brandCtx, type Ctx } from "./signal.ts";

/** A fresh runtime, its root owner and a ctx, plus how often the runtime asked for a frame. */
export interface ReactiveHarness {
  runtime: ReactiveRuntime;
  owner: Owner;
  ctx: Ctx;
  /** How many times `onSchedule` was called so far. */
  readonly schedules: number;
}

/** Creates a runtime with a root owner and a ctx for a test. */
export function setup(): ReactiveHarness {
  let schedules = 0;
  const runtime = new ReactiveRuntime(() => schedules++);
  return {
    runtime,
    owner: new Owner(runtime, null),
    ctx: brandCtx({}),
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
