/**
 * Whether the selected app still answers. A stopped process (Ctrl+Z, SIGSTOP) or a hung one
 * keeps its socket: the kernel takes what crownmcp writes, and nothing comes back. So once a
 * forwarded request has waited `PING_AFTER_MS`, or when `list_apps` asks, crownmcp pings the
 * app (its transport answers a ping at once, whatever else it is busy with); a ping left
 * unanswered for `ANSWER_DEADLINE_MS` makes the app silent. What waits for it then fails,
 * cancelled toward the app so that none of it runs when the app wakes up, and so does each
 * request sent while it stays silent, at once and without reaching it. The answer to that
 * ping, whenever it comes, makes the app answer again: the same link goes on.
 *
 * At most one ping is sent per deadline, and none while the app is silent (the one that went
 * unanswered is still waiting), so a stopped app's socket buffer holds a few lines at most.
 *
 * @module
 */

import { type AppLink, noAnswerTo } from "./app_link.ts";

/** How long a ping may go unanswered before the app counts as not answering, in ms. */
export const ANSWER_DEADLINE_MS = 5_000;

/** How long a forwarded request waits for its answer before crownmcp pings the app, in ms. */
export const PING_AFTER_MS = 500;

/** How often the state is looked at, in milliseconds. */
const TICK_MS = 250;

/** What `Liveness` asks of, and tells, the proxy. */
export interface LivenessHooks {
  /** When the oldest forwarded request still unanswered was sent (`performance.now()`). */
  oldestPending(): number | null;
  /** The app stopped answering (`seen` says how it showed): what waits for it fails. */
  silent(seen: string): void;
  /** The app answers again. */
  answering(): void;
}

/** Watches one link for answers. */
export class Liveness {
  readonly #link: AppLink;
  readonly #hooks: LivenessHooks;
  readonly #timer: ReturnType<typeof setInterval>;
  /** What showed that the app does not answer; null while it answers. */
  #seen: string | null = null;
  /** When the oldest unanswered ping was sent, or null when none is out. */
  #pingOutSince: number | null = null;
  #lastPing = -Infinity;

  /** Starts watching `link`. */
  constructor(link: AppLink, hooks: LivenessHooks) {
    this.#link = link;
    this.#hooks = hooks;
    this.#timer = setInterval(() => this.#tick(), TICK_MS);
    Deno.unrefTimer(this.#timer); // crownmcp lives as long as its standard input, not this
  }

  /** What showed that the app does not answer, or null while it answers. */
  get seen(): string | null {
    return this.#seen;
  }

  /** Pings the app unless a ping is out already: the verdict comes within the deadline. */
  check(): void {
    if (this.#pingOutSince === null) this.#ping(performance.now());
  }

  /** Stops watching. */
  stop(): void {
    clearInterval(this.#timer);
  }

  #tick(): void {
    if (this.#link.closed) {
      this.stop();
      return;
    }
    const now = performance.now();
    const out = this.#pingOutSince;
    if (out !== null && this.#seen === null && now - out >= ANSWER_DEADLINE_MS) {
      this.#seen = noAnswerTo("ping", ANSWER_DEADLINE_MS);
      this.#hooks.silent(this.#seen);
      return;
    }
    const oldest = this.#hooks.oldestPending();
    if (
      this.#seen === null && oldest !== null && now - oldest >= PING_AFTER_MS &&
      now - this.#lastPing >= ANSWER_DEADLINE_MS
    ) {
      this.#ping(now);
    }
  }

  #ping(now: number): void {
    this.#lastPing = now;
    this.#pingOutSince ??= now;
    this.#link.request("ping", undefined, null).then(() => this.#answered(), () => {});
  }

  #answered(): void {
    this.#pingOutSince = null;
    if (this.#seen === null) return;
    this.#seen = null;
    this.#hooks.answering();
  }
}
