/**
 * The editing model behind text areas: text of several lines, soft-wrapped into rows of a
 * given width, with a cursor that moves by row and keeps its column as editors do.
 *
 * The text, cursor and selection are a {@linkcode TextEditState} made with
 * `{ lineBreaks: true }` (so typing, deleting, word moves and Ctrl+A behave as in a text field);
 * this adds what needs lines: Enter, ArrowUp and ArrowDown, PageUp and PageDown, Home and End of
 * a line, and where a row of the wrapped text starts and ends. Lines wrap at the last space that
 * fits in the row (the space stays at the end of the row); a word longer than the row breaks at
 * the row's edge.
 *
 * @module
 */

import { graphemeWidth, splitGraphemes } from "./cell_width.ts";
import type { Keybind } from "./keybind.ts";
import { TextEditState, type TextSelection } from "./text_edit.ts";

/** What a word is made of, as word moves have it: letters, digits and underscores. */
const WORD = /^[\p{L}\p{N}_]/u;

/** One row of wrapped text: a whole line, or the part of a long line that fits in the width. */
export interface TextRow {
  /** UTF-16 offset in the text of the row's first character. */
  readonly start: number;
  /** UTF-16 offset just past its last character (the line break is in no row). */
  readonly end: number;
  /** How many cells it takes. */
  readonly cells: number;
  /** True for the last row of a line: the cursor may stand at its end. */
  readonly endsLine: boolean;
}

/** The rows and the room a text area shows them in, for the keys that move by rows. */
export interface TextView {
  /** The cells of a row: where lines wrap. */
  readonly width: number;
  /** How many rows show at once: what PageUp and PageDown move by. */
  readonly height: number;
}

/**
 * Cuts `text` into rows at most `width` cells wide: one or more rows a line, lines ending at
 * `\n`. A line whose last row is full gets one more, empty row, where the cursor at its end
 * shows. A row always holds at least one grapheme, even one wider than `width`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const rows = wrapRows("to be or not\nok", 6);
 * const shown = rows.map((row) => "to be or not\nok".slice(row.start, row.end));
 * assert.deepEqual(shown, ["to be ", "or not", "", "ok"]);
 * ```
 */
export function wrapRows(text: string, width: number): TextRow[] {
  const wrapped = new WrappedRows(text, width);
  return Array.from({ length: wrapped.count }, (_, index) => wrapped.row(index));
}

/**
 * A text's rows at one width, kept line by line, so that an edit wraps again only the lines it
 * changed (`update()`): typing into a text of 100,000 lines touches one line's rows, not
 * 100,000 row objects.
 */
export class WrappedRows {
  /** The text wrapped. */
  text: string;
  /** The width it is wrapped at, in cells. */
  readonly width: number;
  /** Each line's start in the text. */
  #lineStarts: number[] = [];
  /** Each line's rows, their offsets from the line's start. */
  #lineRows: (readonly TextRow[])[] = [];
  /** The index of each line's first row, then the count of rows. */
  #firstRows: number[] = [0];

  /** Wraps `text` at `width` cells. */
  constructor(text: string, width: number) {
    this.text = text;
    this.width = Math.max(1, Math.floor(width));
    this.#splice(0, 0, 0, text.length, text);
  }

  /** How many rows there are. */
  get count(): number {
    return this.#firstRows[this.#firstRows.length - 1]!;
  }

  /** Row `index` (0 to `count - 1`), its offsets in the text. */
  row(index: number): TextRow {
    const line = lastAtOrBefore(this.#firstRows, index, this.#lineRows.length - 1);
    const own = this.#lineRows[line]![index - this.#firstRows[line]!]!;
    const start = this.#lineStarts[line]!;
    return {
      start: own.start + start,
      end: own.end + start,
      cells: own.cells,
      endsLine: own.endsLine,
    };
  }

  /** The index of the row the cursor at `offset` shows in: the last row starting at or before it. */
  indexAt(offset: number): number {
    const line = lastAtOrBefore(this.#lineStarts, offset, this.#lineStarts.length - 1);
    const rows = this.#lineRows[line]!;
    const inLine = offset - this.#lineStarts[line]!;
    let index = 0;
    while (index + 1 < rows.length && rows[index + 1]!.start <= inLine) index++;
    return this.#firstRows[line]! + index;
  }

  /** Takes the text to `text`: the lines between what the two share at each end wrap again. */
  update(text: string): void {
    const old = this.text;
    if (text === old) return;
    const shortest = Math.min(old.length, text.length);
    let prefix = 0;
    while (prefix < shortest && old.charCodeAt(prefix) === text.charCodeAt(prefix)) prefix++;
    let suffix = 0;
    while (
      suffix < shortest - prefix &&
      old.charCodeAt(old.length - 1 - suffix) === text.charCodeAt(text.length - 1 - suffix)
    ) suffix++;
    const starts = this.#lineStarts;
    const first = lastAtOrBefore(starts, prefix, starts.length - 1);
    const last = lastAtOrBefore(starts, old.length - suffix, starts.length - 1);
    const oldEnd = last + 1 < starts.length ? starts[last + 1]! - 1 : old.length;
    const delta = text.length - old.length;
    this.text = text;
    this.#splice(first, last + 1, starts[first]!, oldEnd + delta, text);
  }

  /**
   * Replaces lines `from` to `to` (not included) with the lines of `text` from `start` to
   * `end` (whole lines), wrapped; the lines after move by the difference in length.
   */
  #splice(from: number, to: number, start: number, end: number, text: string): void {
    const starts: number[] = [];
    const rows: (readonly TextRow[])[] = [];
    let lineStart = start;
    for (const line of text.slice(start, end).split("\n")) {
      const made: TextRow[] = [];
      wrapLine(line, 0, this.width, made);
      starts.push(lineStart);
      rows.push(made);
      lineStart += line.length + 1;
    }
    const oldStarts = this.#lineStarts;
    // What the lines after the new ones move by: where they start now less where they did.
    const shift = to < oldStarts.length ? lineStart - oldStarts[to]! : 0;
    for (let index = to; index < oldStarts.length; index++) oldStarts[index]! += shift;
    oldStarts.splice(from, to - from, ...starts);
    this.#lineRows.splice(from, to - from, ...rows);
    const firstRows = this.#firstRows;
    firstRows.length = this.#lineRows.length + 1;
    for (let index = from; index < this.#lineRows.length; index++) {
      firstRows[index + 1] = firstRows[index]! + this.#lineRows[index]!.length;
    }
  }
}

/** The index of the last of the ascending `values` at or before `value` (0 when none is). */
function lastAtOrBefore(values: readonly number[], value: number, highest: number): number {
  let low = 0;
  let high = highest;
  while (low < high) {
    const middle = (low + high + 1) >>> 1;
    if (values[middle]! <= value) low = middle;
    else high = middle - 1;
  }
  return low;
}

/** Appends the rows of one line, which starts at `offset` in the text. */
function wrapLine(line: string, offset: number, width: number, rows: TextRow[]): void {
  const graphemes = splitGraphemes(line);
  const starts: number[] = []; // each grapheme's offset in the text, then the line's end
  const widths: number[] = [];
  let at = offset;
  for (const grapheme of graphemes) {
    starts.push(at);
    widths.push(graphemeWidth(grapheme));
    at += grapheme.length;
  }
  starts.push(at);
  let rowStart = 0; // grapheme indices
  let cells = 0;
  let breakAfterSpace = -1; // the index after the row's last space, or -1
  for (let index = 0; index < graphemes.length; index++) {
    const width_ = widths[index]!;
    while (cells + width_ > width && index > rowStart) {
      const cut = breakAfterSpace > rowStart ? breakAfterSpace : index;
      let used = 0;
      for (let inside = rowStart; inside < cut; inside++) used += widths[inside]!;
      rows.push({ start: starts[rowStart]!, end: starts[cut]!, cells: used, endsLine: false });
      cells -= used;
      rowStart = cut;
      breakAfterSpace = -1;
    }
    cells += width_;
    if (graphemes[index] === " ") breakAfterSpace = index + 1;
  }
  const end = starts[graphemes.length]!;
  if (cells >= width && graphemes.length > 0) {
    rows.push({ start: starts[rowStart]!, end, cells, endsLine: false });
    rows.push({ start: end, end, cells: 0, endsLine: true });
  } else {
    rows.push({ start: starts[rowStart]!, end, cells, endsLine: true });
  }
}

/**
 * The text of several lines being edited, with its cursor and selection, wrapped into rows for
 * the keys that move by rows.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const key = (name: string) => ({ key: name, ctrl: false, alt: false, shift: false, meta: false });
 * const view = { width: 20, height: 5 };
 * const text = new TextLinesState("first line\nhi");
 * text.applyKey(key("ArrowUp"), view); // from the end of "hi" to column 2 of the line above
 * text.applyKey(key("Enter"), view);
 * assert.equal(text.value, "fi\nrst line\nhi");
 * ```
 */
export class TextLinesState {
  /** The text, cursor and selection; it keeps line breaks. */
  readonly edit: TextEditState;
  /** The cell the cursor keeps while it moves up and down; null once it moves otherwise. */
  #goal: number | null = null;
  #rows: WrappedRows | null = null;

  /** Creates the state with the cursor at the end of `value`. */
  constructor(value = "") {
    this.edit = new TextEditState(value, { lineBreaks: true });
  }

  /** The text, lines separated by `\n`. */
  get value(): string {
    return this.edit.value;
  }

  /** The cursor as a UTF-16 offset into the text. */
  get cursor(): number {
    return this.edit.cursor;
  }

  /** The selected range, or null when none is. */
  get selection(): TextSelection | null {
    return this.edit.selection;
  }

  /**
   * The text cut into rows `width` cells wide, kept until the text or the width changes; after
   * an edit only the lines it changed are wrapped again.
   */
  rows(width: number): WrappedRows {
    const text = this.edit.value;
    const kept = this.#rows;
    if (kept !== null && kept.width === Math.max(1, Math.floor(width))) {
      kept.update(text);
      return kept;
    }
    return this.#rows = new WrappedRows(text, width);
  }

  /** The row the cursor is in, and the cell it is at in that row, for rows `width` wide. */
  cursorPlace(width: number): { row: number; cell: number } {
    const rows = this.rows(width);
    const row = rows.indexAt(this.edit.cursor);
    return { row, cell: this.#cellIn(rows.row(row), this.edit.cursor) };
  }

  /**
   * Puts the cursor in row `row` (of rows `width` wide) at cell `cell`, or as near as the row
   * allows: a click there. `extend` selects from the anchor.
   */
  placeAt(row: number, cell: number, width: number, extend = false): void {
    this.edit.moveTo(this.offsetAt(row, cell, width), extend);
    this.#goal = null;
  }

  /** The offset `placeAt()` puts the cursor at, without moving it. */
  offsetAt(row: number, cell: number, width: number): number {
    const rows = this.rows(width);
    const target = rows.row(Math.min(rows.count - 1, Math.max(0, row)));
    return this.#offsetAtCell(target, Math.max(0, cell));
  }

  /** Sets the text from outside (the app's signal): the cursor goes to the end. */
  setValue(value: string): void {
    this.edit.setValue(value);
    this.#goal = null;
  }

  /** Types text at the cursor, over the selection; line breaks are kept. */
  insert(text: string): void {
    this.edit.insert(text);
    this.#goal = null;
  }

  /**
   * Moves the cursor `count` rows down (up when negative), keeping the cell it had when it
   * started moving up and down; past the first row it goes to the start of the text, past the
   * last to its end. `extend` selects.
   */
  moveRows(count: number, width: number, extend = false): void {
    const rows = this.rows(width);
    const { row, cell } = this.cursorPlace(width);
    const goal = this.#goal ?? cell;
    const target = row + count;
    if (target < 0) this.edit.moveTo(0, extend);
    else if (target >= rows.count) this.edit.moveTo(this.edit.value.length, extend);
    else this.edit.moveTo(this.#offsetAtCell(rows.row(target), goal), extend);
    this.#goal = goal;
  }

  /**
   * Selects the word the cursor is in or just before (a double click): the letters, digits
   * and underscores around it, or else the one character there (a space, a sign).
   */
  selectWord(): void {
    const { edit } = this;
    const cursor = edit.cursor;
    const start = this.#lineStart(cursor);
    const graphemes = splitGraphemes(edit.value.slice(start, this.#lineEnd(cursor)));
    const starts: number[] = [];
    let at = start;
    for (const grapheme of graphemes) {
      starts.push(at);
      at += grapheme.length;
    }
    starts.push(at);
    let index = starts.indexOf(cursor);
    if (index < 0 || graphemes.length === 0) return;
    if (index === graphemes.length) index--; // at the line's end: the last character
    let first = index;
    let last = index + 1;
    if (WORD.test(graphemes[index]!)) {
      while (first > 0 && WORD.test(graphemes[first - 1]!)) first--;
      while (last < graphemes.length && WORD.test(graphemes[last]!)) last++;
    }
    edit.moveTo(starts[first]!);
    edit.moveTo(starts[last]!, true);
    this.#goal = null;
  }

  /** Moves the cursor to the start of its line (Home); `extend` selects. */
  moveLineStart(extend = false): void {
    this.edit.moveTo(this.#lineStart(this.edit.cursor), extend);
    this.#goal = null;
  }

  /** Moves the cursor to the end of its line (End); `extend` selects. */
  moveLineEnd(extend = false): void {
    this.edit.moveTo(this.#lineEnd(this.edit.cursor), extend);
    this.#goal = null;
  }

  /**
   * Applies an editing key; returns true when it handled it, false for keys it leaves to the
   * caller (Tab, Escape, F5, Ctrl+S, ...).
   *
   * On top of a text field's keys ({@linkcode TextEditState.applyKey}): Enter (also with
   * Shift) inserts a line break; ArrowUp and ArrowDown move a row, PageUp and PageDown
   * `view.height` rows, keeping the cursor's column; Home and End go to the start and end of
   * the line, Ctrl+Home and Ctrl+End to the start and end of the text; Shift with any of them
   * selects. Ctrl+U deletes to the start of the line and Ctrl+K to its end (at the end, the
   * line break, joining the next line).
   */
  applyKey(keybind: Keybind, view: TextView): boolean {
    const { key, ctrl, alt, shift, meta } = keybind;
    if (meta) return false;
    const plain = !ctrl && !alt;
    switch (key) {
      case "Enter":
        if (!plain) return false;
        this.insert("\n");
        return true;
      case "ArrowUp":
      case "ArrowDown":
        if (!plain) return false;
        this.moveRows(key === "ArrowUp" ? -1 : 1, view.width, shift);
        return true;
      case "PageUp":
      case "PageDown": {
        if (!plain) return false;
        const page = Math.max(1, view.height);
        this.moveRows(key === "PageUp" ? -page : page, view.width, shift);
        return true;
      }
      case "Home":
        if (!plain) break; // Ctrl+Home: the start of the text, as a field has it
        this.moveLineStart(shift);
        return true;
      case "End":
        if (!plain) break;
        this.moveLineEnd(shift);
        return true;
    }
    if (ctrl && !alt && !shift && (key === "U" || key === "u")) return this.#deleteLine(-1);
    if (ctrl && !alt && !shift && (key === "K" || key === "k")) return this.#deleteLine(1);
    if (!this.edit.applyKey(keybind)) return false;
    this.#goal = null;
    return true;
  }

  /** Ctrl+U (`-1`) and Ctrl+K (`1`): to the line's start or end, or the line break there. */
  #deleteLine(direction: -1 | 1): true {
    const { edit } = this;
    const selection = edit.selection ?? { start: edit.cursor, end: edit.cursor };
    const start = direction < 0 ? this.#lineStart(selection.start) : selection.start;
    const end = direction < 0 ? selection.end : this.#lineEnd(selection.end);
    this.#goal = null;
    if (start === end) {
      if (direction < 0) edit.deleteBackward();
      else edit.deleteForward();
      return true;
    }
    edit.moveTo(start);
    edit.moveTo(end, true);
    edit.deleteBackward();
    return true;
  }

  #lineStart(offset: number): number {
    return this.edit.value.lastIndexOf("\n", offset - 1) + 1;
  }

  #lineEnd(offset: number): number {
    const end = this.edit.value.indexOf("\n", offset);
    return end < 0 ? this.edit.value.length : end;
  }

  /** The cells from the start of `row` to `offset`. */
  #cellIn(row: TextRow, offset: number): number {
    let cells = 0;
    for (const grapheme of splitGraphemes(this.edit.value.slice(row.start, offset))) {
      cells += graphemeWidth(grapheme);
    }
    return cells;
  }

  /**
   * The offset in `row` nearest before cell `cell`: past every grapheme that ends at or before
   * it. In a row that wraps, the cursor stops before its last grapheme (its end is where the
   * next row starts).
   */
  #offsetAtCell(row: TextRow, cell: number): number {
    let offset = row.start;
    let cells = 0;
    const graphemes = splitGraphemes(this.edit.value.slice(row.start, row.end));
    for (let index = 0; index < graphemes.length; index++) {
      const grapheme = graphemes[index]!;
      const width = graphemeWidth(grapheme);
      if (cells + width > cell) break;
      if (!row.endsLine && index === graphemes.length - 1) break;
      cells += width;
      offset += grapheme.length;
    }
    return offset;
  }
}
