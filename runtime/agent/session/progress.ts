/**
 * A tool call's progress, as the agent gets it: MCP `notifications/progress` carrying the
 * `progressToken` the agent sent with its `tools/call`. An app that reports in a tight loop
 * must not flood the agent: at most one notification goes out per interval, the latest report
 * held back for the end of it.
 *
 * The answer waits a moment after the last notification (`end()`). The SDK's client handles a
 * notification a microtask later than a response read in the same chunk: a progress
 * notification written just before the answer, which crownmcp's pipe then delivers with it,
 * would reach a request already answered, be lost, and be reported as an error of the client.
 *
 * @module
 */

import type { ToolProgress } from "../../ui/tool_call.ts";

/** The shortest time between two progress notifications of one call, in ms. */
export const PROGRESS_INTERVAL_MS = 100;

/** The shortest time between a call's last progress notification and its answer, in ms. */
export const ANSWER_GAP_MS = 100;

/** A `notifications/progress` message, as the SDK's `sendNotification` takes it. */
export interface ProgressNotification {
  method: "notifications/progress";
  params: { progressToken: string | number } & ToolProgress;
}

/** Sends one call's progress reports to the agent that asked for them. */
export class ProgressNotifier {
  readonly #token: string | number;
  readonly #send: (notification: ProgressNotification) => Promise<void>;
  #lastSent = -Infinity;
  #held: ToolProgress | null = null;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #ended = false;

  /**
   * Creates the notifier of one call.
   *
   * @param token the `progressToken` of the agent's request
   * @param send sends a notification on the request's connection
   */
  constructor(token: string | number, send: (notification: ProgressNotification) => Promise<void>) {
    this.#token = token;
    this.#send = send;
  }

  /** Sends `report` now, or at the end of the interval if one went out less than it ago. */
  report(report: ToolProgress): void {
    if (this.#ended) return;
    const wait = this.#lastSent + PROGRESS_INTERVAL_MS - performance.now();
    if (wait <= 0) return this.#sendNow(report);
    this.#held = report;
    this.#timer ??= setTimeout(() => {
      this.#timer = undefined;
      const held = this.#held;
      this.#held = null;
      if (held !== null && !this.#ended) this.#sendNow(held);
    }, wait);
  }

  /**
   * Ends the call: a report held back goes out now, later ones are dropped, and it settles
   * once `ANSWER_GAP_MS` have passed since the last notification, when the answer may go.
   */
  async end(): Promise<void> {
    if (this.#ended) return;
    this.#ended = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const held = this.#held;
    this.#held = null;
    if (held !== null) this.#sendNow(held);
    const wait = this.#lastSent + ANSWER_GAP_MS - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }

  #sendNow(report: ToolProgress): void {
    this.#lastSent = performance.now();
    this.#send({
      method: "notifications/progress",
      params: { progressToken: this.#token, ...report },
    }).catch(() => {}); // the connection closed: nobody is left to tell
  }
}
