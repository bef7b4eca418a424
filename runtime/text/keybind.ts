/**
 * Parses and formats key combinations such as `Ctrl+Shift+K`.
 *
 * Keybinds arrive as text from two directions: an app declares the shortcuts it handles, and
 * an agent's `press_key` action names the key it wants pressed. Both go through
 * {@linkcode parseKeybind}, which accepts the spellings people and agents commonly use (any
 * case, `Esc`, `Cmd`, `Up`, ...) and reduces them to one canonical {@linkcode Keybind}, so two
 * spellings of the same key compare equal. {@linkcode formatKeybind} writes the canonical text
 * back, for help screens and for the semantic tree.
 *
 * @module
 */

import { splitGraphemes } from "./cell_width.ts";

/** A parsed key combination such as Ctrl+Shift+K. */
export interface Keybind {
  /**
   * The key: a canonical name (`Enter`, `Tab`, `Escape`, `Backspace`, `Delete`, `Space`,
   * `ArrowUp`, `ArrowDown`, `ArrowLeft`, `ArrowRight`, `Home`, `End`, `PageUp`, `PageDown`,
   * `Insert`, `F1` to `F12`) or a single printable character such as `K`, `k` or `+`.
   */
  readonly key: string;
  /** Whether Ctrl is held. */
  readonly ctrl: boolean;
  /** Whether Shift is held. */
  readonly shift: boolean;
  /** Whether Alt (Option on macOS) is held. */
  readonly alt: boolean;
  /** Whether Meta (Cmd, Super or the Windows key) is held. */
  readonly meta: boolean;
}

type Modifier = "ctrl" | "alt" | "shift" | "meta";

/** Modifiers in canonical order, with the name {@linkcode formatKeybind} writes. */
const MODIFIER_ORDER: ReadonlyArray<readonly [Modifier, string]> = [
  ["ctrl", "Ctrl"],
  ["alt", "Alt"],
  ["shift", "Shift"],
  ["meta", "Meta"],
];

const MODIFIER_BY_NAME: ReadonlyMap<string, Modifier> = new Map([
  ["ctrl", "ctrl"],
  ["control", "ctrl"],
  ["alt", "alt"],
  ["option", "alt"],
  ["shift", "shift"],
  ["meta", "meta"],
  ["cmd", "meta"],
  ["command", "meta"],
  ["super", "meta"],
  ["win", "meta"],
]);

const NAMED_KEYS = [
  "Enter",
  "Tab",
  "Escape",
  "Backspace",
  "Delete",
  "Space",
  "ArrowUp",
  "ArrowDown",
  "ArrowLeft",
  "ArrowRight",
  "Home",
  "End",
  "PageUp",
  "PageDown",
  "Insert",
  ...Array.from({ length: 12 }, (_, index) => `F${index + 1}`),
];

/** Lower-case spellings, canonical names and aliases alike, to the key they name. */
const KEY_BY_NAME: ReadonlyMap<string, string> = new Map([
  ...NAMED_KEYS.map((name) => [name.toLowerCase(), name] as const),
  ["esc", "Escape"],
  ["return", "Enter"],
  ["del", "Delete"],
  ["up", "ArrowUp"],
  ["down", "ArrowDown"],
  ["left", "ArrowLeft"],
  ["right", "ArrowRight"],
  ["spacebar", "Space"],
  ["plus", "+"],
]);

/** Characters that cannot be a key: controls, surrogates, line and paragraph separators. */
const UNPRINTABLE = /[\p{Cc}\p{Cs}\p{Zl}\p{Zp}]/u;
const ASCII_LETTER = /^[a-z]$/i;

const KEY_HINT = "expected a name such as Enter, Tab, ArrowDown, F5 or a single character";

/**
 * Returns whether a key is a single printable character rather than a named key.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(isCharacterKey("k"), true);
 * assert.equal(isCharacterKey("Enter"), false);
 * ```
 */
export function isCharacterKey(key: string): boolean {
  // Every named key is two or more ASCII letters or digits, so two or more graphemes.
  return key !== "" && !UNPRINTABLE.test(key) && splitGraphemes(key).length === 1;
}

/**
 * Parses text such as `Ctrl+Shift+K` into a {@linkcode Keybind}.
 *
 * Modifiers come first, in any order, joined by `+`; the key comes last. Names are
 * case-insensitive and these aliases are accepted: `Control` (Ctrl), `Option` (Alt), `Cmd`,
 * `Command`, `Super`, `Win` (Meta), `Esc`, `Return`, `Del`, `Up`, `Down`, `Left`, `Right`,
 * `Spacebar` and a lone space (Space), `Plus` (the `+` key). `Ctrl++` is Ctrl with the `+` key.
 *
 * A single ASCII letter is upper-cased when Ctrl, Alt or Meta is held (`Ctrl+a` and `Ctrl+A`
 * are the same shortcut); without them it is kept as typed, because `a` and `A` type different
 * characters, and `Shift+a` stays `a`.
 *
 * @throws {TypeError} If the text is empty, names an unknown key or modifier, has no key after
 * its modifiers, or repeats a modifier.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(parseKeybind("shift+ctrl+k"), {
 *   key: "K",
 *   ctrl: true,
 *   shift: true,
 *   alt: false,
 *   meta: false,
 * });
 * ```
 */
export function parseKeybind(text: string): Keybind {
  if (typeof text !== "string") {
    throw new TypeError(`invalid keybind: expected a string, got ${typeof text}`);
  }
  const fail = (reason: string): never => {
    throw new TypeError(`invalid keybind ${JSON.stringify(text)}: ${reason}`);
  };
  if (trimSpaces(text) === "" && text !== " ") fail(`the text is empty; ${KEY_HINT}`);

  const { modifierText, keyText } = splitKeyFromModifiers(text);
  const held: Record<Modifier, boolean> = { ctrl: false, alt: false, shift: false, meta: false };
  if (modifierText !== undefined) {
    for (const part of modifierText.split("+")) {
      const name = trimSpaces(part);
      if (name === "") fail(`a modifier name is empty; write Plus for the + key, as in Ctrl+Plus`);
      const modifier = MODIFIER_BY_NAME.get(name.toLowerCase()) ??
        fail(`unknown modifier ${JSON.stringify(name)}; expected Ctrl, Alt, Shift or Meta`);
      if (held[modifier]) fail(`modifier ${canonicalModifierName(modifier)} appears twice`);
      held[modifier] = true;
    }
  }

  const keyName = keyText === " " ? "Space" : trimSpaces(keyText);
  if (keyName === "") fail(`no key after the modifiers; ${KEY_HINT}`);
  if (MODIFIER_BY_NAME.has(keyName.toLowerCase())) {
    fail(`${JSON.stringify(keyName)} is a modifier, not a key; ${KEY_HINT}`);
  }
  let key = KEY_BY_NAME.get(keyName.toLowerCase());
  if (key === undefined) {
    if (!isCharacterKey(keyName)) fail(`unknown key ${JSON.stringify(keyName)}; ${KEY_HINT}`);
    key = keyName;
  }
  if ((held.ctrl || held.alt || held.meta) && ASCII_LETTER.test(key)) key = key.toUpperCase();
  return { key, ...held };
}

/**
 * Separates the key from the modifiers before it; `+` is a separator except as the last key.
 */
function splitKeyFromModifiers(
  text: string,
): { modifierText: string | undefined; keyText: string } {
  if (text === "+") return { modifierText: undefined, keyText: "+" };
  if (text.endsWith("++")) return { modifierText: text.slice(0, -2), keyText: "+" };
  const separator = text.lastIndexOf("+");
  if (separator === -1) return { modifierText: undefined, keyText: text };
  return { modifierText: text.slice(0, separator), keyText: text.slice(separator + 1) };
}

/** Trims spaces only: a tab or other control character is a (bad) key, not padding. */
function trimSpaces(text: string): string {
  return text.replace(/^ +| +$/g, "");
}

function canonicalModifierName(modifier: Modifier): string {
  return MODIFIER_ORDER.find(([field]) => field === modifier)?.[1] ?? modifier;
}

/**
 * Writes a {@linkcode Keybind} as canonical text: modifiers in the order Ctrl, Alt, Shift, Meta,
 * then the key, joined by `+`.
 *
 * For a keybind from {@linkcode parseKeybind}, parsing the result gives the same keybind back.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(formatKeybind(parseKeybind("cmd+shift+control+k")), "Ctrl+Shift+Meta+K");
 * ```
 */
export function formatKeybind(keybind: Keybind): string {
  const parts = MODIFIER_ORDER.filter(([field]) => keybind[field]).map(([, name]) => name);
  parts.push(keybind.key);
  return parts.join("+");
}
