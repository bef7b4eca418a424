/**
 * Finding nodes: by role (exact), name (whole name, exact), text (a substring of the name
 * or the value), an ancestor (`within`) and a state the node must have. A secure node's value
 * is never matched or returned.
 *
 * @module
 */

import { clipAppText, LONGEST_APP_TEXT, quoteLongAppText } from "./long_text.ts";
import type { Role, SemanticNode, State } from "./node.ts";
import { isRole, STATE_BIT, STATES, statesOf } from "./node.ts";

/** What to look for; every given key must match. */
export interface NodeQuery {
  /** The role the node must have, such as `button`; an unknown role is a TypeError. */
  role?: string | undefined;
  /** The node's whole accessible name, exactly. */
  name?: string | undefined;
  /** Text the name, or the value of a node that is not secure, must contain. */
  text?: string | undefined;
  /** The id of an ancestor the node must be under (the ancestor itself does not match). */
  within?: number | undefined;
  /** The id of the node itself: only that node, if it matches the other keys. */
  id?: number | undefined;
  /** True to give names, values and paths whole, however long (else a long one is cut). */
  full?: boolean | undefined;
  /** A state the node must have, or `enabled` for a node without `disabled`. */
  state?: string | undefined;
  /** How many matches to return at most; 50 when absent. */
  limit?: number | undefined;
}

/** The states a query's `state` may name: every state, and `enabled` (not `disabled`). */
export const QUERY_STATES: readonly string[] = ["enabled", ...STATES];

/** How many matches `findNodes()` returns when the query sets no `limit`. */
export const DEFAULT_QUERY_LIMIT = 50;

/** One node a query found. */
export interface QueryMatch {
  /** The node's id, to act on it with. */
  id: number;
  /** What kind of widget the node stands for. */
  role: Role;
  /** The accessible name; null when the node has none. */
  name: string | null;
  /**
   * From below the window down to the node: `list > list_item > button "Delete"`, each name
   * quoted as tree text quotes it; for a query with `within`, from below that ancestor:
   * `list_item > button "Delete"`. The window's own path is `window "Notes"`.
   */
  path: string;
}

/** One node `findNodes()` found: a {@link QueryMatch} with the node's value and states. */
export interface NodeMatch extends QueryMatch {
  /** The value; absent when the node has none, and always on secure nodes. */
  value?: string;
  /** The description (an invalid field's message); absent when the node has none. */
  description?: string;
  /**
   * The states the node has, in tree-text order; `offscreen` also when an ancestor has it
   * (the tree text marks only the outermost).
   */
  states: State[];
  /**
   * Present when a name or value was longer than answers show: how many characters each lost
   * and the call that gives them whole, as in
   * `value +199000 chars: ui_query {"id":3,"full":true}`.
   */
  cut?: string;
}

/** What `findNodes()` answers: the first matches, and how many more there were. */
export interface FoundNodes {
  /** The matches in tree order, at most the query's limit. */
  nodes: NodeMatch[];
  /** How many further nodes matched; absent when none did. */
  more?: number;
}

/** Throws a TypeError when a query's keys are not strings or the role is unknown. */
export function validateQuery(query: NodeQuery): void {
  for (const key of ["role", "name", "text"] as const) {
    const value = query[key];
    if (value !== undefined && typeof value !== "string") {
      throw new TypeError(`invalid arguments: ${key} must be a string, got ${typeof value}`);
    }
  }
  if (query.role !== undefined && !isRole(query.role)) {
    throw new TypeError(
      `invalid arguments: unknown role ${
        JSON.stringify(query.role)
      }; roles are snake_case, such as button, text_field, checkbox, menu_item`,
    );
  }
  if (query.state !== undefined) {
    if (typeof query.state !== "string") {
      throw new TypeError(`invalid arguments: state must be a string, got ${typeof query.state}`);
    }
    if (!QUERY_STATES.includes(query.state)) {
      throw new TypeError(
        `invalid arguments: unknown state ${JSON.stringify(query.state)}; states are ${
          QUERY_STATES.join(", ")
        }`,
      );
    }
  }
  for (const key of ["within", "id", "limit"] as const) {
    const value = query[key];
    if (value !== undefined && (typeof value !== "number" || !Number.isSafeInteger(value))) {
      throw new TypeError(`invalid arguments: ${key} must be a whole number`);
    }
  }
  if (query.limit !== undefined && query.limit < 1) {
    throw new TypeError("invalid arguments: limit must be at least 1");
  }
}

/** True when `node` or one of its ancestors is marked `offscreen`. */
export function isOffscreen(node: SemanticNode): boolean {
  for (let current: SemanticNode | null = node; current !== null; current = current.parent) {
    if ((current.states & STATE_BIT.offscreen) !== 0) return true;
  }
  return false;
}

/**
 * True when `node` has the query state `state` (`enabled` means not `disabled`; `offscreen`
 * also holds inside an offscreen ancestor).
 */
export function hasQueryState(node: SemanticNode, state: string): boolean {
  if (state === "enabled") return (node.states & STATE_BIT.disabled) === 0;
  if (state === "offscreen") return isOffscreen(node);
  const bit = (STATE_BIT as Readonly<Record<string, number>>)[state];
  return bit !== undefined && (node.states & bit) !== 0;
}

/** True when `node` matches every key of `query`. */
export function matchesQuery(node: SemanticNode, query: NodeQuery): boolean {
  if (query.role !== undefined && node.role !== query.role) return false;
  if (query.name !== undefined && node.name !== query.name) return false;
  if (query.text !== undefined) {
    const inName = node.name !== undefined && node.name.includes(query.text);
    const inValue = !inName && node.value !== undefined && !node.has("secure") &&
      node.value.includes(query.text);
    if (!inName && !inValue) return false;
  }
  if (query.state !== undefined && !hasQueryState(node, query.state)) return false;
  return true;
}

function step(node: SemanticNode, longest: number): string {
  return node.name === undefined
    ? node.role
    : `${node.role} ${quoteLongAppText(node.name, longest)}`;
}

/**
 * The path of a node from below the root (the window, the same for every node) or from below
 * its ancestor `above` down to it, each name quoted as tree text quotes it and cut past
 * `longest` characters. The root's own path is its step alone.
 */
export function nodePath(
  node: SemanticNode,
  longest: number = LONGEST_APP_TEXT,
  above: SemanticNode | null = null,
): string {
  if (node.parent === null) return step(node, longest);
  const steps: string[] = [];
  for (
    let current: SemanticNode | null = node;
    current !== null && current.parent !== null && current !== above;
    current = current.parent
  ) {
    steps.push(step(current, longest));
  }
  return steps.reverse().join(" > ");
}

/** Finds every node under `root` (itself included) that matches, in tree order. */
export function queryTree(root: SemanticNode, query: NodeQuery): QueryMatch[] {
  validateQuery(query);
  const matches: QueryMatch[] = [];
  const stack: SemanticNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (matchesQuery(node, query)) {
      matches.push({ id: node.id, role: node.role, name: node.name ?? null, path: nodePath(node) });
    }
    for (let index = node.children.length - 1; index >= 0; index--) {
      stack.push(node.children[index]!);
    }
  }
  return matches;
}

/** The message for an id that names no node: the contract's phrase and how to recover. */
export function noNodeMessage(id: number): string {
  return `no node with id ${id}; read ui_tree again`;
}

/**
 * A match with the node's value (never a secure node's) and states (`offscreen` when an
 * ancestor has it), its path from below `within` when given. A name or value longer than
 * `longest` characters is cut, and `cut` says how much and how to read it whole.
 */
export function nodeMatch(
  node: SemanticNode,
  longest: number = LONGEST_APP_TEXT,
  within: SemanticNode | null = null,
): NodeMatch {
  const name = node.name === undefined
    ? { text: null, leftOut: 0 }
    : clipAppText(node.name, longest);
  let states = node.states;
  if ((states & STATE_BIT.offscreen) === 0 && isOffscreen(node)) states |= STATE_BIT.offscreen;
  const match: NodeMatch = {
    id: node.id,
    role: node.role,
    name: name.text,
    path: nodePath(node, longest, within),
    states: statesOf(states),
  };
  const cuts: string[] = [];
  if (name.leftOut > 0) cuts.push(`name +${name.leftOut} chars`);
  if (node.value !== undefined && !node.has("secure")) {
    const value = clipAppText(node.value, longest);
    match.value = value.text;
    if (value.leftOut > 0) cuts.push(`value +${value.leftOut} chars`);
  }
  if (node.description !== undefined) {
    const description = clipAppText(node.description, longest);
    match.description = description.text;
    if (description.leftOut > 0) cuts.push(`description +${description.leftOut} chars`);
  }
  if (cuts.length > 0) {
    match.cut = `${cuts.join(", ")}: ui_query ${JSON.stringify({ id: node.id, full: true })}`;
  }
  return match;
}

/**
 * Finds the nodes under `root` (itself included) that match, in tree order: at most the
 * query's `limit`, with how many more matched. `within` names an ancestor by id, looked up
 * with `lookup`; an id that names no node under `root` throws a RangeError.
 */
export function findNodes(
  root: SemanticNode,
  query: NodeQuery,
  lookup: (id: number) => SemanticNode | undefined,
): FoundNodes {
  validateQuery(query);
  const longest = query.full === true ? Infinity : LONGEST_APP_TEXT;
  if (query.id !== undefined) return findById(root, query, lookup, longest);
  let start = root;
  let self = true;
  if (query.within !== undefined) {
    const within = lookup(query.within);
    if (within === undefined || !within.attached || !isUnder(within, root)) {
      throw new RangeError(noNodeMessage(query.within));
    }
    start = within;
    self = false;
  }
  const limit = query.limit ?? DEFAULT_QUERY_LIMIT;
  const nodes: NodeMatch[] = [];
  let more = 0;
  const stack: SemanticNode[] = self ? [start] : [...start.children].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (matchesQuery(node, query)) {
      if (nodes.length < limit) nodes.push(nodeMatch(node, longest, self ? null : start));
      else more++;
    }
    for (let index = node.children.length - 1; index >= 0; index--) {
      stack.push(node.children[index]!);
    }
  }
  return more > 0 ? { nodes, more } : { nodes };
}

/** The answer of a query with `id`: that node, when it matches the other keys. */
function findById(
  root: SemanticNode,
  query: NodeQuery,
  lookup: (id: number) => SemanticNode | undefined,
  longest: number,
): FoundNodes {
  const node = lookup(query.id!);
  if (node === undefined || !node.attached || !isUnder(node, root)) {
    throw new RangeError(noNodeMessage(query.id!));
  }
  let inside = query.within === undefined;
  let within: SemanticNode | undefined;
  if (!inside) {
    within = lookup(query.within!);
    if (within === undefined || !within.attached || !isUnder(within, root)) {
      throw new RangeError(noNodeMessage(query.within!));
    }
    inside = node !== within && isUnder(node, within);
  }
  return {
    nodes: inside && matchesQuery(node, query) ? [nodeMatch(node, longest, within)] : [],
  };
}

/** True when `node` is `root` or one of its descendants. */
export function isUnder(node: SemanticNode, root: SemanticNode): boolean {
  for (let current: SemanticNode | null = node; current !== null; current = current.parent) {
    if (current === root) return true;
  }
  return false;
}
