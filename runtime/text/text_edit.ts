/**
 * The editing model behind text fields: a value, a cursor and a selection. A text area's model
 * (`text_lines.ts`) holds one made with `{ lineBreaks: true }`, which keeps line breaks.
 *
 * A person's keystrokes and an agent's `type_text` and `press_key` actions both go through
 * {@linkcode TextEditState}, so the two edit text identically. All positions are UTF-16 offsets
 * into the value (what `String.prototype.slice` takes) and always lie on grapheme boundaries,
 * so no edit or movement ever splits "é" written as e plus a combining accent, an emoji ZWJ
 * sequence or a flag.
 *
 * @module
 */

import { splitGraphemes } from "./cell_width.ts";
import { isCharacterKey, type Keybind } from "./keybind.ts";

/** A non-empty selected range of a text field's value, as UTF-16 offsets with start < end. */
export interface TextSelection {
  /** Offset of the first selected UTF-16 unit. */
  readonly start: number;
  /** Offset just past the last selected UTF-16 unit. */
  readonly end: number;
}

/** Characters a single-line field never holds: controls (newlines, tabs), line separators. */
const NOT_SINGLE_LINE = /[\p{Cc}\p{Cs}\u2028\u2029]/gu;
/** Every way of writing a line break that a multi-line state turns into `\n`. */
const LINE_BREAKS = /\r\n?|[\u0085\u2028\u2029]/g;
/** What a multi-line state drops after line breaks and tabs are dealt with: other controls. */
const NOT_MULTI_LINE = /(?!\n)[\p{Cc}\p{Cs}]/gu;
/** A tab typed or pasted into a multi-line state: four spaces. */
const TAB_SPACES = "    ";
const WORD_GRAPHEME = /^[\p{L}\p{N}_]/u;
const ASCII_LOWER_LETTER = /^[a-z]$/;

/** A part of the value cut into graphemes, with the offset where each grapheme starts. */
interface Segmentation {
  readonly value: string;
  /** Where the part starts and ends in the value. */
  readonly start: number;
  readonly end: number;
  /** Every grapheme's start, then the part's end. */
  readonly boundaries: readonly number[];
}

/** What a {@linkcode TextEditState} is made with. */
export interface TextEditOptions {
  /**
   * True for several lines (a text area): typed line breaks are kept, each written `\n`
   * (`\r\n`, `\r`, U+0085, U+2028 and U+2029 become `\n`), a tab becomes four spaces, and other
   * controls are dropped. False by default: a single-line field drops them all.
   */
  lineBreaks?: boolean;
}

/**
 * Writes every line break in `text` as `\n`: `\r\n`, a lone `\r`, U+0085, U+2028 and U+2029.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(normaliseLineBreaks("one\r\ntwo\rthree"), "one\ntwo\nthree");
 * ```
 */
export function normaliseLineBreaks(text: string): string {
  return text.replace(LINE_BREAKS, "\n");
}

/**
 * The editable state of a text field: its value, cursor and selection.
 *
 * The selection runs between an anchor (where it started) and the cursor (the end that moves);
 * it is collapsed when the two meet.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const field = new TextEditState("hello");
 * field.selectAll();
 * field.insert("bye");
 * assert.equal(field.value, "bye");
 * assert.equal(field.cursor, 3);
 * ```
 */
export class TextEditState {
  #value: string;
  #cursor: number;
  #anchor: number;
  #segmentation: Segmentation | undefined;
  readonly #lineBreaks: boolean;

  /** Creates the state with the cursor at the end of `value`. */
  constructor(value = "", options: TextEditOptions = {}) {
    this.#lineBreaks = options.lineBreaks ?? false;
    this.#value = value;
    this.#cursor = value.length;
    this.#anchor = value.length;
  }

  /** The text. */
  get value(): string {
    return this.#value;
  }

  /** The cursor as a UTF-16 offset into the value, always on a grapheme boundary. */
  get cursor(): number {
    return this.#cursor;
  }

  /** The selected range, or null when the selection is collapsed to the cursor. */
  get selection(): TextSelection | null {
    if (this.#anchor === this.#cursor) return null;
    return {
      start: Math.min(this.#anchor, this.#cursor),
      end: Math.max(this.#anchor, this.#cursor),
    };
  }

  /**
   * Replaces the text as it is, moving the cursor to the end and clearing the selection.
   *
   * This is for a value that changed outside the field (its bound signal was set), so the text
   * is kept verbatim, unlike {@linkcode TextEditState.insert}.
   */
  setValue(value: string): void {
    this.#value = value;
    this.#collapseTo(value.length);
  }

  /**
   * Types text: replaces the selection if there is one, else inserts at the cursor, and puts
   * the cursor after the inserted text; controls such as newlines and tabs are dropped (in a
   * multi-line state, line breaks are kept as `\n` and a tab becomes four spaces).
   */
  insert(text: string): void {
    const typed = this.#lineBreaks
      ? normaliseLineBreaks(text).replaceAll("\t", TAB_SPACES).replace(NOT_MULTI_LINE, "")
      : text.replace(NOT_SINGLE_LINE, "");
    const { start, end } = this.#selectedRange();
    this.#replace(start, end, typed);
  }

  /** Deletes the selection, or else the grapheme before the cursor (Backspace). */
  deleteBackward(): void {
    if (this.#deleteSelection()) return;
    this.#replace(this.#previousBoundary(this.#cursor), this.#cursor, "");
  }

  /** Deletes the selection, or else the grapheme after the cursor (Delete). */
  deleteForward(): void {
    if (this.#deleteSelection()) return;
    this.#replace(this.#cursor, this.#nextBoundary(this.#cursor), "");
  }

  /**
   * Deletes the selection, or else back to the start of the word before the cursor
   * (Ctrl+Backspace).
   */
  deleteWordBackward(): void {
    if (this.#deleteSelection()) return;
    this.#replace(this.#wordStartBefore(this.#cursor), this.#cursor, "");
  }

  /**
   * Deletes the selection, or else on to the end of the word after the cursor (Ctrl+Delete).
   */
  deleteWordForward(): void {
    if (this.#deleteSelection()) return;
    this.#replace(this.#cursor, this.#wordEndAfter(this.#cursor), "");
  }

  /** Deletes from the start of the text to the cursor, or to the selection's end (Ctrl+U). */
  deleteToStart(): void {
    this.#replace(0, this.#selectedRange().end, "");
  }

  /** Deletes from the cursor, or from the selection's start, to the end of the text (Ctrl+K). */
  deleteToEnd(): void {
    this.#replace(this.#selectedRange().start, this.#value.length, "");
  }

  /**
   * Moves the cursor one grapheme left; with `extend` the selection grows or shrinks, without
   * it a selection collapses to its start.
   */
  moveLeft(extend = false): void {
    const selection = this.selection;
    if (selection !== null && !extend) return this.#collapseTo(selection.start);
    this.#moveTo(this.#previousBoundary(this.#cursor), extend);
  }

  /**
   * Moves the cursor one grapheme right; with `extend` the selection grows or shrinks, without
   * it a selection collapses to its end.
   */
  moveRight(extend = false): void {
    const selection = this.selection;
    if (selection !== null && !extend) return this.#collapseTo(selection.end);
    this.#moveTo(this.#nextBoundary(this.#cursor), extend);
  }

  /** Moves the cursor to the start of the word before it (Ctrl+ArrowLeft); `extend` selects. */
  moveWordLeft(extend = false): void {
    this.#moveTo(this.#wordStartBefore(this.#cursor), extend);
  }

  /** Moves the cursor to the end of the word after it (Ctrl+ArrowRight); `extend` selects. */
  moveWordRight(extend = false): void {
    this.#moveTo(this.#wordEndAfter(this.#cursor), extend);
  }

  /** Moves the cursor to the start of the text (Home); `extend` selects. */
  moveHome(extend = false): void {
    this.#moveTo(0, extend);
  }

  /** Moves the cursor to the end of the text (End); `extend` selects. */
  moveEnd(extend = false): void {
    this.#moveTo(this.#value.length, extend);
  }

  /**
   * Moves the cursor to `offset` (to the grapheme boundary at or after it, inside the text);
   * with `extend` the selection runs from its anchor to there, without it it collapses.
   */
  moveTo(offset: number, extend = false): void {
    const inside = Math.min(this.#value.length, Math.max(0, Math.trunc(offset)));
    this.#moveTo(this.#boundaryAtOrAfter(inside), extend);
  }

  /** Selects the whole text, with the cursor at the end. */
  selectAll(): void {
    this.#anchor = 0;
    this.#cursor = this.#value.length;
  }

  /**
   * Applies an editing key; returns true when the key was an editing key it handled (even if
   * nothing changed, e.g. Backspace at 0), false for keys it does not handle (Enter, Tab,
   * Escape, F5, Ctrl+S, ...).
   *
   * Handled: Backspace and Delete (with Ctrl or Alt: a word), ArrowLeft and ArrowRight (with
   * Ctrl or Alt: by word; with Shift: extending the selection), Home and End (Shift extends),
   * Ctrl+A (select all), Ctrl+U (delete to start), Ctrl+K (delete to end), and any character
   * key without Ctrl, Alt or Meta, which types it (Space types " ", Shift with a lower-case
   * ASCII letter types it upper-case). Shift is ignored on Backspace and Delete. Meta
   * combinations, ArrowUp, ArrowDown and every other key are left to the caller.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * const field = new TextEditState("ab");
   * const key = { key: "Backspace", ctrl: false, alt: false, shift: false, meta: false };
   * assert.equal(field.applyKey(key), true);
   * assert.equal(field.value, "a");
   * assert.equal(field.applyKey({ ...key, key: "Enter" }), false);
   * ```
   */
  applyKey(keybind: Keybind): boolean {
    const { key, ctrl, alt, shift, meta } = keybind;
    if (meta) return false;
    const byWord = ctrl || alt;
    switch (key) {
      case "Backspace":
        if (byWord) this.deleteWordBackward();
        else this.deleteBackward();
        return true;
      case "Delete":
        if (byWord) this.deleteWordForward();
        else this.deleteForward();
        return true;
      case "ArrowLeft":
        if (byWord) this.moveWordLeft(shift);
        else this.moveLeft(shift);
        return true;
      case "ArrowRight":
        if (byWord) this.moveWordRight(shift);
        else this.moveRight(shift);
        return true;
      case "Home":
        if (alt) return false;
        this.moveHome(shift);
        return true;
      case "End":
        if (alt) return false;
        this.moveEnd(shift);
        return true;
    }
    if (ctrl && !alt && !shift) return this.#applyControlKey(key);
    if (ctrl || alt) return false;
    if (key === "Space") {
      this.insert(" ");
      return true;
    }
    if (!isCharacterKey(key)) return false;
    this.insert(shift && ASCII_LOWER_LETTER.test(key) ? key.toUpperCase() : key);
    return true;
  }

  #applyControlKey(key: string): boolean {
    // parseKeybind() upper-cases letters held with Ctrl; a hand-built keybind may not have.
    switch (key.toUpperCase()) {
      case "A":
        this.selectAll();
        return true;
      case "U":
        this.deleteToStart();
        return true;
      case "K":
        this.deleteToEnd();
        return true;
      default:
        return false;
    }
  }

  /** The selection, or the collapsed range at the cursor. */
  #selectedRange(): TextSelection {
    return this.selection ?? { start: this.#cursor, end: this.#cursor };
  }

  /** Deletes the selection if there is one; returns whether it did. */
  #deleteSelection(): boolean {
    const selection = this.selection;
    if (selection === null) return false;
    this.#replace(selection.start, selection.end, "");
    return true;
  }

  /** Replaces `start` to `end` with text and puts a collapsed cursor after it. */
  #replace(start: number, end: number, text: string): void {
    this.#value = this.#value.slice(0, start) + text + this.#value.slice(end);
    // The new text can join a neighbour into one grapheme (a ZWJ between two emoji, a
    // combining mark), so the offset after it may now fall inside a grapheme.
    this.#collapseTo(this.#boundaryAtOrAfter(start + text.length));
  }

  #collapseTo(offset: number): void {
    this.#cursor = offset;
    this.#anchor = offset;
  }

  #moveTo(offset: number, extend: boolean): void {
    this.#cursor = offset;
    if (!extend) this.#anchor = offset;
  }

  /**
   * The graphemes of the part of the value around `offset` that is segmented as one: the whole
   * value for a single line; for several lines the line holding `offset` (a grapheme never
   * spans a `\n`), so that an edit in a long text segments one line, not all of it.
   */
  #segmented(offset: number): Segmentation {
    const value = this.#value;
    const cached = this.#segmentation;
    if (
      cached !== undefined && cached.value === value && cached.start <= offset &&
      offset <= cached.end
    ) return cached;
    let start = 0;
    let end = value.length;
    if (this.#lineBreaks) {
      start = value.lastIndexOf("\n", offset - 1) + 1;
      const lineEnd = value.indexOf("\n", offset);
      end = lineEnd < 0 ? value.length : lineEnd;
    }
    const boundaries = [start];
    let at = start;
    for (const grapheme of splitGraphemes(value.slice(start, end))) {
      at += grapheme.length;
      boundaries.push(at);
    }
    this.#segmentation = { value, start, end, boundaries };
    return this.#segmentation;
  }

  /** The index into `boundaries` of the first boundary at or after `offset`. */
  #boundaryIndexAtOrAfter(segmentation: Segmentation, offset: number): number {
    const { boundaries } = segmentation;
    let low = 0;
    let high = boundaries.length - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((boundaries[middle] ?? Infinity) < offset) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  #boundaryAtOrAfter(offset: number): number {
    const segmentation = this.#segmented(offset);
    return segmentation.boundaries[this.#boundaryIndexAtOrAfter(segmentation, offset)] ?? offset;
  }

  #previousBoundary(offset: number): number {
    const segmentation = this.#segmented(offset);
    const index = this.#boundaryIndexAtOrAfter(segmentation, offset);
    // At a line's start the grapheme before is the line break.
    if (index === 0) return Math.max(0, segmentation.start - 1);
    return segmentation.boundaries[index - 1] ?? 0;
  }

  #nextBoundary(offset: number): number {
    const segmentation = this.#segmented(offset);
    const { boundaries } = segmentation;
    const index = this.#boundaryIndexAtOrAfter(segmentation, offset);
    // At a line's end the grapheme after is the line break.
    if (index >= boundaries.length - 1) {
      return Math.min(this.#value.length, segmentation.end + (this.#lineBreaks ? 1 : 0));
    }
    return boundaries[index + 1] ?? offset;
  }

  /** Skips back over non-word graphemes, then over the word before them. */
  #wordStartBefore(offset: number): number {
    let at = this.#boundaryAtOrAfter(offset);
    while (at > 0 && !this.#wordBefore(at)) at = this.#previousBoundary(at);
    while (at > 0 && this.#wordBefore(at)) at = this.#previousBoundary(at);
    return at;
  }

  /** Skips forward over non-word graphemes, then over the word after them. */
  #wordEndAfter(offset: number): number {
    const length = this.#value.length;
    let at = this.#boundaryAtOrAfter(offset);
    while (at < length && !this.#wordAfter(at)) at = this.#nextBoundary(at);
    while (at < length && this.#wordAfter(at)) at = this.#nextBoundary(at);
    return at;
  }

  /** True when the grapheme that ends at boundary `offset` is part of a word. */
  #wordBefore(offset: number): boolean {
    return isWordGrapheme(this.#value.slice(this.#previousBoundary(offset), offset));
  }

  /** True when the grapheme that starts at boundary `offset` is part of a word. */
  #wordAfter(offset: number): boolean {
    return isWordGrapheme(this.#value.slice(offset, this.#nextBoundary(offset)));
  }
}

/** Letters, digits and underscore make words; spaces, punctuation and symbols separate them. */
function isWordGrapheme(grapheme: string | undefined): boolean {
  return grapheme !== undefined && WORD_GRAPHEME.test(grapheme);
}
