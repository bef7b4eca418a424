/**
 * The arguments and answers of the reads that follow changes: `ui_query`'s filters,
 * `ui_tree {"since"}`, `ui_act`'s receipt and `ui_wait`, for the built-in tools' records
 * (`builtin_tools.ts`): a check that reads the arguments and refuses bad ones with
 * `invalid arguments: ...`, and an answer from what the check read.
 *
 * @module
 */

import {
  DEFAULT_TREE_BYTES,
  MAX_CHANGES_BYTES,
  MAX_TREE_BYTES,
  MIN_CHANGES_BYTES,
  type NodeQuery,
} from "../../semantics/mod.ts";
import { HostError, type SemanticHost, type WaitCondition } from "../hosts/host.ts";
import { fitNodes } from "./node_answers.ts";
import type { CallToolResult } from "../transport/sdk.ts";
import { DEFAULT_WAIT_MS, MAX_WAIT_MS } from "../hosts/tree_watch.ts";
import { plainHeader, SINCE_HEADER_BYTES, untrustedText } from "./untrusted.ts";

/** The arguments `ui_query` takes. */
export const QUERY_KEYS: readonly string[] = [
  "role",
  "name",
  "text",
  "within",
  "state",
  "id",
  "limit",
  "full",
  "max_bytes",
];

/** The arguments `ui_wait` takes. */
export const WAIT_KEYS: readonly string[] = [
  "role",
  "name",
  "text",
  "within",
  "state",
  "id",
  "gone",
  "since",
  "timeout_ms",
];

function invalid(message: string): HostError {
  return new HostError("invalid", `invalid arguments: ${message}`);
}

function listed(keys: readonly string[]): string {
  return `${keys.slice(0, -1).join(", ")} and ${keys.at(-1)}`;
}

function checkKeys(tool: string, args: Record<string, unknown>, known: readonly string[]): void {
  const unknown = Object.keys(args).filter((key) => !known.includes(key));
  if (unknown.length > 0) {
    throw invalid(`${tool} takes ${listed(known)}, got ${unknown.join(", ")}`);
  }
}

function optionalString(args: Record<string, unknown>, key: string): string | undefined {
  const value = args[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw invalid(`${key} must be a string`);
  return value;
}

function optionalWhole(
  args: Record<string, unknown>,
  key: string,
  least: number,
  most = Number.MAX_SAFE_INTEGER,
): number | undefined {
  const value = args[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < least || value > most) {
    const range = most === Number.MAX_SAFE_INTEGER
      ? `of at least ${least}`
      : `from ${least} to ${most}`;
    throw invalid(`${key} must be a whole number ${range}, got ${JSON.stringify(value)}`);
  }
  return value;
}

/** Runs `read`, turning a TypeError (a bad query) into the refusal agents read. */
function checked<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof TypeError) {
      const message = error.message.startsWith("invalid ")
        ? error.message
        : `invalid arguments: ${error.message}`;
      throw new HostError("invalid", message);
    }
    throw error;
  }
}

function queryOf(args: Record<string, unknown>): NodeQuery {
  return {
    role: optionalString(args, "role"),
    name: optionalString(args, "name"),
    text: optionalString(args, "text"),
    within: optionalWhole(args, "within", 0),
    state: optionalString(args, "state"),
  };
}

/** Reads `ui_query`'s arguments into a query; throws HostError for bad ones. */
export function queryArguments(args: Record<string, unknown>): NodeQuery {
  checkKeys("ui_query", args, QUERY_KEYS);
  const full = args.full;
  if (full !== undefined && full !== null && typeof full !== "boolean") {
    throw invalid("full must be true or false");
  }
  return {
    ...queryOf(args),
    id: optionalWhole(args, "id", 0),
    limit: optionalWhole(args, "limit", 1),
    full: full === true,
  };
}

/** What `ui_query` asks: the query and the answer's budget. */
export interface QueryRequest {
  query: NodeQuery;
  /** `max_bytes`: 32,768 by default, the largest budget with `full`. */
  budget: number;
}

/** Reads `ui_query`'s arguments with its budget; throws HostError for bad ones. */
export function queryRequest(args: Record<string, unknown>): QueryRequest {
  const query = queryArguments(args);
  const budget = optionalWhole(args, "max_bytes", MIN_CHANGES_BYTES, MAX_TREE_BYTES) ??
    (query.full ? MAX_TREE_BYTES : DEFAULT_TREE_BYTES);
  return { query, budget };
}

/**
 * Answers `ui_query`: the matches with their values and states, marked as app data, within
 * the budget of answer: the matches past it count in `more`.
 */
export function answerQuery(host: SemanticHost, { query, budget }: QueryRequest): CallToolResult {
  const found = checked(() => host.query(query));
  const text = fitNodes(found, budget);
  if (text === null) {
    throw new HostError(
      "invalid",
      `the first match alone is more than max_bytes ${budget}; call again with a larger max_bytes (at most ${MAX_TREE_BYTES}), or without full`,
    );
  }
  return textOf(text);
}

/** What `ui_tree {"since": R}` asks: the revision, and `max_bytes` when given. */
export interface SinceRequest {
  since: number;
  maxBytes: number | undefined;
}

/** Reads `ui_tree {"since": R}`'s arguments (`max_bytes` at most beside it). */
export function sinceRequest(args: Record<string, unknown>): SinceRequest {
  const others = Object.keys(args).filter((key) => key !== "since" && key !== "max_bytes");
  if (others.length > 0) {
    throw invalid(`since takes only max_bytes beside it, got ${others.join(", ")}`);
  }
  const since = args.since;
  if (typeof since !== "number" || !Number.isSafeInteger(since) || since < 0) {
    throw invalid(`since must be a revision (a whole number), got ${JSON.stringify(since)}`);
  }
  return {
    since,
    maxBytes: optionalWhole(args, "max_bytes", MIN_CHANGES_BYTES, MAX_CHANGES_BYTES),
  };
}

/**
 * Answers `ui_tree {"since": R}`: the change text since R, or, when R is no longer kept, what
 * `fullTree` answers (the tree as `ui_tree` gives it).
 */
export function answerSince(
  host: SemanticHost,
  { since, maxBytes }: SinceRequest,
  fullTree: (maxBytes: number | undefined) => { revision: number; tree: string },
): CallToolResult {
  const answer = host.changesSince(since, maxBytes, SINCE_HEADER_BYTES);
  if (answer === null) {
    const { revision, tree } = fullTree(maxBytes);
    return textOf(untrustedText(tree, { revision }));
  }
  return textOf(
    untrustedText(answer.changes, { revision: answer.revision, since: answer.since }),
  );
}

/** The actions that do not focus the node they act on. */
const UNFOCUSING_ACTIONS: ReadonlySet<unknown> = new Set(["hover", "scroll"]);

/**
 * What `ui_act` answers after `action` on the node `id`, made at `revision`, led to `after`:
 * the new revision (`r6`) and, when anything changed, the change text, the whole marked as
 * app data. The focus the action gave the node itself is left out (the agent knows it).
 */
export function receiptResult(
  host: SemanticHost,
  revision: number,
  after: number,
  id?: number,
  action?: unknown,
): CallToolResult {
  const kind = typeof action === "object" && action !== null
    ? (action as { action?: unknown }).action
    : undefined;
  const acted = UNFOCUSING_ACTIONS.has(kind) ? undefined : id;
  const changes = host.receipt(revision, SINCE_HEADER_BYTES, acted);
  return textOf(
    changes === undefined
      ? plainHeader({ revision: after })
      : untrustedText(changes, { revision: after }),
  );
}

/** Reads `ui_wait`'s arguments into a condition; throws HostError for bad ones. */
export function waitArguments(args: Record<string, unknown>): WaitCondition {
  checkKeys("ui_wait", args, WAIT_KEYS);
  const gone = args.gone;
  if (gone !== undefined && gone !== null && typeof gone !== "boolean") {
    throw invalid("gone must be true or false");
  }
  const condition: WaitCondition = {
    query: queryOf(args),
    id: optionalWhole(args, "id", 0),
    gone: gone === true,
    since: optionalWhole(args, "since", 0),
    timeoutMs: optionalWhole(args, "timeout_ms", 0, MAX_WAIT_MS) ?? DEFAULT_WAIT_MS,
  };
  const asked = condition.id !== undefined || condition.since !== undefined ||
    Object.values(condition.query).some((value) => value !== undefined);
  if (!asked) {
    throw invalid(
      "ui_wait needs a condition: a query (role, name, text, within, state), an id, or since",
    );
  }
  return condition;
}

/**
 * Answers `ui_wait` once its condition holds: the revision and the nodes, marked as app data,
 * within 32,768 bytes (the nodes past them count in `more`).
 */
export async function answerWait(
  host: SemanticHost,
  condition: WaitCondition,
  signal?: AbortSignal,
): Promise<CallToolResult> {
  try {
    return textOf(fitNodes(await host.wait(condition, signal), DEFAULT_TREE_BYTES, true)!);
  } catch (error) {
    return checked(() => {
      throw error;
    });
  }
}

function textOf(text: string): CallToolResult {
  return { content: [{ type: "text", text }] };
}
