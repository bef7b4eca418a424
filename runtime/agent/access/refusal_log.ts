/**
 * `RefusalLog`: how the server logs the connections it refuses without letting anyone flood
 * the log. The first few refusals are logged one by one, with the peer's pid and uid; past
 * them refusals are only counted, and one summary line a minute says how many there were.
 * After a minute without a refusal, the next ones are logged one by one again.
 *
 * @module
 */

/** How many refusals in a row are logged one by one before they are only counted. */
export const REFUSALS_LOGGED_ONE_BY_ONE = 5;

/** How often at most a summary of the refusals not logged one by one is written, in ms. */
export const REFUSAL_SUMMARY_MS = 60_000;

/** Logs refusals one by one at first, then one summary line per interval at most. */
export class RefusalLog {
  readonly #log: (line: string) => void;
  readonly #intervalMs: number;
  #loggedOneByOne = 0;
  #counted = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;

  /**
   * Makes a log of refusals that writes to `log`.
   *
   * @param log where lines go
   * @param intervalMs the least time between two summary lines
   */
  constructor(log: (line: string) => void, intervalMs: number = REFUSAL_SUMMARY_MS) {
    this.#log = log;
    this.#intervalMs = intervalMs;
  }

  /** Records one refusal; `line` is what to log when it is logged one by one. */
  refused(line: string): void {
    if (this.#loggedOneByOne < REFUSALS_LOGGED_ONE_BY_ONE) {
      this.#loggedOneByOne++;
      this.#log(line);
    } else {
      this.#counted++;
    }
    this.#timer ??= this.#startTimer();
  }

  #startTimer(): ReturnType<typeof setTimeout> {
    const timer = setTimeout(() => {
      this.#timer = undefined;
      if (this.#counted === 0) {
        this.#loggedOneByOne = 0; // a quiet interval: the next refusals are news again
        return;
      }
      this.flush();
      this.#timer = this.#startTimer();
    }, this.#intervalMs);
    Deno.unrefTimer(timer); // never the reason the app stays alive
    return timer;
  }

  /** Writes the summary of the refusals counted so far, if any. */
  flush(): void {
    if (this.#counted === 0) return;
    const count = this.#counted;
    this.#counted = 0;
    this.#log(
      `refused ${count} more connection${
        count === 1 ? "" : "s"
      } (not logged one by one: one summary line a minute at most)`,
    );
  }

  /** Writes what is counted and stops the timer. */
  close(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.flush();
  }
}
