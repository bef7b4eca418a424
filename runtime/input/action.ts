/**
 * The eight actions agents and tests use, parsed from their JSON form and turned into the
 * same events a person's input makes: focus, activation, text editing, keys, scrolling and
 * dragging. The guards every caller shares live here too (disabled nodes; secure nodes for
 * agents; actions a node does not support), with the exact messages of the wire contract:
 * each starts with the contract's phrase, and a hint on how to recover follows after `; `.
 *
 * @module
 */

import type { Element } from "../ui/element.ts";
import { canFocus } from "../ui/focus.ts";
import type { Rt } from "../ui/rt.ts";
import { type Keybind, parseKeybind } from "../text/keybind.ts";

/** One action, tagged by `action`, as `ui_act` takes it. */
export type Action =
  | { action: "click" }
  | { action: "double_click" }
  | { action: "hover" }
  | { action: "focus" }
  | { action: "type_text"; text: string }
  | { action: "press_key"; keybind: string }
  | { action: "scroll"; delta: { x: number; y: number } }
  | { action: "drag"; to: { x: number; y: number } };

/** The action names, in the order the contract lists them. */
export const ACTION_NAMES = [
  "click",
  "double_click",
  "hover",
  "focus",
  "type_text",
  "press_key",
  "scroll",
  "drag",
] as const;

/** Why an action was refused. */
export type ActionErrorKind =
  | "stale_revision"
  | "no_node"
  | "modal"
  | "disabled"
  | "secret"
  | "invalid"
  | "unsupported"
  | "timeout";

/** An action refused with one of the contract's messages; the message is what agents read. */
export class ActionError extends Error {
  /** Which guard refused it. */
  readonly kind: ActionErrorKind;

  /**
   * Creates a refusal whose message is what agents read.
   *
   * @param kind which guard refused
   * @param message the contract's message
   */
  constructor(kind: ActionErrorKind, message: string) {
    super(message);
    this.name = "ActionError";
    this.kind = kind;
  }
}

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

function invalid(message: string): ActionError {
  return new ActionError("invalid", `invalid arguments: ${message}`);
}

/** The fields each action takes besides `action`, with what a refusal says it takes. */
const ACTION_FIELDS: Readonly<Record<Action["action"], readonly string[]>> = {
  click: [],
  double_click: [],
  hover: [],
  focus: [],
  type_text: ["text"],
  press_key: ["keybind"],
  scroll: ["delta"],
  drag: ["to"],
};

/** Refuses a field `record` has beyond `allowed`, naming it and what is taken instead. */
function refuseUnknownFields(
  record: Record<string, unknown>,
  allowed: readonly string[],
  where: string,
): void {
  const unknown = Object.keys(record).find((key) => !allowed.includes(key));
  if (unknown === undefined) return;
  const takes = allowed.filter((key) => key !== "action").map((key) => JSON.stringify(key));
  // The caller's own key, but a key of megabytes is not sent back whole.
  const shown = unknown.length > 40 ? `${unknown.slice(0, 40)}…` : unknown;
  throw invalid(
    `unknown field ${JSON.stringify(shown)} in ${where}; it takes ${
      takes.length === 0 ? "no other field" : takes.join(" and ")
    }`,
  );
}

function isPoint(value: unknown): value is { x: number; y: number } {
  if (typeof value !== "object" || value === null) return false;
  const { x, y } = value as { x?: unknown; y?: unknown };
  return typeof x === "number" && Number.isFinite(x) && typeof y === "number" &&
    Number.isFinite(y);
}

/** Checks an action object from outside and returns it typed; throws ActionError when wrong. */
export function parseAction(raw: unknown): Action {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw invalid(`action must be an object such as {"action": "click"}`);
  }
  const record = raw as Record<string, unknown>;
  if (!Object.hasOwn(record, "action")) {
    throw invalid(
      `the action object needs an "action" field naming the action, such as {"action": "click"}`,
    );
  }
  const name = record.action;
  if (typeof name === "string" && Object.hasOwn(ACTION_FIELDS, name)) {
    const fields = ACTION_FIELDS[name as Action["action"]];
    refuseUnknownFields(record, ["action", ...fields], `a ${name} action`);
    const point = name === "scroll" ? record.delta : name === "drag" ? record.to : undefined;
    if (isPoint(point)) {
      refuseUnknownFields(point, ["x", "y"], `the ${fields[0]} of a ${name} action`);
    }
  }
  switch (name) {
    case "click":
    case "double_click":
    case "hover":
    case "focus":
      return { action: name };
    case "type_text":
      if (typeof record.text !== "string") {
        throw invalid(
          `type_text needs "text", a string, as in {"action": "type_text", "text": "hello"}`,
        );
      }
      return { action: name, text: record.text };
    case "press_key":
      if (typeof record.keybind !== "string") {
        throw invalid(
          `press_key needs "keybind", a string, as in {"action": "press_key", "keybind": "Ctrl+A"}`,
        );
      }
      try {
        parseKeybind(record.keybind);
      } catch (error) {
        throw invalid((error as Error).message);
      }
      return { action: name, keybind: record.keybind };
    case "scroll":
      if (!isPoint(record.delta)) {
        throw invalid(
          `scroll needs "delta" with numbers x and y, as in {"action": "scroll", "delta": {"x": 0, "y": 3}}`,
        );
      }
      return { action: name, delta: { x: record.delta.x, y: record.delta.y } };
    case "drag":
      if (!isPoint(record.to)) {
        throw invalid(
          `drag needs "to" with numbers x and y, as in {"action": "drag", "to": {"x": 40, "y": 3}}`,
        );
      }
      return { action: name, to: { x: record.to.x, y: record.to.y } };
    default:
      throw new ActionError(
        "invalid",
        `unknown action ${JSON.stringify(name)}: expected one of ${ACTION_NAMES.join(", ")}`,
      );
  }
}

/**
 * What dispatching needs from the app: focus, hover, Tab order and coordinates.
 *
 * @ignore input dispatch is the runtime's own: the `App` is its only environment
 */
export interface InputEnv {
  /** The runtime handle that handlers receive. */
  readonly rt: Rt;
  /** The element with focus, if any. */
  readonly focused: Element | null;
  /** Moves focus to the element, or clears it with null. */
  focus(element: Element | null): void;
  /** Marks the element under the pointer as hovered, or none with null. */
  hover(element: Element | null): void;
  /** Moves focus to the next (1) or previous (-1) focusable element. */
  moveFocus(direction: 1 | -1): void;
  /** The window coordinates of an element's top-left corner. */
  origin(element: Element): { x: number; y: number };
  /**
   * Runs the effects that earlier input queued, without ending the frame: what the next
   * event of the same action meets is the app as that input left it.
   */
  runEffects(): void;
}

/** Who acts: agents are refused where people are not (typing into secure fields). */
export type Actor = "agent" | "user";

/** `element` or its nearest ancestor that passes `test`, or null when none does. */
export function closest(
  element: Element,
  test: (element: Element) => boolean,
): Element | null {
  for (let current: Element | null = element; current !== null; current = current.parent) {
    if (test(current)) return current;
  }
  return null;
}

function describe(element: Element): string {
  return element.node?.role ?? element.kind;
}

/**
 * Refuses an action before anything happens: on a disabled node, typing into a secure one by
 * an agent, and an action the node does not support (focus on plain text, say). Changes
 * nothing, so callers may check before anything else that must come after (the revision).
 */
export function guardAction(element: Element, action: Action, actor: Actor): void {
  if (element.effectivelyDisabled) throw new ActionError("disabled", DISABLED_MESSAGE);
  const typing = action.action === "type_text" || action.action === "press_key";
  if (actor === "agent" && typing && element.secure) {
    throw new ActionError(
      "secret",
      "the node holds a secret: agents may not type into it or press keys on it; ask the user to fill it in",
    );
  }
  const unsupported = unsupportedReason(element, action);
  if (unsupported !== null) {
    throw new ActionError("unsupported", `invalid arguments: ${unsupported}`);
  }
}

/** Why `element` cannot take `action`, or null when it can. */
function unsupportedReason(element: Element, action: Action): string | null {
  switch (action.action) {
    case "focus":
      return canFocus(element)
        ? null
        : `a ${
          describe(element)
        } cannot take focus; focus works on buttons, text fields, checkboxes, sliders, menus and list items`;
    case "type_text":
      return element.behavior.insertText !== undefined
        ? null
        : `type_text works on text_field nodes, not on a ${describe(element)}`;
    case "scroll":
      return scrollTarget(element) !== null
        ? null
        : `scroll works on a scroll_view or a node inside one; this ${
          describe(element)
        } is in none`;
    case "drag":
      return element.behavior.dragTo !== undefined
        ? null
        : `drag works on slider nodes, not on a ${describe(element)}`;
    default:
      return null;
  }
}

function scrollTarget(element: Element): Element | null {
  return closest(element, (candidate) => candidate.behavior.scroll !== undefined);
}

function click(env: InputEnv, element: Element): void {
  // Clicking what cannot take focus (a plain text) leaves focus where it was: a no-op stays one.
  const focusTarget = closest(element, canFocus);
  if (focusTarget !== null) env.focus(focusTarget);
  const target = closest(element, (candidate) => candidate.behavior.activate !== undefined);
  if (target !== null && !target.effectivelyDisabled) target.behavior.activate!(env.rt);
}

/**
 * Sends a key to `start` (the node acted on; the focused element when null), then up its
 * ancestors, then to defaults.
 */
export function dispatchKey(env: InputEnv, keybind: Keybind, start: Element | null): void {
  // The node acted on, not whatever has focus: a key pressed on a dialog must not reach a
  // secure field focused inside it, past the guard that checked only the dialog.
  const first = start ?? env.focused;
  for (let current = first; current !== null; current = current.parent) {
    if (current.effectivelyDisabled) continue;
    if (current.behavior.key?.(keybind, env.rt)) return;
    const plain = !keybind.ctrl && !keybind.alt && !keybind.meta && !keybind.shift;
    if (
      current === first && plain && (keybind.key === "Enter" || keybind.key === "Space") &&
      current.behavior.activate !== undefined
    ) {
      current.behavior.activate(env.rt);
      return;
    }
  }
  if (keybind.key === "Tab" && !keybind.ctrl && !keybind.alt && !keybind.meta) {
    env.moveFocus(keybind.shift ? -1 : 1);
  }
}

/**
 * Performs an action on an element as the matching input would. Throws ActionError when the
 * guards refuse it or the element does not support it.
 */
export function performAction(env: InputEnv, element: Element, action: Action, actor: Actor): void {
  guardAction(element, action, actor);
  switch (action.action) {
    case "click":
      click(env, element);
      return;
    case "double_click": {
      // Each click meets the app as the one before left it: a checkbox toggles twice, and a
      // Delete button the first click removed takes no second click.
      click(env, element);
      env.runEffects();
      if (!element.mounted) return;
      click(env, element);
      env.runEffects();
      if (!element.mounted) return;
      const target = closest(element, (candidate) => candidate.behavior.doubleClick !== undefined);
      if (target !== null && !target.effectivelyDisabled) target.behavior.doubleClick!(env.rt);
      return;
    }
    case "hover":
      env.hover(element);
      return;
    case "focus":
      env.focus(element);
      return;
    case "type_text":
      env.focus(element);
      element.behavior.insertText!(action.text, env.rt);
      return;
    case "press_key": {
      const keybind = parseKeybind(action.keybind);
      if (canFocus(element)) env.focus(element);
      dispatchKey(env, keybind, element);
      return;
    }
    case "scroll":
      scrollTarget(element)!.behavior.scroll!(
        Math.round(action.delta.x),
        Math.round(action.delta.y),
      );
      return;
    case "drag": {
      if (canFocus(element)) env.focus(element);
      const origin = env.origin(element);
      element.behavior.dragTo!(action.to.x - origin.x, action.to.y - origin.y, env.rt);
      return;
    }
  }
}
