/**
 * App-wide keybindings: `cx.keybind("Ctrl+S", "Save", handler)` registers one for as long as
 * its component is mounted. A key goes first to the focused widget and up its ancestors, as
 * Textual sends it; only a key none of them handled reaches the app's bindings (a binding made
 * with `{ priority: true }` comes before the focused widget). While a dialog is open, only the
 * bindings of components inside it apply, as the dialog is modal. The registry also lists the
 * bindings for the hint line, the `?` help view and `inspect_snapshot`'s `keybinds`.
 *
 * @module
 */

import { formatKeybind, isCharacterKey, type Keybind, parseKeybind } from "../text/keybind.ts";
import type { Rt } from "./rt.ts";
import type { Widget } from "./widget.ts";

/** What `cx.keybind()` takes besides the key, the description and the handler. */
export interface KeybindOptions {
  /**
   * Whether the hint line at the bottom of the terminal shows it while it applies (true by
   * default). The `?` help view and agents list it either way.
   */
  hint?: boolean;
  /**
   * Whether it comes before the focused widget (false by default): a binding on a plain letter
   * that a focused list would take for type-ahead needs it. It still never fires while a text
   * field has focus, for a key that types a character there.
   */
  priority?: boolean;
}

/** One key an app binds, as the hint line, the help view and agents list it. */
export interface KeybindInfo {
  /** The key in canonical spelling, as `press_key` takes it: `Ctrl+S`, `F5`, `n`. */
  key: string;
  /** What it does, in the app's words: `Save`. */
  description: string;
  /** True when pressing it now runs it: false while a dialog the binding is not in is open. */
  applies: boolean;
}

/** One registered binding. */
export class AppKeybind {
  /** The key, parsed. */
  readonly keybind: Keybind;
  /** The key in canonical spelling. */
  readonly key: string;
  /** What it does. */
  readonly description: string;
  /** What runs when it is pressed. */
  readonly handler: (rt: Rt) => void;
  /** Shown in the hint line while it applies. */
  readonly hint: boolean;
  /** Comes before the focused widget. */
  readonly priority: boolean;
  /**
   * The widget of the component that made it, once that component mounted: it applies while
   * the widget is enabled and, when a dialog is open, inside the top one.
   */
  scope: Widget | null = null;

  /** Made by `cx.keybind()`. */
  constructor(
    keys: string,
    description: string,
    handler: (rt: Rt) => void,
    options: KeybindOptions = {},
  ) {
    if (typeof description !== "string" || description.trim() === "") {
      throw new TypeError(
        'cx.keybind() needs a description of what the key does, as in cx.keybind("Ctrl+S", "Save", save)',
      );
    }
    if (typeof handler !== "function") {
      throw new TypeError(
        'cx.keybind() takes a handler (rt) => void after the description, as in cx.keybind("Ctrl+S", "Save", save)',
      );
    }
    this.keybind = parseKeybind(keys);
    this.key = formatKeybind(this.keybind);
    this.description = description;
    this.handler = handler;
    this.hint = options.hint ?? true;
    this.priority = options.priority ?? false;
  }
}

/** True when two parsed keys are the same key. */
export function sameKey(a: Keybind, b: Keybind): boolean {
  return a.key === b.key && a.ctrl === b.ctrl && a.alt === b.alt && a.meta === b.meta &&
    // A typed character arrives without Shift (`?`, `A`): Shift is in the character itself.
    (a.shift === b.shift || (isCharacterKey(a.key) && !a.ctrl && !a.alt && !a.meta));
}

/** The bindings of one app, in the order they were made. */
export class Keybinds {
  readonly #bindings: AppKeybind[] = [];
  readonly #changed: () => void;

  /** A registry that calls `changed` when a binding comes or goes (the hint line redraws). */
  constructor(changed: () => void = () => {}) {
    this.#changed = changed;
  }

  /** Adds `binding`; returns what removes it. */
  add(binding: AppKeybind): () => void {
    this.#bindings.push(binding);
    this.#changed();
    return () => {
      const index = this.#bindings.indexOf(binding);
      if (index >= 0) this.#bindings.splice(index, 1);
      this.#changed();
    };
  }

  /** Every binding, oldest first. */
  get all(): readonly AppKeybind[] {
    return this.#bindings;
  }

  /**
   * The binding `keybind` runs now (of `priority` ones, or of the others), or null: the
   * latest made of those that apply, so a component mounted later (a panel, a dialog's
   * content) takes a key over from the app around it.
   */
  find(
    keybind: Keybind,
    priority: boolean,
    applies: (binding: AppKeybind) => boolean,
  ): AppKeybind | null {
    for (let index = this.#bindings.length - 1; index >= 0; index--) {
      const binding = this.#bindings[index]!;
      if (binding.priority !== priority || !sameKey(binding.keybind, keybind)) continue;
      if (applies(binding)) return binding;
    }
    return null;
  }
}
