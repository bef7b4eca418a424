/**
 * The inspect snapshot: the semantic tree, every node's place on screen, the live signals and
 * the recent frame timings, as JSON-ready data. Secret values appear nowhere in it.
 *
 * @module
 */

import type { SignalNode } from "../reactive/mod.ts";
import { layoutEntries, type LayoutEntry, type TreeJson, treeToJson } from "../semantics/mod.ts";
import type { App, FrameTiming } from "./app.ts";

/** One live signal as inspection shows it. */
export interface SignalSnapshot {
  /** Unique among the app's signals; never reused. */
  id: number;
  /** The name given in the signal's options; null when it has none. */
  name: string | null;
  /** A JSON-safe preview of the value; absent for secret signals. */
  value?: unknown;
  /** True when the signal was declared secret (`cx.secret()`); its value is then never shown. */
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

/** Takes an app's inspect snapshot. */
export function inspectSnapshot(app: App): InspectSnapshot {
  return {
    revision: app.tree.revision,
    tree: treeToJson(app.tree.root),
    layout: layoutEntries(app.tree.root),
    signals: [...app.runtime.signals].map(signalSnapshot),
    frames: [...app.frames],
  };
}
