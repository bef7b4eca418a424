/**
 * What `crowndev` takes on its command line: a query such as `role=button,name=+1` or
 * `#12,state=enabled`, an action such as `click`, `type_text=hello`, `scroll=0,120` or a raw
 * action object, and the numbers and states the `tree` and `wait` flags give.
 *
 * @module
 */

import { MAX_WAIT_MS } from "../runtime/agent/hosts/tree_watch.ts";
import { ACTION_NAMES, actionNamed } from "../runtime/input/actions.ts";
import { isRole } from "../runtime/semantics/node.ts";
import { QUERY_STATES } from "../runtime/semantics/query.ts";
import { MAX_TREE_BYTES } from "../runtime/semantics/tree_view.ts";

/** A node query: any subset of role, name, text, an ancestor, a state, and one node's id. */
export interface CliQuery {
  role?: string;
  name?: string;
  text?: string;
  /** An ancestor's id (`within=#7`): only nodes under it match. */
  within?: number;
  /** A state the node must have, or `enabled` (not `disabled`). */
  state?: string;
  /** One node's id (`#12`). */
  id?: number;
}

/** A mistake on the command line; the CLI prints it with usage hints and exits with 2. */
export class UsageError extends Error {
  /** @param message what is wrong, and what was expected */
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

const QUERY_KEYS = ["role", "name", "text", "within", "state"] as const;

/** An id as a query writes it: `#12` (or, after `within=`, `12`). */
const ID = /^#?(\d+)$/;

function nodeId(text: string, what: string): number {
  const match = ID.exec(text.trim());
  const id = match === null ? NaN : Number(match[1]);
  if (!Number.isSafeInteger(id)) {
    throw new UsageError(`${what} must be a node id such as #12, got ${JSON.stringify(text)}`);
  }
  return id;
}

/** Throws a UsageError unless `state` is one a query may name. */
export function checkState(state: string): string {
  if (!QUERY_STATES.includes(state)) {
    throw new UsageError(
      `unknown state ${JSON.stringify(state)}: states are ${QUERY_STATES.join(", ")}`,
    );
  }
  return state;
}

/**
 * Parses `role=..,name=..,text=..,within=#N,state=..` and `#N` (one node's id), any of them
 * joined by commas. A value may itself contain commas (`name=Hello, world`): a comma ends a
 * value only when a known key and `=`, or a whole `#N` part, follow it.
 */
export function parseQuery(text: string): CliQuery {
  if (text.trim() === "") {
    throw new UsageError(
      "the query is empty: give role=..,name=..,text=..,within=#N,state=.. or #N (any of them)",
    );
  }
  const query: CliQuery = {};
  for (
    const part of text.split(/,(?=\s*(?:(?:role|name|text|within|state)=|#\d+\s*(?:,|$)))/)
  ) {
    if (/^\s*#/.test(part)) {
      if (query.id !== undefined) throw new UsageError("the query gives #id twice");
      query.id = nodeId(part, "an id");
      continue;
    }
    const equals = part.indexOf("=");
    const key = (equals === -1 ? part : part.slice(0, equals)).trim();
    if (equals === -1 || !(QUERY_KEYS as readonly string[]).includes(key)) {
      throw new UsageError(
        `invalid query part ${
          JSON.stringify(part)
        }: expected role=..., name=... or text=... (or within=#N, state=..., #N), joined by commas`,
      );
    }
    const typedKey = key as typeof QUERY_KEYS[number];
    if (query[typedKey] !== undefined) throw new UsageError(`the query gives ${key} twice`);
    const value = part.slice(equals + 1);
    if (typedKey === "within") query.within = nodeId(value, "within");
    else if (typedKey === "state") query.state = checkState(value.trim());
    else query[typedKey] = value;
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

/**
 * Parses the whole number a flag gives (`--depth 2`): digits only, from `least` to `most`;
 * anything else is a UsageError that names the flag and the range.
 */
export function parseWhole(flag: string, text: string, least: number, most?: number): number {
  const value = /^\d+$/.test(text.trim()) ? Number(text.trim()) : NaN;
  if (
    !Number.isSafeInteger(value) || value < least || (most !== undefined && value > most)
  ) {
    const range = most === undefined ? `of at least ${least}` : `from ${least} to ${most}`;
    throw new UsageError(`${flag} takes a whole number ${range}, got ${JSON.stringify(text)}`);
  }
  return value;
}

/** The smallest budget `ui_tree` takes for change text (`since`), in bytes. */
const SINCE_LEAST_BYTES = 256;

/** The flags of `crowndev tree`, as given on the command line. */
export interface TreeFlags {
  root?: string | undefined;
  depth?: string | undefined;
  from?: string | undefined;
  visible?: boolean | undefined;
  since?: string | undefined;
  maxBytes?: string | undefined;
}

/**
 * The arguments of `ui_tree` that `crowndev tree`'s flags ask for. `--since` takes only
 * `--max-bytes` beside it, as `ui_tree` does.
 */
export function treeArguments(flags: TreeFlags): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  if (flags.root !== undefined) args.root = nodeId(flags.root, "--root");
  if (flags.depth !== undefined) args.depth = parseWhole("--depth", flags.depth, 0);
  if (flags.from !== undefined) args.from = parseWhole("--from", flags.from, 0);
  if (flags.visible === true) args.visible = true;
  if (flags.since !== undefined) {
    const others = Object.keys(args);
    if (others.length > 0) {
      throw new UsageError(
        `--since takes only --max-bytes beside it, got ${
          others.map((key) => `--${key}`).join(", ")
        }`,
      );
    }
    args.since = parseWhole("--since", flags.since, 0);
  }
  if (flags.maxBytes !== undefined) {
    // Change text needs room for its last line, which says how to read the rest.
    const least = flags.since === undefined ? 1 : SINCE_LEAST_BYTES;
    args.max_bytes = parseWhole("--max-bytes", flags.maxBytes, least, MAX_TREE_BYTES);
  }
  return args;
}

/** The flags of `crowndev wait`, as given on the command line. */
export interface WaitFlags {
  state?: string | undefined;
  gone?: boolean | undefined;
  timeout?: string | undefined;
}

/**
 * The arguments of `ui_wait` for a query and `crowndev wait`'s flags: `#N` becomes `id`,
 * `--state` the query's state (given once), `--timeout` `timeout_ms`.
 */
export function waitArguments(query: CliQuery, flags: WaitFlags): Record<string, unknown> {
  const args: Record<string, unknown> = { ...query };
  if (flags.state !== undefined) {
    if (query.state !== undefined) {
      throw new UsageError("the state is given twice: in the query and by --state");
    }
    args.state = checkState(flags.state.trim());
  }
  if (flags.gone === true) args.gone = true;
  if (flags.timeout !== undefined) {
    args.timeout_ms = parseWhole("--timeout", flags.timeout, 0, MAX_WAIT_MS);
  }
  return args;
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
  const described = actionNamed(name);
  if (described === undefined) {
    throw new UsageError(
      `unknown action ${JSON.stringify(name)}: expected one of ${
        ACTION_NAMES.join(", ")
      }, or a JSON object`,
    );
  }
  const field = described.field;
  if (field !== null && argument === undefined) {
    throw new UsageError(`${name} needs an argument, as in ${described.cli}`);
  }
  if (field === null) {
    if (argument !== undefined) throw new UsageError(`${name} takes no argument`);
    return { action: name };
  }
  if (field.kind !== "point") return { action: name, [field.name]: argument };
  const [x, y] = numbers(argument!, name, described.cli);
  return { action: name, [field.name]: { x, y } };
}
