/**
 * Acting on a widget: the guards every caller shares (disabled nodes; secure nodes for
 * agents; actions a node does not support), with the exact messages of the wire contract,
 * then the action performed as its description in `actions.ts` says, as the matching input
 * from a person would. Each message starts with the contract's phrase, and a hint on how to
 * recover follows after `; `.
 *
 * @module
 */

import type { Widget } from "../ui/widget.ts";
import { ActionError } from "./action_error.ts";
import { type Action, actionNamed, type InputEnv, isTyping, performDescribed } from "./actions.ts";

export { ActionError, type ActionErrorKind } from "./action_error.ts";
export {
  type Action,
  ACTION_NAMES,
  ACTIONS,
  closest,
  dispatchKey,
  type InputEnv,
  isTyping,
  parseAction,
  type Point,
} from "./actions.ts";

/** The message for an action sent at an old revision. */
export function staleRevisionMessage(current: number): string {
  return `stale revision: the tree is now at revision ${current}; read ui_tree again and retry`;
}

/** The message for an id that names no node (any more). */
export function noNodeMessage(id: number): string {
  return `no node with id ${id}; read ui_tree again`;
}

/** The message for an action on a disabled node. */
export const DISABLED_MESSAGE =
  'the node is disabled; ui_wait with "state": "enabled" waits for it';

/** The message for an action on a node outside the topmost open dialog, `dialogId`. */
export function behindModalMessage(dialogId: number): string {
  return `the node is behind a modal dialog; act inside dialog #${dialogId} or close it first`;
}

/** Who acts: agents are refused where people are not (typing into secure fields). */
export type Actor = "agent" | "user";

/**
 * Refuses an action before anything happens: on a disabled node, typing into a secure one by
 * an agent, and an action the node does not support (focus on plain text, say). Changes
 * nothing, so callers may check before anything else that must come after (the revision).
 */
export function guardAction(element: Widget, action: Action, actor: Actor): void {
  if (element.effectivelyDisabled) throw new ActionError("disabled", DISABLED_MESSAGE);
  if (actor === "agent" && isTyping(action) && element.secure) {
    throw new ActionError(
      "secret",
      "the node holds a secret: agents may not type into it or press keys on it; ask the user to fill it in",
    );
  }
  const unsupported = actionNamed(action.action)!.unsupported(element);
  if (unsupported !== null) {
    throw new ActionError("unsupported", `invalid arguments: ${unsupported}`);
  }
}

/**
 * Performs an action on a widget as the matching input would. Throws ActionError when the
 * guards refuse it or the widget does not support it.
 */
export function performAction(env: InputEnv, element: Widget, action: Action, actor: Actor): void {
  guardAction(element, action, actor);
  performDescribed(env, element, action);
}
