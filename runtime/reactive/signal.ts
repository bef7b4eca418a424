/**
 * The public face of the reactive graph: `Signal`, `Memo` and the `Ctx` every read and write
 * takes. A ctx is a component's `cx` or the runtime handle `rt` given to bindings, handlers
 * and tools; passing one makes it plain, at each call, that the code runs inside an app.
 *
 * @module
 */

import { MemoNode } from "./computed.ts";
import {
  assertWriteAllowed,
  createSignalNode,
  notifyChanged,
  type Owner,
  readSignal,
  type SignalNode,
  writeSignal,
} from "./graph.ts";

/** The property that marks a context; the runtime's `Cx` and `Rt` classes set it. */
export const ctxBrand: unique symbol = Symbol("crownui.ctx");

/** A context that may read and write signals: a component's `cx` or the runtime's `rt`. */
export interface Ctx {
  /** Marks the object as a context; set by the runtime, never by apps. */
  readonly [ctxBrand]: true;
}

/** Marks `target` as a context. For the runtime's own `Cx` and `Rt` classes. */
export function brandCtx<T extends object>(target: T): T & Ctx {
  Object.defineProperty(target, ctxBrand, { value: true });
  return target as T & Ctx;
}

/** Throws unless `ctx` is a context; `method` is qualified, as in `"Memo.get"`. */
function assertCtx(ctx: unknown, method: string): void {
  if (typeof ctx !== "object" || ctx === null || !(ctxBrand in ctx)) {
    throw new TypeError(
      `${method}() needs a context as its first argument: pass the component's cx or the rt a binding or handler receives`,
    );
  }
}

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
 * A value that bindings, memos and effects follow: when it changes, what read it updates at
 * the next frame.
 */
export class Signal<T> {
  readonly #node: SignalNode<T>;

  /** Creates a signal owned by `owner`; apps call `cx.signal()` instead. */
  constructor(owner: Owner, initial: T, options: SignalOptions<T> = {}) {
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
  get(ctx: Ctx): T {
    assertCtx(ctx, "Signal.get");
    return readSignal(this.#node);
  }

  /** Replaces the value; nothing happens when it equals the current one. */
  set(ctx: Ctx, value: T): void {
    assertCtx(ctx, "Signal.set");
    writeSignal(this.#node, value);
  }

  /**
   * Changes the value in place, as in `notes.update(cx, (list) => list.push(title))`, then
   * tells everything that read it. What `fn` returns is ignored.
   */
  update(ctx: Ctx, fn: (value: T) => unknown): void {
    assertCtx(ctx, "Signal.update");
    // Refuse before `fn` mutates the value: after, the change could not be undone.
    assertWriteAllowed();
    fn(this.#node.value);
    notifyChanged(this.#node);
  }

  /** Reads the value through `fn` without copying it, as in `notes.with(rt, (l) => l.length)`. */
  with<R>(ctx: Ctx, fn: (value: T) => R): R {
    assertCtx(ctx, "Signal.with");
    return fn(readSignal(this.#node));
  }

  /** True when the signal was declared secret when it was made. */
  get secret(): boolean {
    return this.#node.secret;
  }
}

/** A derived value, computed when read and cached until what it read changes. */
export class Memo<T> {
  readonly #node: MemoNode<T>;

  /** Creates a memo owned by `owner`; apps call `cx.memo()` instead. */
  constructor(owner: Owner, fn: () => T, equals?: (a: T, b: T) => boolean) {
    this.#node = new MemoNode(owner, fn, equals);
  }

  /** Reads the value; inside a binding, memo or effect the read is tracked. */
  get(ctx: Ctx): T {
    assertCtx(ctx, "Memo.get");
    return this.#node.read();
  }

  /** Reads the value through `fn`. */
  with<R>(ctx: Ctx, fn: (value: T) => R): R {
    assertCtx(ctx, "Memo.with");
    return fn(this.#node.read());
  }
}

/** Anything a view property can follow: a signal or a memo. */
export type Readable<T> = Signal<T> | Memo<T>;
