/**
 * What changed since a revision: `TreeHistory` keeps a tree mirror and, for each update it
 * applies, a small record of what the update added, removed and changed (a changed node's
 * role, name, value and states as they were before). From those records it writes the net
 * change text between any kept revision and now, in tree-line form:
 *
 * ```
 * - #12
 * + dialog "Settings" #40 in #1
 *    button "Close" #41
 * + text "Unsaved" #42
 * ~ button "Save" #9 disabled
 * ```
 *
 * (a `+` line without `in` has the parent of the `+` line above it: `#42` is in `#1` too.)
 *
 * Net means: a node added and removed again since the revision gives no line; a node changed
 * twice gives one line, and none when it shows what it showed then; a frame that moved nodes
 * only (bounds) gives none. Nodes that only came into view or went out of it (the `offscreen`
 * state) get no line, their parent one (its line says which children are offscreen), and a
 * node that only lost the focus gets no line when another one gained it (that one's line says
 * where the focus went). A receipt (`acted`, the node an action was done on) also leaves out
 * the focus that action gave the node: no line for it when that is all that changed, and none
 * for the node that lost the focus to it (or to it and then nothing, when it is gone).
 *
 * The history runs on the thread that owns the mirror (the server worker), so the UI thread
 * pays nothing for it. It keeps every revision of the last 5 minutes or the last 256,
 * whichever are more, within a byte budget and a cap on the number of revisions (see
 * {@link HistoryLimits}).
 *
 * @module
 */

import { type MirrorChanges, type NodeContent, TreeMirror } from "./mirror.ts";
import { type SemanticNode, STATE_BIT } from "./node.ts";
import type { TreeUpdate } from "./tree.ts";
import { LONGEST_APP_TEXT, quoteLongAppText } from "./long_text.ts";
import { formatNodeLine, namingTextChild, treeIndent } from "./tree_text.ts";

/** How much history a {@link TreeHistory} keeps. */
export interface HistoryLimits {
  /** The last this many revisions are always kept (unless `maxBytes` is exceeded). */
  minRevisions: number;
  /** Revisions younger than this, in ms, are kept too (unless a cap below is exceeded). */
  minAgeMs: number;
  /** The estimated size of all records together stays under this many bytes. */
  maxBytes: number;
  /** At most this many revisions are kept, however young. */
  maxRevisions: number;
}

/** The limits the servers use: 256 revisions or 5 minutes, within 8 MiB and 20,000 revisions. */
export const HISTORY_LIMITS: Readonly<HistoryLimits> = Object.freeze({
  minRevisions: 256,
  minAgeMs: 5 * 60_000,
  maxBytes: 8 * 1024 * 1024,
  maxRevisions: 20_000,
});

/** The byte budget of the change text that `ui_tree {"since"}` answers by default. */
export const DEFAULT_CHANGES_BYTES = 32_768;

/** The smallest budget `ui_tree {"since"}` takes. */
export const MIN_CHANGES_BYTES = 256;

/** The largest budget `ui_tree {"since"}` takes, as for the tree's views. */
export const MAX_CHANGES_BYTES = 3_500_000;

/** The byte budget of a `ui_act` receipt: its change text and what the answer adds. */
export const RECEIPT_BYTES = 2048;

/** The longest name or value a receipt shows whole, in characters; longer ones are cut. */
export const RECEIPT_LONGEST_TEXT = 256;

interface RevisionRecord {
  revision: number;
  at: number;
  added: number[];
  removed: number[];
  removedParents: number[];
  before: NodeContent[];
  bytes: number;
}

// Rough sizes for the byte budget: a number in an array, an object with its fields, and a
// string's header (its characters count two bytes each on top).
const NUMBER_BYTES = 8;
const RECORD_BYTES = 96;
const CONTENT_BYTES = 64;
const STRING_BYTES = 16;

function recordBytes(changes: MirrorChanges): number {
  let bytes = RECORD_BYTES +
    NUMBER_BYTES * (changes.added.length + 2 * changes.removed.length);
  for (const content of changes.before) {
    bytes += CONTENT_BYTES;
    if (content.name !== undefined) bytes += STRING_BYTES + 2 * content.name.length;
    if (content.value !== undefined) bytes += STRING_BYTES + 2 * content.value.length;
    if (content.description !== undefined) {
      bytes += STRING_BYTES + 2 * content.description.length;
    }
  }
  return bytes;
}

const encoder = new TextEncoder();

/** The UTF-8 length of `text`. */
function byteLength(text: string): number {
  return encoder.encode(text).length;
}

/** The UTF-8 length of `lines` written one a line. */
function textBytes(lines: readonly string[]): number {
  let total = 0;
  for (const line of lines) total += byteLength(line) + 1;
  return total;
}

/**
 * Cuts `lines` to whole lines that fit in `maxBytes` with a last line that says how many were
 * left out and how to read them: `… 12 more lines: <how>`. Returns the text, each line ending
 * in a newline.
 */
export function capLines(lines: readonly string[], maxBytes: number, how: string): string {
  if (textBytes(lines) <= maxBytes) return lines.length === 0 ? "" : lines.join("\n") + "\n";
  const kept: string[] = [];
  let used = 0;
  for (let index = 0; index < lines.length; index++) {
    const size = byteLength(lines[index]!) + 1;
    const tail = byteLength(`… ${lines.length - index - 1} more lines: ${how}`) + 1;
    if (used + size + tail > maxBytes) break;
    kept.push(lines[index]!);
    used += size;
  }
  kept.push(`… ${lines.length - kept.length} more lines: ${how}`);
  return kept.join("\n") + "\n";
}

/** A tree mirror with the history of its last revisions. */
export class TreeHistory {
  /** The mirror the history follows; apply updates through {@link TreeHistory.apply}. */
  readonly mirror: TreeMirror = new TreeMirror();
  readonly #limits: HistoryLimits;
  readonly #now: () => number;
  #records: RevisionRecord[] = [];
  #head = 0;
  #bytes = 0;
  #base = 0;

  /**
   * @param limits how much history to keep; {@link HISTORY_LIMITS} by default
   * @param now the clock, in ms (tests pass their own)
   */
  constructor(limits: Partial<HistoryLimits> = {}, now: () => number = Date.now) {
    this.#limits = { ...HISTORY_LIMITS, ...limits };
    this.#now = now;
  }

  /** The revision of the last update applied. */
  get revision(): number {
    return this.mirror.revision;
  }

  /** The oldest revision that changes can be given since. */
  get oldest(): number {
    return this.#base;
  }

  /** How many revisions are kept, and their estimated size in bytes. */
  get kept(): { revisions: number; bytes: number } {
    return { revisions: this.#records.length - this.#head, bytes: this.#bytes };
  }

  /**
   * Applies an update to the mirror and records what it changed. The first update (the
   * whole tree) starts the history: changes can be given since its revision.
   */
  apply(update: TreeUpdate): MirrorChanges {
    const ready = this.mirror.ready;
    const changes = this.mirror.apply(update);
    if (!ready) {
      this.#base = update.revision;
      return changes;
    }
    const record: RevisionRecord = {
      revision: update.revision,
      at: this.#now(),
      added: changes.added,
      removed: changes.removed,
      removedParents: changes.removedParents,
      before: changes.before,
      bytes: recordBytes(changes),
    };
    this.#records.push(record);
    this.#bytes += record.bytes;
    this.#prune();
    return changes;
  }

  #prune(): void {
    const { minRevisions, minAgeMs, maxBytes, maxRevisions } = this.#limits;
    const oldEnough = this.#now() - minAgeMs;
    while (this.#records.length - this.#head > 1) {
      const count = this.#records.length - this.#head;
      const oldest = this.#records[this.#head]!;
      const expired = count > minRevisions && oldest.at < oldEnough;
      if (!expired && this.#bytes <= maxBytes && count <= maxRevisions) break;
      this.#bytes -= oldest.bytes;
      this.#base = oldest.revision;
      this.#head++;
    }
    if (this.#head > 1024 && this.#head * 2 > this.#records.length) {
      this.#records = this.#records.slice(this.#head);
      this.#head = 0;
    }
  }

  /** The index of the first record after `since`. */
  #firstAfter(since: number): number {
    let low = this.#head;
    let high = this.#records.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.#records[middle]!.revision <= since) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /**
   * The net changes from revision `since` to now as lines, or null when `since` is older
   * than the history keeps. Names and values longer than `longest` characters are shown as
   * their start and `…(+N chars)`. `acted`, for a receipt, is the node the action focused
   * when it takes focus: the focus moving to it gives no line. Throws a RangeError when
   * `since` is after the current revision.
   */
  changeLines(
    since: number,
    longest: number = LONGEST_APP_TEXT,
    acted?: number,
  ): string[] | null {
    if (since > this.mirror.revision) {
      throw new RangeError(
        `invalid arguments: since ${since} is after the current revision ${this.mirror.revision}`,
      );
    }
    if (since < this.#base || !this.mirror.ready) return null;
    const added = new Set<number>();
    const removedParent = new Map<number, number>();
    const before = new Map<number, NodeContent>();
    for (let index = this.#firstAfter(since); index < this.#records.length; index++) {
      const record = this.#records[index]!;
      for (const id of record.added) added.add(id);
      for (let at = 0; at < record.removed.length; at++) {
        const id = record.removed[at]!;
        if (!added.has(id) && !removedParent.has(id)) {
          removedParent.set(id, record.removedParents[at]!);
        }
      }
      for (const content of record.before) {
        if (!added.has(content.id) && !before.has(content.id)) before.set(content.id, content);
      }
    }
    const lines: string[] = [];
    const removedRoots = [...removedParent].filter(([, parent]) => !removedParent.has(parent))
      .map(([id]) => id).sort((a, b) => a - b);
    for (const id of removedRoots) lines.push(`- #${id}`);
    if (added.size > 0 || before.size > 0) {
      const quote = (text: string) => quoteLongAppText(text, longest);
      this.#walkChanges(added, before, lines, quote, acted);
    }
    return lines;
  }

  /** Adds the `+` and `~` lines in tree order. */
  #walkChanges(
    added: Set<number>,
    before: Map<number, NodeContent>,
    lines: string[],
    quote: (text: string) => string,
    acted: number | undefined,
  ): void {
    const offscreen = STATE_BIT.offscreen;
    const focused = STATE_BIT.focused;
    // A node that only came into view or went out of it gets no line: its parent's line says
    // which of its children are offscreen, so the parent gets one instead (a scroll of a list
    // is one line, the list's, with the rows now out of view).
    const viewChanged = new Set<number>();
    for (const [id, old] of before) {
      const node = this.mirror.get(id);
      if (node?.parent && ((old.states ^ node.states) & offscreen) !== 0) {
        viewChanged.add(node.parent.id);
      }
    }
    // A node that only lost the focus gets no line when another node gained it: the focus is
    // on one node at a time, so that node's line says where it went. The node acted on took
    // it (the receipt's caller knows which node that is), even when it is gone since.
    let focusGained = acted !== undefined && this.mirror.get(acted) === undefined;
    const onlyLostFocus: number[] = [];
    // A `+` line right after another one's block, under the same parent, leaves out `in #P`.
    let lastAddedParent: SemanticNode | null = null;
    const stack: SemanticNode[] = [this.mirror.root];
    while (stack.length > 0) {
      const node = stack.pop()!;
      if (added.has(node.id)) {
        const parent = node.parent === null || node.parent === lastAddedParent
          ? ""
          : ` in #${node.parent.id}`;
        lastAddedParent = node.parent;
        lines.push(`+ ${formatNodeLine(node, quote)}${parent}`);
        if (addedDescendants(node, quote, lines)) focusGained = true;
        continue;
      }
      const old = before.get(node.id);
      const sameContent = old === undefined ||
        (old.role === node.role && old.name === node.name && old.value === node.value &&
          old.description === node.description);
      const changedStates = old === undefined ? 0 : (old.states ^ node.states) & ~offscreen;
      const inView = viewChanged.has(node.id);
      if (!sameContent || changedStates !== 0 || inView) {
        if (changedStates & node.states & focused) focusGained = true;
        const onlyFocus = sameContent && !inView && changedStates === focused;
        const hasFocus = (node.states & focused) !== 0;
        if (!onlyFocus || !hasFocus || node.id !== acted) {
          if (onlyFocus && !hasFocus) onlyLostFocus.push(lines.length);
          lines.push(`~ ${formatNodeLine(node, quote)}`);
          lastAddedParent = null;
        }
      }
      for (let index = node.children.length - 1; index >= 0; index--) {
        stack.push(node.children[index]!);
      }
    }
    if (focusGained && onlyLostFocus.length > 0) {
      const drop = new Set(onlyLostFocus);
      const kept = lines.filter((_, index) => !drop.has(index));
      lines.length = 0;
      lines.push(...kept);
    }
  }
}

/**
 * Adds the lines of an added node's descendants, indented under its `+` line as in the tree
 * text (a row's naming text left out). True when the node or one of them has the focus.
 */
function addedDescendants(
  top: SemanticNode,
  quote: (text: string) => string,
  lines: string[],
): boolean {
  let focus = (top.states & STATE_BIT.focused) !== 0;
  const stack: [SemanticNode, number][] = [];
  const pushChildren = (node: SemanticNode, depth: number) => {
    const skipped = namingTextChild(node);
    for (let index = node.children.length - 1; index >= 0; index--) {
      const child = node.children[index]!;
      if (child !== skipped) stack.push([child, depth + 1]);
    }
  };
  pushChildren(top, 0);
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node.states & STATE_BIT.focused) focus = true;
    lines.push(`  ${treeIndent(depth)}${formatNodeLine(node, quote, false)}`);
    pushChildren(node, depth);
  }
  return focus;
}

/** What `ui_tree {"since": R}` answers when R is kept: the change text since R. */
export interface ChangesAnswer {
  /** The current revision. */
  revision: number;
  /** The revision the changes are counted from. */
  since: number;
  /** The change text, one line per change, each ending in a newline; empty when none. */
  changes: string;
}

/**
 * The answer to `ui_tree {"since": since}`: the change text within `maxBytes` less `reserve`
 * (what the answer spends around the text, its header line), a last line saying how to read
 * the rest; or null when `since` is no longer kept (the caller then answers with the whole
 * tree). Throws a RangeError when `since` is after the current revision.
 */
export function changesAnswer(
  history: TreeHistory,
  since: number,
  maxBytes: number = DEFAULT_CHANGES_BYTES,
  reserve = 0,
): ChangesAnswer | null {
  const lines = history.changeLines(since);
  if (lines === null) return null;
  return {
    revision: history.revision,
    since,
    changes: capLines(lines, maxBytes - reserve, readAllOf(lines, since, reserve)),
  };
}

/**
 * The call that reads all of `lines`, the change text since `since` as `ui_tree` gives it,
 * in an answer that spends `reserve` bytes around the text.
 */
function readAllOf(lines: readonly string[], since: number, reserve: number): string {
  const full = textBytes(lines) + reserve;
  // Past the largest budget a diff is no cheaper than the tree: point at the tree's views.
  return full <= MAX_CHANGES_BYTES
    ? `ui_tree {"since":${since},"max_bytes":${Math.max(full, MIN_CHANGES_BYTES)}}`
    : `ui_tree {"max_bytes":${MAX_CHANGES_BYTES}} (the changes are larger than the tree's budget)`;
}

/**
 * The change text of an action's receipt: what changed from `since` (the revision the action
 * was made at) to now, within {@link RECEIPT_BYTES} less `reserve` (what the receipt and
 * `ui_tree {"since"}` spend around the text); undefined when nothing changed or the revision
 * is no longer kept. `acted` is the node the action focused when it takes focus (see
 * {@link TreeHistory.changeLines}).
 */
export function receiptText(
  history: TreeHistory,
  since: number,
  reserve = 0,
  acted?: number,
): string | undefined {
  if (since > history.revision) return undefined;
  const lines = history.changeLines(since, RECEIPT_LONGEST_TEXT, acted);
  if (lines === null || lines.length === 0) return undefined;
  const budget = RECEIPT_BYTES - reserve;
  if (textBytes(lines) <= budget) return lines.join("\n") + "\n";
  // Cut: point at the whole change text as `ui_tree {"since"}` gives it (it cuts long
  // strings later than a receipt does), with a budget that holds all of it.
  const all = history.changeLines(since) ?? lines;
  return capLines(lines, budget, readAllOf(all, since, reserve));
}
