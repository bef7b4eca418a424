/**
 * Views describe widgets; mounting a view makes its element. Properties of a view can be
 * plain values, a `bind((rt) => ...)` binding, or a signal or memo: a followed property
 * updates the element in place when what it read changes, so ids stay stable.
 *
 * @module
 */

import { EffectNode, markSourcesSecret, Memo, type Owner, Signal } from "../reactive/mod.ts";
import type { Element, Host } from "./element.ts";
import type { Rt } from "./rt.ts";

/** Where a view is being mounted: the app, and the scope that will own what it creates. */
export interface MountContext {
  /** The app the view is mounted in. */
  readonly host: Host;
  /** The scope that owns the signals, effects and cleanups the view creates. */
  readonly owner: Owner;
}

/** Something that can be mounted into an app: a widget, a container or a component. */
export abstract class View {
  /** Creates the element (and its subtree) for this view. */
  abstract mount(context: MountContext): Element;
}

/** A reactive value made with `bind()`: a property follows it. */
export class Binding<T> {
  /** Computes the value; runs again after a signal it read changes. */
  readonly fn: (rt: Rt) => T;

  /** Apps call `bind()` instead. */
  constructor(fn: (rt: Rt) => T) {
    this.fn = fn;
  }
}

/**
 * Makes a reactive value a view property can follow. The function runs again, and the
 * property updates, whenever a signal it read changes.
 *
 * @example
 * ```ts ignore
 * text(bind((rt) => `${notes.with(rt, (list) => list.length)} notes`));
 * ```
 */
export function bind<T>(fn: (rt: Rt) => T): Binding<T> {
  if (typeof fn !== "function") throw new TypeError("bind() takes a function (rt) => value");
  return new Binding(fn);
}

/** A property value: plain, bound, or a signal or memo to follow. */
export type Prop<T> = T | Binding<T> | Signal<T> | Memo<T>;

/** True when `value` changes over time (a binding, signal or memo). */
export function isReactive<T>(value: Prop<T>): value is Binding<T> | Signal<T> | Memo<T> {
  return value instanceof Binding || value instanceof Signal || value instanceof Memo;
}

/**
 * Applies a property to an element now and, when it is reactive, again whenever it changes
 * (at the next frame). The follower belongs to `owner` and stops when it is disposed. With
 * `secret`, every signal the value was read from is marked secret after each run.
 */
export function follow<T>(
  context: MountContext,
  value: Prop<T>,
  apply: (value: T) => void,
  where = "a binding",
  secret = false,
): void {
  if (!isReactive(value)) {
    apply(value);
    return;
  }
  const { host } = context;
  const read: (rt: Rt) => T = value instanceof Binding ? value.fn : (rt) => value.get(rt);
  const effect: EffectNode = new EffectNode(
    context.owner,
    () => {
      const current = read(host.rt);
      if (secret) markSourcesSecret(effect);
      apply(current);
    },
    (error) => host.reportError(error, where),
  );
  if (value instanceof Signal && secret) value.markSecret();
  effect.update();
}
