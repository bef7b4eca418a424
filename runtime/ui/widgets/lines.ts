/**
 * What a table and a tree view share: a window onto many lines (a table's rows, a tree's
 * items) that the widget shows itself, so that only the lines in view cost frame work. Every
 * line has a semantic node from the start (queries and `select` see them all); the lines in
 * view are placed where they show, the others are marked `offscreen` and parked, without
 * size, just above the widget's box (their bounds then never change as the view scrolls, so a
 * page down touches the lines that came into or left the view, not all of them). A line's
 * node may hold the nodes of lines inside it (a tree's expanded item): its bounds then span
 * its whole block, itself and the lines shown inside it.
 *
 * The widget is one Tab stop; the arrows, PageUp/PageDown, Home/End and type-ahead move the
 * cursor, which is the selected line (state `selected`, and the app's selection signal when it
 * passed one), scrolled into view on the key that moved it. Lines have no widgets of their
 * own until something acts on them: a click or the pointer over one (`hitChild`), or an
 * agent's action on its node id (`elementFor`), gets a small stand-in widget for it.
 *
 * @module
 */

import { settleHandler } from "../handler.ts";
import { insetLeft, insetTop, insetX, insetY } from "../../layout/node.ts";
import type { Signal } from "../../reactive/mod.ts";
import type { SemanticNode } from "../../semantics/mod.ts";
import type { Keybind } from "../../text/keybind.ts";
import type { Rt } from "../rt.ts";
import type { PaintArea, StyleName } from "../surface.ts";
import { intersectRects, isEmptyRect } from "../../text/rect.ts";
import { TypeAhead } from "../type_ahead.ts";
import { Widget } from "../widget.ts";

/** Bounds of a line out of view: no size, just above the widget's box. */
const PARKED = Object.freeze({ x: 0, y: -1, width: 0, height: 0 });

/** The lines inside a line with none: shared, as most lines (a table's rows) have none. */
const NO_LINES: readonly Line<unknown>[] = Object.freeze([]);

/** One line: a table's row or a tree's item, with its node. */
export class Line<T> {
  /** The line's node (role `row` or `tree_item`). */
  readonly node: SemanticNode;
  /** The item it shows. */
  item: T;
  /** Its key among the lines (the app's selection holds it). */
  readonly key: unknown;
  /** The line it is inside (a tree's parent item), or null at the top. */
  readonly parent: Line<T> | null;
  /** The lines shown inside it (a tree's expanded item); empty for none (one shared array). */
  children: readonly Line<T>[] = NO_LINES as readonly Line<T>[];
  /** Its place among the lines shown, from 0. */
  index = 0;
  /** How many lines its block spans: itself and those shown inside it. */
  size = 1;
  /** Its stand-in widget, while it has one. */
  proxy: LineWidget<T> | null = null;
  /** True while it is in view (its cells, for a table's row, have nodes). */
  shown = false;
  /** True while it is parked out of view, marked `offscreen` (a line at the top only). */
  parked = false;

  /** A line for `item` under `key`, on `node`, inside `parent`. */
  constructor(node: SemanticNode, item: T, key: unknown, parent: Line<T> | null) {
    this.node = node;
    this.item = item;
    this.key = key;
    this.parent = parent;
  }

  /** How deep it is: 0 at the top. */
  get depth(): number {
    let depth = 0;
    for (let above = this.parent; above !== null; above = above.parent) depth++;
    return depth;
  }
}

/**
 * A line's stand-in widget: what a click, the pointer or an agent's action on its node
 * reaches. It is no child of the widget (layout, painting and Tab never see it); its box is
 * where the line shows, so coordinates and scrolling into view work as for any widget.
 */
export class LineWidget<T> extends Widget {
  /** The line it stands for. */
  readonly line: Line<T>;
  readonly #owner: LinesWidget<T>;
  readonly #kind: string;

  /** The stand-in of `line` in `owner`, reporting `kind`. */
  constructor(owner: LinesWidget<T>, line: Line<T>, kind: string) {
    super();
    this.#owner = owner;
    this.line = line;
    this.#kind = kind;
  }

  override get kind(): string {
    return this.#kind;
  }

  override activate(rt: Rt): void {
    this.#owner.clickLine(this.line, rt);
  }

  override doubleClick(rt: Rt): void {
    this.#owner.activateLine(this.line, rt);
  }

  // A key pressed on a line (an agent's press_key on its node) is pressed with it selected.
  override key(keybind: Keybind, rt: Rt): boolean {
    const owner = this.#owner;
    if (owner.cursor !== this.line) owner.select(this.line, rt);
    if (owner.host.focused !== owner) owner.host.focus(owner);
    return owner.key(keybind, rt);
  }
}

/** What a lines widget tells the app. */
export interface LinesHandlers<T> {
  /** Called with the item of each line selected (a click, a key, an agent's `select`). */
  onSelect?: ((item: T, rt: Rt) => void) | undefined;
  /** Called with the item of a line activated (Enter, a double click). */
  onActivate?: ((item: T, rt: Rt) => void) | undefined;
  /** The app's selection, holding the selected line's key, when it passed one. */
  selection?: Signal<unknown> | undefined;
}

/** The shared part of a table and a tree view: lines, the cursor, the view onto them. */
export abstract class LinesWidget<T> extends Widget {
  /** The lines shown (a tree's expanded items included), in order. */
  lines: Line<T>[] = [];
  /** The selected line, or null. */
  cursor: Line<T> | null = null;
  /** The index of the first line in view. */
  top = 0;
  /** The width inside the box's border and padding at the last layout. */
  width = 0;
  /** The height inside the box's border and padding at the last layout. */
  height = 0;
  /** Where the inner box starts: the cells of border and padding left of it. */
  innerX = 0;
  /** Where the inner box starts: the cells of border and padding above it. */
  innerY = 0;
  /** What the app gave. */
  readonly handlers: LinesHandlers<T>;
  readonly #typeAhead = new TypeAhead();
  /** The lines in view at the last layout. */
  #inView: Line<T>[] = [];
  /** True when every line must be placed again (the lines changed, or the width). */
  #allMoved = true;
  /** True when the cursor must be scrolled into view once the height is known. */
  #revealCursor = false;
  /** The stand-ins made, by line. */
  readonly #proxies = new Set<LineWidget<T>>();
  /** The width and inner box lines were placed at. */
  #placedAt = "";
  /** Where in the line the last hit fell (a person's click), -1 when not known. */
  pointerX = -1;

  /** A lines widget telling `handlers`. */
  constructor(handlers: LinesHandlers<T>) {
    super();
    this.handlers = handlers;
  }

  override get focusable(): boolean {
    return true;
  }

  /** Lines above the first line (a table's header). */
  get headerLines(): number {
    return 0;
  }

  /** How many lines the view shows. */
  get bodyHeight(): number {
    return Math.max(0, this.height - this.headerLines);
  }

  /** True when there are more lines than the view shows: a scroll bar takes the last column. */
  get scrollable(): boolean {
    return this.lines.length > this.bodyHeight && this.bodyHeight > 0;
  }

  /** The width lines are painted in: the box, less the scroll bar's column. */
  get lineWidth(): number {
    return Math.max(0, this.width - (this.scrollable ? 1 : 0));
  }

  /** The kind its stand-ins report, and the role of its lines' nodes. */
  abstract get lineKind(): string;

  /** The text a line is found by with type-ahead and `select`. */
  abstract lineName(line: Line<T>): string;

  /** Paints one line at row `y` of the surface, in `style`. */
  abstract paintLine(area: PaintArea, line: Line<T>, y: number, style: StyleName): void;

  /** Paints what is above the lines (a table's header); nothing by default. */
  paintHeader(_area: PaintArea): void {}

  /** A line came into view (true) or left it: a table's row makes or drops its cells. */
  lineShown(_line: Line<T>, _shown: boolean): void {}

  /** The width changed: a table lays its columns out again. Before the lines are placed. */
  widthChanged(): void {}

  /** The stand-in for what is above the lines at column `x` (a table's header); none here. */
  headerHit(_x: number): Widget | null {
    return null;
  }

  /** The lines changed (added, removed, reordered, expanded): all are placed again. */
  linesChanged(): void {
    for (let index = 0; index < this.lines.length; index++) this.lines[index]!.index = index;
    this.#allMoved = true;
    if (this.cursor !== null && this.lines[this.cursor.index] !== this.cursor) this.cursor = null;
    this.host.markLayoutDirty(this);
  }

  /** Forgets a line that is gone for good: its stand-in goes (its node is the caller's). */
  lineGone(line: Line<T>): void {
    if (line.proxy !== null) this.#dropProxy(line.proxy);
    if (this.cursor === line) this.cursor = null;
  }

  override arranged(width: number, height: number): void {
    // The lines show inside the box's border and padding: `width` and `height` are the box's.
    const style = this.layout.style;
    this.innerX = insetLeft(style);
    this.innerY = insetTop(style);
    this.width = Math.max(0, width - insetX(style));
    this.height = Math.max(0, height - insetY(style));
    const placedAt = `${this.lineWidth} ${this.innerX} ${this.innerY}`;
    if (placedAt !== this.#placedAt) {
      this.#placedAt = placedAt;
      this.#allMoved = true;
      this.widthChanged();
    }
    if (this.#revealCursor && this.cursor !== null) this.#keepInView(this.cursor);
    this.#revealCursor = false;
    this.top = Math.max(0, Math.min(this.top, this.lines.length - this.bodyHeight));
    const lines = this.lines;
    const end = Math.min(lines.length, this.top + this.bodyHeight);
    const inView = lines.slice(this.top, end);
    const before = this.#inView;
    this.#inView = inView;
    for (const line of before) {
      if (line.index < this.top || line.index >= end) this.#show(line, false);
    }
    for (const line of inView) this.#show(line, true);
    if (this.#allMoved) {
      this.#allMoved = false;
      for (const line of lines) this.#place(line);
    } else {
      // Only what came into or left the view moved, with the blocks around it.
      const touched = new Set<Line<T>>();
      for (const line of [...before, ...inView]) {
        for (let at: Line<T> | null = line; at !== null; at = at.parent) {
          if (touched.has(at)) break;
          touched.add(at);
        }
      }
      for (const line of touched) {
        this.#place(line);
        for (const child of line.children) if (!touched.has(child)) this.#place(child);
      }
    }
    this.#pruneProxies();
  }

  /** True when some line of `line`'s block is in view. */
  #meets(line: Line<T>): boolean {
    return line.index < this.top + this.bodyHeight && line.index + line.size > this.top;
  }

  /** Sets a line's bounds and `offscreen` from where it is. */
  #place(line: Line<T>): void {
    const tree = this.host.tree;
    const meets = this.#meets(line);
    const parent = line.parent;
    // A parked line stays as it is until it comes into view: a sort or a page down need not
    // touch the 100,000 rows out of view.
    const parks = parent === null && !meets;
    if (parks && line.parked) {
      if (line.proxy !== null) this.#boxProxy(line.proxy);
      return;
    }
    line.parked = parks;
    // Only the outermost node out of view says so: what is inside it is out of view with it.
    tree.setState(line.node, "offscreen", !meets && (parent === null || this.#meets(parent)));
    if (parent === null && !meets) tree.setBounds(line.node, PARKED);
    else {
      // A line's bounds are relative to the widget's box; those inside a line, to that line.
      const y = parent === null
        ? this.innerY + this.headerLines + line.index - this.top
        : line.index - parent.index;
      const x = parent === null ? this.innerX : 0;
      tree.setBounds(line.node, { x, y, width: this.lineWidth, height: line.size });
    }
    const proxy = line.proxy;
    if (proxy !== null) this.#boxProxy(proxy);
  }

  #show(line: Line<T>, shown: boolean): void {
    if (line.shown === shown) return;
    line.shown = shown;
    this.lineShown(line, shown);
  }

  /** Scrolls so that `line` is in view, as little as it takes. */
  #keepInView(line: Line<T>): void {
    const page = this.bodyHeight;
    if (page === 0) {
      this.#revealCursor = true; // not laid out yet: once it is
      return;
    }
    if (line.index < this.top) this.top = line.index;
    else if (line.index >= this.top + page) this.top = line.index - page + 1;
  }

  /** Brings `line` into view at the next frame. */
  reveal(line: Line<T>): void {
    this.#keepInView(line);
    this.#revealCursor = this.bodyHeight === 0;
    this.host.markLayoutDirty(this);
  }

  /** Selects `line` (or none): `selected` on its node, the app's signal and `onSelect`. */
  select(line: Line<T> | null, rt: Rt | null): void {
    if (this.cursor === line) return;
    this.showSelected(line);
    const selection = this.handlers.selection;
    const key = line === null ? null : line.key;
    if (selection !== undefined && !Object.is(selection.get(), key)) selection.set(key);
    if (line !== null && rt !== null) {
      settleHandler(this, "the onSelect handler", this.handlers.onSelect?.(line.item, rt));
    }
  }

  /** Shows `line` as the selected one, without telling the app. */
  showSelected(line: Line<T> | null): void {
    const tree = this.host.tree;
    if (this.cursor !== null && this.cursor.node.attached) {
      tree.setState(this.cursor.node, "selected", false);
    }
    this.cursor = line;
    if (line !== null) {
      tree.setState(line.node, "selected", true);
      this.reveal(line);
    }
    this.host.markLayoutDirty(this); // painted anew
  }

  /** Follows the app's selection: the line of that key is selected, or none. */
  showSelection(key: unknown): void {
    const line = this.lines.find((candidate) => Object.is(candidate.key, key)) ?? null;
    if (line !== this.cursor) this.showSelected(line);
  }

  /** A click on a line: it is selected, and the widget takes focus. */
  clickLine(line: Line<T>, rt: Rt): void {
    this.pointerX = -1;
    this.select(line, rt);
  }

  /** Runs onActivate for `line`; false when the app gave none. */
  activateLine(line: Line<T>, rt: Rt): boolean {
    const onActivate = this.handlers.onActivate;
    if (onActivate === undefined) return false;
    settleHandler(this, "the onActivate handler", onActivate(line.item, rt));
    return true;
  }

  /** Selects the line `offset` lines from the cursor (±Infinity: the last or the first). */
  moveBy(offset: number, rt: Rt): boolean {
    const count = this.lines.length;
    if (count === 0) return false;
    const at = this.cursor?.index ?? (offset > 0 ? -1 : count);
    const index = Math.max(0, Math.min(count - 1, at + offset));
    if (index === at) return false;
    this.select(this.lines[index]!, rt);
    return true;
  }

  /** How many lines PageUp and PageDown move: a view's worth, less one kept in sight. */
  get page(): number {
    return Math.max(1, this.bodyHeight - 1);
  }

  override key(keybind: Keybind, rt: Rt): boolean {
    if (keybind.ctrl || keybind.alt || keybind.meta) return false;
    switch (keybind.key) {
      case "ArrowDown":
        return this.moveBy(1, rt);
      case "ArrowUp":
        return this.moveBy(-1, rt);
      case "PageDown":
        return this.moveBy(this.page, rt);
      case "PageUp":
        return this.moveBy(-this.page, rt);
      case "Home":
        return this.moveBy(-Infinity, rt);
      case "End":
        return this.moveBy(Infinity, rt);
      case "Enter":
        return this.cursor !== null && this.activateLine(this.cursor, rt);
      default: {
        if (keybind.shift && keybind.key.length !== 1) return false;
        const lines = this.lines;
        const index = this.#typeAhead.find(
          keybind.key,
          this.cursor?.index ?? -1,
          lines.length,
          (at) => this.lineName(lines[at]!),
        );
        if (index < 0) return false;
        this.select(lines[index]!, rt);
        return true;
      }
    }
  }

  override scroll(_dx: number, dy: number): boolean {
    const top = Math.max(0, Math.min(this.top + dy, this.lines.length - this.bodyHeight));
    if (top !== this.top) {
      this.top = top;
      this.host.markLayoutDirty(this);
    }
    return true;
  }

  override choose(option: string, rt: Rt): boolean {
    const line = this.lineNamed(option);
    if (line === undefined) return false;
    this.select(line, rt);
    this.reveal(line);
    return true;
  }

  /** The line whose node is named `option`, else the first whose `lineName` is `option`. */
  lineNamed(option: string): Line<T> | undefined {
    return this.lines.find((line) => line.node.name === option) ??
      this.lines.find((line) => this.lineName(line) === option);
  }

  override optionNames(): readonly string[] {
    return this.lines.map((line) => line.node.name ?? this.lineName(line));
  }

  override elementFor(node: SemanticNode): Widget | undefined {
    // The line's own node, or a node inside it that is no line (a table row's cell).
    for (let at: SemanticNode | null = node; at !== null && at !== this.node; at = at.parent) {
      const line = this.lines.find((candidate) => candidate.node === at);
      if (line === undefined) continue;
      if (line.index < this.top || line.index >= this.top + this.bodyHeight) {
        this.#keepInView(line);
        this.host.markLayoutDirty(this);
      }
      return this.proxyFor(line);
    }
    return undefined;
  }

  override hitChild(boxX: number, boxY: number): Widget | null {
    // (boxX, boxY) is in the widget's box; the lines are in the box inside its border and padding.
    const x = boxX - this.innerX;
    const y = boxY - this.innerY;
    if (x < 0 || y < 0 || y >= this.height) return null;
    if (y < this.headerLines) return this.headerHit(x);
    const line = this.lines[this.top + y - this.headerLines];
    if (line === undefined || x >= this.lineWidth) return null;
    this.pointerX = x;
    return this.proxyFor(line);
  }

  /** The stand-in of `line`, made when first asked for. */
  proxyFor(line: Line<T>): LineWidget<T> {
    if (line.proxy !== null) return line.proxy;
    const proxy = new LineWidget(this, line, this.lineKind);
    proxy.host = this.host;
    proxy.owner = this.owner;
    proxy.node = line.node;
    proxy.parent = this;
    if (this.effectivelyDisabled) proxy.disabled = true;
    line.proxy = proxy;
    this.#proxies.add(proxy);
    this.#boxProxy(proxy);
    this.host.registerElement(proxy);
    return proxy;
  }

  /** Gives a stand-in the box of its line, where it shows (or would, scrolled to). */
  #boxProxy(proxy: LineWidget<T>): void {
    const y = this.innerY + this.headerLines + proxy.line.index - this.top;
    proxy.layout.setBox(this.innerX, y, this.lineWidth, 1);
  }

  #dropProxy(proxy: LineWidget<T>): void {
    this.#proxies.delete(proxy);
    proxy.line.proxy = null;
    this.host.elementRemoved(proxy);
    proxy.mounted = false;
    proxy.parent = null;
  }

  /** Drops the stand-ins of lines out of view, but the one under the pointer. */
  #pruneProxies(): void {
    for (const proxy of this.#proxies) {
      if (proxy.line.shown || proxy.node?.has("hovered")) continue;
      this.#dropProxy(proxy);
    }
  }

  /** Drops every stand-in (the widget leaves the app). */
  dropProxies(): void {
    for (const proxy of [...this.#proxies]) this.#dropProxy(proxy);
  }

  /** True when the widget or one of its stand-ins has focus. */
  get focusWithin(): boolean {
    const focused = this.host.focused;
    return focused !== null && (focused === this || focused.parent === this);
  }

  override paint(box: PaintArea): void {
    // Lines, header and scroll bar paint in the area inside the border and padding (`area.x`,
    // `area.y`), and are clipped to it.
    const area = { ...box, clip: intersectRects(box.clip, box) };
    if (isEmptyRect(area.clip)) return;
    this.paintHeader(area);
    const focused = this.focusWithin;
    const body = area.y + this.headerLines;
    const end = Math.min(this.lines.length, this.top + this.bodyHeight);
    for (let index = this.top; index < end; index++) {
      const line = this.lines[index]!;
      const style: StyleName = area.disabled
        ? "disabled"
        : line === this.cursor
        ? focused ? "focusedRow" : "selectedRow"
        : line.node.has("hovered")
        ? "hover"
        : "text";
      const y = body + index - this.top;
      if (style !== "text" && style !== "disabled") {
        area.surface.fill(
          { x: area.x, y, width: this.lineWidth, height: 1 },
          style,
          area.clip,
        );
      }
      this.paintLine(area, line, y, style);
    }
    if (this.scrollable) this.#paintScrollBar(area, body);
  }

  /** A scroll bar in the last column, beside the lines. */
  #paintScrollBar(area: PaintArea, body: number): void {
    const height = this.bodyHeight;
    const total = this.lines.length;
    const column = area.x + this.width - 1;
    const thumbSize = Math.max(1, Math.round((height * height) / total));
    const thumbStart = Math.round((this.top / (total - height)) * (height - thumbSize));
    for (let row = 0; row < height; row++) {
      const onThumb = row >= thumbStart && row < thumbStart + thumbSize;
      area.surface.write(
        column,
        body + row,
        onThumb ? "┃" : "│",
        onThumb ? "thumb" : "track",
        area.clip,
      );
    }
  }
}
