/**
 * The types crownmcp's parts share, at the bottom of its imports: what the proxy is made with
 * and what a forwarded request holds. `proxy.ts`, `selection.ts`, `forwarding.ts` and
 * `own_tools.ts` all import them from here, so none of them needs another's module for a type
 * (they used to import each other in a circle).
 *
 * @module
 */

import type { RequestId } from "./app_link.ts";

/** What the proxy is made with. */
export interface ProxyOptions {
  /** Where apps' sockets are. */
  socketDir: string;
  /** The user whose sockets are trusted: the owner the socket directory and files must have. */
  uid: number;
  /** Sent as the `TOKEN` line to each app, when set (`CROWNMCP_TOKEN`). */
  token?: string | undefined;
  /** The version `crownmcp` reports. */
  version: string;
  /** Where log lines go (standard error). */
  log: (line: string) => void;
}

/** A request forwarded to the app and not answered yet. */
export interface Forwarded {
  /** The agent's id for it (the id toward the app differs only when the agent's has the own prefix). */
  agentId: RequestId;
  /** A `tools/call`: a JSON-RPC error from the app reaches the agent as a tool error. */
  tool: boolean;
  /** Whether a successful answer counts as having read the app. */
  read: boolean;
  /** The count of changes of the selected app when it was sent. */
  change: number;
  /** When it was sent (`performance.now()`): a silent app fails it once it has waited enough. */
  sentAt: number;
  /** The tool called, or the resource read (its uri), or the method: what the answer is of. */
  asked: string;
  /** Gives up on the request after `FORWARD_TIMEOUT_MS`. */
  timer: ReturnType<typeof setTimeout>;
  /** The resource subscription it makes or ends, when it is `resources/(un)subscribe`. */
  subscription: Subscription | undefined;
}

/** A resource subscription the agent makes (`on`) or ends. */
export interface Subscription {
  uri: string;
  on: boolean;
}
