/**
 * The public face of the reactive graph: `Signal` and `Memo`. Reading and writing take no
 * context argument: the graph itself knows which binding, memo or effect is running and
 * tracks the read. A signal lives as long as the component that made it; using it after that
 * component unmounted, or after its app closed, throws an error that names the signal and
 * says how to stop the code that still uses it.
 *
 * @module
 */

import { MemoNode } from "./computed.ts";
import {
  assertWriteAllowed,
  createSignalNode,
  notifyChanged,
  type Owner,
  type ReactiveRuntime,
  readSignal,
  type SignalNode,
  writeSignal,
} from "./graph.ts";

/** Options for a new signal. */
export interface SignalOptions<T> {
  /** Shown in inspection snapshots next to the value. */
  name?: string;
  /** Decides whether a `set` changed the value; `Object.is` by default. */
  equals?: (a: T, b: T) => boolean;
  /**
   * Declares the value secret, for good: inspection, the tree, logs and errors never show it,
   * and a `.secure()` field may be bound to it. `cx.secret(initial)` sets it.
   */
  secret?: boolean;
}

/**
 * The error for a signal or memo used after its owner was disposed. `method` is qualified,
 * as in `"Signal.get"`; the name is shown (never the value, which may be secret).
 */
function usedAfterDisposal(
  method: string,
  name: string | undefined,
  runtime: ReactiveRuntime,
): Error {
  const kind = method.startsWith("Memo.") ? "memo" : "signal";
  const what = name === undefined ? `a ${kind}` : `${kind} ${JSON.stringify(name)}`;
  const when = runtime.closed ? "its app closed" : "the component that made it unmounted";
  return new Error(
    `${method}() was called on ${what} after ${when}: a ${kind} lives as long as its component; stop the timer or callback that still uses it with cx.onCleanup(), or make the ${kind} in a component that stays mounted`,
  );
}

/** Throws a TypeError unless `fn` is a function, as a call still passing rt first would not. */
function assertFunction(fn: unknown, method: string, example: string): void {
  if (typeof fn !== "function") {
    throw new TypeError(
      `${method}() takes a function, got ${
        fn === null ? "null" : typeof fn
      }: call ${example}, with no rt or cx before it`,
    );
  }
}

/**
 * A value that bindings, memos and effects follow: when it changes, what read it updates at
 * the next frame.
 *
 * @example Reading and writing
 * ```ts
 * import assert from "node:assert/strict";
 * import { bind, component, type Signal, text } from "@crownui/runtime";
 * import { render } from "@crownui/runtime/testing";
 *
 * let count: Signal<number> | undefined;
 * let notes: Signal<string[]> | undefined;
 * await using app = await render(component((cx) => {
 *   count = cx.signal(0);
 *   notes = cx.signal<string[]>([]);
 *   return text(bind(() => `${count!.get()} clicks, ${notes!.get().length} notes`));
 * }));
 * count!.set(count!.get() + 1);
 * notes!.update((list) => list.push("first"));
 * await app.settle();
 * assert.match(app.tree(), /text "1 clicks, 1 notes"/);
 * ```
 */
export class Signal<T> {
  readonly #node: SignalNode<T>;
  readonly #runtime: ReactiveRuntime;

  /**
   * Creates a signal owned by `owner`; apps call `cx.signal()` instead. The reactive graph is
   * no part of the package's API, so its docs leave this out.
   *
   * @ignore
   */
  constructor(owner: Owner, initial: T, options: SignalOptions<T> = {}) {
    this.#runtime = owner.runtime;
    this.#node = createSignalNode(
      owner,
      initial,
      options.name,
      options.equals,
      options.secret === true,
    );
  }

  /** The name given at creation, if any. */
  get name(): string | undefined {
    return this.#node.name;
  }

  /** Reads the value; inside a binding, memo or effect the read is tracked. */
  get(): T {
    const node = this.#node;
    if (node.disposed) throw usedAfterDisposal("Signal.get", node.name, this.#runtime);
    return readSignal(node);
  }

  /**
   * Replaces the value; nothing happens when it equals the current one. What read it updates
   * at the next frame of the app the signal belongs to; many writes make one frame.
   */
  set(value: T): void {
    const node = this.#node;
    // A call that still passes rt first would store rt as the value: refuse it instead.
    if (arguments.length !== 1) {
      throw new TypeError(
        `Signal.set() takes one argument, the new value, got ${arguments.length}: call signal.set(value), with no rt or cx before it`,
      );
    }
    if (node.disposed) throw usedAfterDisposal("Signal.set", node.name, this.#runtime);
    writeSignal(node, value);
  }

  /**
   * Changes the value in place, as in `notes.update((list) => list.push(title))`, then tells
   * everything that read it. What `fn` returns is ignored.
   *
   * Mutating an item object in place inside a list's array does not re-render its row: a
   * `list()` row follows its item's identity, so replace the item with a new object, as in
   * `notes.update((l) => { l[0] = { ...l[0]!, done: true }; })`.
   *
   * @example An item changed in place keeps its row as it was; a new object shows
   * ```ts
   * import assert from "node:assert/strict";
   * import { component, list, type Signal, text } from "@crownui/runtime";
   * import { render } from "@crownui/runtime/testing";
   *
   * type Note = { id: number; title: string };
   * let notes: Signal<Note[]> | undefined;
   * await using app = await render(component((cx) => {
   *   notes = cx.signal<Note[]>([{ id: 1, title: "old" }]);
   *   return list(notes, (note) => text(note.title), (note) => note.id);
   * }));
   * notes!.update((l) => { l[0]!.title = "mutated"; }); // the same object: the row stays
   * await app.settle();
   * assert.match(app.tree(), /"old"/);
   * notes!.update((l) => { l[0] = { ...l[0]!, title: "new" }; }); // a new object: it shows
   * await app.settle();
   * assert.match(app.tree(), /"new"/);
   * ```
   */
  update(fn: (value: T) => unknown): void {
    const node = this.#node;
    assertFunction(fn, "Signal.update", "signal.update((value) => ...)");
    if (node.disposed) throw usedAfterDisposal("Signal.update", node.name, this.#runtime);
    // Refuse before `fn` mutates the value: after, the change could not be undone.
    assertWriteAllowed();
    fn(node.value);
    notifyChanged(node);
  }

  /** Reads the value through `fn` without copying it, as in `notes.with((l) => l.length)`. */
  with<R>(fn: (value: T) => R): R {
    const node = this.#node;
    assertFunction(fn, "Signal.with", "signal.with((value) => ...)");
    if (node.disposed) throw usedAfterDisposal("Signal.with", node.name, this.#runtime);
    return fn(readSignal(node));
  }

  /**
   * True when the signal is secret: declared so when it was made (`cx.secret()`), or
   * secret-derived, because a binding, memo or effect that read a secret changed it. Only a
   * `.secure()` property may show it, and inspection never shows its value.
   */
  get secret(): boolean {
    return this.#node.secret;
  }
}

/** A derived value, computed when read and cached until what it read changes. */
export class Memo<T> {
  readonly #node: MemoNode<T>;

  /**
   * Creates a memo owned by `owner`; apps call `cx.memo()` or `cx.reveal()` instead. The reactive graph is no
   * part of the package's API, so its docs leave this out.
   *
   * @ignore
   */
  constructor(owner: Owner, fn: () => T, equals?: (a: T, b: T) => boolean, reveals = false) {
    this.#node = new MemoNode(owner, fn, equals, reveals);
  }

  /** Reads the value; inside a binding, memo or effect the read is tracked. */
  get(): T {
    const node = this.#node;
    if (node.disposed) throw usedAfterDisposal("Memo.get", undefined, node.runtime);
    return node.read();
  }

  /** Reads the value through `fn`. */
  with<R>(fn: (value: T) => R): R {
    const node = this.#node;
    assertFunction(fn, "Memo.with", "memo.with((value) => ...)");
    if (node.disposed) throw usedAfterDisposal("Memo.with", undefined, node.runtime);
    return fn(node.read());
  }
}

/** Anything a view property can follow: a signal or a memo. */
export type Readable<T> = Signal<T> | Memo<T>;
