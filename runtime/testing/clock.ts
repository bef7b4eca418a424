/**
 * A manual clock for tests: while it is installed, `setTimeout`, `setInterval`, their clears
 * and `Date.now()` follow it instead of the real time, and `advance(ms)` runs what falls due,
 * in order, letting promises settle between timers, so that an app's timers, intervals and
 * async handlers run without the test waiting for them.
 *
 * @module
 */

interface Timer {
  id: number;
  at: number;
  every: number | null;
  run: () => void;
}

const real = {
  setTimeout: globalThis.setTimeout,
  clearTimeout: globalThis.clearTimeout,
  setInterval: globalThis.setInterval,
  clearInterval: globalThis.clearInterval,
  dateNow: Date.now,
};

/** Waits one real turn of the event loop: promises queued before it settle. */
export function realTick(): Promise<void> {
  return new Promise((resolve) => real.setTimeout(resolve, 0));
}

let installed: ManualClock | null = null;

/** A clock that moves only when told to. */
export class ManualClock {
  #now: number;
  #timers = new Map<number, Timer>();
  #nextId = 1;

  /** A clock that starts at the real time now. */
  constructor() {
    this.#now = real.dateNow();
  }

  /** The clock's time, in milliseconds since the epoch, as `Date.now()` gives it while installed. */
  get now(): number {
    return this.#now;
  }

  /** How many timers wait. */
  get pending(): number {
    return this.#timers.size;
  }

  /** Puts the clock in place of the real one; throws when another is in place. */
  install(): void {
    if (installed !== null) {
      throw new Error("a manual clock is in use already: close the other test app first");
    }
    installed = this;
    const add = (callback: unknown, delay: unknown, every: boolean, args: unknown[]): number => {
      if (typeof callback !== "function") throw new TypeError("the callback must be a function");
      const ms = Math.max(0, Number(delay) || 0);
      const id = this.#nextId++;
      this.#timers.set(id, {
        id,
        at: this.#now + ms,
        every: every ? Math.max(1, ms) : null,
        run: () => callback(...args),
      });
      return id;
    };
    const clear = (id: unknown) => void this.#timers.delete(Number(id));
    Object.assign(globalThis, {
      setTimeout: (callback: unknown, delay?: unknown, ...args: unknown[]) =>
        add(callback, delay, false, args),
      setInterval: (callback: unknown, delay?: unknown, ...args: unknown[]) =>
        add(callback, delay, true, args),
      clearTimeout: clear,
      clearInterval: clear,
    });
    Date.now = () => this.#now;
  }

  /** Gives the real clock back. */
  uninstall(): void {
    if (installed !== this) return;
    installed = null;
    Object.assign(globalThis, {
      setTimeout: real.setTimeout,
      clearTimeout: real.clearTimeout,
      setInterval: real.setInterval,
      clearInterval: real.clearInterval,
    });
    Date.now = real.dateNow;
  }

  /**
   * Moves the clock `ms` on, running each timer as it falls due (in order of time, then of
   * setting), with `between()` and a real turn of the event loop after each, so that the
   * promises a timer resolves go on before the next one runs.
   */
  async advance(ms: number, between: () => void = () => {}): Promise<void> {
    if (!(Number.isFinite(ms) && ms >= 0)) {
      throw new RangeError(`advance() takes a number of milliseconds, 0 or more, got ${ms}`);
    }
    const end = this.#now + ms;
    await realTick();
    between();
    for (let ran = 0; ran < 100_000; ran++) {
      let next: Timer | undefined;
      for (const timer of this.#timers.values()) {
        if (timer.at <= end && (next === undefined || timer.at < next.at)) next = timer;
      }
      if (next === undefined) break;
      this.#now = next.at;
      if (next.every === null) this.#timers.delete(next.id);
      else next.at += next.every;
      next.run();
      await realTick();
      between();
    }
    this.#now = end;
    await realTick();
    between();
  }
}
