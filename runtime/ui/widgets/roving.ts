/**
 * Roving focus over a few chosen-among options, as a tab list and a radio group have it: the
 * group is one Tab stop (Tab enters at the option with focus, else the chosen one, else the
 * first), the arrows move and choose (wrapping), Home and End go to the first and last, and a
 * click, Enter or Space on an option chooses it. `RovingGroup` is the group's side (its
 * options, mounted from its `Choices`), `RovingOption` an option's.
 *
 * @module
 */

import type { State } from "../../semantics/mod.ts";
import type { Keybind } from "../../text/keybind.ts";
import type { Rt } from "../rt.ts";
import { LabelWidget, type Widget } from "../widget.ts";
import type { Choices } from "./choices.ts";

/** The keys that move to the next and to the previous option (both wrap). */
export interface RovingKeys {
  /** Keys that move to the next option: `ArrowRight`, and `ArrowDown` for a column. */
  readonly next: readonly string[];
  /** Keys that move to the previous option. */
  readonly previous: readonly string[];
}

/** What an option asks of its group. */
export interface OptionGroup {
  /** Chooses the option at `index` and focuses it. */
  chooseAt(index: number, rt: Rt): void;
  /** Moves from `option` as `keybind` says, and chooses; false for another key. */
  moveFrom(option: RovingOption, keybind: Keybind, rt: Rt): boolean;
}

/**
 * One option of a roving group (a tab, a radio button): it takes focus, shows whether it is
 * the chosen one (its look, and `chosenState` on its node), and hands its clicks and keys to
 * its group.
 */
export abstract class RovingOption extends LabelWidget {
  /** Its index among the group's options. */
  readonly index: number;
  /** True on the chosen option. */
  chosen = false;
  readonly #group: OptionGroup;

  /** Option `index` of `group`. */
  constructor(group: OptionGroup, index: number) {
    super();
    this.#group = group;
    this.index = index;
  }

  /** The state its node carries while it is the chosen one (`selected`, `checked`). */
  protected abstract get chosenState(): State;

  override get focusable(): boolean {
    return true;
  }

  /** Shows whether it is the chosen one: its look, and its node's state. */
  show(chosen: boolean): void {
    const state = this.chosenState;
    if (chosen === this.chosen && this.node!.has(state) === chosen) return;
    this.chosen = chosen;
    this.host.tree.setState(this.node!, state, chosen);
    this.host.markLayoutDirty(this);
  }

  override activate(rt: Rt): void {
    this.#group.chooseAt(this.index, rt);
  }

  override key(keybind: Keybind, rt: Rt): boolean {
    return this.#group.moveFrom(this, keybind, rt);
  }
}

/**
 * The group's side of roving focus: its options are the children of `widget`, one for each of
 * `choices`' entries, made by `make(index)` (mounted, not yet appended).
 */
export class RovingGroup<T, O extends RovingOption> implements OptionGroup {
  readonly #widget: Widget;
  readonly #choices: Choices<T>;
  readonly #keys: RovingKeys;
  readonly #make: (index: number) => O;

  /** The roving focus of `widget`'s options over `choices`, moved by `keys`. */
  constructor(widget: Widget, choices: Choices<T>, keys: RovingKeys, make: (index: number) => O) {
    this.#widget = widget;
    this.#choices = choices;
    this.#keys = keys;
    this.#make = make;
  }

  /** The options, one for each entry, in order. */
  get options(): readonly O[] {
    return this.#widget.children as readonly O[];
  }

  /** The one Tab stop: the option with focus, else the chosen one, else the first. */
  entry(): Widget | null {
    const focused = this.#widget.host.focused;
    if (focused !== null && focused.parent === this.#widget) return focused;
    return this.options[this.#choices.index] ?? this.options[0] ?? null;
  }

  /** One option for each entry; the options already there keep their nodes. */
  mountOptions(): void {
    const widget = this.#widget;
    const entries = this.#choices.entries;
    const kept = this.options.slice(0, entries.length);
    for (const option of this.options.slice(entries.length)) widget.removeChild(option);
    for (let index = 0; index < entries.length; index++) {
      const label = entries[index]!.label;
      const option = kept[index] ?? this.#make(index);
      option.setLabel(label);
      widget.host.tree.setName(option.node!, label);
      if (kept[index] === undefined) widget.append(option);
    }
  }

  /** Shows the chosen option as chosen and the others as not. */
  showChosen(): void {
    for (const option of this.options) option.show(option.index === this.#choices.index);
  }

  /** Chooses the option at `index` and focuses it. */
  chooseAt(index: number, rt: Rt): void {
    const option = this.options[index];
    if (option === undefined) return;
    this.#widget.host.focus(option);
    this.#choices.choose(index, rt, this.#widget);
  }

  /** The keys of an option with focus: next and previous (wrapping), Home and End. */
  moveFrom(option: RovingOption, keybind: Keybind, rt: Rt): boolean {
    if (keybind.ctrl || keybind.alt || keybind.meta || keybind.shift) return false;
    const count = this.options.length;
    const at = option.index;
    const key = keybind.key;
    let index: number;
    if (this.#keys.next.includes(key)) index = (at + 1) % count;
    else if (this.#keys.previous.includes(key)) index = (at - 1 + count) % count;
    else if (key === "Home") index = 0;
    else if (key === "End") index = count - 1;
    else return false;
    this.chooseAt(index, rt);
    return true;
  }

  /** Chooses the option named `option` (the `select` action); false when none is. */
  choose(option: string, rt: Rt): boolean {
    const index = this.#choices.indexOf(option);
    if (index < 0) return false;
    this.chooseAt(index, rt);
    return true;
  }

  /** The options' names, for a refusal to list. */
  optionNames(): readonly string[] {
    return this.#choices.labels();
  }
}
