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

/** The widgets of the views being mounted, innermost last (null until `mountWidget()`). */
const mounting: (Widget | null)[] = [];

/** Runs `mount` (a view's mount) as the innermost view being mounted. */
export function mountingView<T>(mount: () => T): T {
  mounting.push(null);
  try {
    return mount();
  } finally {
    mounting.pop();
  }
}

/** `widget` is the innermost view's widget, unless that view made one already. */
export function claimMounted(widget: Widget): void {
  const last = mounting.length - 1;
  if (last >= 0 && mounting[last] === null) mounting[last] = widget;
}

/** The widget of the view being mounted now, which a binding made now feeds; or null. */
export function mountTarget(): Widget | null {
  return mounting.at(-1) ?? null;
}

/** The failing bindings, each with the widget it feeds, and how many there are. */
const failingBindings = new WeakMap<object, Widget>();
let failingCount = 0;

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
 * Records that the binding `key`, which feeds `widget`, failed with `error`: the widget's node
 * shows `invalid` and the failure as long as one of its bindings fails.
 */
export function bindingFailed(
  widget: Widget | null,
  key: object,
  where: string,
  error: unknown,
): void {
  const node = widget?.node ?? null;
  if (widget === null || node === null || !widget.mounted) return;
  if (!failingBindings.has(key)) failingCount++;
  failingBindings.set(key, widget);
  const notes = notesOf(node);
  notes.failures.set(key, failureText(where, error));
  write(widget.host.tree, node, notes);
}

/**
 * The binding `key` ran without throwing: if it was failing, its failure goes from its
 * widget's node. Costs one comparison while no binding fails.
 */
export function bindingRan(key: object): void {
  if (failingCount === 0) return;
  const widget = failingBindings.get(key);
  if (widget === undefined) return;
  failingBindings.delete(key);
  failingCount--;
  const node = widget.node;
  if (node === null || !widget.mounted) return;
  const notes = notesOf(node);
  notes.failures.delete(key);
  write(widget.host.tree, node, notes);
}
