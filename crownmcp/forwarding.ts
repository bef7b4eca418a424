/**
 * What crownmcp forwards and how, line by line: which of the agent's requests go to the
 * selected app, which of them count as having read it, which of the app's notifications reach
 * the agent, and the id remapping — an agent's id that looks like one of crownmcp's own
 * (`OWN_ID_PREFIX`) is sent to the app under another id, and its answer and its cancellation
 * are rewritten to match. Every other line goes on as the very bytes that came in.
 *
 * @module
 */

import { MAX_TREE_BYTES } from "../runtime/semantics/mod.ts";
import { BUILTIN_TOOL } from "../runtime/ui/tool_names.ts";
import { type Message, OWN_ID_PREFIX, type RequestId } from "./app_link.ts";
import { OWN_TOOL_NAMES } from "./own_tools.ts";
import type { Forwarded, Subscription } from "./types.ts";

/** How long a forwarded request may take before the proxy gives up, in milliseconds. */
export const FORWARD_TIMEOUT_MS = 120_000;

/** A request from the agent that crownmcp forwards: the fields it reads. */
export interface AgentRequest {
  /** The agent's id. */
  id: RequestId;
  /** The forwarded method. */
  method: string;
  /** Its params, when it has any. */
  params?: Record<string, unknown>;
}

/** Forwarded tools whose successful answer counts as having read the selected app. */
const READ_TOOLS = new Set<string>([BUILTIN_TOOL.tree, BUILTIN_TOOL.query, BUILTIN_TOOL.wait]);

/**
 * Whether a read's arguments make the app show its nodes. A read relative to a revision
 * (`since`) does not: the revision may be one of the app selected before, and an empty
 * change list would then seem to say that its ids still hold.
 */
function showsNodes(args: unknown): boolean {
  return typeof args !== "object" || args === null || !("since" in args);
}

/** Resources whose successful read counts as having read the selected app. */
const READ_RESOURCES = new Set(["ui://tree", "ui://tree.json"]);

/** Methods whose requests are forwarded to the selected app (`tools/call` but for crownmcp's own tools). */
const FORWARDED_METHODS = new Set([
  "tools/call",
  "resources/list",
  "resources/read",
  "resources/subscribe",
  "resources/unsubscribe",
]);

/** Forwarded methods whose params must carry a `uri` string. */
const URI_METHODS = new Set(["resources/read", "resources/subscribe", "resources/unsubscribe"]);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** True for an id the SDK accepts on a request: a string or an integer. */
export function isRequestId(id: unknown): id is RequestId {
  return typeof id === "string" || Number.isInteger(id);
}

/**
 * True for a request crownmcp forwards: a forwarded method (not one of its own tools),
 * with an id and params as the SDK takes them. Anything else goes to the SDK's server,
 * which answers it, or refuses it as it always did.
 */
export function isForwarded(message: Message): boolean {
  const { method, params } = message;
  if (typeof method !== "string" || !FORWARDED_METHODS.has(method)) return false;
  if (!isRequestId(message.id)) return false;
  if (params === undefined) return method === "resources/list";
  if (!isPlainObject(params)) return false;
  if (method === "tools/call") {
    return typeof params.name === "string" && !OWN_TOOL_NAMES.has(params.name);
  }
  return !URI_METHODS.has(method) || typeof params.uri === "string";
}

/** The name of the tool a forwarded `tools/call` calls; `""` for other requests. */
export function calledTool(request: AgentRequest): string {
  return request.method === "tools/call" ? request.params!.name as string : "";
}

/** Whether a successful answer to `request` counts as having read the selected app. */
export function countsAsRead(request: AgentRequest): boolean {
  const { method, params } = request;
  return method === "tools/call"
    ? READ_TOOLS.has(calledTool(request)) && showsNodes(params!.arguments)
    : method === "resources/read" && READ_RESOURCES.has(params!.uri as string);
}

/**
 * The subscription `request` makes (`on`) or ends, for a `resources/subscribe` or
 * `resources/unsubscribe`: it holds once the app has answered it.
 */
export function subscriptionOf(request: AgentRequest): Subscription | undefined {
  const { method, params } = request;
  if (method !== "resources/subscribe" && method !== "resources/unsubscribe") return undefined;
  return { uri: params!.uri as string, on: method === "resources/subscribe" };
}

/** Whether the agent's `id` looks like one of crownmcp's own, so it must be sent as another. */
export function hasOwnPrefix(id: unknown): boolean {
  return typeof id === "string" && id.startsWith(OWN_ID_PREFIX);
}

/** The id toward the app and the entry of the agent's request `id`, if it is pending. */
export function pendingEntry(
  pending: Map<RequestId, Forwarded>,
  id: unknown,
): [RequestId, Forwarded] | undefined {
  if (hasOwnPrefix(id)) {
    for (const pair of pending) if (pair[1].agentId === id) return pair;
    return undefined;
  }
  const entry = pending.get(id as RequestId);
  return entry === undefined ? undefined : [id as RequestId, entry];
}

function encodeLine(message: object): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(message) + "\n");
}

/** The line of `request` with the id `sentId` in place of the agent's. */
export function requestWithId(request: AgentRequest, sentId: RequestId): Uint8Array {
  return encodeLine({ ...request, id: sentId });
}

/** The line of the agent's cancellation `message` naming `sentId` in place of the agent's id. */
export function cancellationWithId(message: Message, sentId: RequestId): Uint8Array {
  return encodeLine({ ...message, params: { ...message.params, requestId: sentId } });
}

/** The cancellation crownmcp sends the app itself, for the request sent as `sentId`. */
export function cancellation(sentId: RequestId, reason: string): Uint8Array {
  return encodeLine({
    jsonrpc: "2.0",
    method: "notifications/cancelled",
    params: { requestId: sentId, reason },
  });
}

/**
 * The longest line crownmcp writes to an agent, newline excluded: 8 MiB, under the 10 MiB the
 * MCP SDK's stdio client reads before it gives up on the whole session.
 */
export const MAX_AGENT_LINE_BYTES = 8 * 1024 * 1024;

/** How to ask for less of what `asked` names. */
function smallerAsk(asked: string): string {
  const budget = `"max_bytes" (at most ${MAX_TREE_BYTES})`;
  switch (asked) {
    case BUILTIN_TOOL.tree:
    case "ui://tree":
    case "ui://tree.json":
      return `read ui_tree with ${budget}, or a part of the tree with root, depth and from`;
    case BUILTIN_TOOL.inspect:
    case "inspect://snapshot":
      return `call inspect_snapshot with ${budget}, fewer sections or a root`;
    case BUILTIN_TOOL.query:
    case BUILTIN_TOOL.wait:
      return `call ${BUILTIN_TOOL.query} with ${budget}, a lower limit, or without full`;
    default:
      return `ask ${asked} for less`;
  }
}

/**
 * The answer crownmcp writes instead of the app's `line` (newline included) when the line is
 * longer than {@link MAX_AGENT_LINE_BYTES}: for a tool call a tool error, else a JSON-RPC
 * error, each naming the size and the budget to ask with. Null when the line fits.
 */
export function oversizeAnswer(entry: Forwarded, line: Uint8Array): object | null {
  const size = line.length - 1;
  if (size <= MAX_AGENT_LINE_BYTES) return null;
  const message =
    `the answer of ${entry.asked} is ${size} bytes, more than the ${MAX_AGENT_LINE_BYTES} crownmcp writes on one line to an agent; ${
      smallerAsk(entry.asked)
    }`;
  return entry.tool
    ? {
      jsonrpc: "2.0",
      id: entry.agentId,
      result: { content: [{ type: "text", text: message }], isError: true },
    }
    : { jsonrpc: "2.0", id: entry.agentId, error: { code: -32603, message } };
}

/** What a forwarded `request` asks for: the tool's name, the resource's uri, or the method. */
export function askedOf(request: AgentRequest): string {
  if (request.method === "tools/call") return calledTool(request);
  const uri = request.params?.uri;
  return typeof uri === "string" ? uri : request.method;
}
