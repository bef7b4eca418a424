/**
 * A token bucket: `ui_act` and app tool calls of one app share one, 20 a second with bursts
 * of 20, so an agent stuck in a loop gets an error it can read instead of flooding the app.
 *
 * @module
 */

/** Actions allowed per second, and the burst. */
export const ACTIONS_PER_SECOND = 20;

/** A token bucket refilled continuously. */
export class TokenBucket {
  readonly #rate: number;
  readonly #burst: number;
  readonly #now: () => number;
  #tokens: number;
  #last: number;

  /**
   * @param rate tokens added per second
   * @param burst the most tokens held
   * @param now the clock in milliseconds (for tests)
   */
  constructor(
    rate: number = ACTIONS_PER_SECOND,
    burst: number = ACTIONS_PER_SECOND,
    now: () => number = () => performance.now(),
  ) {
    this.#rate = rate;
    this.#burst = burst;
    this.#now = now;
    this.#tokens = burst;
    this.#last = now();
  }

  /** Takes a token; returns 0 when one was taken, else the milliseconds until one is free. */
  take(): number {
    const now = this.#now();
    this.#tokens = Math.min(this.#burst, this.#tokens + ((now - this.#last) * this.#rate) / 1000);
    this.#last = now;
    if (this.#tokens >= 1) {
      this.#tokens -= 1;
      return 0;
    }
    return Math.ceil(((1 - this.#tokens) * 1000) / this.#rate);
  }
}

/** The message for a refused action. */
export function rateLimitMessage(retryMs: number): string {
  return `rate limit exceeded: at most ${ACTIONS_PER_SECOND} actions a second; retry in ${retryMs} ms`;
}
