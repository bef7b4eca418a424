/**
 * The reactive graph: signals (producers), memos (producers that are also consumers) and
 * effects (consumers), owned by scopes that dispose them. Plain data and plain functions; the
 * public `Signal` and `Cx` classes are a thin checked layer on top.
 *
 * Vocabulary: a *producer* has a `version` that increases when its value changes; a
 * *consumer* records the producers it read (`sources`, with the version it saw) and has a
 * `state`. A write marks direct consumers `DIRTY` and their transitive consumers `CHECK`.
 * Effects are not run on write: they are queued on their runtime, which schedules a flush
 * (the app's next frame). Memos are pulled: reading one brings it up to date first. That
 * makes every write batched until the frame, and reads always fresh.
 *
 * @module
 */

import { ObserverSet, SourceMap } from "./edges.ts";
import { markSecretDerived } from "./secrets.ts";

/** A consumer whose sources have not changed since it last ran. */
export const CLEAN = 0;
/** A consumer one of whose sources may have changed (a memo upstream was marked). */
export const CHECK = 1;
/** A consumer one of whose sources has changed. */
export const DIRTY = 2;
/** A memo that is running now; reading it again means a cycle. */
export const COMPUTING = 3;
/** A consumer that was disposed and never runs again. */
export const DISPOSED = 4;

/** The state of a consumer: one of the marker values above. */
export type ConsumerState = 0 | 1 | 2 | 3 | 4;

/**
 * The consumers of a producer: what the graph needs of a `Set<Consumer>`. Producers the graph
 * makes hold an `ObserverSet`.
 */
export interface Observers extends Iterable<Consumer> {
  /** How many consumers it holds. */
  readonly size: number;
  /** True when it holds `consumer`. */
  has(consumer: Consumer): boolean;
  /** Adds `consumer` (once). */
  add(consumer: Consumer): unknown;
  /** Removes `consumer`. */
  delete(consumer: Consumer): boolean;
  /** Calls `fn` for each consumer. */
  forEach(fn: (consumer: Consumer) => void): void;
}

/**
 * The sources of a consumer, each with the version it had when read: what the graph needs of
 * a `Map<Producer, number>`. Consumers the graph makes hold a `SourceMap`.
 */
export interface Sources extends Iterable<[Producer, number]> {
  /** How many producers it holds. */
  readonly size: number;
  /** Records `producer` with `version`. */
  set(producer: Producer, version: number): unknown;
  /** Forgets every producer. */
  clear(): void;
  /** The producers, in the order they were first read. */
  keys(): Iterable<Producer>;
}

/** Something whose value can change: a signal or a memo. */
export interface Producer {
  /** Increases each time the value changes. */
  version: number;
  /** Consumers that read this producer on their last run. */
  observers: Observers;
}

/** Something that reads producers and runs again when they change: a memo or an effect. */
export interface Consumer {
  /** How up to date it is: `CLEAN`, `CHECK`, `DIRTY`, `COMPUTING` or `DISPOSED`. */
  state: ConsumerState;
  /** Producers read on the last run, with the version each had then. */
  sources: Sources;
  /** The runtime whose queue this consumer is scheduled on. */
  runtime: ReactiveRuntime;
  /** True for effects (queued on change), false for memos (pulled on read). */
  isEffect: boolean;
  /**
   * True for a memo made with `cx.reveal()`: its value tells little of the secrets it read,
   * so what reads it reads no secret (see `secrets.ts`). Absent on every other consumer.
   */
  readonly reveals?: boolean;
  /** Brings the consumer up to date. */
  update(): void;
  /** Marks the consumer's own consumers CHECK (memos only). */
  markObservers?(): void;
}

/** One mutable value in the graph. */
export interface SignalNode<T> extends Producer {
  /** The current value. */
  value: T;
  /** Unique within its runtime; never reused. */
  readonly id: number;
  /** Shown in inspection next to the value; undefined when the signal has no name. */
  readonly name: string | undefined;
  /** Decides whether a write changed the value. */
  readonly equals: (a: T, b: T) => boolean;
  /**
   * True when nothing the runtime outputs may show its value, and only a secure node may
   * show it: declared so when made (`cx.secret()`, `{ secret: true }`), or secret-derived
   * (`derived`). Once true it stays true.
   */
  secret: boolean;
  /**
   * True when it became secret because a memo or effect that read a secret wrote it (see
   * `markSecretDerived`), not because it was declared so.
   */
  derived: boolean;
  /** True once its owner was disposed. */
  disposed: boolean;
}

/**
 * A unit of disposal: what a component owns. Disposing an owner disposes its children first,
 * then its consumers, then runs its cleanups in reverse order of registration, then disposes
 * its signals (so a cleanup may still read its component's state).
 */
export class Owner {
  /** The owner this one was created under; null for an app's root owner. */
  readonly parent: Owner | null;
  /** The runtime its effects are queued on. */
  readonly runtime: ReactiveRuntime;
  /** True once disposed: it then owns nothing new. */
  disposed = false;
  // Made on first use: most owners (a list's rows) hold one effect and nothing else, and an
  // empty Set costs about 180 bytes, an empty array 32.
  #children: Set<Owner> | null = null;
  // One consumer is kept as itself (no array): the usual row owns one binding.
  #consumers: Consumer | Consumer[] | null = null;
  #signals: SignalNode<unknown>[] | null = null;
  #cleanups: (() => void)[] | null = null;

  /** Creates an owner on `runtime`, as a child of `parent` unless that is null. */
  constructor(runtime: ReactiveRuntime, parent: Owner | null) {
    this.runtime = runtime;
    this.parent = parent;
    parent?.children.add(this);
  }

  /** Owners created under this one; disposed before it. */
  get children(): Set<Owner> {
    return this.#children ??= new Set<Owner>();
  }

  /** The memos and effects it owns. */
  get consumers(): Consumer[] {
    const consumers = this.#consumers;
    if (Array.isArray(consumers)) return consumers;
    return this.#consumers = consumers === null ? [] : [consumers];
  }

  /** The signals it owns. */
  get signals(): SignalNode<unknown>[] {
    return this.#signals ??= [];
  }

  /** Functions to run when it is disposed, last registered first. */
  get cleanups(): (() => void)[] {
    return this.#cleanups ??= [];
  }

  /** Adds a memo or an effect to those it owns. */
  addConsumer(consumer: Consumer): void {
    const consumers = this.#consumers;
    if (consumers === null) this.#consumers = consumer;
    else if (Array.isArray(consumers)) consumers.push(consumer);
    else this.#consumers = [consumers, consumer];
  }

  /** Adds a signal to those it owns. */
  addSignal(signal: SignalNode<unknown>): void {
    if (this.#signals === null) this.#signals = [signal];
    else this.#signals.push(signal);
  }

  /**
   * Disposes it: children, then consumers, then cleanups (last first), then signals. Errors
   * of cleanups are collected into `errors`; the caller throws them.
   */
  disposeParts(errors: unknown[]): void {
    const children = this.#children;
    if (children !== null) {
      // A child whose cleanup fails is disposed all the same; its error must not stop the rest.
      for (const child of [...children]) {
        try {
          disposeOwner(child);
        } catch (error) {
          errors.push(error);
        }
      }
      children.clear();
    }
    const consumers = this.#consumers;
    if (Array.isArray(consumers)) {
      for (const consumer of consumers) disposeConsumer(consumer);
      consumers.length = 0;
    } else if (consumers !== null) {
      disposeConsumer(consumers);
      this.#consumers = null;
    }
    const cleanups = this.#cleanups;
    if (cleanups !== null) {
      for (let i = cleanups.length - 1; i >= 0; i--) {
        try {
          cleanups[i]!();
        } catch (error) {
          errors.push(error);
        }
      }
      cleanups.length = 0;
    }
    const signals = this.#signals;
    if (signals !== null) {
      for (const signal of signals) {
        signal.disposed = true;
        this.runtime.signals.delete(signal);
      }
      signals.length = 0;
    }
  }

  /** Forgets `child`, which was disposed. */
  removeChild(child: Owner): void {
    this.#children?.delete(child);
  }
}

/**
 * The effect queue and live-signal registry of one app. `onSchedule` is called once per
 * batch of writes, when the queue goes from empty to non-empty; the app requests a frame.
 */
export class ReactiveRuntime {
  /** The effects waiting for the next flush, in the order they were queued. */
  readonly queue: Consumer[] = [];
  /** Every live signal of the app, for inspection. */
  readonly signals: Set<SignalNode<unknown>> = new Set<SignalNode<unknown>>();
  /** Called when the queue goes from empty to non-empty. */
  onSchedule: () => void;
  /**
   * True once a root owner (one without a parent: the app's) was disposed, that is once the
   * app closed. Only used to say so when a signal is used afterwards.
   */
  closed = false;
  #nextSignalId = 1;

  /** Creates a runtime with an empty queue; `onSchedule` does nothing unless given. */
  constructor(onSchedule: () => void = () => {}) {
    this.onSchedule = onSchedule;
  }

  /** Returns the next signal id; ids are never reused. */
  nextSignalId(): number {
    return this.#nextSignalId++;
  }

  /** Queues an effect to run at the next flush. */
  enqueue(effect: Consumer): void {
    const wasEmpty = this.queue.length === 0;
    this.queue.push(effect);
    if (wasEmpty) this.onSchedule();
  }

  /** True when effects are waiting to run. */
  get pending(): boolean {
    return this.queue.length > 0;
  }

  /**
   * Runs queued effects until none are left. An effect that keeps re-queueing itself is a
   * cycle: after `maxRounds` rounds the flush stops with an error.
   */
  flush(maxRounds = 100): void {
    let rounds = 0;
    while (this.queue.length > 0) {
      if (++rounds > maxRounds) {
        // Drop the runs, not the effects: marked CLEAN again, they run at their next change.
        for (const effect of this.queue.splice(0)) {
          if (effect.state !== DISPOSED) effect.state = CLEAN;
        }
        throw new Error(
          `effects kept changing signals they read: stopped after ${maxRounds} rounds`,
        );
      }
      const batch = this.queue.splice(0, this.queue.length);
      for (const effect of batch) effect.update();
    }
  }
}

let currentObserver: Consumer | null = null;
let currentOwner: Owner | null = null;
let inMemo = 0;
// The memo or effect running now, kept inside untracked() too (a write there is still its
// write), and the signals it changed so far; null until its first write. At the end of the
// run they become secret-derived if it read a secret. Component setup (runWithOwner) is no
// part of the run around it.
let currentRun: Consumer | null = null;
let runWrites: SignalNode<unknown>[] | null = null;

/** The consumer that is running now, whose reads are tracked. */
export function getObserver(): Consumer | null {
  return currentObserver;
}

/** The owner that is current now: new signals, effects and cleanups belong to it. */
export function getOwner(): Owner | null {
  return currentOwner;
}

/** Runs `fn` with `owner` as the current owner and no observer (reads are not tracked). */
export function runWithOwner<T>(owner: Owner | null, fn: () => T): T {
  const previousOwner = currentOwner;
  const previousObserver = currentObserver;
  const previousRun = currentRun;
  const previousWrites = runWrites;
  currentOwner = owner;
  currentObserver = null;
  currentRun = null;
  runWrites = null;
  try {
    return fn();
  } finally {
    currentOwner = previousOwner;
    currentObserver = previousObserver;
    currentRun = previousRun;
    runWrites = previousWrites;
  }
}

/** Runs `fn` without tracking the signals it reads. */
export function untracked<T>(fn: () => T): T {
  const previous = currentObserver;
  currentObserver = null;
  try {
    return fn();
  } finally {
    currentObserver = previous;
  }
}

/**
 * Creates a signal node owned by `owner` and registered with its runtime. A declared secret
 * is secret from here on; a plain signal becomes secret only when a computation that read a
 * secret writes it (`markSecretDerived`).
 */
export function createSignalNode<T>(
  owner: Owner,
  value: T,
  name?: string,
  equals: (a: T, b: T) => boolean = Object.is,
  secret = false,
): SignalNode<T> {
  const node: SignalNode<T> = {
    value,
    id: owner.runtime.nextSignalId(),
    name,
    equals,
    version: 0,
    observers: new ObserverSet(),
    secret,
    derived: false,
    disposed: false,
  };
  owner.addSignal(node as SignalNode<unknown>);
  owner.runtime.signals.add(node as SignalNode<unknown>);
  return node;
}

/** Records that the current observer read `producer`. */
export function track(producer: Producer): void {
  // A consumer disposed while running (it disposed its own owner) must not observe again.
  if (currentObserver === null || currentObserver.state === DISPOSED) return;
  currentObserver.sources.set(producer, producer.version);
  producer.observers.add(currentObserver);
}

/** Reads a signal, tracking it. */
export function readSignal<T>(node: SignalNode<T>): T {
  track(node);
  return node.value;
}

/** Throws when a memo is computing now: memos derive values and must not write signals. */
export function assertWriteAllowed(): void {
  if (inMemo > 0) {
    throw new Error("writing a signal inside a memo is not allowed: use an effect");
  }
}

/** Writes a signal; does nothing when the new value equals the old one. */
export function writeSignal<T>(node: SignalNode<T>, value: T): void {
  // Checked before the value is stored, so a refused write leaves the signal as it was.
  assertWriteAllowed();
  if (node.equals(node.value, value)) return;
  node.value = value;
  notifyChanged(node);
}

/** Tells consumers that a producer's value changed (after an in-place mutation, say). */
export function notifyChanged(producer: Producer): void {
  assertWriteAllowed();
  // Only signals are notified this way (memos mark their observers CHECK instead).
  if (currentRun !== null) (runWrites ??= []).push(producer as SignalNode<unknown>);
  producer.version++;
  producer.observers.forEach(markDirty);
}

function markDirty(consumer: Consumer): void {
  mark(consumer, DIRTY);
}

function markCheck(consumer: Consumer): void {
  mark(consumer, CHECK);
}

function mark(consumer: Consumer, state: typeof CHECK | typeof DIRTY): void {
  if (consumer.state === DISPOSED || consumer.state === COMPUTING) return;
  const wasClean = consumer.state === CLEAN;
  if (consumer.state < state) consumer.state = state;
  if (!wasClean) return;
  if (consumer.isEffect) consumer.runtime.enqueue(consumer);
  else consumer.markObservers?.();
}

/** Marks every observer of a memo as possibly stale. */
export function markObserversCheck(producer: Producer): void {
  producer.observers.forEach(markCheck);
}

/**
 * Decides whether a consumer in state CHECK really needs to run: brings each memo source up
 * to date and compares its version with the one recorded.
 */
export function sourcesChanged(consumer: Consumer): boolean {
  const sources = consumer.sources;
  if (sources instanceof SourceMap) return sources.some(sourceChanged);
  for (const [source, seenVersion] of sources) if (sourceChanged(source, seenVersion)) return true;
  return false;
}

/** Brings `source` up to date when it is a memo; true when its version is not `seenVersion`. */
function sourceChanged(source: Producer, seenVersion: number): boolean {
  const memo = source as Partial<Consumer> & Producer;
  if (typeof memo.update === "function" && memo.isEffect === false) memo.update();
  return source.version !== seenVersion;
}

/** Forgets the sources of a consumer before it runs again (they are tracked anew). */
export function clearSources(consumer: Consumer): void {
  const sources = consumer.sources;
  if (sources instanceof SourceMap) return sources.detach(consumer);
  for (const source of sources.keys()) source.observers.delete(consumer);
  sources.clear();
}

/** Runs `fn` as `consumer`, tracking what it reads. */
export function runTracked<T>(consumer: Consumer, owner: Owner | null, fn: () => T): T {
  const previousObserver = currentObserver;
  const previousOwner = currentOwner;
  const previousRun = currentRun;
  const previousWrites = runWrites;
  currentObserver = consumer;
  currentOwner = owner;
  currentRun = consumer;
  runWrites = null;
  if (!consumer.isEffect) inMemo++;
  try {
    return fn();
  } finally {
    if (!consumer.isEffect) inMemo--;
    // Decided when the run ends, so that a write made before the run read the secret counts.
    if (runWrites !== null) markSecretDerived(consumer, runWrites);
    currentObserver = previousObserver;
    currentOwner = previousOwner;
    currentRun = previousRun;
    runWrites = previousWrites;
  }
}

/** Disposes an owner: children, then consumers, then cleanups (last first), then signals. */
export function disposeOwner(owner: Owner): void {
  if (owner.disposed) return;
  owner.disposed = true;
  if (owner.parent === null) owner.runtime.closed = true;
  const errors: unknown[] = [];
  owner.disposeParts(errors);
  owner.parent?.removeChild(owner);
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new AggregateError(errors, "several cleanups failed");
}

/** Disposes one consumer: it stops observing and never runs again. */
export function disposeConsumer(consumer: Consumer): void {
  clearSources(consumer);
  consumer.state = DISPOSED;
}
