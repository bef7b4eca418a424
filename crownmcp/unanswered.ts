/**
 * The apps crownmcp tried to connect to that did not answer in time (a stopped or hung
 * process still has its socket, and the kernel takes the connection): what was seen, for
 * `list_apps`, said once on standard error, and a next try `RETRY_MS` later. An app that
 * exits is forgotten; one that answers is forgotten when it is selected.
 *
 * @module
 */

import type { AppEntry } from "../runtime/agent/clients/discovery.ts";

/** How long an app that did not answer waits before it is tried again, in milliseconds. */
export const RETRY_MS = 2_000;

/** The apps that did not answer when last tried. */
export class Unanswered {
  /** What was seen, by `name-pid`. */
  readonly #seen = new Map<string, string>();
  readonly #log: (line: string) => void;
  readonly #retry: () => void;
  #timer: ReturnType<typeof setTimeout> | undefined;

  /**
   * @param log where the changes are said
   * @param retry called `RETRY_MS` after an app did not answer (it tries again)
   */
  constructor(log: (line: string) => void, retry: () => void) {
    this.#log = log;
    this.#retry = retry;
  }

  /** What was seen when `app` was last tried, if it did not answer. */
  seen(app: AppEntry): string | undefined {
    return this.#seen.get(app.app);
  }

  /** Whether `app` did not answer and its next try is still to come. */
  waiting(app: AppEntry): boolean {
    return this.#timer !== undefined && this.#seen.has(app.app);
  }

  /** `app` did not answer (`seen` says how that showed): it is tried again later. */
  add(app: AppEntry, seen: string): void {
    if (this.#seen.get(app.app) !== seen) {
      this.#log(`${app.app} is not answering: ${seen}; trying again every ${RETRY_MS / 1000} s`);
    }
    this.#seen.set(app.app, seen);
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#retry();
    }, RETRY_MS);
    Deno.unrefTimer(this.#timer); // crownmcp lives as long as its standard input, not this
  }

  /** `app` answered. */
  answered(app: AppEntry): void {
    if (this.#seen.delete(app.app)) this.#log(`${app.app} answers again`);
  }

  /** Forgets the apps that are not among `running` any more. */
  prune(running: readonly AppEntry[]): void {
    for (const app of this.#seen.keys()) {
      if (!running.some((entry) => entry.app === app)) this.#seen.delete(app);
    }
  }

  /** Stops trying again. */
  stop(): void {
    clearTimeout(this.#timer);
  }
}
