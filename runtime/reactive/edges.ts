/**
 * The edges of the reactive graph: the producers a consumer read (`SourceMap`) and the
 * consumers that read a producer (`ObserverSet`). Nearly every binding reads one signal and
 * nearly every signal is read by one binding, so both keep their first entry in fields and
 * make a `Map` or a `Set` only for a second one: an empty `Map` costs about 180 bytes, and an
 * app has one of each per binding.
 *
 * @module
 */

import type { Consumer, Producer } from "./graph.ts";

/**
 * The producers a consumer read on its last run, each with the version it had then, in the
 * order they were first read. Behaves as a `Map<Producer, number>` for what the graph uses.
 */
export class SourceMap implements Iterable<[Producer, number]> {
  #first: Producer | null = null;
  #firstVersion = 0;
  #more: Map<Producer, number> | null = null;

  /** How many producers it holds. */
  get size(): number {
    if (this.#more !== null) return this.#more.size;
    return this.#first === null ? 0 : 1;
  }

  /** Records `producer` with `version` (a producer read again keeps its place). */
  set(producer: Producer, version: number): this {
    const more = this.#more;
    if (more !== null) {
      more.set(producer, version);
      return this;
    }
    const first = this.#first;
    if (first === null || first === producer) {
      this.#first = producer;
      this.#firstVersion = version;
      return this;
    }
    this.#more = new Map([[first, this.#firstVersion], [producer, version]]);
    this.#first = null;
    return this;
  }

  /** The version recorded for `producer`, if it holds it. */
  get(producer: Producer): number | undefined {
    if (this.#more !== null) return this.#more.get(producer);
    return this.#first === producer ? this.#firstVersion : undefined;
  }

  /** True when it holds `producer`. */
  has(producer: Producer): boolean {
    if (this.#more !== null) return this.#more.has(producer);
    return this.#first === producer;
  }

  /** Forgets every producer. A consumer that read several keeps its `Map` for its next run. */
  clear(): void {
    this.#first = null;
    this.#more?.clear();
  }

  /** The producers, in the order they were first read. */
  keys(): IterableIterator<Producer> {
    if (this.#more !== null) return this.#more.keys();
    return (this.#first === null ? [] : [this.#first])[Symbol.iterator]();
  }

  /** The producers with their versions, in the order they were first read. */
  [Symbol.iterator](): IterableIterator<[Producer, number]> {
    if (this.#more !== null) return this.#more[Symbol.iterator]();
    const entries: [Producer, number][] = this.#first === null
      ? []
      : [[this.#first, this.#firstVersion]];
    return entries[Symbol.iterator]();
  }

  /**
   * Stops `consumer` observing each producer, then forgets them all: what a consumer does
   * before it runs again. Allocates nothing.
   */
  detach(consumer: Consumer): void {
    const more = this.#more;
    if (more !== null) {
      for (const producer of more.keys()) producer.observers.delete(consumer);
      more.clear();
    } else if (this.#first !== null) {
      this.#first.observers.delete(consumer);
      this.#first = null;
    }
  }

  /**
   * Calls `changed(producer, version)` for each producer in order until one returns true;
   * returns whether one did. Allocates nothing.
   */
  some(changed: (producer: Producer, version: number) => boolean): boolean {
    const more = this.#more;
    if (more === null) return this.#first !== null && changed(this.#first, this.#firstVersion);
    for (const [producer, version] of more) if (changed(producer, version)) return true;
    return false;
  }
}

/**
 * The consumers that read a producer on their last run. Behaves as a `Set<Consumer>` for
 * what the graph uses.
 */
export class ObserverSet implements Iterable<Consumer> {
  #one: Consumer | null = null;
  #many: Set<Consumer> | null = null;

  /** How many consumers it holds. */
  get size(): number {
    if (this.#many !== null) return this.#many.size;
    return this.#one === null ? 0 : 1;
  }

  /** True when it holds `consumer`. */
  has(consumer: Consumer): boolean {
    if (this.#many !== null) return this.#many.has(consumer);
    return this.#one === consumer;
  }

  /** Adds `consumer` (once). */
  add(consumer: Consumer): this {
    const many = this.#many;
    if (many !== null) {
      many.add(consumer);
      return this;
    }
    const one = this.#one;
    if (one === null) this.#one = consumer;
    else if (one !== consumer) {
      this.#many = new Set([one, consumer]);
      this.#one = null;
    }
    return this;
  }

  /** Removes `consumer`; returns whether it was there. */
  delete(consumer: Consumer): boolean {
    if (this.#many !== null) return this.#many.delete(consumer);
    if (this.#one !== consumer) return false;
    this.#one = null;
    return true;
  }

  /** Calls `fn` for each consumer, in the order they were added. Allocates nothing. */
  forEach(fn: (consumer: Consumer) => void): void {
    const many = this.#many;
    if (many !== null) {
      for (const consumer of many) fn(consumer);
    } else if (this.#one !== null) fn(this.#one);
  }

  /** The consumers, in the order they were added. */
  [Symbol.iterator](): IterableIterator<Consumer> {
    if (this.#many !== null) return this.#many[Symbol.iterator]();
    return (this.#one === null ? [] : [this.#one])[Symbol.iterator]();
  }
}
