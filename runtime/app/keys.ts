/**
 * The app's keys: which of its keybindings apply now (none from behind an open dialog), the
 * press of one (priority bindings before the focused widget, the others after it and its
 * ancestors left a key unhandled), what the hint line shows, and the help view that `?` (where
 * no text field has focus) or F1 opens: a dialog "Keys" listing every binding and the keys
 * that work everywhere, which Escape, `?` or F1 close, giving focus back.
 *
 * @module
 */

import { disposeOwner, Owner, type ReactiveRuntime, runWithOwner } from "../reactive/mod.ts";
import { isCharacterKey, type Keybind } from "../text/keybind.ts";
import { cellWidth } from "../text/cell_width.ts";
import type { Host } from "../ui/host.ts";
import type { AppKeybind, KeybindInfo, Keybinds } from "../ui/keybinds.ts";
import type { Rt } from "../ui/rt.ts";
import type { Widget } from "../ui/widget.ts";
import { button, column, dialog, heading, scrollView, text, widget } from "../ui/widgets/mod.ts";
import { type FocusState, isWithin } from "./focus.ts";

/** The keys every app has, as the help view lists them. */
export const RUNTIME_KEYS: readonly { key: string; description: string }[] = [
  { key: "Tab, Shift+Tab", description: "Move the focus" },
  { key: "Enter, Space", description: "Press the focused button, toggle, open" },
  { key: "Escape", description: "Close a dialog, a menu or a list" },
  { key: "?, F1", description: "Show these keys (? outside a text field)" },
  { key: "q, Ctrl+C", description: "Quit (q outside a text field)" },
  { key: "Ctrl+Z", description: "Suspend to the shell (fg comes back)" },
];

/** The rows of the help view that are not its list: frame, padding, title, Close. */
const HELP_CHROME_ROWS = 6;

/** The keys that scroll the help view's list: by a line, a page or to an end, up or down. */
const SCROLL_KEYS: Readonly<Record<string, { by: "line" | "page" | "end"; down: boolean }>> = {
  ArrowDown: { by: "line", down: true },
  ArrowUp: { by: "line", down: false },
  PageDown: { by: "page", down: true },
  PageUp: { by: "page", down: false },
  End: { by: "end", down: true },
  Home: { by: "end", down: false },
};

/** The title of the help view. */
export const HELP_TITLE = "Keys";

/** What the app's keys work with: the parts of one app. */
export interface KeysParts {
  host: Host;
  runtime: ReactiveRuntime;
  owner: Owner;
  root: Widget;
  focus: FocusState;
  keybinds: Keybinds;
  rt: Rt;
  reportError(error: unknown, where: string): void;
}

function plain(keybind: Keybind): boolean {
  return !keybind.ctrl && !keybind.alt && !keybind.meta;
}

/** The app's keybindings at work, and its help view. */
export class AppKeys {
  readonly #parts: KeysParts;
  #help: { owner: Owner; widget: Widget } | null = null;

  /** The keys of the app whose parts are `parts`. */
  constructor(parts: KeysParts) {
    this.#parts = parts;
  }

  /** True when `binding` runs if its key is pressed now. */
  applies(binding: AppKeybind): boolean {
    const scope = binding.scope;
    if (scope === null) return true;
    if (!scope.mounted || scope.effectivelyDisabled) return false;
    const dialog = this.#parts.focus.topDialog();
    return dialog === null || isWithin(scope, dialog);
  }

  /**
   * Presses `keybind` on the app's bindings: the `priority` ones (before the focused widget)
   * or the others; then, for a key nothing took, `?` and F1 open or close the help view.
   * `target` is what it was pressed on: a text field keeps the characters it types. Returns
   * true when something ran.
   */
  press(keybind: Keybind, priority: boolean, target: Widget | null): boolean {
    const { keybinds } = this.#parts;
    const inField = target?.insertText !== undefined;
    // A text field keeps the characters it types, priority or not.
    if (priority && inField && isCharacterKey(keybind.key) && plain(keybind)) return false;
    const binding = keybinds.find(keybind, priority, (candidate) => this.applies(candidate));
    if (binding !== null) {
      const where = `the ${binding.key} keybinding (${binding.description})`;
      try {
        const answer: unknown = binding.handler(this.#parts.rt);
        // An async handler's failure comes later: it is reported as a thrown one is.
        if (answer instanceof Promise) {
          answer.catch((error) => this.#parts.reportError(error, where));
        }
      } catch (error) {
        this.#parts.reportError(error, where);
      }
      return true;
    }
    if (priority || !plain(keybind)) return false;
    if (keybind.key === "F1" && !keybind.shift || keybind.key === "?" && !inField) {
      this.toggleHelp();
      return true;
    }
    return false;
  }

  /** True when a binding that applies now takes `keybind`. */
  binds(keybind: Keybind): boolean {
    const applies = (binding: AppKeybind) => this.applies(binding);
    const { keybinds } = this.#parts;
    return keybinds.find(keybind, true, applies) !== null ||
      keybinds.find(keybind, false, applies) !== null;
  }

  /** The bindings, oldest first, with whether each applies now. */
  list(): KeybindInfo[] {
    return this.#parts.keybinds.all.map((binding) => ({
      key: binding.key,
      description: binding.description,
      applies: this.applies(binding),
    }));
  }

  /**
   * What the hint line shows of the bindings: those that apply and have a hint, one a key
   * (the one that would run), oldest first.
   */
  hints(): { key: string; description: string }[] {
    const shown = new Map<string, { key: string; description: string }>();
    for (const binding of this.#parts.keybinds.all) {
      if (!binding.hint || !this.applies(binding)) continue;
      shown.delete(binding.key); // the later binding of a key is the one that runs
      shown.set(binding.key, { key: binding.key, description: binding.description });
    }
    return [...shown.values()];
  }

  /** True while the help view is open. */
  get helpOpen(): boolean {
    return this.#help !== null && this.#help.widget.mounted;
  }

  /** Opens the help view, or closes it when it is open. */
  toggleHelp(): void {
    if (this.helpOpen) {
      this.closeHelp();
      return;
    }
    const { host, runtime, owner: appOwner, root } = this.#parts;
    const owner = new Owner(runtime, appOwner);
    const view = this.#helpView();
    const widget = runWithOwner(owner, () => view.mount({ host, owner }));
    this.#help = { owner, widget };
    root.append(widget);
  }

  /** Closes the help view; focus goes back where it was when it opened. */
  closeHelp(): void {
    const help = this.#help;
    if (help === null) return;
    this.#help = null;
    if (help.widget.parent !== null) help.widget.parent.removeChild(help.widget);
    disposeOwner(help.owner);
  }

  #helpView() {
    const bindings = this.list();
    const keyWidth = Math.max(
      ...bindings.map((binding) => cellWidth(binding.key)),
      ...RUNTIME_KEYS.map((entry) => cellWidth(entry.key)),
    );
    const line = (key: string, description: string) =>
      text(`${key}${" ".repeat(keyWidth - cellWidth(key) + 2)}${description}`);
    const close = () => this.closeHelp();
    const lines = [
      ...(bindings.length === 0 ? [] : [
        heading("This app"),
        ...bindings.map((binding) => line(binding.key, binding.description)),
      ]),
      heading("Every app"),
      ...RUNTIME_KEYS.map((entry) => line(entry.key, entry.description)),
    ];
    // The list scrolls where the window is too short for it: the dialog's frame, padding,
    // title and Close button take 6 rows.
    const { rows } = this.#parts.host.windowSize().get();
    const room = rows - HELP_CHROME_ROWS;
    if (lines.length <= room) {
      return dialog(HELP_TITLE, column(...lines), button("Close", close)).onClose(close);
    }
    // The keys that scroll a list scroll it from the Close button too.
    const height = Math.max(1, room);
    const onKey = (keybind: Keybind) => {
      if (!plain(keybind) || keybind.shift) return false;
      const scroll = SCROLL_KEYS[keybind.key];
      if (scroll === undefined) return false;
      const cells = scroll.by === "line"
        ? 1
        : scroll.by === "page"
        ? Math.max(1, height - 1)
        : lines.length;
      // The dialog's one child is this widget; its first is the list.
      const list = this.#help?.widget.children[0]?.children[0];
      list?.scroll?.(0, scroll.down ? cells : -cells);
      return true;
    };
    const list = scrollView(column(...lines)).label(HELP_TITLE).height(height);
    return dialog(HELP_TITLE, widget({ onKey }, list, button("Close", close))).onClose(close);
  }
}
