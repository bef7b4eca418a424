/**
 * Secrets in the reactive graph: which signals a memo or an effect read that are secret, and
 * the taint that follows a secret into the signals written from it.
 *
 * A signal is secret when it was declared so (`cx.secret()`) or when it is *secret-derived*:
 * a memo or effect whose run read a secret (directly, through memos, or through another
 * secret-derived signal) changed it. Only a `.secure()` property may show what reads a
 * secret, so copying a password into a plain signal in an effect does not make it showable.
 * A memo made with `cx.reveal()` is the one way out: the app says its value (a length, a
 * strength score) tells little, and what reads it reads no secret; a value that holds a
 * secret it read as it is stays refused.
 *
 * @module
 */

import { SourceMap } from "./edges.ts";
import type { Consumer, Producer, SignalNode } from "./graph.ts";

/** The signals a consumer read on its last run, directly or through memos, split by kind. */
export interface SignalsRead {
  /** Signals declared secret or secret-derived. */
  secret: SignalNode<unknown>[];
  /** Signals that are not secret. */
  plain: SignalNode<unknown>[];
}

/** True when `producer` is a memo (a producer that is a consumer too), not a signal. */
function isMemo(producer: Producer): producer is Producer & Consumer {
  return "sources" in producer;
}

/**
 * Lists the signals a consumer read on its last run, following every memo (`cx.reveal()`
 * ones too) to the signals it read. A secure field uses it to check that its value comes
 * from secrets only.
 */
export function signalsRead(consumer: Consumer): SignalsRead {
  const read: SignalsRead = { secret: [], plain: [] };
  collectSignalsRead(consumer, read, new Set());
  return read;
}

function collectSignalsRead(consumer: Consumer, into: SignalsRead, seen: Set<Producer>): void {
  for (const source of consumer.sources.keys()) {
    if (seen.has(source)) continue;
    seen.add(source);
    if (isMemo(source)) collectSignalsRead(source, into, seen);
    else {
      const signal = source as SignalNode<unknown>;
      (signal.secret ? into.secret : into.plain).push(signal);
    }
  }
}

// The search state of `secretRead`: module variables, so that the usual binding (one signal,
// no memo) is searched without allocating.
let found: SignalNode<unknown> | null = null;
let visited: Set<Producer> | null = null;

/**
 * The first secret signal (declared or secret-derived) a consumer read on its last run,
 * directly or through memos other than `cx.reveal()` ones; null when it read none. A
 * property that is not secure, and the taint of what a run wrote, are decided by it.
 */
export function secretRead(consumer: Consumer): SignalNode<unknown> | null {
  try {
    searchSources(consumer);
    return found;
  } finally {
    found = null;
    visited = null;
  }
}

function searchSources(consumer: Consumer): boolean {
  const sources = consumer.sources;
  if (sources instanceof SourceMap) return sources.some(isSecretSource);
  for (const source of sources.keys()) if (isSecretSource(source)) return true;
  return false;
}

function isSecretSource(source: Producer): boolean {
  if (isMemo(source)) {
    if (source.reveals === true) return false;
    visited ??= new Set();
    if (visited.has(source)) return false;
    visited.add(source);
    return searchSources(source);
  }
  const signal = source as SignalNode<unknown>;
  if (!signal.secret) return false;
  found = signal;
  return true;
}

/**
 * Marks the signals `run` changed as secret-derived when it read a secret: called by the
 * graph at the end of each memo or effect run that wrote signals.
 */
export function markSecretDerived(run: Consumer, written: readonly SignalNode<unknown>[]): void {
  if (secretRead(run) === null) return;
  for (const signal of written) {
    if (signal.secret) continue;
    signal.secret = true;
    signal.derived = true;
  }
}

/** Secrets shorter than this are not looked for inside a revealed string (see below). */
const SHORTEST_SECRET_LOOKED_FOR = 4;

/**
 * The refusal for a value a `cx.reveal()` memo computed that holds a secret it read as it
 * is: the value itself (unless empty), or, in a string, a secret string of 4 characters or
 * more (a shorter one, such as a one-digit PIN, is found in too many innocent strings). Null
 * otherwise.
 */
export function revealedSecretError(memo: Consumer, value: unknown): TypeError | null {
  for (const signal of signalsRead(memo).secret) {
    const secret = signal.value;
    if (secret === "") continue; // tells nothing: an empty mask equals it
    const inside = typeof value === "string" && typeof secret === "string" &&
      secret.length >= SHORTEST_SECRET_LOOKED_FOR && value.includes(secret);
    if (inside || Object.is(value, secret)) {
      return new TypeError(
        `cx.reveal() computed a value that holds ${
          describeSecret(signal)
        } as it is: reveal what tells little of it, such as its length or a mask ("•".repeat(secret.get().length))`,
      );
    }
  }
  return null;
}

/** How a refusal names a secret signal, never with its value. */
export function describeSecret(signal: SignalNode<unknown>): string {
  const name = signal.name === undefined ? "" : ` ${JSON.stringify(signal.name)}`;
  if (!signal.derived) return `secret signal${name}`;
  return `signal${name}, which is secret-derived (a memo or effect that read a secret changed it)`;
}
