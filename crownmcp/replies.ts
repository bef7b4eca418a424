/**
 * The answers crownmcp writes to the agent itself, rather than forwarding the app's: a
 * result, a JSON-RPC error as the SDK's server would write it, and the failure of a
 * forwarded request, which for a `tools/call` is a tool error (the agent reads its text)
 * and otherwise a JSON-RPC error.
 *
 * @module
 */

import type { RequestId } from "./app_link.ts";
import { toolError } from "./messages.ts";

/** Writes crownmcp's own answers as lines to the agent. */
export class Replies {
  readonly #write: (message: unknown) => void;

  /** @param write writes one message as a line to the agent */
  constructor(write: (message: unknown) => void) {
    this.#write = write;
  }

  /** Answers `id` with `result`. */
  result(id: RequestId, result: object): void {
    this.#write({ jsonrpc: "2.0", id, result });
  }

  /** Answers `id` with a JSON-RPC error, as the SDK's server answers an error its handler threw. */
  error(id: RequestId, code: number, message: string, data?: unknown): void {
    this.#write({
      jsonrpc: "2.0",
      id,
      error: { code, message, ...(data !== undefined ? { data } : {}) },
    });
  }

  /**
   * A forwarded request `id` failed with `message`: a tool error when it was a `tools/call`
   * (`tool`), otherwise a JSON-RPC error with `code` (and `data`).
   */
  failed(tool: boolean, id: RequestId, message: string, code: number, data?: unknown): void {
    if (tool) this.result(id, toolError(message));
    else this.error(id, code, message, data);
  }
}
