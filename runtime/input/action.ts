/**
 * Acting on a widget: the guards every caller shares (disabled nodes; secure nodes for
 * agents; actions a node does not support), with the exact messages of the wire contract,
 * then the action performed as its description in `actions.ts` says, as the matching input
 * from a person would. Each message starts with the contract's phrase, and a hint on how to
 * recover follows after `; `.
 *
 * @module
 */

import { STATE_BIT } from "../semantics/mod.ts";
import { parseKeybind } from "../text/keybind.ts";
import { confirmMessage } from "../ui/tool_call.ts";
import type { Widget } from "../ui/widget.ts";
import { ActionError } from "./action_error.ts";
import {
  type Action,
  actionNamed,
  closest,
  type InputEnv,
  isTyping,
  performDescribed,
} from "./actions.ts";

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

/** True when `element`'s node carries the state `destructive`. */
function isDestructive(element: Widget): boolean {
  return element.node !== null && (element.node.states & STATE_BIT.destructive) !== 0;
}

/**
 * The destructive control `action` on `element` would activate, or null: the one a click or
 * a double click activates (the node itself or the nearest ancestor that takes clicks), the
 * node itself for Enter or Space pressed on it.
 */
export function destructiveTarget(element: Widget, action: Action): Widget | null {
  if (action.action === "click" || action.action === "double_click") {
    const target = closest(element, (candidate) => candidate.activate !== undefined);
    return target !== null && isDestructive(target) ? target : null;
  }
  if (action.action === "press_key" && isDestructive(element)) {
    const { key } = parseKeybind(action.keybind);
    return key === "Enter" || key === "Space" ? element : null;
  }
  return null;
}

/**
 * Refuses an agent's action that would activate a destructive control, unless the agent
 * said `"confirm": true`: the same rule and message as a destructive app tool's. People's
 * own input is never asked.
 */
export function guardDestructive(element: Widget, action: Action, confirmed: boolean): void {
  if (confirmed) return;
  const target = destructiveTarget(element, action);
  if (target === null) return;
  const { role, id } = target.node!;
  throw new ActionError("confirm", confirmMessage(`the ${role} #${id}`));
}

/**
 * Performs an action on a widget as the matching input would. Throws ActionError when the
 * guards refuse it or the widget does not support it.
 */
export function performAction(env: InputEnv, element: Widget, action: Action, actor: Actor): void {
  guardAction(element, action, actor);
  performDescribed(env, element, action);
}
