/**
 * Notifications from an app, thinned before they reach the agent: an app that says its tools
 * or a resource changed thousands of times a second would otherwise flood the agent's
 * session (5,000 `tools/list_changed` from an app became 3,537 notifications to the agent in
 * 5 s). Per key (a kind, or a kind and a resource's uri), the first one goes at once; what
 * comes within `COALESCE_MS` after it goes as one, at the end of that time (the latest, so
 * the last change is never lost), which opens the next interval.
 *
 * @module
 */

/** The shortest time between two notifications of one key to the agent, in milliseconds. */
export const COALESCE_MS = 200;

interface Slot {
  /** What to send at the end of the interval, if anything came within it. */
  pending: (() => void) | null;
  timer: ReturnType<typeof setTimeout>;
}

/** At most one notification per key and interval, leading and trailing. */
export class Coalescer {
  readonly #slots = new Map<string, Slot>();
  readonly #intervalMs: number;

  /** @param intervalMs the shortest time between two sends of one key */
  constructor(intervalMs: number = COALESCE_MS) {
    this.#intervalMs = intervalMs;
  }

  /** Sends with `send` now, or once at the end of the key's interval (the latest `send`). */
  push(key: string, send: () => void): void {
    const slot = this.#slots.get(key);
    if (slot !== undefined) {
      slot.pending = send;
      return;
    }
    send();
    this.#open(key);
  }

  #open(key: string): void {
    const slot: Slot = {
      pending: null,
      timer: setTimeout(() => {
        this.#slots.delete(key);
        const send = slot.pending;
        if (send === null) return;
        send();
        this.#open(key);
      }, this.#intervalMs),
    };
    this.#slots.set(key, slot);
  }

  /** Drops what waits: nothing more is sent. */
  clear(): void {
    for (const slot of this.#slots.values()) clearTimeout(slot.timer);
    this.#slots.clear();
  }
}
