/**
 * Views describe widgets; mounting a view makes its element. Properties of a view can be
 * plain values, a `bind(() => ...)` binding, or a signal or memo: a followed property
 * updates the element in place when what it read changes, so ids stay stable.
 *
 * @module
 */

import {
  describeSecret,
  EffectNode,
  Memo,
  type Owner,
  secretRead,
  Signal,
  type SignalNode,
  signalsRead,
} from "../reactive/mod.ts";
import type { Host } from "./host.ts";
import { bindingFailed, bindingRan, mountTarget } from "./binding_failure.ts";
import type { Widget } from "./widget.ts";
import type { Rt } from "./rt.ts";

/** Where a view is being mounted: the app, and the scope that will own what it creates. */
export interface MountContext {
  /** The app the view is mounted in. */
  readonly host: Host;
  /**
   * The scope that owns the signals, effects and cleanups the view creates. The reactive graph
   * is no part of the package's API, so its docs leave this out.
   *
   * @ignore
   */
  readonly owner: Owner;
}

/** Something that can be mounted into an app: a widget, a container or a component. */
export abstract class View {
  /** Creates the widget (and its subtree) for this view. */
  abstract mount(context: MountContext): Widget;
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
 * @example A count that follows a list
 * ```ts
 * import assert from "node:assert/strict";
 * import { bind, button, column, component, text } from "@crownui/runtime";
 * import { render } from "@crownui/runtime/testing";
 *
 * await using app = await render(component((cx) => {
 *   const notes = cx.signal(["first"]);
 *   return column(
 *     button("Add", () => notes.update((list) => list.push("more"))),
 *     text(bind(() => `${notes.with((list) => list.length)} notes`)),
 *   );
 * }));
 * assert.equal(app.get({ role: "text" }).name, "1 notes");
 * await app.act(app.get({ role: "button", name: "Add" }).id, { action: "click" });
 * assert.equal(app.get({ role: "text" }).name, "2 notes");
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
 * (at the next frame). The follower belongs to `owner` and stops when it is disposed.
 *
 * With `secure` (a `.secure()` widget's value) the value must come from secrets only: a
 * signal made with `cx.secret()`, or a binding or memo that read secrets and nothing else.
 * Otherwise mounting throws a TypeError that says how to declare it; a later run that reads
 * something else is reported and not applied.
 *
 * Without `secure`, a binding, signal or memo that read a secret (declared, or secret-derived:
 * see `runtime/reactive/secrets.ts`) may give the property only `true` or `false`. So the
 * properties that show text or numbers (text, name, label, value, a list's items) are refused
 * whatever the computation did with the secret (a concatenation, a template string, a memo),
 * while the boolean states (disabled, checked, selected, expanded, `show()`'s condition) may
 * decide with it: a boolean tells one bit, which the state shows anyway. A `cx.reveal()` memo
 * is the way to show a length or a mask.
 */
export function follow<T>(
  context: MountContext,
  value: Prop<T>,
  apply: (value: T) => void,
  where = "a binding",
  secure = false,
  failed?: () => void,
): void {
  if (!isReactive(value)) {
    if (secure) {
      throw secureValueError("pass a signal made with cx.secret(initial) instead of a plain value");
    }
    apply(value);
    return;
  }
  if (value instanceof Signal && secure && !value.secret) {
    throw secureValueError(declareHint(value.name));
  }
  const { host } = context;
  // One closure per binding, which reports its own errors (the effect's `onError` is shared).
  // `refusal` is undefined while mounting: a refusal then is thrown to the caller, after
  // mounting it is reported.
  let refusal: TypeError | null | undefined = undefined;
  // The widget this binding feeds, which shows that it failed while it does.
  const target = mountTarget();
  const effect: EffectNode = new EffectNode(
    context.owner,
    () => {
      try {
        const current = value instanceof Binding ? value.fn(host.rt) : value.get();
        const problem = secure ? notOnlySecrets(effect) : showsSecret(effect, current, where);
        if (problem === null) {
          apply(current);
          bindingRan(effect);
        } else if (refusal === undefined) refusal = problem;
        else host.reportError(problem, where);
      } catch (error) {
        host.reportError(error, where);
        bindingFailed(target, effect, where, error);
        try {
          failed?.();
        } catch (showing) {
          host.reportError(showing, where);
        }
      }
    },
    rethrow,
  );
  effect.update();
  const problem = refusal;
  refusal = null;
  if (problem !== undefined && problem !== null) throw problem;
}

/** The `onError` of every binding's effect, whose function catches and reports its own errors. */
function rethrow(error: unknown): never {
  throw error;
}

function secureValueError(detail: string): TypeError {
  return new TypeError(`a .secure() field's value must be a declared secret: ${detail}`);
}

function declareHint(name: string | undefined): string {
  const signal = name === undefined ? "the signal" : `signal ${JSON.stringify(name)}`;
  return `declare ${signal} with cx.secret(initial) or cx.signal(initial, { secret: true })`;
}

/**
 * The refusal for a property that is not secure fed by `secret`: it says what to do instead.
 * It keeps the phrase of the earlier, narrower check (a secret shown as it is), which the
 * contract pins.
 */
function shownSecretError(where: string, secret: SignalNode<unknown>): TypeError {
  return new TypeError(
    `a secret's value would be shown by a property that is not secure: ${where} reads ${
      describeSecret(secret)
    }; show it only in a .secure() field, show what tells little through cx.reveal() (its length, cx.reveal(() => secret.get().length), or a mask), or decide a true or false state with it, such as .disabled(bind(() => secret.get() === ""))`,
  );
}

/** The refusal for a secure value that read something other than secrets, or nothing. */
function notOnlySecrets(effect: EffectNode): TypeError | null {
  const read = signalsRead(effect);
  const [plain] = read.plain;
  if (plain !== undefined) {
    return secureValueError(
      `its binding or memo reads a signal that is not secret; ${declareHint(plain.name)}`,
    );
  }
  if (read.secret.length === 0) {
    return secureValueError(
      "its binding or memo reads no signal; bind it to a signal made with cx.secret(initial)",
    );
  }
  return null;
}

/**
 * The refusal for a property that is not secure whose binding, signal or memo read a secret
 * and gave it anything but a boolean; null when it may take `current`.
 */
function showsSecret(effect: EffectNode, current: unknown, where: string): TypeError | null {
  if (typeof current === "boolean") return null;
  const secret = secretRead(effect);
  return secret === null ? null : shownSecretError(where, secret);
}
