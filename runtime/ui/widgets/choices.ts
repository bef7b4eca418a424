/**
 * What a select and a radio group share: their options (strings, or labels with values),
 * which one is chosen, and choosing one. A signal as the value makes the widget two-way; a
 * binding or memo leaves the choice to the app (choosing calls `onChange`, and the widget
 * shows what the binding gives); a plain value is where the widget starts, and it keeps its
 * own choice after.
 *
 * @module
 */

import type { Widget } from "../widget.ts";
import { settleHandler } from "../handler.ts";
import { type Memo, Signal } from "../../reactive/mod.ts";
import type { Rt } from "../rt.ts";
import { follow, isReactive, type MountContext, type Prop } from "../view.ts";

/** One option with a value of its own: shown, and named for agents, by its label. */
export interface LabelledChoice<T> {
  /** What the option shows, and its name for people's screen readers and agents. */
  readonly label: string;
  /** What choosing it gives the app. */
  readonly value: T;
}

/** An option: a string (its label and its value), or a label with a value. */
export type Choice<T> = (T & string) | LabelledChoice<T>;

/**
 * What a choice's options can be: an array, a binding, or a signal or memo of an array of
 * strings or of labelled options.
 */
export type ChoiceList<T> =
  | Prop<readonly Choice<T>[]>
  | Signal<(T & string)[]>
  | Memo<(T & string)[]>
  | Signal<LabelledChoice<T>[]>
  | Memo<LabelledChoice<T>[]>;

/** What `select()` and `radioGroup()` take. */
export interface ChoiceOptions<T> {
  /** The accessible name, shown with the options. */
  label: Prop<string>;
  /** The options, in order; their labels must differ. A signal or binding may change them. */
  options: ChoiceList<T>;
  /**
   * The chosen option's value: a signal makes the widget two-way, a plain value is where it
   * starts. None, or a value no option has (`""` among strings, say), chooses nothing.
   */
  value?: Prop<T>;
  /** Called with the value each time a person or an agent chooses another option. */
  onChange?: (value: T, rt: Rt) => void;
}

/** The options of a select or radio group, the chosen one, and how choosing tells the app. */
export class Choices<T> {
  /** The options, each with its label and value. */
  entries: readonly LabelledChoice<T>[] = [];
  /** The index of the chosen option in `entries`, or -1 when none is chosen. */
  index = -1;
  /** The value shown: the source's, or the widget's own after a choice. */
  #value: T | null = null;
  readonly #source: Prop<T> | undefined;
  readonly #onChange: ((value: T, rt: Rt) => void) | undefined;
  readonly #changed: (optionsChanged: boolean) => void;

  /**
   * Choices following `options`; `changed` runs after the chosen one changes, or the options
   * do (then with true).
   */
  constructor(options: ChoiceOptions<T>, changed: (optionsChanged: boolean) => void) {
    this.#source = options.value;
    this.#onChange = options.onChange;
    this.#changed = changed;
  }

  /** The chosen option's label, or undefined when none is chosen. */
  get chosenLabel(): string | undefined {
    return this.entries[this.index]?.label;
  }

  /** The labels, in order: the names `choose()` takes. */
  labels(): string[] {
    return this.entries.map((entry) => entry.label);
  }

  /** The index of the option labelled exactly `label`, or -1. */
  indexOf(label: string): number {
    return this.entries.findIndex((entry) => entry.label === label);
  }

  /** Shows new options; the chosen one is the one with the value shown, if any still has it. */
  setEntries(entries: readonly LabelledChoice<T>[]): void {
    this.entries = entries;
    this.#show(this.#value, true);
  }

  /** Shows `value` as the chosen one (none when no option has it). */
  #show(value: T | null, optionsChanged = false): void {
    this.#value = value;
    this.index = value === null ? -1 : this.entries.findIndex((e) => Object.is(e.value, value));
    this.#changed(optionsChanged);
  }

  /** Follows the value and the options of `options` (the options first). */
  follow(context: MountContext, options: ChoiceOptions<T>, what: string): void {
    const list = options.options as Prop<readonly Choice<T>[]>;
    follow(context, list, (raw) => this.setEntries(normalise(raw, what)), what);
    if (options.value === undefined) return;
    follow(context, options.value, (value) => this.#show(value), `${what}'s value`);
  }

  /**
   * Chooses the option at `index`, as a person or an agent does: sets the signal (or the
   * widget's own choice) and calls `onChange`, unless it is chosen already; `widget` (the one
   * the options are of) reports a rejection of an async `onChange`.
   */
  choose(index: number, rt: Rt, widget: Widget): void {
    const entry = this.entries[index];
    if (entry === undefined) return;
    const source = this.#source;
    // The signal, not the shown value: a second choice before the frame sees the first.
    const current = source instanceof Signal ? source.get() : this.#value;
    if (Object.is(current, entry.value)) return;
    if (source instanceof Signal) source.set(entry.value);
    else if (source === undefined || !isReactive(source)) this.#show(entry.value);
    settleHandler(widget, "the change handler", this.#onChange?.(entry.value, rt));
  }
}

/** The options as labels with values; a TypeError naming `what` for a bad or repeated one. */
export function normalise<T>(options: unknown, what: string): LabelledChoice<T>[] {
  if (!Array.isArray(options)) {
    throw new TypeError(`${what} takes its options as an array, got ${typeof options}`);
  }
  const seen = new Set<string>();
  return options.map((option: unknown) => {
    const entry = typeof option === "string"
      ? { label: option, value: option as T }
      : typeof option === "object" && option !== null &&
          typeof (option as { label?: unknown }).label === "string"
      ? option as LabelledChoice<T>
      : null;
    if (entry === null) {
      throw new TypeError(
        `${what}'s options are strings or { label, value } objects, got ${JSON.stringify(option)}`,
      );
    }
    if (seen.has(entry.label)) {
      throw new TypeError(
        `${what}'s options need labels that differ (agents choose by label): ${
          JSON.stringify(entry.label)
        } is there twice`,
      );
    }
    seen.add(entry.label);
    return entry;
  });
}
