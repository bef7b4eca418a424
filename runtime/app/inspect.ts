/**
 * The inspect snapshot: the semantic tree, every node's place on screen, the live signals and
 * the recent frame timings, as JSON-ready data. Secret values appear nowhere in it.
 *
 * Asked for some of its sections (`inspectParts`), it builds only those: the tree and layout
 * from any copy of the semantic tree (the server worker's mirror, say), the signals and
 * frames from the app on its own thread.
 *
 * @module
 */

import type { SignalNode } from "../reactive/mod.ts";
import {
  absoluteBounds,
  isUnder,
  layoutEntries,
  type LayoutEntry,
  noNodeMessage,
  type SemanticNode,
  type TreeJson,
  treeToJson,
} from "../semantics/mod.ts";
import type { App, FrameTiming } from "./app.ts";
import type { KeybindInfo } from "../ui/keybinds.ts";

/** One live signal as inspection shows it. */
export interface SignalSnapshot {
  /** Unique among the app's signals; never reused. */
  id: number;
  /** The name given in the signal's options; null when it has none. */
  name: string | null;
  /** A JSON-safe preview of the value; absent for secret signals. */
  value?: unknown;
  /**
   * True when the signal is secret: declared so (`cx.secret()`), or secret-derived (a binding,
   * memo or effect that read a secret changed it). Its value is then never shown.
   */
  secret: boolean;
  /** How many bindings, memos and effects follow it now. */
  observers: number;
}

/** What `inspect_snapshot` returns. */
export interface InspectSnapshot {
  /** The revision the tree is at. */
  revision: number;
  /** The semantic tree as nested JSON, as `ui://tree.json` gives it. */
  tree: TreeJson;
  /** Every node's place on screen, in window cells, in tree order. */
  layout: LayoutEntry[];
  /** The live signals, with their values unless secret. */
  signals: SignalSnapshot[];
  /**
   * The timings of the recent frames, oldest first. Frames caused by typing into a secure node
   * are not among them (see `App.frames`), so a secret's keystrokes cannot be timed.
   */
  frames: FrameTiming[];
  /**
   * The app's keybindings (`cx.keybind()`), oldest first: each key as `press_key` takes it,
   * what it does, and whether it applies now (false while a dialog it is not in is open).
   */
  keybinds: KeybindInfo[];
}

/** The longest preview of a signal's value, in characters of JSON. */
export const PREVIEW_LIMIT = 200;

/** A JSON-safe, bounded preview of a value. */
export function previewValue(value: unknown): unknown {
  if (value === undefined) return null;
  if (typeof value === "function") return "[function]";
  if (typeof value === "bigint") return value.toString();
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    return `[${value?.constructor?.name ?? typeof value} that is not JSON]`;
  }
  if (json === undefined) return String(value);
  if (json.length <= PREVIEW_LIMIT) return JSON.parse(json);
  return json.slice(0, PREVIEW_LIMIT) + "…";
}

function signalSnapshot(signal: SignalNode<unknown>): SignalSnapshot {
  const snapshot: SignalSnapshot = {
    id: signal.id,
    name: signal.name ?? null,
    secret: signal.secret,
    observers: signal.observers.size,
  };
  if (!signal.secret) snapshot.value = previewValue(signal.value);
  return snapshot;
}

/** The sections of a snapshot, in the order it lists them. */
export const INSPECT_SECTIONS = ["tree", "layout", "signals", "frames", "keybinds"] as const;

/** One section of a snapshot. */
export type InspectSection = typeof INSPECT_SECTIONS[number];

/** A snapshot with some of its sections: the revision and those asked for, in order. */
export type PartialSnapshot =
  & Pick<InspectSnapshot, "revision">
  & Partial<Omit<InspectSnapshot, "revision">>;

/** Which parts of a snapshot to take. */
export interface InspectParts {
  /** The sections to take; all of them when absent. */
  sections?: readonly InspectSection[] | undefined;
  /** The id of the node whose subtree the tree and layout cover; the window when absent. */
  root?: number | undefined;
}

/**
 * The tree and layout sections (those of `sections` asked for) of the subtree under `root`,
 * or under `top` when `root` is absent; the layout in window cells either way. Throws a
 * RangeError with the contract's message when `root` names no node under `top`.
 */
export function treeSections(
  top: SemanticNode,
  parts: InspectParts,
  lookup: (id: number) => SemanticNode | undefined,
): Pick<PartialSnapshot, "tree" | "layout"> {
  let root = top;
  if (parts.root !== undefined) {
    const found = lookup(parts.root);
    if (found === undefined || !found.attached || !isUnder(found, top)) {
      throw new RangeError(noNodeMessage(parts.root));
    }
    root = found;
  }
  const sections = parts.sections ?? INSPECT_SECTIONS;
  const answer: Pick<PartialSnapshot, "tree" | "layout"> = {};
  if (sections.includes("tree")) answer.tree = treeToJson(root);
  if (sections.includes("layout")) {
    const layout = layoutEntries(root);
    if (root.parent !== null) {
      // layoutEntries() counts from the subtree's parent: move to window cells.
      const { x, y } = absoluteBounds(root.parent);
      for (const entry of layout) {
        entry.x += x;
        entry.y += y;
      }
    }
    answer.layout = layout;
  }
  return answer;
}

/** The sections of a snapshot in their order, after the revision. */
export function orderedSnapshot(
  revision: number,
  sections: Partial<InspectSnapshot>,
): PartialSnapshot {
  const snapshot: PartialSnapshot = { revision };
  for (const section of INSPECT_SECTIONS) {
    if (sections[section] !== undefined) Object.assign(snapshot, { [section]: sections[section] });
  }
  return snapshot;
}

/**
 * Takes the parts of an app's inspect snapshot that `parts` asks for, and nothing else: a
 * snapshot of the signals alone walks no tree. Throws a RangeError for an unknown `root`.
 */
export function inspectParts(app: App, parts: InspectParts = {}): PartialSnapshot {
  const sections = parts.sections ?? INSPECT_SECTIONS;
  const taken: Partial<InspectSnapshot> = treeSections(
    app.tree.root,
    parts,
    (id) => app.tree.get(id),
  );
  if (sections.includes("signals")) taken.signals = [...app.runtime.signals].map(signalSnapshot);
  if (sections.includes("frames")) taken.frames = [...app.frames];
  if (sections.includes("keybinds")) taken.keybinds = app.keybinds;
  return orderedSnapshot(app.tree.revision, taken);
}

/** Takes an app's whole inspect snapshot. */
export function inspectSnapshot(app: App): InspectSnapshot {
  return inspectParts(app) as InspectSnapshot;
}
