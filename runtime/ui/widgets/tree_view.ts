/**
 * `treeView()`: items inside items, as a folder tree shows them (roles `tree` and
 * `tree_item`; an item that has children carries `collapsed` or `expanded`, its level shows in
 * the tree text as `level=2`). An item's children may come from a function called when it is
 * first expanded, and may arrive later (a promise): the item carries `busy` meanwhile. Its
 * nodes nest as the items do: an expanded item's node holds its children's nodes.
 *
 * It is one Tab stop: ArrowUp/ArrowDown, PageUp/PageDown, Home/End and type-ahead move the
 * selected item; ArrowRight expands a collapsed item (again: goes to its first child),
 * ArrowLeft collapses an expanded one (else goes to its parent); Enter calls `onActivate`, or
 * expands and collapses when the app gave none. A click selects, a click on `▸`/`▾` or a double
 * click expands and collapses. Only the items in view cost frame work (see `lines.ts`).
 *
 * @module
 */

import { untracked } from "../../reactive/mod.ts";
import type { Signal } from "../../reactive/mod.ts";
import { cellWidth, truncateToWidth } from "../../text/cell_width.ts";
import type { Keybind } from "../../text/keybind.ts";
import type { Rt } from "../rt.ts";
import type { PaintArea, StyleName } from "../surface.ts";
import { follow, type MountContext, type Prop } from "../view.ts";
import type { Size, Widget } from "../widget.ts";
import { followName, mountWidget } from "../widget_view.ts";
import { ItemsView } from "./items_view.ts";
import { Line, LinesWidget } from "./lines.ts";
import type { ListItems } from "./list.ts";

/** What an item's children are: given at once, later, or none (a leaf). */
export type TreeChildren<T> = readonly T[] | Promise<readonly T[]> | null | undefined;

/** What `treeView()` takes. */
export interface TreeViewOptions<T> {
  /** The tree's accessible name. */
  label: Prop<string>;
  /** The items at the top: an array, a binding, or a signal or memo of one. */
  items: ListItems<T>;
  /** An item's text: what the line shows and its node's name; `String(item)` by default. */
  name?: (item: T) => string;
  /**
   * An item's children, asked for when it is first expanded (then kept): an array, a promise
   * of one, or null for a leaf. None given: every item is a leaf.
   */
  children?: (item: T) => TreeChildren<T>;
  /**
   * Whether an item has children, before they are asked for (so a file shows no `▸`); by
   * default every item may have, while `children` is given. An item whose children come back
   * empty becomes a leaf.
   */
  hasChildren?: (item: T) => boolean;
  /** Tells items apart across changes of `items` (the item itself by default); the selection holds it. */
  key?: (item: T) => unknown;
}

/** Cells of indent for each level below the top. */
const INDENT = 2;

/** The most items a tree's natural height counts; it grows into more room than that. */
const NATURAL_ITEMS = 20;

/** One item: a line with what it knows of its children. */
class TreeLine<T> extends Line<T> {
  /** True when it may have children (shows `▸` or `▾`). */
  expandable = false;
  /** True while its children show. */
  expanded = false;
  /** True while its children are on their way. */
  loading = false;
  /** Its children's items, once asked for. */
  loaded: readonly T[] | null = null;
}

/** What a tree view tells the app. */
interface TreeHandlers<T> {
  onSelect: ((item: T, rt: Rt) => void) | undefined;
  onActivate: ((item: T, rt: Rt) => void) | undefined;
  selection: Signal<unknown> | undefined;
}

/** A tree view: its items, the expanded ones' children shown below them. */
export class TreeViewWidget<T> extends LinesWidget<T> {
  /** The items at the top. */
  #roots: TreeLine<T>[] = [];
  readonly #options: TreeViewOptions<T>;

  constructor(options: TreeViewOptions<T>, handlers: TreeHandlers<T>) {
    super(handlers);
    this.#options = options;
  }

  override get kind(): "tree" {
    return "tree";
  }

  override get lineKind(): string {
    return "tree_item";
  }

  override measure(): Size {
    let width = 0;
    for (const line of this.lines.slice(0, 200)) {
      width = Math.max(width, INDENT * line.depth + 2 + cellWidth(this.lineName(line)));
    }
    const bar = this.scrollable || this.lines.length > NATURAL_ITEMS;
    return {
      width: width + (bar ? 1 : 0),
      height: Math.min(this.lines.length, NATURAL_ITEMS),
    };
  }

  override lineName(line: Line<T>): string {
    const name = this.#options.name;
    return name === undefined ? String(line.item) : name(line.item);
  }

  /** A line for `item` inside `parent`, with its node named and its state shown. */
  #makeLine(item: T, parent: TreeLine<T> | null): TreeLine<T> {
    const tree = this.host.tree;
    const key = this.#options.key?.(item) ?? item;
    const line = new TreeLine<T>(tree.createNode("tree_item"), item, key, parent);
    tree.setName(line.node, this.lineName(line));
    const { children, hasChildren } = this.#options;
    line.expandable = children !== undefined && (hasChildren?.(item) ?? true);
    this.#showState(line);
    return line;
  }

  /** `expanded` or `collapsed` (neither on a leaf), and `busy` while loading. */
  #showState(line: TreeLine<T>): void {
    const tree = this.host.tree;
    tree.setState(line.node, "expanded", line.expandable && line.expanded);
    tree.setState(line.node, "collapsed", line.expandable && !line.expanded);
    tree.setState(line.node, "busy", line.loading);
  }

  /** Shows `items` at the top: items whose key stays keep their line and what is open under it. */
  setItems(items: readonly T[]): void {
    const tree = this.host.tree;
    const old = new Map(this.#roots.map((line) => [line.key, line]));
    const roots: TreeLine<T>[] = [];
    for (const item of items) {
      const key = this.#options.key?.(item) ?? item;
      const kept = old.get(key);
      if (kept !== undefined) {
        old.delete(key);
        kept.item = item;
        tree.setName(kept.node, this.lineName(kept));
        roots.push(kept);
      } else roots.push(this.#makeLine(item, null));
    }
    for (const gone of old.values()) {
      this.#forget(gone);
      tree.remove(gone.node);
    }
    this.#roots = roots;
    tree.setChildren(this.node!, roots.map((line) => line.node));
    this.#flatten();
  }

  /** The lines shown: the items, each expanded one followed by its children, depth first. */
  #flatten(): void {
    const lines: Line<T>[] = [];
    const visit = (line: TreeLine<T>): number => {
      line.index = lines.length;
      lines.push(line);
      let size = 1;
      for (const child of line.children as TreeLine<T>[]) size += visit(child);
      line.size = size;
      return size;
    };
    for (const root of this.#roots) visit(root);
    this.lines = lines;
    this.linesChanged();
  }

  /** Forgets `line` and what is under it (their nodes go with the caller's removal). */
  #forget(line: Line<T>): void {
    for (const child of line.children) this.#forget(child);
    this.lineGone(line);
  }

  /** Expands `line`: its children show, asked for first if they have not been. */
  expand(line: TreeLine<T>): void {
    if (!line.expandable || line.expanded) return;
    line.expanded = true;
    if (line.loaded !== null) {
      this.#showChildren(line);
      return;
    }
    let children: TreeChildren<T>;
    try {
      children = this.#options.children!(line.item);
    } catch (error) {
      line.expanded = false;
      this.#showState(line);
      this.host.reportError(error, "a tree view's children");
      return;
    }
    if (!(children instanceof Promise)) {
      line.loaded = children ?? [];
      this.#showChildren(line);
      return;
    }
    line.loading = true;
    this.#showState(line);
    this.host.markLayoutDirty(this);
    children.then(
      (items) => {
        line.loading = false;
        line.loaded = items ?? [];
        if (!line.node.attached) return; // gone meanwhile
        if (line.expanded) this.#showChildren(line);
        else this.#showState(line);
      },
      (error) => {
        line.loading = false;
        line.expanded = false;
        if (line.node.attached) this.#showState(line);
        this.host.reportError(error, "a tree view's children");
        this.host.rt.requestFrame();
      },
    );
  }

  /** Mounts the lines of `line`'s loaded children under it. */
  #showChildren(line: TreeLine<T>): void {
    const loaded = line.loaded ?? [];
    if (loaded.length === 0) line.expandable = false; // nothing inside: a leaf
    line.children = loaded.map((item) => this.#makeLine(item, line));
    this.host.tree.setChildren(line.node, line.children.map((child) => child.node));
    this.#showState(line);
    this.#flatten();
  }

  /** Collapses `line`: its children's lines and nodes go (their items are kept). */
  collapse(line: TreeLine<T>): void {
    if (!line.expanded) return;
    line.expanded = false;
    const cursor = this.cursor;
    const inside = cursor !== null && isInside(cursor, line);
    const tree = this.host.tree;
    for (const child of line.children) {
      this.#forget(child);
      tree.remove(child.node);
    }
    line.children = [];
    this.#showState(line);
    this.#flatten();
    if (inside) this.select(line, this.host.rt);
  }

  /** Expands a collapsed item, collapses an expanded one. */
  toggle(line: TreeLine<T>): void {
    if (line.expanded) this.collapse(line);
    else this.expand(line);
  }

  override clickLine(line: Line<T>, rt: Rt): void {
    // A person's click on the ▸ or ▾ expands or collapses, as well as selecting.
    const x = this.pointerX;
    const marker = INDENT * line.depth;
    super.clickLine(line, rt);
    if (x >= marker && x < marker + 2) this.toggle(line as TreeLine<T>);
  }

  override activateLine(line: Line<T>, rt: Rt): boolean {
    if (super.activateLine(line, rt)) return true;
    const item = line as TreeLine<T>;
    if (!item.expandable) return false;
    this.toggle(item);
    return true;
  }

  override key(keybind: Keybind, rt: Rt): boolean {
    const plain = !keybind.ctrl && !keybind.alt && !keybind.meta && !keybind.shift;
    const line = this.cursor as TreeLine<T> | null;
    if (plain && line !== null && keybind.key === "ArrowRight") {
      if (line.expandable && !line.expanded) this.expand(line);
      else if (line.children.length > 0) this.select(line.children[0]!, rt);
      return true;
    }
    if (plain && line !== null && keybind.key === "ArrowLeft") {
      if (line.expanded) this.collapse(line);
      else if (line.parent !== null) this.select(line.parent, rt);
      return true;
    }
    return super.key(keybind, rt);
  }

  override paintLine(area: PaintArea, line: Line<T>, y: number, style: StyleName): void {
    const item = line as TreeLine<T>;
    const x = area.x + INDENT * line.depth;
    const marker = !item.expandable ? "  " : item.loading ? "⋯ " : item.expanded ? "▾ " : "▸ ";
    const room = Math.max(0, this.lineWidth - INDENT * line.depth - 2);
    const after = area.surface.write(x, y, marker, style, area.clip);
    area.surface.write(after, y, truncateToWidth(this.lineName(line), room, "…"), style, area.clip);
  }
}

/** True when `line` is inside `ancestor`'s block (not `ancestor` itself). */
function isInside<T>(line: Line<T>, ancestor: Line<T>): boolean {
  for (let above = line.parent; above !== null; above = above.parent) {
    if (above === ancestor) return true;
  }
  return false;
}

/** A tree of items inside items. */
export class TreeViewView<T> extends ItemsView<T> {
  readonly #options: TreeViewOptions<T>;

  /** Apps call `treeView()` instead. */
  constructor(options: TreeViewOptions<T>) {
    super();
    this.#options = options;
  }

  /** Makes the widget. */
  protected build(context: MountContext): Widget {
    const handlers = this.itemHandlers;
    const options = this.#options;
    const tree = mountWidget(
      context,
      new TreeViewWidget<T>(options, handlers),
      "tree",
    );
    tree.setStyle({ scrolls: true }); // a viewport: it fills the room its parent leaves
    followName(context, tree, this.nameProp(options.label));
    context.owner.cleanups.push(() => tree.dropProxies());
    const selection = handlers.selection;
    follow(context, options.items as Prop<readonly T[]>, (items) => {
      if (!Array.isArray(items)) {
        throw new TypeError(`treeView() items must be an array, got ${typeof items}`);
      }
      untracked(() => {
        tree.setItems(items);
        if (selection !== undefined) tree.showSelection(selection.get());
      });
    }, "treeView()");
    if (selection !== undefined) {
      follow(
        context,
        selection,
        (key) => untracked(() => tree.showSelection(key)),
        "a tree view's selection",
      );
    }
    return tree;
  }
}

/**
 * A tree view named `label` of `items`, each expandable when `children` gives it children:
 * called when the item is first expanded, it may return them at once or as a promise (the
 * item is `busy` until they come). An agent expands an item with `press_key` ArrowRight on it
 * (ArrowLeft collapses), selects with `select` on the tree or a `click`.
 *
 * @example Folders whose children load when expanded
 * ```ts
 * import assert from "node:assert/strict";
 * import { component, treeView } from "@crownui/runtime";
 * import { render } from "@crownui/runtime/testing";
 *
 * type Folder = { name: string; folders?: Folder[] };
 * const root: Folder[] = [{ name: "src", folders: [{ name: "ui" }, { name: "text" }] }, { name: "docs" }];
 * await using app = await render(component(() =>
 *   treeView({
 *     label: "Folders",
 *     items: root,
 *     name: (folder: Folder) => folder.name,
 *     children: (folder) => Promise.resolve(folder.folders ?? []),
 *     hasChildren: (folder) => folder.folders !== undefined,
 *   })
 * ));
 * assert.match(app.tree(), /tree_item "src" #\d+ level=1 collapsed/);
 * const src = app.get({ role: "tree_item", name: "src" });
 * await app.act(src.id, { action: "press_key", keybind: "ArrowRight" });
 * await app.settle();
 * assert.match(app.tree(), /tree_item "src" #\d+ level=1 selected expanded\n {3}tree_item "ui" #\d+ level=2/);
 * ```
 */
export function treeView<T>(options: TreeViewOptions<T>): TreeViewView<T> {
  if (typeof options !== "object" || options === null || options.items === undefined) {
    throw new TypeError("treeView() takes { label, items, name?, children?, hasChildren?, key? }");
  }
  return new TreeViewView(options);
}
