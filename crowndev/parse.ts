/**
 * What `crowndev act` takes on its command line: a query such as `role=button,name=+1` and
 * an action such as `click`, `type_text=hello`, `scroll=0,120` or a raw action object.
 *
 * @module
 */

import { ACTION_NAMES } from "../runtime/input/action.ts";
import { isRole } from "../runtime/semantics/node.ts";

/** A node query: any subset of role, name and text. */
export interface CliQuery {
  role?: string;
  name?: string;
  text?: string;
}

/** A mistake on the command line; the CLI prints it with usage hints and exits with 2. */
export class UsageError extends Error {
  /** @param message what is wrong, and what was expected */
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

const QUERY_KEYS = ["role", "name", "text"] as const;

/**
 * Parses `role=..,name=..,text=..`. A value may itself contain commas (`name=Hello, world`):
 * a comma ends a value only when a known key and `=` follow it.
 */
export function parseQuery(text: string): CliQuery {
  if (text.trim() === "") {
    throw new UsageError("the query is empty: give role=..,name=..,text=.. (any of them)");
  }
  const query: CliQuery = {};
  for (const part of text.split(/,(?=\s*(?:role|name|text)=)/)) {
    const equals = part.indexOf("=");
    const key = (equals === -1 ? part : part.slice(0, equals)).trim();
    if (equals === -1 || !(QUERY_KEYS as readonly string[]).includes(key)) {
      throw new UsageError(
        `invalid query part ${
          JSON.stringify(part)
        }: expected role=..., name=... or text=..., joined by commas`,
      );
    }
    const typedKey = key as typeof QUERY_KEYS[number];
    if (query[typedKey] !== undefined) throw new UsageError(`the query gives ${key} twice`);
    query[typedKey] = part.slice(equals + 1);
  }
  if (query.role !== undefined && !isRole(query.role)) {
    throw new UsageError(
      `unknown role ${
        JSON.stringify(query.role)
      }: roles are snake_case, such as button, text_field, checkbox, menu_item`,
    );
  }
  return query;
}

function numbers(text: string, action: string, example: string): [number, number] {
  const parts = text.split(",").map((part) => part.trim());
  const values = parts.map(Number);
  if (
    parts.length !== 2 || parts.some((part) => part === "") ||
    values.some((v) => !Number.isFinite(v))
  ) {
    throw new UsageError(`${action} takes two numbers x,y, as in ${example}`);
  }
  return [values[0]!, values[1]!];
}

/** Parses an action: a name, `name=argument`, or a raw JSON action object. */
export function parseCliAction(text: string): Record<string, unknown> {
  const trimmed = text.trim();
  if (trimmed.startsWith("{")) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch (error) {
      throw new UsageError(`the action is not valid JSON: ${(error as Error).message}`);
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      throw new UsageError(`a raw action must be a JSON object such as {"action":"click"}`);
    }
    return parsed as Record<string, unknown>;
  }
  // The argument is taken untrimmed: `type_text=hello ` types the trailing space too.
  const equals = text.indexOf("=");
  const name = (equals === -1 ? text : text.slice(0, equals)).trim();
  const argument = equals === -1 ? undefined : text.slice(equals + 1);
  const needsArgument: Record<string, string> = {
    type_text: "type_text=hello",
    press_key: "press_key=Ctrl+A",
    scroll: "scroll=0,120",
    drag: "drag=40,300",
  };
  if (!(ACTION_NAMES as readonly string[]).includes(name)) {
    throw new UsageError(
      `unknown action ${JSON.stringify(name)}: expected one of ${
        ACTION_NAMES.join(", ")
      }, or a JSON object`,
    );
  }
  const example = needsArgument[name];
  if (example !== undefined && argument === undefined) {
    throw new UsageError(`${name} needs an argument, as in ${example}`);
  }
  if (example === undefined && argument !== undefined) {
    throw new UsageError(`${name} takes no argument`);
  }
  switch (name) {
    case "type_text":
      return { action: name, text: argument };
    case "press_key":
      return { action: name, keybind: argument };
    case "scroll": {
      const [x, y] = numbers(argument!, "scroll", "scroll=0,120");
      return { action: name, delta: { x, y } };
    }
    case "drag": {
      const [x, y] = numbers(argument!, "drag", "drag=40,300");
      return { action: name, to: { x, y } };
    }
    default:
      return { action: name };
  }
}
