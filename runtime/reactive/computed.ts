/**
 * Memos and effects: the two kinds of consumer. A memo caches a derived value and is pulled
 * when read; an effect runs for its side effects, first at once and then at each flush after
 * a source changed. Both belong to an owner and stop when it is disposed.
 *
 * @module
 */

import {
  CHECK,
  CLEAN,
  clearSources,
  COMPUTING,
  type Consumer,
  type ConsumerState,
  DIRTY,
  DISPOSED,
  markObserversCheck,
  type Owner,
  type Producer,
  type ReactiveRuntime,
  runTracked,
  sourcesChanged,
  track,
} from "./graph.ts";
import { ObserverSet, SourceMap } from "./edges.ts";
import { revealedSecretError } from "./secrets.ts";

const UNSET = Symbol("unset");

/** A cached derived value: a producer and a consumer at once. */
export class MemoNode<T> implements Consumer, Producer {
  state: ConsumerState = DIRTY;
  version = 0;
  readonly sources: SourceMap = new SourceMap();
  readonly observers: ObserverSet = new ObserverSet();
  readonly runtime: ReactiveRuntime;
  readonly isEffect = false;
  /** True for a `cx.reveal()` memo: what reads it reads no secret (see `secrets.ts`). */
  readonly reveals: boolean;
  #value: T | typeof UNSET = UNSET;
  #error: unknown = UNSET;
  readonly #fn: () => T;
  readonly #owner: Owner;
  readonly #equals: (a: T, b: T) => boolean;

  /**
   * Creates a memo computing `fn`, owned by `owner`; it first computes when read. With
   * `reveals`, it is a `cx.reveal()` memo, whose value may tell little of the secrets it read
   * but never hold one as it is.
   */
  constructor(
    owner: Owner,
    fn: () => T,
    equals: (a: T, b: T) => boolean = Object.is,
    reveals = false,
  ) {
    this.#owner = owner;
    this.reveals = reveals;
    this.runtime = owner.runtime;
    this.#fn = fn;
    this.#equals = equals;
    owner.addConsumer(this);
  }

  /** True once its owner was disposed: it never computes again. */
  get disposed(): boolean {
    return this.state === DISPOSED;
  }

  /** Reads the value, recomputing first if a source changed, and tracks the read. */
  read(): T {
    this.update();
    track(this);
    if (this.#error !== UNSET) throw this.#error;
    return this.#value as T;
  }

  /** Brings the cached value up to date. */
  update(): void {
    // Checked here, not only in read(): a cycle can also close through `sourcesChanged` when a
    // memo marked CHECK brings this one up to date while it computes.
    if (this.state === COMPUTING) {
      throw new Error("a memo read itself while computing: the memos form a cycle");
    }
    if (this.state === CLEAN || this.state === DISPOSED) return;
    if (this.state === CHECK && !sourcesChanged(this)) {
      this.state = CLEAN;
      return;
    }
    this.state = COMPUTING;
    clearSources(this);
    let next: T | typeof UNSET = UNSET;
    let error: unknown = UNSET;
    try {
      next = runTracked(this, this.#owner, this.#fn);
    } catch (thrown) {
      error = thrown;
    }
    if (this.state !== COMPUTING) return; // disposed while computing
    if (this.reveals && error === UNSET) error = revealedSecretError(this, next) ?? UNSET;
    this.state = CLEAN;
    const changed = error !== UNSET || this.#error !== UNSET || this.#value === UNSET ||
      !this.#equals(this.#value as T, next as T);
    this.#error = error;
    // An equal result keeps the cached value, as an equal write keeps a signal's.
    if (error === UNSET && changed) this.#value = next;
    if (changed) this.version++;
  }

  /** Marks this memo's consumers possibly stale. */
  markObservers(): void {
    markObserversCheck(this);
  }
}

/** A side effect that re-runs after its sources change. */
export class EffectNode implements Consumer {
  state: ConsumerState = DIRTY;
  readonly sources: SourceMap = new SourceMap();
  readonly #fn: () => void;
  readonly #owner: Owner;
  readonly #onError: (error: unknown) => void;

  /** Creates an effect running `fn`, owned by `owner`; errors go to `onError`. Run it with `update()`. */
  constructor(owner: Owner, fn: () => void, onError: (error: unknown) => void) {
    this.#owner = owner;
    this.#fn = fn;
    this.#onError = onError;
    owner.addConsumer(this);
  }

  /** The runtime of its owner, whose queue it is scheduled on. */
  get runtime(): ReactiveRuntime {
    return this.#owner.runtime;
  }

  /** Always true: an effect is queued on change (a getter, so that no effect stores it). */
  get isEffect(): true {
    return true;
  }

  /** Runs the effect if a source changed since its last run. */
  update(): void {
    if (this.state === CLEAN || this.state === DISPOSED) return;
    if (this.state === CHECK && !sourcesChanged(this)) {
      this.state = CLEAN;
      return;
    }
    clearSources(this);
    this.state = CLEAN;
    try {
      runTracked(this, this.#owner, this.#fn);
    } catch (error) {
      this.#onError(error);
    }
  }
}
