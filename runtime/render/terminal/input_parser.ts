/**
 * Raw terminal input to events: the bytes a terminal in raw mode sends for keys (arrows,
 * Home, End, Delete, F-keys, Shift+Tab, Ctrl and Alt combinations), typed text, bracketed
 * paste and SGR mouse reports (clicks, drags, motion, wheel). Keys come out as the same
 * `Keybind`s agents name in `press_key`.
 *
 * Input arrives in chunks that can end inside a sequence; the parser keeps the unfinished
 * tail for the next chunk. A lone Escape cannot be told from the start of a sequence until
 * the terminal pauses, so it waits until `flush()` (the renderer calls it after a short
 * quiet time).
 *
 * @module
 */

import type { Keybind } from "../../text/keybind.ts";

/** A mouse report, in window cells counted from 0. */
export interface MouseEvent {
  /** Tells mouse events from the others. */
  type: "mouse";
  /**
   * `press` and `release` of a button, `drag` (moving with a button held), `move` (with
   * none), `wheel`.
   */
  action: "press" | "release" | "drag" | "move" | "wheel";
  /** 0 left, 1 middle, 2 right; for the wheel, -1. */
  button: number;
  /** The column, from 0. */
  x: number;
  /** The row, from 0. */
  y: number;
  /** Wheel steps sideways: negative left, positive right. */
  deltaX: number;
  /** Wheel steps: negative up, positive down. */
  deltaY: number;
  /** Whether Shift was held. */
  shift: boolean;
  /** Whether Alt (Meta in some terminals) was held. */
  alt: boolean;
  /** Whether Ctrl was held. */
  ctrl: boolean;
}

/** One thing the person did. */
export type InputEvent =
  | { type: "key"; keybind: Keybind }
  | { type: "text"; text: string }
  | { type: "paste"; text: string }
  | MouseEvent;

const ESC = "\x1b";
const CTRL_C = "\x03";
const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";

/** Makes a keybind; a letter held with Ctrl, Alt or Meta is upper-cased, as parseKeybind does. */
export function keyOf(
  key: string,
  modifiers: { ctrl?: boolean; shift?: boolean; alt?: boolean; meta?: boolean } = {},
): Keybind {
  const ctrl = modifiers.ctrl ?? false;
  const alt = modifiers.alt ?? false;
  const meta = modifiers.meta ?? false;
  const upper = (ctrl || alt || meta) && /^[a-z]$/.test(key) ? key.toUpperCase() : key;
  return { key: upper, ctrl, shift: modifiers.shift ?? false, alt, meta };
}

/** The modifiers of a CSI parameter `1 + bits` (1 Shift, 2 Alt, 4 Ctrl, 8 Meta). */
function modifiersOf(parameter: number | undefined) {
  const bits = parameter === undefined || Number.isNaN(parameter) ? 0 : parameter - 1;
  return {
    shift: (bits & 1) !== 0,
    alt: (bits & 2) !== 0,
    ctrl: (bits & 4) !== 0,
    meta: (bits & 8) !== 0,
  };
}

/** The final letter of `CSI 1;m X` and `SS3 X` sequences. */
const LETTER_KEYS: Readonly<Record<string, string>> = {
  A: "ArrowUp",
  B: "ArrowDown",
  C: "ArrowRight",
  D: "ArrowLeft",
  H: "Home",
  F: "End",
  P: "F1",
  Q: "F2",
  R: "F3",
  S: "F4",
};

/** The number of `CSI n ~` sequences. */
const TILDE_KEYS: Readonly<Record<number, string>> = {
  1: "Home",
  2: "Insert",
  3: "Delete",
  4: "End",
  5: "PageUp",
  6: "PageDown",
  7: "Home",
  8: "End",
  11: "F1",
  12: "F2",
  13: "F3",
  14: "F4",
  15: "F5",
  17: "F6",
  18: "F7",
  19: "F8",
  20: "F9",
  21: "F10",
  23: "F11",
  24: "F12",
};

/** The key a single control character is, or null when it is none worth reporting. */
function controlKey(character: string): Keybind | null {
  const code = character.charCodeAt(0);
  switch (character) {
    case "\r":
    case "\n":
      return keyOf("Enter");
    case "\t":
      return keyOf("Tab");
    case "\x7f":
    case "\b":
      return keyOf("Backspace");
    case "\x00":
      return keyOf("Space", { ctrl: true });
  }
  if (code >= 1 && code <= 26) return keyOf(String.fromCharCode(code + 64), { ctrl: true });
  if (code >= 0x1c && code <= 0x1f) return keyOf("\\]^_"[code - 0x1c]!, { ctrl: true });
  return null;
}

/** Parses a terminal's raw input into events; one parser per input stream. */
export class InputParser {
  readonly #decoder = new TextDecoder();
  #buffer = "";
  /** The text of a bracketed paste still being received, or null outside one. */
  #paste: string | null = null;

  /** Parses the next chunk of bytes (or text); returns the events it completed. */
  feed(input: Uint8Array | string): InputEvent[] {
    this.#buffer += typeof input === "string"
      ? input
      : this.#decoder.decode(input, { stream: true });
    return this.#parse(false);
  }

  /** True when input is held back: a lone Escape, or an unfinished sequence or paste. */
  get waiting(): boolean {
    return this.#buffer !== "" || this.#paste !== null;
  }

  /**
   * Ends what is held back after the terminal went quiet: a lone Escape is the Escape key,
   * an unfinished sequence is dropped. A paste still open stays open.
   */
  flush(): InputEvent[] {
    return this.#parse(true);
  }

  #parse(final: boolean): InputEvent[] {
    const events: InputEvent[] = [];
    let text = "";
    const emitText = () => {
      if (text !== "") events.push({ type: "text", text });
      text = "";
    };
    let buffer = this.#buffer;
    let index = 0;
    while (index < buffer.length) {
      if (this.#paste !== null) {
        const end = buffer.indexOf(PASTE_END, index);
        if (end === -1) {
          // Keep a tail that could be the start of the end marker.
          const keep = Math.min(PASTE_END.length - 1, buffer.length - index);
          const safe = buffer.length - keep;
          this.#paste += buffer.slice(index, safe);
          index = safe;
          break;
        }
        events.push({ type: "paste", text: this.#paste + buffer.slice(index, end) });
        this.#paste = null;
        index = end + PASTE_END.length;
        continue;
      }
      const character = buffer[index]!;
      if (character === ESC) {
        emitText();
        const consumed = this.#escape(buffer, index, final, events);
        if (consumed === 0) break; // unfinished: wait for more
        index += consumed;
        continue;
      }
      const code = character.charCodeAt(0);
      if (code < 0x20 || code === 0x7f) {
        emitText();
        const key = controlKey(character);
        if (key !== null) events.push({ type: "key", keybind: key });
        index++;
        continue;
      }
      text += character;
      index++;
    }
    emitText();
    buffer = buffer.slice(index);
    if (final && buffer !== "" && this.#paste === null) buffer = "";
    this.#buffer = buffer;
    return events;
  }

  /**
   * Parses the escape sequence at `start`; returns how many characters it took, or 0 when it
   * is unfinished and more input may complete it.
   */
  #escape(buffer: string, start: number, final: boolean, events: InputEvent[]): number {
    const next = buffer[start + 1];
    if (next === undefined) {
      if (!final) return 0;
      events.push({ type: "key", keybind: keyOf("Escape") });
      return 1;
    }
    if (next === "[") return this.#csi(buffer, start, final, events);
    if (next === "O") {
      const letter = buffer[start + 2];
      if (letter === undefined) {
        if (!final) return 0;
        events.push({ type: "key", keybind: keyOf("O", { alt: true }) });
        return 2;
      }
      const key = LETTER_KEYS[letter];
      if (key !== undefined) events.push({ type: "key", keybind: keyOf(key) });
      return 3;
    }
    if (next === ESC || next === CTRL_C) {
      // Escape then Ctrl+C in one read is two keys, never Alt+Ctrl+C: Ctrl+C must reach the
      // renderer as itself, whatever came before it, so that it always quits.
      events.push({ type: "key", keybind: keyOf("Escape") });
      return 1;
    }
    // Escape then a key: the key with Alt held.
    const control = controlKey(next);
    if (control !== null) {
      events.push({ type: "key", keybind: { ...control, alt: true } });
    } else {
      const key = next === " " ? "Space" : next;
      events.push({ type: "key", keybind: keyOf(key, { alt: true }) });
    }
    return 2;
  }

  #csi(buffer: string, start: number, final: boolean, events: InputEvent[]): number {
    // CSI parameter and intermediate bytes, then one final byte from @ to ~.
    let end = start + 2;
    while (end < buffer.length) {
      const code = buffer.charCodeAt(end);
      if (code >= 0x40 && code <= 0x7e) break;
      if (code < 0x20 || code > 0x3f) {
        // Not a CSI sequence after all: report Alt+[ and go on after it.
        events.push({ type: "key", keybind: keyOf("[", { alt: true }) });
        return 2;
      }
      end++;
    }
    if (end >= buffer.length) {
      if (!final) return 0;
      events.push({ type: "key", keybind: keyOf("[", { alt: true }) });
      return 2;
    }
    const body = buffer.slice(start + 2, end);
    const finalByte = buffer[end]!;
    const length = end - start + 1;
    if (body.startsWith("<") && (finalByte === "M" || finalByte === "m")) {
      const mouse = parseSgrMouse(body.slice(1), finalByte === "M");
      if (mouse !== null) events.push(mouse);
      return length;
    }
    if (buffer.startsWith(PASTE_START, start)) {
      this.#paste = "";
      return length;
    }
    const parameters = body.split(";").map((part) => Number.parseInt(part, 10));
    if (finalByte === "Z") {
      events.push({ type: "key", keybind: keyOf("Tab", { shift: true }) });
      return length;
    }
    if (finalByte === "~") {
      const key = TILDE_KEYS[parameters[0] ?? Number.NaN];
      if (key !== undefined) {
        events.push({ type: "key", keybind: keyOf(key, modifiersOf(parameters[1])) });
      }
      return length;
    }
    const key = LETTER_KEYS[finalByte];
    if (key !== undefined) {
      events.push({ type: "key", keybind: keyOf(key, modifiersOf(parameters[1])) });
    }
    // Anything else (focus reports, answers to queries) is not input a person made.
    return length;
  }
}

/** Parses the `b;x;y` of an SGR mouse report (`CSI < b;x;y M` or `m`). */
function parseSgrMouse(body: string, pressed: boolean): MouseEvent | null {
  const [code, column, row] = body.split(";").map((part) => Number.parseInt(part, 10));
  if (code === undefined || column === undefined || row === undefined) return null;
  if (Number.isNaN(code) || Number.isNaN(column) || Number.isNaN(row)) return null;
  const base = {
    type: "mouse" as const,
    x: column - 1,
    y: row - 1,
    deltaX: 0,
    deltaY: 0,
    shift: (code & 4) !== 0,
    alt: (code & 8) !== 0,
    ctrl: (code & 16) !== 0,
  };
  const button = code & 3;
  if ((code & 64) !== 0) {
    const deltas: Record<number, [number, number]> = {
      0: [0, -1],
      1: [0, 1],
      2: [-1, 0],
      3: [1, 0],
    };
    const [deltaX, deltaY] = deltas[button]!;
    return { ...base, action: "wheel", button: -1, deltaX, deltaY };
  }
  if ((code & 32) !== 0) {
    return { ...base, action: button === 3 ? "move" : "drag", button: button === 3 ? -1 : button };
  }
  return { ...base, action: pressed ? "press" : "release", button };
}
