/**
 * A binding that threw shows that it failed rather than a stale value: the node of the widget
 * it feeds gets the state `invalid` and, as its description, what failed (`a label binding
 * failed: disk full`), until the binding runs again without throwing; a text or label it fed
 * shows `⚠ error`. The widget a binding feeds is the one whose view was being mounted when the
 * binding was made (`WidgetView.mount()` brackets its build with `mountingView()`), so every
 * binding of a built-in widget is covered without each saying whose it is.
 *
 * A widget's own `.invalid()` and `.description()` share the node's state and description with
 * these failures (`setNotes()`): a failure comes first while it lasts, then theirs come back.
 *
 * @module
 */

import type { SemanticNode, SemanticTree } from "../semantics/mod.ts";
import type { Widget } from "./widget.ts";

/** What a text or a label shows while the binding that feeds it fails. */
export const FAILED_TEXT = "⚠ error";

/** The longest message a failure's description keeps, in characters. */
const MESSAGE_LIMIT = 200;

/** A view being mounted: the widget it made, once `mountWidget()` made it. */
export interface MountTarget {
  /** The view's widget; null until it is made. */
  widget: Widget | null;
}

/** The views being mounted, innermost last. */
const mounting: MountTarget[] = [];

/** Runs `mount` (a view's mount) as the innermost view being mounted. */
export function mountingView<T>(mount: () => T): T {
  mounting.push({ widget: null });
  try {
    return mount();
  } finally {
    mounting.pop();
  }
}

/** `widget` is the innermost view's widget, unless that view made one already. */
export function claimMounted(widget: Widget): void {
  const target = mounting.at(-1);
  if (target !== undefined && target.widget === null) target.widget = widget;
}

/** The view being mounted now, whose widget a binding made now feeds; null outside a mount. */
export function mountTarget(): MountTarget | null {
  return mounting.at(-1) ?? null;
}

/** A node's invalid message and description, from its widget's notes and from failures. */
interface NodeNotes {
  invalid: string | null;
  description: string | undefined;
  /** The failing bindings, each with its description, oldest first. */
  failures: Map<object, string>;
}

const notesByNode = new WeakMap<SemanticNode, NodeNotes>();

function notesOf(node: SemanticNode): NodeNotes {
  let notes = notesByNode.get(node);
  if (notes === undefined) {
    notes = { invalid: null, description: undefined, failures: new Map() };
    notesByNode.set(node, notes);
  }
  return notes;
}

function write(tree: SemanticTree, node: SemanticNode, notes: NodeNotes): void {
  const [failure] = notes.failures.values();
  tree.setState(node, "invalid", failure !== undefined || notes.invalid !== null);
  tree.setDescription(node, failure ?? notes.invalid ?? notes.description);
}

/** Shows a widget's own notes (`.invalid()`'s message, `.description()`'s text) on its node. */
export function setNotes(
  tree: SemanticTree,
  node: SemanticNode,
  invalid: string | null,
  description: string | undefined,
): void {
  const notes = notesOf(node);
  notes.invalid = invalid;
  notes.description = description;
  write(tree, node, notes);
}

/** What a failure's description says: `a label binding failed: disk full`, on one line. */
export function failureText(where: string, error: unknown): string {
  const raw = error instanceof Error ? error.message : String(error);
  const line = raw.split(/[\r\n\u2028\u2029]/, 1)[0]!.trim() || (error as Error)?.name || "error";
  const message = line.length > MESSAGE_LIMIT ? `${line.slice(0, MESSAGE_LIMIT)}…` : line;
  return `${where} failed: ${message}`;
}

/**
 * Records that the binding `key` of the widget `target` names failed with `error` (or, with
 * null, ran again without throwing): its node shows `invalid` and the failure as long as one
 * of its bindings fails. Returns true when the widget has a node to show it on.
 */
export function setFailure(
  target: MountTarget | null,
  key: object,
  where: string,
  error: unknown | null,
): boolean {
  const widget = target?.widget ?? null;
  const node = widget?.node ?? null;
  if (widget === null || node === null || !widget.mounted) return false;
  const notes = notesOf(node);
  if (error === null) {
    if (!notes.failures.delete(key)) return true;
  } else {
    notes.failures.set(key, failureText(where, error));
  }
  write(widget.host.tree, node, notes);
  return true;
}
