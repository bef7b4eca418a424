/**
 * The actions agents, tests and crowndev use, each described once: its name, its one field
 * (if any), an example, whether it types, which widgets take it, and how it is performed.
 * Everything else is derived from this table: the `Action` type, `ACTION_NAMES`, parsing
 * from JSON (`parseAction`), the `ui_act` schema, crowndev's `name=argument` syntax and the
 * docs' action table (`actionsMarkdown()`, which a test holds docs/agents.md to).
 *
 * @module
 */

import { type Keybind, parseKeybind } from "../text/keybind.ts";
import { ActionError } from "./action_error.ts";
import { canFocus } from "../ui/focus.ts";
import type { Rt } from "../ui/rt.ts";
import type { Widget } from "../ui/widget.ts";

/** The kinds of value an action's field holds. */
type FieldKind = "string" | "keybind" | "point";

/** An action's one field besides `action`. */
interface FieldSpec {
  /** The field's name in the action object. */
  readonly name: string;
  /** What it holds: a string, a keybind string, or a point `{x, y}`. */
  readonly kind: FieldKind;
}

/** A point in cells: a column and a row. */
export type Point = { x: number; y: number };

type FieldValue<K extends FieldKind> = K extends "point" ? Point : string;

/**
 * What performing an action needs from the app: focus, hover, Tab order and coordinates.
 *
 * @ignore input dispatch is the runtime's own: the `App` is its only environment
 */
export interface InputEnv {
  /** The runtime handle that handlers receive. */
  readonly rt: Rt;
  /** The widget with focus, if any. */
  readonly focused: Widget | null;
  /** Moves focus to the widget, or clears it with null. */
  focus(element: Widget | null): void;
  /** Marks the widget under the pointer as hovered, or none with null. */
  hover(element: Widget | null): void;
  /** Moves focus to the next (1) or previous (-1) focusable widget. */
  moveFocus(direction: 1 | -1): void;
  /**
   * Presses `keybind` on the app's keybindings: the priority ones (`priority`, before the
   * widgets) or the others (after the widgets left it unhandled, with `?` and F1 for the
   * help view). `target` is the widget the key was pressed on: where it takes typed text, a
   * character key is its own. Returns true when one ran.
   */
  appKey(keybind: Keybind, priority: boolean, target: Widget | null): boolean;
  /** The window coordinates of a widget's top-left corner. */
  origin(element: Widget): { x: number; y: number };
  /**
   * Runs the effects that earlier input queued, without ending the frame: what the next
   * event of the same action meets is the app as that input left it.
   */
  runEffects(): void;
}

type Simplify<T> = { [K in keyof T]: T[K] };
type FieldsOf<F> = F extends FieldSpec ? { [P in F["name"]]: FieldValue<F["kind"]> } : unknown;
/** The action object an action's description describes. */
type ActionObject<N extends string, F> = Simplify<{ action: N } & FieldsOf<F>>;

/** One action's description: the single place it is spelled out. */
interface ActionSpec<N extends string = string, F extends FieldSpec | null = FieldSpec | null> {
  /** The name, as `{"action": name}` carries it. */
  readonly name: N;
  /** Its one field besides `action`, or null. */
  readonly field: F;
  /** An example of its JSON form. */
  readonly example: Readonly<Record<string, unknown>>;
  /** The example crowndev takes: `type_text=hello`. */
  readonly cli: string;
  /** True for typing (refused on secure nodes for agents; its frames are kept secret). */
  readonly typing: boolean;
  /** What it does, for the docs. */
  readonly does: string;
  /** What takes it, for the docs. */
  readonly takes: string;
  /** Why `element` cannot take it, or null when it can. */
  unsupported(element: Widget): string | null;
  /** Performs it on `element`, which the guards let through. */
  perform(env: InputEnv, element: Widget, action: ActionObject<N, F>): void;
}

function spec<const N extends string, const F extends FieldSpec | null>(
  described: ActionSpec<N, F>,
): ActionSpec<N, F> {
  return described;
}

function describe(element: Widget): string {
  return element.node?.role ?? element.kind;
}

/** `element` or its nearest ancestor that passes `test`, or null when none does. */
export function closest(element: Widget, test: (element: Widget) => boolean): Widget | null {
  for (let current: Widget | null = element; current !== null; current = current.parent) {
    if (test(current)) return current;
  }
  return null;
}

function scrollTarget(element: Widget): Widget | null {
  return closest(element, (candidate) => candidate.scroll !== undefined);
}

function click(env: InputEnv, element: Widget): void {
  // Clicking what cannot take focus (a plain text) leaves focus where it was: a no-op stays one.
  const focusTarget = closest(element, canFocus);
  if (focusTarget !== null) env.focus(focusTarget);
  const target = closest(element, (candidate) => candidate.activate !== undefined);
  if (target !== null && !target.effectivelyDisabled) target.activate!(env.rt);
}

/**
 * Sends a key to the app's priority keybindings, then to `start` (the widget acted on; the
 * focused one when null) and up its ancestors, then to the app's other keybindings (and the
 * help view), then to defaults (Tab). The focused widget comes before the app, as in Textual.
 */
export function dispatchKey(env: InputEnv, keybind: Keybind, start: Widget | null): void {
  // The widget acted on, not whatever has focus: a key pressed on a dialog must not reach a
  // secure field focused inside it, past the guard that checked only the dialog.
  const first = start ?? env.focused;
  if (env.appKey(keybind, true, first)) return;
  for (let current = first; current !== null; current = current.parent) {
    if (current.effectivelyDisabled) continue;
    if (current.key?.(keybind, env.rt)) return;
    const plain = !keybind.ctrl && !keybind.alt && !keybind.meta && !keybind.shift;
    if (
      current === first && plain && (keybind.key === "Enter" || keybind.key === "Space") &&
      current.activate !== undefined
    ) {
      current.activate(env.rt);
      return;
    }
  }
  if (env.appKey(keybind, false, first)) return;
  if (keybind.key === "Tab" && !keybind.ctrl && !keybind.alt && !keybind.meta) {
    env.moveFocus(keybind.shift ? -1 : 1);
  }
}

/** Every way of writing a line break: `type_text` presses Enter for each outside a text area. */
const LINE_BREAK = /\r\n?|[\n\u0085\u2028\u2029]/;

/** The Enter key, as a line break in typed text presses it. */
const ENTER: Keybind = { key: "Enter", ctrl: false, alt: false, shift: false, meta: false };

/**
 * Types `text` into `element`: whole into one that keeps line breaks (a text area); elsewhere
 * the text between line breaks is typed and each line break presses Enter, as a person typing
 * it would. Each Enter meets the app as the typing before it left it, and typing stops when
 * Enter took the widget away or disabled it.
 */
function typeInto(env: InputEnv, element: Widget, text: string): void {
  env.focus(element);
  if (element.takesLineBreaks) {
    element.insertText!(text, env.rt);
    return;
  }
  const lines = text.split(LINE_BREAK);
  for (let index = 0; index < lines.length; index++) {
    if (index > 0) {
      dispatchKey(env, ENTER, element);
      env.runEffects();
      if (!element.mounted || element.effectivelyDisabled) return;
    }
    const line = lines[index]!;
    if (line !== "") element.insertText!(line, env.rt);
  }
}

/** The actions, in the order the contract lists them. */
export const ACTIONS = [
  spec({
    name: "click",
    field: null,
    example: { action: "click" },
    cli: "click",
    typing: false,
    does: "clicks: focuses what takes focus and activates it",
    takes: "any node; plain text takes it and nothing happens",
    unsupported: () => null,
    perform: (env, element) => click(env, element),
  }),
  spec({
    name: "double_click",
    field: null,
    example: { action: "double_click" },
    cli: "double_click",
    typing: false,
    does: "two clicks, then the double-click event (opens a list row, selects a field's text)",
    takes: "any node",
    unsupported: () => null,
    perform: (env, element) => {
      // Each click meets the app as the one before left it: a checkbox toggles twice, and a
      // Delete button the first click removed takes no second click.
      click(env, element);
      env.runEffects();
      if (!element.mounted) return;
      click(env, element);
      env.runEffects();
      if (!element.mounted) return;
      const target = closest(element, (candidate) => candidate.doubleClick !== undefined);
      if (target !== null && !target.effectivelyDisabled) target.doubleClick!(env.rt);
    },
  }),
  spec({
    name: "hover",
    field: null,
    example: { action: "hover" },
    cli: "hover",
    typing: false,
    does: "moves the pointer over it",
    takes: "any node",
    unsupported: () => null,
    perform: (env, element) => env.hover(element),
  }),
  spec({
    name: "focus",
    field: null,
    example: { action: "focus" },
    cli: "focus",
    typing: false,
    does: "gives it the keyboard focus",
    takes: "what takes focus: buttons, fields, checkboxes, sliders, menus, list items, ...",
    unsupported: (element) =>
      canFocus(element)
        ? null
        : `a ${
          describe(element)
        } cannot take focus; focus works on buttons, text fields, checkboxes, sliders, menus and list items`,
    perform: (env, element) => env.focus(element),
  }),
  spec({
    name: "type_text",
    field: { name: "text", kind: "string" },
    example: { action: "type_text", text: "hello" },
    cli: "type_text=hello",
    typing: true,
    does: "types the text at the cursor; a `\\n` is a line break in a text_area, Enter elsewhere",
    takes: "nodes that take typed text: text_field, text_area, a widget() with onText",
    unsupported: (element) => {
      if (element.insertText !== undefined) return null;
      const what = element.kind === "widget"
        ? `this ${describe(element)}, a widget() without onText`
        : `a ${describe(element)}`;
      return `type_text works on nodes that take typed text (text_field, text_area), not on ${what}`;
    },
    perform: (env, element, action) => typeInto(env, element, action.text),
  }),
  spec({
    name: "press_key",
    field: { name: "keybind", kind: "keybind" },
    example: { action: "press_key", keybind: "Ctrl+A" },
    cli: "press_key=Ctrl+A",
    typing: true,
    does:
      "presses a key on it (it takes focus first when it can); unhandled keys go to its parents, then to the app's keybindings",
    takes: "any node",
    unsupported: () => null,
    perform: (env, element, action) => {
      const keybind = parseKeybind(action.keybind);
      if (canFocus(element)) env.focus(element);
      dispatchKey(env, keybind, element);
    },
  }),
  spec({
    name: "scroll",
    field: { name: "delta", kind: "point" },
    example: { action: "scroll", delta: { x: 0, y: 3 } },
    cli: "scroll=0,120",
    typing: false,
    does: "scrolls the scroll view (table, tree) it is in by delta cells",
    takes: "a scroll_view, text_area, table or tree, or a node inside one",
    unsupported: (element) =>
      scrollTarget(element) !== null
        ? null
        : `scroll works on a scroll_view, table or tree, or a node inside one; this ${
          describe(element)
        } is in none`,
    perform: (_env, element, action) => {
      const dx = Math.round(action.delta.x);
      const dy = Math.round(action.delta.y);
      // The nearest that can scroll takes it: a text area whose text fits passes it on.
      for (let target = scrollTarget(element); target !== null;) {
        if (target.scroll!(dx, dy) || target.parent === null) return;
        target = scrollTarget(target.parent);
      }
    },
  }),
  spec({
    name: "drag",
    field: { name: "to", kind: "point" },
    example: { action: "drag", to: { x: 40, y: 3 } },
    cli: "drag=40,300",
    typing: false,
    does: "presses on it and moves to the window cell `to`",
    takes: "slider and text_area nodes",
    unsupported: (element) =>
      element.dragTo !== undefined
        ? null
        : `drag works on slider and text_area nodes, not on a ${describe(element)}`,
    perform: (env, element, action) => {
      if (canFocus(element)) env.focus(element);
      const origin = env.origin(element);
      element.dragTo!(action.to.x - origin.x, action.to.y - origin.y, env.rt);
    },
  }),
  spec({
    name: "select",
    field: { name: "option", kind: "string" },
    example: { action: "select", option: "Green" },
    cli: "select=Green",
    typing: false,
    does: "picks the option, radio button, tab or row of exactly that name",
    takes: "combo_box, radio_group, tab_list, list, table",
    unsupported: (element) =>
      element.choose !== undefined
        ? null
        : `select works on combo_box, radio_group, tab_list, list and table nodes, not on a ${
          describe(element)
        }`,
    perform: (env, element, action) => {
      if (canFocus(element)) env.focus(element);
      if (element.choose!(action.option, env.rt)) return;
      throw new ActionError(
        "invalid",
        `invalid arguments: ${unknownOption(element, action.option)}`,
      );
    },
  }),
] as const;

/** The description of one action. */
export type ActionDescription = (typeof ACTIONS)[number];

/** The action names, in the order the contract lists them. */
export const ACTION_NAMES: readonly ActionDescription["name"][] = ACTIONS.map((a) => a.name);

type ActionOf<D> = D extends ActionSpec<infer N, infer F> ? ActionObject<N, F> : never;

/** One action, tagged by `action`, as `ui_act` takes it. */
export type Action =
  | { action: "click" }
  | { action: "double_click" }
  | { action: "hover" }
  | { action: "focus" }
  | { action: "type_text"; text: string }
  | { action: "press_key"; keybind: string }
  | { action: "scroll"; delta: { x: number; y: number } }
  | { action: "drag"; to: { x: number; y: number } }
  | { action: "select"; option: string };

// The union is written out for the docs, which cannot show a type computed from the table;
// this stops compiling when the two disagree, so the table stays the one description.
type Same<A, B> = [A] extends [B] ? [B] extends [A] ? true : false : false;
type Agree<T extends true> = T;
type _ActionsAgree = Agree<Same<Action, ActionOf<ActionDescription>>>;

const BY_NAME: ReadonlyMap<string, ActionDescription> = new Map(ACTIONS.map((a) => [a.name, a]));

/** The description of the action named `name`, or undefined for none. */
export function actionNamed(name: string): ActionDescription | undefined {
  return BY_NAME.get(name);
}

/** True for the actions that type (refused on secure nodes for agents). */
export function isTyping(action: Action): boolean {
  return BY_NAME.get(action.action)!.typing;
}

/** Why `option` cannot be chosen in `element`, naming the first few of its options. */
function unknownOption(element: Widget, option: string): string {
  const names = element.optionNames?.() ?? [];
  const shown = names.slice(0, 10).map((name) => JSON.stringify(name)).join(", ");
  const more = names.length > 10 ? ` and ${names.length - 10} more` : "";
  // The caller's own text, but not megabytes of it.
  const quoted = JSON.stringify(option.length > 80 ? `${option.slice(0, 80)}…` : option);
  const listed = names.length === 0 ? "" : `; its options are ${shown}${more}`;
  return `no option named ${quoted} in this ${describe(element)}${listed}`;
}

/**
 * Performs an action on a widget the guards let through, as its description says.
 *
 * @param env the app as input sees it
 * @param element the widget acted on
 * @param action the parsed action
 */
export function performDescribed(env: InputEnv, element: Widget, action: Action): void {
  // The one place the union meets its parts: `action` is the description's own kind.
  BY_NAME.get(action.action)!.perform(env, element, action as never);
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
  const described = typeof name === "string" ? BY_NAME.get(name) : undefined;
  if (described === undefined) {
    throw new ActionError(
      "invalid",
      `unknown action ${JSON.stringify(name)}: expected one of ${ACTION_NAMES.join(", ")}`,
    );
  }
  const field = described.field;
  refuseUnknownFields(
    record,
    field === null ? ["action"] : ["action", field.name],
    `a ${described.name} action`,
  );
  if (field === null) return { action: described.name } as Action;
  const value = record[field.name];
  const example = spacedJson(described.example);
  if (field.kind === "point") {
    if (isPoint(value)) {
      refuseUnknownFields(value, ["x", "y"], `the ${field.name} of a ${described.name} action`);
    }
    if (!isPoint(value)) {
      throw invalid(
        `${described.name} needs "${field.name}" with numbers x and y, as in ${example}`,
      );
    }
    return { action: described.name, [field.name]: { x: value.x, y: value.y } } as Action;
  }
  if (typeof value !== "string") {
    throw invalid(`${described.name} needs "${field.name}", a string, as in ${example}`);
  }
  if (field.kind === "keybind") {
    try {
      parseKeybind(value);
    } catch (error) {
      throw invalid((error as Error).message);
    }
  }
  return { action: described.name, [field.name]: value } as Action;
}

function invalid(message: string): ActionError {
  return new ActionError("invalid", `invalid arguments: ${message}`);
}

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

function isPoint(value: unknown): value is Point {
  if (typeof value !== "object" || value === null) return false;
  const { x, y } = value as { x?: unknown; y?: unknown };
  return typeof x === "number" && Number.isFinite(x) && typeof y === "number" &&
    Number.isFinite(y);
}

/** An example's JSON written as the refusals show it: `{"action": "drag", "to": {"x": 40, "y": 3}}`. */
export function spacedJson(value: unknown): string {
  if (typeof value !== "object" || value === null) return JSON.stringify(value);
  const entries = Object.entries(value).map(([key, inner]) =>
    `${JSON.stringify(key)}: ${spacedJson(inner)}`
  );
  return `{${entries.join(", ")}}`;
}

/** The JSON Schema of an action object, for `ui_act`'s `action` argument. */
export function actionSchema(): Record<string, unknown> {
  const properties: Record<string, unknown> = {
    action: { type: "string", enum: [...ACTION_NAMES] },
  };
  for (const { field } of ACTIONS) {
    if (field === null || field.name in properties) continue;
    properties[field.name] = field.kind === "point"
      ? {
        type: "object",
        properties: { x: { type: "number" }, y: { type: "number" } },
        required: ["x", "y"],
      }
      : { type: "string" };
  }
  return { type: "object", properties, required: ["action"] };
}

/**
 * The docs' table of actions, as Markdown: one row an action with its JSON example,
 * crowndev's form, what it does and what takes it. docs/agents.md holds this table between
 * `<!-- actions -->` and `<!-- /actions -->`.
 */
export function actionsMarkdown(): string {
  const rows = ACTIONS.map((a) =>
    `| \`${a.name}\` | \`${JSON.stringify(a.example)}\` | \`${a.cli}\` | ${a.does} | ${a.takes} |`
  );
  return [
    "| action | JSON | crowndev | what it does | what takes it |",
    "| --- | --- | --- | --- | --- |",
    ...rows,
  ].join("\n");
}
