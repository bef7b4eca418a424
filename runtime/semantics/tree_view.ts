/**
 * Views of the tree text (`ui_tree {root, depth, from, visible, max_bytes}`): a subtree, cut at
 * a depth, from a child on, only what is on screen, within a budget of bytes. What the budget
 * leaves out becomes one line per cut, without an id and starting with `…`, that says how
 * many nodes it stands for and the exact `ui_tree` arguments that show them:
 *
 * ```
 * window "Bench" #1
 *  list #3
 *   list_item "Row 0" #4
 *   … 999 more items: ui_tree {"root":3,"from":1}
 * ```
 *
 * Cuts are deterministic, so following them lists every node once. The longest lists are
 * cut first: every run of children longer than a cap keeps its first `cap` children, with the
 * largest cap that fits. When not even one child a run fits (very long lines, a tiny budget),
 * the tree is written in reading order as far as it fits, and each node left open gets its
 * line for the rest. Cut lines repeat the caller's `depth`, `visible` and `max_bytes`. A name
 * or value longer than the budget allows (1,000 characters, or an eighth of the budget) is
 * shown as its start and `…(+N chars)`.
 *
 * @module
 */

import type { SemanticNode } from "./node.ts";
import { childPlace, type ScreenPlace, screenPlace } from "./on_screen.ts";
import { isUnder, noNodeMessage } from "./query.ts";
import { longestFor, quoteLongAppText } from "./long_text.ts";
import { formatNodeLine, namingTextChild, treeIndent } from "./tree_text.ts";

/** Which part of the tree to write; every field is optional. */
export interface TreeView {
  /** The id of the node whose subtree to write; the window when absent. */
  root?: number;
  /** How many levels below the root to write; 0 writes the root's line alone. */
  depth?: number;
  /** How many of the root's children to skip, counting all of them. */
  from?: number;
  /** True to write only nodes on screen (the root's line is always written). */
  visible?: boolean;
  /** The budget for the answer in UTF-8 bytes: the text, cut lines included, and `reserve`. */
  maxBytes?: number;
  /**
   * Bytes of the budget the answer spends outside the text (the result's header line): the
   * text gets the rest. Cut lines repeat `maxBytes`, the caller's budget, never what is left.
   */
  reserve?: number;
}

/** The budget of a view that sets none, in bytes. */
export const DEFAULT_TREE_BYTES = 32_768;

/** The largest budget a view may set, in bytes. */
export const MAX_TREE_BYTES = 3_500_000;

/** The argument names of a view, as `ui_tree` takes them. */
export const TREE_VIEW_KEYS: readonly string[] = ["root", "depth", "from", "visible", "max_bytes"];

function wholeNumber(
  args: Record<string, unknown>,
  key: string,
  least: number,
): number | undefined {
  const value = args[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < least) {
    throw new TypeError(
      `invalid arguments: ${key} must be a whole number of at least ${least}, got ${
        JSON.stringify(value)
      }`,
    );
  }
  return value;
}

/**
 * Reads a view from `ui_tree` arguments (`root`, `depth`, `from`, `visible`, `max_bytes`);
 * other keys are left for the caller to judge. Throws a TypeError starting
 * `invalid arguments:` for a bad value.
 */
export function parseTreeView(args: Record<string, unknown>): TreeView {
  const view: TreeView = {};
  const root = wholeNumber(args, "root", 1);
  const depth = wholeNumber(args, "depth", 0);
  const from = wholeNumber(args, "from", 0);
  const maxBytes = wholeNumber(args, "max_bytes", 1);
  if (root !== undefined) view.root = root;
  if (depth !== undefined) view.depth = depth;
  if (from !== undefined) view.from = from;
  if (maxBytes !== undefined) {
    if (maxBytes > MAX_TREE_BYTES) {
      throw new TypeError(
        `invalid arguments: max_bytes must be at most ${MAX_TREE_BYTES}, got ${maxBytes}`,
      );
    }
    view.maxBytes = maxBytes;
  }
  const visible = args.visible;
  if (visible !== undefined && visible !== null) {
    if (typeof visible !== "boolean") {
      throw new TypeError(`invalid arguments: visible must be true or false`);
    }
    if (visible) view.visible = true;
  }
  return view;
}

const encoder = new TextEncoder();
const NOT_ASCII = /[\u0080-\uffff]/;

function utf8Bytes(text: string): number {
  return NOT_ASCII.test(text) ? encoder.encode(text).length : text.length;
}

/**
 * One node of the view. Its line and the children the view shows are worked out when first
 * asked for, so a view of a large tree within a small budget formats only what it weighs.
 */
class Entry {
  readonly node: SemanticNode;
  /** Levels below the view's root. */
  readonly level: number;
  /** Where the node is on screen; null unless the view keeps to what is visible. */
  readonly place: ScreenPlace | null;
  readonly #view: TreeView;
  readonly #quote: (text: string) => string;
  #line: string | undefined;
  #bytes = -1;
  #children: Entry[] | undefined;
  #indices: number[] = [];

  constructor(
    node: SemanticNode,
    level: number,
    place: ScreenPlace | null,
    view: TreeView,
    quote: (text: string) => string,
  ) {
    this.node = node;
    this.level = level;
    this.place = place;
    this.#view = view;
    this.#quote = quote;
  }

  /** The line with its indent, without the newline. */
  get line(): string {
    return this.#line ??= treeIndent(this.level) +
      formatNodeLine(this.node, this.#quote, this.level === 0);
  }

  /** The line's UTF-8 bytes, newline included. */
  get bytes(): number {
    if (this.#bytes < 0) this.#bytes = utf8Bytes(this.line) + 1;
    return this.#bytes;
  }

  /** The children the view shows. */
  get children(): Entry[] {
    return this.#children ??= this.#shownChildren();
  }

  /** For each child shown, its index among all of the node's children. */
  get indices(): number[] {
    void this.children;
    return this.#indices;
  }

  #shownChildren(): Entry[] {
    const view = this.#view;
    const shown: Entry[] = [];
    if (view.depth !== undefined && this.level >= view.depth) return shown;
    const children = this.node.children;
    const skipped = namingTextChild(this.node);
    const start = this.level === 0 ? view.from ?? 0 : 0;
    for (let index = start; index < children.length; index++) {
      const child = children[index]!;
      if (child === skipped) continue;
      let place: ScreenPlace | null = null;
      if (this.place !== null) {
        place = childPlace(this.place, child);
        if (!place.onScreen) continue;
      }
      shown.push(new Entry(child, this.level + 1, place, view, this.#quote));
      this.#indices.push(index);
    }
    return shown;
  }
}

/** The line for the children of `parent` from its `kept`-th shown child on. */
function cutLine(parent: Entry, kept: number, view: TreeView): string {
  const count = parent.children.length - kept;
  const args: Record<string, number | boolean> = {
    root: parent.node.id,
    from: parent.indices[kept]!,
  };
  if (view.depth !== undefined) args.depth = view.depth - parent.level;
  if (view.visible) args.visible = true;
  if (view.maxBytes !== undefined) args.max_bytes = view.maxBytes;
  return `${treeIndent(parent.level + 1)}… ${count} more item${count === 1 ? "" : "s"}: ui_tree ${
    JSON.stringify(args)
  }`;
}

/** The bytes of the view when every run of children keeps at most `cap`; stops past `limit`. */
function sizeWithCap(entry: Entry, cap: number, view: TreeView, limit: number): number {
  let total = entry.bytes;
  const kept = Math.min(cap, entry.children.length);
  for (let index = 0; index < kept && total <= limit; index++) {
    total += sizeWithCap(entry.children[index]!, cap, view, limit - total);
  }
  if (entry.children.length > cap) total += utf8Bytes(cutLine(entry, cap, view)) + 1;
  return total;
}

function writeWithCap(entry: Entry, cap: number, view: TreeView, lines: string[]): void {
  lines.push(entry.line);
  const kept = Math.min(cap, entry.children.length);
  for (let index = 0; index < kept; index++) {
    writeWithCap(entry.children[index]!, cap, view, lines);
  }
  if (entry.children.length > cap) lines.push(cutLine(entry, cap, view));
}

/**
 * Writes in reading order as far as `budget` allows, then one cut line for the rest of each
 * node left open, deepest first. At least the root's line and its first child's are written,
 * so following the cuts always gets further.
 */
function writePrefix(top: Entry, budget: number, view: TreeView): string[] {
  const lines: string[] = [];
  // Each open node with how many of its shown children are written.
  const open: [Entry, number][] = [];
  let used = 0;
  const closing = (): string[] => {
    const cuts: string[] = [];
    for (let index = open.length - 1; index >= 0; index--) {
      const [parent, written] = open[index]!;
      if (written < parent.children.length) cuts.push(cutLine(parent, written, view));
    }
    return cuts;
  };
  const closingBytes = () => closing().reduce((sum, line) => sum + utf8Bytes(line) + 1, 0);
  let next: Entry | undefined = top;
  while (next !== undefined) {
    const entry: Entry = next;
    // Make the node's ancestors the open nodes, and count it as written by its parent.
    while (open.length > entry.level) open.pop();
    if (open.length > 0) open[open.length - 1]![1]++;
    open.push([entry, 0]);
    const fits = used + entry.bytes + closingBytes() <= budget;
    if (!fits && lines.length >= 2) {
      open.pop();
      open[open.length - 1]![1]--;
      break;
    }
    lines.push(entry.line);
    used += entry.bytes;
    next = nextInOrder(open);
  }
  return [...lines, ...closing()];
}

/** The next node in reading order after the last open one, or undefined at the end. */
function nextInOrder(open: readonly [Entry, number][]): Entry | undefined {
  for (let index = open.length - 1; index >= 0; index--) {
    const [parent, written] = open[index]!;
    if (written < parent.children.length) return parent.children[written];
  }
  return undefined;
}

/**
 * Writes the view of the subtree under `root` as tree text, ending with a newline. `root` is
 * the node `view.root` names (the caller looks it up); `view.root` itself is not read.
 */
export function formatTreeView(root: SemanticNode, view: TreeView = {}): string {
  const budget = (view.maxBytes ?? DEFAULT_TREE_BYTES) - (view.reserve ?? 0);
  const longest = longestFor(budget);
  const quote = (text: string) => quoteLongAppText(text, longest);
  const top = new Entry(root, 0, view.visible ? screenPlace(root) : null, view, quote);
  const fits = (cap: number) => sizeWithCap(top, cap, view, budget) <= budget;
  let lines: string[] = [];
  if (fits(Infinity)) {
    writeWithCap(top, Infinity, view, lines);
  } else if (fits(1)) {
    // The largest cap that fits (sizes grow with the cap): double it until it does not fit,
    // then halve the gap. Each try stops once past the budget, so each costs about a budget.
    let fitting = 1;
    let tooBig = 2;
    while (fits(tooBig)) {
      fitting = tooBig;
      tooBig *= 2;
    }
    while (tooBig - fitting > 1) {
      const middle = (fitting + tooBig) >>> 1;
      if (fits(middle)) fitting = middle;
      else tooBig = middle;
    }
    writeWithCap(top, fitting, view, lines);
  } else {
    lines = writePrefix(top, budget, view);
  }
  return lines.join("\n") + "\n";
}

/**
 * Writes the view of the tree under `top` that `view` asks for, looking up `view.root` with
 * `lookup`. An id that names no node under `top` throws a RangeError with the contract's
 * message (`no node with id N; read ui_tree again`).
 */
export function treeViewText(
  top: SemanticNode,
  view: TreeView,
  lookup: (id: number) => SemanticNode | undefined,
): string {
  let root = top;
  if (view.root !== undefined) {
    const found = lookup(view.root);
    if (found === undefined || !found.attached || !isUnder(found, top)) {
      throw new RangeError(noNodeMessage(view.root));
    }
    root = found;
  }
  return formatTreeView(root, view);
}
