/**
 * One call of an app tool, as its handler sees it: the deadline it runs under and the
 * progress it reports. A tool has 5 seconds unless it declares a longer deadline (up to 60);
 * past it the caller gets {@link ToolTimeoutError}, whose message names the deadline. While
 * it runs, `call.progress(done, total?, message?)` reports how far it got: an agent that
 * asked for progress (MCP's `progressToken`) gets each report as `notifications/progress`.
 *
 * @module
 */

/** How long an app tool may take when it declares no deadline, in ms: 5 seconds. */
export const DEFAULT_TOOL_TIMEOUT_MS = 5000;

/** The longest deadline an app tool may declare, in ms: 60 seconds. */
export const MAX_TOOL_TIMEOUT_MS = 60_000;

/** The longest progress message passed on, in characters; the rest is cut. */
export const PROGRESS_MESSAGE_LIMIT = 200;

/** One progress report, as MCP's `notifications/progress` carries it. */
export interface ToolProgress {
  /** How much is done; it grows from one report to the next. */
  progress: number;
  /** How much there is in all, when known. */
  total?: number;
  /** What is being done now, in a few words (app text). */
  message?: string;
}

/** What a tool's handler gets besides its arguments, for the one call it runs. */
export interface ToolCall {
  /**
   * Reports how far the call has got: `done` of `total` (when known), with a short message.
   * An agent that asked for progress gets it as an MCP progress notification; otherwise it
   * goes nowhere. `done` must be a finite number greater than the last one reported (MCP's
   * rule), else this throws a RangeError. Reports after the call ended are dropped.
   */
  progress(done: number, total?: number, message?: string): void;
}

/**
 * Checks a declared deadline: a whole number of ms from 1 to 60,000. Throws a RangeError
 * naming the tool otherwise.
 *
 * @returns the deadline, as given
 */
export function checkToolTimeout(name: string, timeoutMs: number): number {
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > MAX_TOOL_TIMEOUT_MS) {
    throw new RangeError(
      `invalid timeout for ${name}: ${timeoutMs} ms; an app tool's deadline is a whole number of ms from 1 to ${MAX_TOOL_TIMEOUT_MS} (60 seconds), ${DEFAULT_TOOL_TIMEOUT_MS} when it declares none`,
    );
  }
  return timeoutMs;
}

/** `ms` as the timeout messages say it: "5 seconds", "1 second", "2.5 seconds". */
function inSeconds(ms: number): string {
  const seconds = ms / 1000;
  return `${seconds} second${seconds === 1 ? "" : "s"}`;
}

/**
 * The message for a destructive call without `"confirm": true`: an app tool's (`what` is its
 * name) and `ui_act`'s on a destructive control (`what` names the node by role and id, never
 * by its text, which is the app's).
 *
 * @example
 * ```ts
 * import { confirmMessage } from "@crownui/runtime/agent";
 * import assert from "node:assert/strict";
 *
 * assert.match(confirmMessage("delete_note"), /^delete_note deletes .*"confirm": true$/);
 * ```
 */
export function confirmMessage(what: string): string {
  return `${what} deletes or overwrites the user's data: ask the user for approval, then call it again with "confirm": true`;
}

/**
 * The message of a call that ran past its tool's deadline. It starts with the contract's
 * phrase (`the app did not answer within 5 seconds` for a tool that declares none) and says
 * what the deadline is and that the tool may still be running.
 */
export function toolTimeoutMessage(name: string, timeoutMs: number): string {
  return `the app did not answer within ${
    inSeconds(timeoutMs)
  }, the deadline of ${name} (an app tool has ${
    inSeconds(DEFAULT_TOOL_TIMEOUT_MS)
  } unless it declares a longer one, up to ${
    inSeconds(MAX_TOOL_TIMEOUT_MS)
  }); it may still be running: read the app before calling it again`;
}

/** A call that ran past its tool's deadline; the message names the deadline. */
export class ToolTimeoutError extends Error {
  /** The tool that was called. */
  readonly toolName: string;

  /**
   * Creates the refusal of a call to `name` that ran past `timeoutMs`.
   *
   * @param name the tool that was called
   * @param timeoutMs its deadline, in ms
   */
  constructor(name: string, timeoutMs: number) {
    super(toolTimeoutMessage(name, timeoutMs));
    this.name = "ToolTimeoutError";
    this.toolName = name;
  }
}

/**
 * The `ToolCall` of one call: checks each report and hands it to `sink` until `end()`. With
 * no sink (nobody asked for progress) reports are still checked, then dropped.
 */
export class ToolCallProgress implements ToolCall {
  readonly #sink: ((report: ToolProgress) => void) | undefined;
  #last = -Infinity;
  #ended = false;

  /**
   * Creates the progress of one call.
   *
   * @param sink receives each report, already checked
   */
  constructor(sink?: (report: ToolProgress) => void) {
    this.#sink = sink;
  }

  /** Reports progress; see {@link ToolCall.progress}. */
  progress(done: number, total?: number, message?: string): void {
    if (typeof done !== "number" || !Number.isFinite(done)) {
      throw new RangeError(`call.progress() takes a finite number of what is done, got ${done}`);
    }
    if (done <= this.#last) {
      throw new RangeError(
        `call.progress() must report more than last time: got ${done} after ${this.#last}`,
      );
    }
    if (total !== undefined && (typeof total !== "number" || !Number.isFinite(total))) {
      throw new RangeError(`call.progress() takes a finite total or none, got ${total}`);
    }
    this.#last = done;
    if (this.#ended || this.#sink === undefined) return;
    const report: ToolProgress = { progress: done };
    if (total !== undefined) report.total = total;
    if (message !== undefined) report.message = String(message).slice(0, PROGRESS_MESSAGE_LIMIT);
    this.#sink(report);
  }

  /** Ends the call: later reports are checked and dropped. */
  end(): void {
    this.#ended = true;
  }
}
