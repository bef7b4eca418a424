/**
 * `table()`: rows of cells under a header of column names (roles `table`, `row`, `cell` and
 * `column_header`). Columns are fixed (`width: 12`), automatic (as wide as their widest cell,
 * the default) or growing (`grow: 1`, a share of the spare width); a cell too narrow for its
 * text ends in `…`. A click on a header, or Enter on it, sorts by that column (again: the other
 * way), and the header says so (`sorted_ascending`, `sorted_descending`).
 *
 * The table shows only the rows that fit, so 100,000 rows scroll as cheaply as 100: every row
 * has a `row` node, named by its cells (`"notes.txt, 3 KB, 2 Nov"`), which queries and the
 * `select` action see; only the rows in view have `cell` nodes under them. It is one Tab stop:
 * the arrows, PageUp/PageDown, Home/End and type-ahead (on the first column) move the selected
 * row, ArrowUp from the first row goes to the headers (ArrowLeft/ArrowRight between them,
 * ArrowDown back), Enter on a row calls `onActivate`.
 *
 * @module
 */

import { untracked } from "../../reactive/mod.ts";
import type { Signal } from "../../reactive/mod.ts";
import type { SemanticNode } from "../../semantics/mod.ts";
import { cellWidth, truncateToWidth } from "../../text/cell_width.ts";
import type { Keybind } from "../../text/keybind.ts";
import type { Rt } from "../rt.ts";
import { interactiveStyle, type PaintArea, type StyleName } from "../surface.ts";
import { follow, type MountContext, type Prop } from "../view.ts";
import { type Size, Widget } from "../widget.ts";
import { followName, mountWidget } from "../widget_view.ts";
import { ItemsView } from "./items_view.ts";
import { Line, LinesWidget } from "./lines.ts";
import type { ListItems } from "./list.ts";

/** One column of a table. */
export interface TableColumn<T> {
  /** The header's text: the `column_header`'s name. */
  header: string;
  /** The cell's text for a row; a number is shown as it is and sorts as a number. */
  cell: (row: T) => string | number;
  /** A fixed width in cells, or `"auto"` (the default): as wide as the widest cell. */
  width?: number | "auto";
  /** A share of the width the table has beyond its columns' (0, the default: none). */
  grow?: number;
  /** Where the text sits in the cell; `"left"` by default. */
  align?: "left" | "right";
  /**
   * How rows sort by this column: a comparison of two rows, or false for a column that does
   * not sort. By default by the cells: numbers as numbers, text ignoring case.
   */
  sort?: ((a: T, b: T) => number) | false;
}

/** What `table()` takes. */
export interface TableOptions<T> {
  /** The table's accessible name. */
  label: Prop<string>;
  /** The columns, left to right. */
  columns: readonly TableColumn<T>[];
  /** The rows: an array, a binding, or a signal or memo of one. */
  rows: ListItems<T>;
  /** Tells rows apart across changes, and is what the selection holds; the row itself by default. */
  key?: (row: T, index: number) => unknown;
}

/** Empty cells between columns. */
const COLUMN_GAP = 1;

/** The most rows a table's natural height counts; it grows into more room than that. */
const NATURAL_ROWS = 20;

/** Rows ordered past this index cannot be packed with their value into one number. */
const PACKED_INDEX = 2 ** 21;

/**
 * `lines` sorted by `value` (numbers as numbers, before text; text ignoring case), ascending
 * or descending; lines with equal values keep their order. Whole numbers from 0 up to 2^32
 * sort packed with their index in a `Float64Array`, natively; others by a comparison of
 * values computed once.
 */
function sortedByCells<L>(
  lines: readonly L[],
  value: (line: L) => string | number,
  descending: boolean,
): L[] {
  const count = lines.length;
  const values = lines.map(value);
  const packable = count < PACKED_INDEX &&
    values.every((v) => typeof v === "number" && Number.isInteger(v) && v >= 0 && v < 2 ** 32);
  if (packable) {
    const packed = new Float64Array(count);
    for (let index = 0; index < count; index++) {
      const v = values[index] as number;
      // Descending: the tie-break counts down, so that reversing keeps ties in order.
      packed[index] = v * PACKED_INDEX + (descending ? count - 1 - index : index);
    }
    packed.sort();
    const sorted: L[] = [];
    for (let at = 0; at < count; at++) {
      const tie = packed[at]! % PACKED_INDEX;
      sorted.push(lines[descending ? count - 1 - tie : tie]!);
    }
    return descending ? sorted.reverse() : sorted;
  }
  const keys = values.map((v) => typeof v === "number" ? v : v.toLowerCase());
  const sign = descending ? -1 : 1;
  const order = keys.map((_, index) => index);
  order.sort((a, b) => {
    const x = keys[a]!;
    const y = keys[b]!;
    if (typeof x === typeof y) return x < y ? -sign : x > y ? sign : 0;
    return typeof x === "number" ? -sign : sign; // numbers before text
  });
  return order.map((index) => lines[index]!);
}

/** The key a row whose key another row has already gets: the key and the row's index. */
function repeatedKey(key: unknown, index: number): string {
  return `${String(key)}\u0000${index}`;
}

/** `lines` by their keys. */
function linesByKey<T>(lines: readonly Line<T>[]): Map<unknown, Line<T>> {
  const byKey = new Map<unknown, Line<T>>();
  for (const line of lines) byKey.set(line.key, line);
  return byKey;
}

/** The cell texts of `row`. */
function cellTexts<T>(columns: readonly TableColumn<T>[], row: T): string[] {
  return columns.map((column) => String(column.cell(row)));
}

/**
 * The widths of columns whose natural widths are `natural` in `available` cells: the spare
 * goes to the growing ones by their shares; what is short is taken from the growing ones
 * first, then the automatic ones, then the fixed ones, each in proportion to its width and
 * never below one cell.
 */
export function columnWidths(
  natural: readonly number[],
  kinds: readonly ("fixed" | "auto")[],
  grows: readonly number[],
  available: number,
): number[] {
  const widths = [...natural];
  const gaps = COLUMN_GAP * Math.max(0, natural.length - 1);
  let spare = available - gaps - natural.reduce((sum, width) => sum + width, 0);
  const shares = grows.reduce((sum, share) => sum + share, 0);
  if (spare > 0 && shares > 0) {
    let left = spare;
    let sharesLeft = shares;
    for (let index = 0; index < widths.length; index++) {
      const share = grows[index]!;
      if (share <= 0) continue;
      const extra = sharesLeft === share ? left : Math.floor((spare * share) / shares);
      widths[index]! += extra;
      left -= extra;
      sharesLeft -= share;
    }
    return widths;
  }
  const tiers = [
    (index: number) => grows[index]! > 0,
    (index: number) => grows[index]! <= 0 && kinds[index] === "auto",
    (index: number) => grows[index]! <= 0 && kinds[index] === "fixed",
  ];
  for (const inTier of tiers) {
    if (spare >= 0) break;
    const members = widths.map((_, index) => index).filter(inTier);
    const room = members.reduce((sum, index) => sum + widths[index]! - 1, 0);
    if (room <= 0) continue;
    const take = Math.min(room, -spare);
    let left = take;
    members.forEach((index, at) => {
      const give = at === members.length - 1
        ? left
        : Math.min(left, Math.round((take * (widths[index]! - 1)) / room));
      const given = Math.min(give, widths[index]! - 1);
      widths[index]! -= given;
      left -= given;
    });
    spare += take - left;
  }
  return widths;
}

/** A column header: what a click, Enter, focus and the pointer reach. */
class ColumnHeaderWidget<T> extends Widget {
  readonly #table: TableWidget<T>;
  /** Its column's index. */
  readonly column: number;

  constructor(table: TableWidget<T>, column: number) {
    super();
    this.#table = table;
    this.column = column;
  }

  override get kind(): "column_header" {
    return "column_header";
  }

  override get focusable(): boolean {
    return true;
  }

  override activate(): void {
    this.#table.sortBy(this.column);
  }

  override key(keybind: Keybind, rt: Rt): boolean {
    if (keybind.ctrl || keybind.alt || keybind.meta || keybind.shift) return false;
    const headers = this.#table.headers;
    switch (keybind.key) {
      case "ArrowLeft":
      case "ArrowRight": {
        const next = headers[this.column + (keybind.key === "ArrowLeft" ? -1 : 1)];
        if (next !== undefined) this.host.focus(next);
        return true;
      }
      case "Home":
      case "End":
        this.host.focus(headers[keybind.key === "Home" ? 0 : headers.length - 1]!);
        return true;
      case "ArrowDown":
        this.#table.enterRows(rt);
        return true;
      case "ArrowUp":
        return true; // the top already
      default:
        return false;
    }
  }
}

/** What a table tells the app. */
interface TableHandlers<T> {
  onSelect: ((row: T, rt: Rt) => void) | undefined;
  onActivate: ((row: T, rt: Rt) => void) | undefined;
  selection: Signal<unknown> | undefined;
}

/** A table: its header, its rows (only those in view painted), its sort. */
export class TableWidget<T> extends LinesWidget<T> {
  /** The columns. */
  readonly columns: readonly TableColumn<T>[];
  /** The header row's node. */
  headerNode!: SemanticNode;
  /** The column headers, left to right. */
  headers: ColumnHeaderWidget<T>[] = [];
  /** The columns' natural widths. */
  #natural: number[] = [];
  /** Where each column starts, and how wide it is, at the last layout. */
  #left: number[] = [];
  #widths: number[] = [];
  /** The column rows are sorted by, or -1; and which way. */
  sortColumn = -1;
  sortDescending = false;

  constructor(columns: readonly TableColumn<T>[], handlers: TableHandlers<T>) {
    super(handlers);
    this.columns = columns;
  }

  override get kind(): "table" {
    return "table";
  }

  override get lineKind(): string {
    return "row";
  }

  override get headerLines(): number {
    return 1;
  }

  // One Tab stop: the table, or the header that has focus.
  override tabEntry(): Widget | null {
    const focused = this.host.focused;
    return focused instanceof ColumnHeaderWidget && focused.parent === this ? focused : null;
  }

  override measure(): Size {
    // The scroll bar's column too, when the rows are more than it shows (or may be).
    const rows = this.lines.length;
    const fixed = this.style.height;
    const bar = this.scrollable || rows > NATURAL_ROWS ||
      (fixed !== undefined && rows > fixed - 1);
    const width = this.#natural.reduce((sum, cells) => sum + cells, 0) +
      COLUMN_GAP * Math.max(0, this.columns.length - 1) + (bar ? 1 : 0);
    return { width, height: 1 + Math.min(this.lines.length, NATURAL_ROWS) };
  }

  override lineName(line: Line<T>): string {
    const first = this.columns[0];
    return first === undefined ? "" : String(first.cell(line.item));
  }

  /** Mounts the header row's node and the column headers. */
  mountHeader(context: MountContext): void {
    const tree = this.host.tree;
    this.headerNode = tree.createNode("row");
    this.headers = this.columns.map((column, index) => {
      const header = mountWidget(context, new ColumnHeaderWidget(this, index), "column_header");
      header.parent = this;
      tree.setName(header.node!, column.header);
      return header;
    });
    tree.setChildren(this.headerNode, this.headers.map((header) => header.node!));
  }

  /**
   * Shows `rows`: rows whose key stays keep their line and node, new keys get one, gone keys
   * lose theirs; a key repeated among the new rows is told apart by its index
   * (`key\u0000index`). The lines are looked up by key only here, so they are put in a map
   * only when rows change again: the first rows, 100,000 of them in a big table, make no map
   * (and keep a repeated key as it is).
   */
  setRows(rows: readonly T[], key: (row: T, index: number) => unknown): void {
    const tree = this.host.tree;
    const columns = this.columns;
    const count = columns.length;
    const old = this.lines.length === 0 ? null : linesByKey(this.lines);
    const claimed = new Set<Line<T>>();
    const fresh = new Set<unknown>();
    const lines: Line<T>[] = [];
    const natural = columns.map((column) =>
      typeof column.width === "number" ? column.width : cellWidth(column.header) + 2
    );
    const measured = columns.map((column) => typeof column.width !== "number");
    const texts: string[] = new Array(count);
    // One pass, allocating what stays only (the line, its node, its name): this runs over
    // every row, 100,000 of them in a big table.
    for (let index = 0; index < rows.length; index++) {
      const row = rows[index]!;
      let rowKey = key(row, index);
      let line = old?.get(rowKey);
      if (line !== undefined && claimed.has(line)) line = undefined; // a repeated key
      if (line === undefined && old !== null) {
        if (fresh.has(rowKey) || old.has(rowKey)) rowKey = repeatedKey(rowKey, index);
        line = old.get(rowKey);
        fresh.add(rowKey);
      }
      for (let column = 0; column < count; column++) {
        const text = String(columns[column]!.cell(row));
        texts[column] = text;
        // No text is wider than two cells a character: most need no measuring.
        if (measured[column] && text.length * 2 > natural[column]!) {
          const width = cellWidth(text);
          if (width > natural[column]!) natural[column] = width;
        }
      }
      // One flat string (a sum of strings would keep a chain of pieces for each row).
      const name = texts.join(", ");
      if (line === undefined) line = new Line<T>(tree.createNode("row"), row, rowKey, null);
      else {
        line.item = row; // a row in view shows its new cells below
        claimed.add(line);
      }
      tree.setName(line.node, name);
      lines.push(line);
    }
    for (const line of this.lines) {
      if (claimed.has(line)) continue;
      this.lineGone(line);
      tree.remove(line.node);
    }
    this.#natural = natural;
    this.lines = lines;
    if (this.sortColumn >= 0) this.#sortLines();
    this.#showOrder();
  }

  /** The table node's children: the header row, then the rows in their order. */
  #showOrder(): void {
    const nodes: SemanticNode[] = [this.headerNode];
    for (const line of this.lines) nodes.push(line.node);
    this.host.tree.setChildren(this.node!, nodes);
    this.linesChanged();
    for (const line of this.lines) if (line.shown) this.#showCells(line, true);
  }

  /** Sorts by column `index`: ascending first, then the other way at each call. */
  sortBy(index: number): void {
    const column = this.columns[index];
    if (column === undefined || column.sort === false) return;
    this.sortDescending = this.sortColumn === index ? !this.sortDescending : false;
    this.sortColumn = index;
    const tree = this.host.tree;
    this.headers.forEach((header, at) => {
      tree.setState(header.node!, "sorted_ascending", at === index && !this.sortDescending);
      tree.setState(header.node!, "sorted_descending", at === index && this.sortDescending);
    });
    this.#sortLines();
    this.#showOrder();
    if (this.cursor !== null) this.reveal(this.cursor);
  }

  /** Puts the lines in the order of the sort column; rows that tie keep their order. */
  #sortLines(): void {
    const column = this.columns[this.sortColumn]!;
    const sign = this.sortDescending ? -1 : 1;
    const lines = this.lines;
    if (typeof column.sort === "function") {
      const compare = column.sort;
      lines.sort((a, b) => sign * compare(a.item, b.item));
      return;
    }
    this.lines = sortedByCells(lines, (line) => column.cell(line.item), this.sortDescending);
  }
  /** Focus goes from the headers to the rows: to the selected one, else the first. */
  enterRows(rt: Rt): void {
    this.host.focus(this);
    if (this.cursor === null && this.lines.length > 0) this.select(this.lines[0]!, rt);
  }

  override key(keybind: Keybind, rt: Rt): boolean {
    const plain = !keybind.ctrl && !keybind.alt && !keybind.meta && !keybind.shift;
    const atTop = this.cursor === null || this.cursor.index === 0;
    if (plain && keybind.key === "ArrowUp" && atTop && this.headers.length > 0) {
      const sorted = this.headers[this.sortColumn] ?? this.headers[0]!;
      this.host.focus(sorted);
      return true;
    }
    return super.key(keybind, rt);
  }

  override headerHit(x: number): Widget | null {
    for (let index = 0; index < this.headers.length; index++) {
      const left = this.#left[index] ?? 0;
      if (x >= left && x < left + (this.#widths[index] ?? 0)) return this.headers[index]!;
    }
    return null;
  }

  override widthChanged(): void {
    const kinds = this.columns.map((column) =>
      typeof column.width === "number" ? "fixed" as const : "auto" as const
    );
    const grows = this.columns.map((column) => Math.max(0, column.grow ?? 0));
    this.#widths = columnWidths(this.#natural, kinds, grows, this.lineWidth);
    let left = 0;
    this.#left = this.#widths.map((width) => {
      const at = left;
      left += width + COLUMN_GAP;
      return at;
    });
    const tree = this.host.tree;
    const { innerX, innerY } = this;
    tree.setBounds(this.headerNode, { x: innerX, y: innerY, width: this.lineWidth, height: 1 });
    this.headers.forEach((header, index) => {
      const box = this.#cellBox(index);
      header.layout.setBox(innerX + box.x, innerY, box.width, 1);
      tree.setBounds(header.node!, box);
    });
    for (const line of this.lines) if (line.shown) this.#showCells(line, true);
  }

  /** Where column `index`'s cells are, relative to their row. */
  #cellBox(index: number): { x: number; y: number; width: number; height: number } {
    return { x: this.#left[index] ?? 0, y: 0, width: this.#widths[index] ?? 0, height: 1 };
  }

  override lineShown(line: Line<T>, shown: boolean): void {
    this.#showCells(line, shown);
  }

  /** Gives a row in view its cells (anew, from its item), or takes them from one out of view. */
  #showCells(line: Line<T>, shown: boolean): void {
    const tree = this.host.tree;
    const old = line.node.children;
    const texts = shown ? cellTexts(this.columns, line.item) : [];
    if (shown && old.length === texts.length) {
      old.forEach((cell, index) => {
        tree.setName(cell, texts[index]!);
        tree.setBounds(cell, this.#cellBox(index));
      });
      return;
    }
    tree.setChildren(line.node, []);
    for (const cell of old) tree.remove(cell);
    if (!shown) return;
    const cells = texts.map((text, index) => {
      const cell = tree.createNode("cell");
      tree.setName(cell, text);
      tree.setBounds(cell, this.#cellBox(index));
      return cell;
    });
    tree.setChildren(line.node, cells);
  }

  override paintHeader(area: PaintArea): void {
    const { surface, clip } = area;
    const y = area.y;
    const focused = this.host.focused;
    this.headers.forEach((header, index) => {
      const x = area.x + (this.#left[index] ?? 0);
      const width = this.#widths[index] ?? 0;
      const style = interactiveStyle(
        {
          ...area,
          focused: focused === header,
          hovered: header.node!.has("hovered"),
        },
        "heading",
      );
      const column = this.columns[index]!;
      const arrow = this.sortColumn !== index ? "" : this.sortDescending ? "▼" : "▲";
      // The arrow after a space, or right after the header when the column is too narrow.
      const roomy = cellWidth(column.header) + 2 <= width;
      const mark = arrow === "" ? "" : roomy ? ` ${arrow}` : arrow;
      const text = truncateToWidth(column.header, Math.max(0, width - cellWidth(mark)), "…") +
        mark;
      if (style !== "heading") surface.fill({ x, y, width, height: 1 }, style, clip);
      surface.write(x, y, this.#aligned(text, width, column.align), style, clip);
    });
  }

  override paintLine(area: PaintArea, line: Line<T>, y: number, style: StyleName): void {
    const texts = cellTexts(this.columns, line.item);
    texts.forEach((text, index) => {
      const x = area.x + (this.#left[index] ?? 0);
      const width = this.#widths[index] ?? 0;
      const shown = this.#aligned(text, width, this.columns[index]!.align);
      area.surface.write(x, y, shown, style, area.clip);
    });
  }

  /** `text` cut to `width` cells (ending in `…`), and padded on the left when right-aligned. */
  #aligned(text: string, width: number, align: "left" | "right" | undefined): string {
    const cut = truncateToWidth(text, width, "…");
    return align === "right" ? " ".repeat(width - cellWidth(cut)) + cut : cut;
  }
}

/** A table of rows under a header of columns. */
export class TableView<T> extends ItemsView<T> {
  readonly #options: TableOptions<T>;

  /** Apps call `table()` instead. */
  constructor(options: TableOptions<T>) {
    super();
    this.#options = options;
  }

  /** Makes the widget. */
  protected build(context: MountContext): Widget {
    const handlers = this.itemHandlers;
    const options = this.#options;
    const table = mountWidget(
      context,
      new TableWidget<T>(options.columns, handlers),
      "table",
    );
    table.setStyle({ scrolls: true }); // a viewport: it fills the room its parent leaves
    followName(context, table, this.nameProp(options.label));
    table.mountHeader(context);
    context.owner.cleanups.push(() => table.dropProxies());
    const key = options.key ?? ((row: T) => row);
    follow(context, options.rows as Prop<readonly T[]>, (rows) => {
      if (!Array.isArray(rows)) {
        throw new TypeError(`table() rows must be an array, got ${typeof rows}`);
      }
      untracked(() => {
        table.setRows(rows, key);
        const selection = handlers.selection;
        if (selection !== undefined) table.showSelection(selection.get());
      });
    }, "table()");
    const selection = handlers.selection;
    if (selection !== undefined) {
      follow(
        context,
        selection,
        (rowKey) => untracked(() => table.showSelection(rowKey)),
        "a table's selection",
      );
    }
    return table;
  }
}

/**
 * A table named `label`, with a row for each of `rows` and a column for each of `columns`.
 * Only the rows in view are painted and have cells, so a table of 100,000 rows scrolls as one
 * of 100 does; every row has its `row` node, named by its cells joined with `, `, which
 * `ui_query` finds and `{"action": "select", "option": "<name>"}` selects (the whole name, or
 * the first cell's text). A click on a header, or Enter on it, sorts by that column.
 *
 * @example A table a person sorts and an agent selects in
 * ```ts
 * import assert from "node:assert/strict";
 * import { component, table } from "@crownui/runtime";
 * import { render } from "@crownui/runtime/testing";
 *
 * type File = { name: string; size: number };
 * const files: File[] = [{ name: "b.txt", size: 20 }, { name: "a.txt", size: 3 }];
 * let opened = "";
 * await using app = await render(component(() =>
 *   table({
 *     label: "Files",
 *     columns: [
 *       { header: "Name", cell: (file: File) => file.name, grow: 1 },
 *       { header: "Size", cell: (file: File) => file.size, width: 6, align: "right" },
 *     ],
 *     rows: files,
 *     key: (file) => file.name,
 *   }).onActivate((file) => opened = file.name)
 * ));
 * assert.deepEqual(app.query({ role: "row", text: ".txt" }).map((row) => row.name), [
 *   "b.txt, 20",
 *   "a.txt, 3",
 * ]);
 * await app.act(app.get({ role: "column_header", name: "Name" }).id, { action: "click" });
 * assert.equal(app.get({ role: "column_header", name: "Name" }).states.includes("sorted_ascending"), true);
 * assert.equal(app.query({ role: "row", text: ".txt" })[0]!.name, "a.txt, 3");
 * await app.act(app.get({ role: "table" }).id, { action: "select", option: "b.txt" });
 * await app.press("Enter");
 * assert.equal(opened, "b.txt");
 * ```
 */
export function table<T>(options: TableOptions<T>): TableView<T> {
  if (
    typeof options !== "object" || options === null || !Array.isArray(options.columns) ||
    options.rows === undefined
  ) {
    throw new TypeError("table() takes { label, columns: [{ header, cell }], rows, key? }");
  }
  for (const column of options.columns) {
    if (typeof column?.header !== "string" || typeof column.cell !== "function") {
      throw new TypeError("each of table()'s columns needs a header (text) and a cell function");
    }
  }
  return new TableView(options);
}
