/**
 * MCP's lifecycle on the server's side of one connection, for the app's server and for
 * `crownmcp`: a session begins with `initialize`, and only `ping` may come before it; a
 * second `initialize` on the same connection is refused. (The SDK's server answers any
 * request at any time, and a second `initialize` as if it were the first.) A request is
 * taken once `initialize` has come, before the client's `notifications/initialized`, as the
 * specification allows; notifications and responses are never refused (nothing could be
 * answered to them).
 *
 * @module
 */

import { InitializeRequestSchema, type JSONRPCMessage } from "../transport/sdk.ts";

/** The fields of a message the lifecycle looks at. */
interface Incoming {
  id?: unknown;
  method?: unknown;
}

/** The longest method name a refusal repeats. */
const SHOWN_METHOD_CHARS = 64;

function invalidRequest(id: unknown, detail: string): JSONRPCMessage {
  return {
    jsonrpc: "2.0",
    id,
    error: { code: -32600, message: `Invalid Request: ${detail}` },
  } as unknown as JSONRPCMessage;
}

/** One connection's place in MCP's lifecycle. */
export class McpLifecycle {
  #initialized = false;

  /** Whether a valid `initialize` has come. */
  get initialized(): boolean {
    return this.#initialized;
  }

  /**
   * The error to answer `message` with when the lifecycle refuses it, or null to hand it on.
   * A valid `initialize` (one the SDK's server will answer) starts the session.
   */
  refusal(message: JSONRPCMessage): JSONRPCMessage | null {
    const { id, method } = message as Incoming;
    if (typeof method !== "string" || !("id" in message) || method === "ping") return null;
    if (method === "initialize") {
      if (this.#initialized) {
        return invalidRequest(
          id,
          "initialize came a second time; this connection's session is initialized already (a new session needs a new connection)",
        );
      }
      if (InitializeRequestSchema.safeParse(message).success) this.#initialized = true;
      return null;
    }
    if (this.#initialized) return null;
    const shown = method.length > SHOWN_METHOD_CHARS
      ? `${method.slice(0, SHOWN_METHOD_CHARS)}…`
      : method;
    return invalidRequest(
      id,
      `${
        JSON.stringify(shown)
      } came before initialize; a session starts with initialize (only ping may come before it)`,
    );
  }
}
