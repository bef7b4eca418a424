/**
 * The agent's side of crownmcp as the SDK's `Server` sees it: a transport that is handed
 * the messages crownmcp does not forward, and writes the server's answers to the agent's
 * standard output as lines.
 *
 * @module
 */

import type { JSONRPCMessage, Transport } from "../runtime/agent/transport/sdk.ts";
import type { AgentStdio } from "./lines.ts";

/**
 * The agent's side as the SDK's `Server` sees it: messages crownmcp hands it, answers
 * written to standard output as lines.
 */
export class ServerSide implements Transport {
  /** Set by the SDK's server. */
  onclose?: () => void;
  /** Set by the SDK's server. */
  onerror?: (error: Error) => void;
  /** Set by the SDK's server: crownmcp calls it with each message it does not forward. */
  onmessage?: (message: JSONRPCMessage) => void;
  readonly #stdio: AgentStdio;

  /** Writes answers to `stdio`. */
  constructor(stdio: AgentStdio) {
    this.#stdio = stdio;
  }

  /** Nothing to start: crownmcp reads the agent's lines. */
  start(): Promise<void> {
    return Promise.resolve();
  }

  /** Writes `message` to the agent as one line. */
  send(message: JSONRPCMessage): Promise<void> {
    this.#stdio.writeMessage(message);
    return Promise.resolve();
  }

  /** Tells the SDK's server the agent's side closed. */
  close(): Promise<void> {
    this.onclose?.();
    return Promise.resolve();
  }
}
