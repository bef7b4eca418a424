/**
 * `inspect_snapshot` within a budget. Its arguments pick sections (`tree`, `layout`,
 * `signals`, `frames`), a subtree (`root`, for the tree and the layout), where the lists
 * start (`from`) and the budget (`max_bytes`, default 32,768). Over budget the answer is cut
 * deterministically: the tree is kept whole or left out, and the lists (layout, signals,
 * frames) keep their first N entries, with the largest N that fits. Each cut adds a line to
 * `cut` that says what was left out and the exact arguments that show it:
 *
 * ```
 * … 980 more layout entries: inspect_snapshot {"sections":["layout"],"from":20}
 * ```
 *
 * The resource `inspect://snapshot` is the answer without arguments, cut the same way.
 *
 * @module
 */

import {
  INSPECT_SECTIONS,
  type InspectParts,
  type InspectSection,
  type PartialSnapshot,
} from "../../app/inspect.ts";
import { DEFAULT_TREE_BYTES, escapeUnsafeCharacters, MAX_TREE_BYTES } from "../../semantics/mod.ts";
import { HostError, type SemanticHost } from "../hosts/host.ts";

/** The arguments `inspect_snapshot` takes. */
export const INSPECT_KEYS: readonly string[] = ["sections", "root", "from", "max_bytes"];

/** The smallest budget `inspect_snapshot` takes: room for the revision and every cut line. */
export const MIN_INSPECT_BYTES = 1024;

/** The sections that are lists, cut to their first entries. */
const LISTS = ["layout", "signals", "frames", "keybinds"] as const;
type ListSection = typeof LISTS[number];

/** What `inspect_snapshot` was asked for. */
export interface InspectRequest extends InspectParts {
  /** The sections, in snapshot order. */
  sections: readonly InspectSection[];
  /** How many entries of each list to skip. */
  from?: number | undefined;
  /** The budget the caller gave; the default applies when absent. */
  maxBytes?: number | undefined;
}

/** A snapshot within its budget: the sections kept and, when anything was cut, what. */
export type BudgetedSnapshot = PartialSnapshot & { cut?: string[] };

function invalid(message: string): HostError {
  return new HostError("invalid", `invalid arguments: ${message}`);
}

function whole(args: Record<string, unknown>, key: string, least: number, most: number) {
  const value = args[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < least || value > most) {
    throw invalid(
      `${key} must be a whole number from ${least} to ${most}, got ${JSON.stringify(value)}`,
    );
  }
  return value;
}

/** Reads `inspect_snapshot`'s arguments; throws HostError (`invalid arguments: ...`). */
export function inspectArguments(args: Record<string, unknown>): InspectRequest {
  const unknown = Object.keys(args).filter((key) => !INSPECT_KEYS.includes(key));
  if (unknown.length > 0) {
    throw invalid(
      `inspect_snapshot takes sections, root, from and max_bytes, got ${unknown.join(", ")}`,
    );
  }
  let sections: readonly InspectSection[] = INSPECT_SECTIONS;
  if (args.sections !== undefined && args.sections !== null) {
    const asked = args.sections;
    const known = (value: unknown): value is InspectSection =>
      (INSPECT_SECTIONS as readonly unknown[]).includes(value);
    if (!Array.isArray(asked) || asked.length === 0 || !asked.every(known)) {
      throw invalid(`sections must be a list of some of ${INSPECT_SECTIONS.join(", ")}`);
    }
    sections = INSPECT_SECTIONS.filter((section) => asked.includes(section));
  }
  return {
    sections,
    root: whole(args, "root", 1, Number.MAX_SAFE_INTEGER),
    from: whole(args, "from", 0, Number.MAX_SAFE_INTEGER),
    maxBytes: whole(args, "max_bytes", MIN_INSPECT_BYTES, MAX_TREE_BYTES),
  };
}

const encoder = new TextEncoder();
const NOT_ASCII = /[\u0080-\uffff]/;

/** The bytes of `value`'s JSON as a marked answer writes it (see `appJson`). */
function jsonBytes(value: unknown): number {
  const json = escapeUnsafeCharacters(JSON.stringify(value));
  return NOT_ASCII.test(json) ? encoder.encode(json).length : json.length;
}

/** The arguments that show `sections` as `request` asked, from list entry `from` on. */
function showing(request: InspectRequest, section: InspectSection, from?: number): string {
  const args: Record<string, unknown> = { sections: [section] };
  if (request.root !== undefined && (section === "tree" || section === "layout")) {
    args.root = request.root;
  }
  if (from !== undefined && from > 0) args.from = from;
  if (request.maxBytes !== undefined) args.max_bytes = request.maxBytes;
  return `inspect_snapshot ${JSON.stringify(args)}`;
}

const ENTRY_NAMES: Record<ListSection, string> = {
  layout: "layout entries",
  signals: "signals",
  frames: "frames",
  keybinds: "keybinds",
};

/**
 * Cuts `snapshot` to `request`'s budget (after skipping `from` entries of each list). The
 * answer's JSON is at most the budget less `reserve` (what the result spends around the
 * JSON, its header line) in UTF-8 bytes; `cut` lists each part left out with the call that
 * shows it.
 */
export function budgetSnapshot(
  snapshot: PartialSnapshot,
  request: InspectRequest,
  reserve = 0,
): BudgetedSnapshot {
  const budget = (request.maxBytes ?? DEFAULT_TREE_BYTES) - reserve;
  const skip = request.from ?? 0;
  // Each list with the bytes of its first k entries and their commas, for every k.
  const lists = new Map<ListSection, { entries: unknown[]; upTo: number[] }>();
  for (const section of LISTS) {
    const entries = snapshot[section];
    if (entries === undefined) continue;
    const kept = (entries as unknown[]).slice(skip);
    const upTo = [0];
    for (let index = 0; index < kept.length; index++) {
      upTo.push(upTo[index]! + jsonBytes(kept[index]) + (index > 0 ? 1 : 0));
    }
    lists.set(section, { entries: kept, upTo });
  }
  const longest = Math.max(0, ...[...lists.values()].map((list) => list.entries.length));
  // Measured once: a large tree's JSON is most of the work.
  const treeBytes = snapshot.tree === undefined ? 0 : jsonBytes(snapshot.tree);
  // The budget an answer of the tree alone needs.
  const alone = jsonBytes({ revision: snapshot.revision, tree: null }) - 4 + treeBytes + reserve;

  /**
   * The answer when each list keeps at most `cap` entries and the tree is kept or not, with
   * its size; the lists are filled in only when `fill` is set (the last build).
   */
  const build = (
    cap: number,
    withTree: boolean,
    fill = false,
  ): { answer: BudgetedSnapshot; bytes: number } => {
    const answer: BudgetedSnapshot = { revision: snapshot.revision };
    const cut: string[] = [];
    let entryBytes = 0;
    if (snapshot.tree !== undefined) {
      if (withTree) answer.tree = snapshot.tree;
      else {
        cut.push(
          alone <= MAX_TREE_BYTES
            ? `… the tree (${alone} bytes): ${
              showing({ ...request, maxBytes: Math.max(alone, MIN_INSPECT_BYTES) }, "tree")
            }`
            : `… the tree (${alone} bytes, more than any budget): a subtree with ${
              showing(request, "tree")
            } and "root", or ui_tree`,
        );
      }
    }
    for (const [section, list] of lists) {
      const kept = Math.min(cap, list.entries.length);
      Object.assign(answer, { [section]: [] });
      entryBytes += list.upTo[kept]!;
      const left = list.entries.length - kept;
      if (left > 0) {
        cut.push(
          `… ${left} more ${ENTRY_NAMES[section]}: ${showing(request, section, skip + kept)}`,
        );
      }
    }
    if (cut.length > 0) answer.cut = cut;
    const skeleton = withTree
      ? jsonBytes({ ...answer, tree: null }) - 4 + treeBytes
      : jsonBytes(answer);
    if (fill) {
      for (const [section, list] of lists) {
        (answer as Record<string, unknown>)[section] = list.entries.slice(0, cap);
      }
    }
    return { answer, bytes: skeleton + entryBytes };
  };

  if (build(longest, snapshot.tree !== undefined).bytes <= budget) {
    return build(longest, snapshot.tree !== undefined, true).answer;
  }
  const withTree = snapshot.tree !== undefined && build(0, true).bytes <= budget;
  // The largest cap that fits: sizes grow with the cap.
  let fitting = 0;
  let tooBig = longest;
  while (tooBig - fitting > 1) {
    const middle = (fitting + tooBig) >>> 1;
    if (build(middle, withTree).bytes <= budget) fitting = middle;
    else tooBig = middle;
  }
  if (build(tooBig, withTree).bytes <= budget) fitting = tooBig;
  return build(fitting, withTree, true).answer;
}

/**
 * Answers `inspect_snapshot` (and reads `inspect://snapshot`, with no arguments), `reserve`
 * bytes of the budget left for what the result adds around the snapshot's JSON.
 */
export function answerInspect(
  host: SemanticHost,
  args: Record<string, unknown>,
  reserve = 0,
): Promise<BudgetedSnapshot> {
  return answerInspectRequest(host, inspectArguments(args), reserve);
}

/** Answers `inspect_snapshot` with the arguments `inspectArguments()` read. */
export async function answerInspectRequest(
  host: SemanticHost,
  request: InspectRequest,
  reserve = 0,
): Promise<BudgetedSnapshot> {
  const snapshot = await host.inspect({ sections: request.sections, root: request.root });
  return budgetSnapshot(snapshot, request, reserve);
}
