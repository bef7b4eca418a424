/**
 * Type-ahead, as file managers, Textual's option lists and a browser's select have it: typed
 * characters go to the next item whose name starts with them. Characters typed within a
 * second of each other add up to one prefix ("gr" passes "Green" for "Grey"); the same
 * character typed again goes on to the next item starting with it. Lists and selects share it.
 *
 * @module
 */

/** How long typed characters add up to one prefix, in milliseconds. */
export const TYPE_AHEAD_MS = 1000;

/** The prefix typed so far, and where type-ahead goes next. One for each widget that has it. */
export class TypeAhead {
  #typed = "";
  #typedAt = 0;

  /**
   * The index of the item `key` goes to among `count` items named by `nameOf`, from the item
   * at `at` (-1 for none), or -1 when `key` is not a character or no name starts with the
   * prefix. Space is a character only inside a prefix: alone it is left to activate.
   */
  find(
    key: string,
    at: number,
    count: number,
    nameOf: (index: number) => string | undefined,
  ): number {
    const now = Date.now();
    const fresh = now - this.#typedAt > TYPE_AHEAD_MS;
    const character = key === "Space" && !fresh && this.#typed !== "" ? " " : key;
    if ([...character].length !== 1) return -1;
    this.#typedAt = now;
    const lower = character.toLowerCase();
    let prefix = (fresh ? "" : this.#typed) + lower;
    // "bbb" goes from one item starting with "b" to the next, as a browser's select does.
    if ([...prefix].every((typed) => typed === lower)) prefix = lower;
    // A prefix that matches nothing starts again from this character ("bbg" goes to "Green").
    const index = this.#next(prefix, lower, at, count, nameOf) ??
      (prefix === lower ? undefined : this.#next(lower, lower, at, count, nameOf));
    this.#typed = index === undefined ? "" : this.#typed;
    return index ?? -1;
  }

  /** The next item starting with `prefix`, remembering it as typed; undefined for none. */
  #next(
    prefix: string,
    lower: string,
    at: number,
    count: number,
    nameOf: (index: number) => string | undefined,
  ): number | undefined {
    // A new prefix starts from the item after this one; a longer one may stay on it.
    const from = prefix === lower ? at + 1 : Math.max(at, 0);
    for (let step = 0; step < count; step++) {
      const index = (from + step) % count;
      if (!(nameOf(index)?.toLowerCase().startsWith(prefix) ?? false)) continue;
      this.#typed = prefix;
      return index;
    }
    return undefined;
  }
}
