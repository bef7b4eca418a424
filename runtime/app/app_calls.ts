/**
 * `AppCalls`: the one place that performs an action, an app tool call or an inspection on an
 * app, for every caller — the test harness, `AppHost` (an embedder's server on the UI
 * thread) and the agent bridge (the app's own server, in a worker). Each caller keeps only
 * what is its own: the harness throws the errors as they are and returns the handler's text
 * raw; the two hosts turn a refusal (`refusalOf()`) into the refusal agents read. What the
 * server adds on top (`confirm`, the rate limit, wrapping app text) lives in the server.
 *
 * @module
 */

import { ActionError } from "../input/action.ts";
import { ToolArgumentsError } from "../ui/tools.ts";
import { ToolCallProgress, type ToolProgress, ToolTimeoutError } from "../ui/tool_call.ts";
import type { App } from "./app.ts";
import {
  type InspectParts,
  inspectParts,
  type InspectSnapshot,
  inspectSnapshot,
  type PartialSnapshot,
} from "./inspect.ts";

/** The message of a call to a tool the app does not offer now. */
export function unknownToolMessage(name: string): string {
  return `unknown tool ${JSON.stringify(name)}: call tools/list for the tools this app offers now`;
}

/** A call to a tool the app does not offer now. */
export class UnknownToolError extends Error {
  /** The name that was called. */
  readonly toolName: string;

  /**
   * Creates the refusal of a call to `name`.
   *
   * @param name the tool name that was called
   */
  constructor(name: string) {
    super(unknownToolMessage(name));
    this.name = "UnknownToolError";
    this.toolName = name;
  }
}

/** A refusal the caller passes on as it is: which guard refused, and the contract's message. */
export interface CallRefusal {
  /** `invalid`, `no_node`, `modal`, `disabled`, `stale_revision`, `unknown_tool`, ... */
  kind: string;
  /** The message, without any prefix. */
  message: string;
}

/**
 * The refusal an error stands for — an action the app refused, arguments a typed tool's
 * schema refused, a tool the app does not offer — or null for an error thrown by app code
 * (whose message is the app's own text).
 */
export function refusalOf(error: unknown): CallRefusal | null {
  if (error instanceof ActionError) return { kind: error.kind, message: error.message };
  if (error instanceof ToolArgumentsError) return { kind: "invalid", message: error.message };
  if (error instanceof UnknownToolError) return { kind: "unknown_tool", message: error.message };
  if (error instanceof ToolTimeoutError) return { kind: "timeout", message: error.message };
  return null;
}

/** What a tool call may take besides the tool and its arguments. */
export interface ToolCallOptions {
  /** Receives each progress report the handler makes, until the call ends. */
  onProgress?: (report: ToolProgress) => void;
  /** When the call must have answered, in ms since the epoch: now + the tool's own deadline by default. */
  deadline?: number;
}

/** Performs actions and tool calls on one app, between its frames. */
export class AppCalls {
  readonly #app: App;

  /**
   * Creates the adapter of `app`; it holds nothing else.
   *
   * @param app the app to act on
   */
  constructor(app: App) {
    this.#app = app;
  }

  /**
   * Acts as `App.act()` does, with its arguments: on node `id` as `actor` (an agent unless
   * given), at `revision` (the current one when omitted); returns the revision after the frame
   * the action caused. An agent's action that would activate a destructive control needs
   * `confirmed` (its `"confirm": true`). Throws ActionError when refused.
   */
  act(...args: Parameters<App["act"]>): number {
    return this.#app.act(...args);
  }

  /**
   * Calls app tool `name` with its arguments as JSON text and runs the frame it caused, also
   * when the handler throws; resolves to the handler's text. Throws UnknownToolError for a
   * tool the app does not offer now, ToolArgumentsError when a typed tool's schema refuses
   * the arguments, ToolTimeoutError when an async handler has not answered by the deadline
   * (it runs on; what it answers later is dropped), and whatever the handler throws.
   */
  async callTool(
    name: string,
    argumentsJson: string,
    options: ToolCallOptions = {},
  ): Promise<string> {
    const app = this.#app;
    const tool = app.tools.get(name);
    if (tool === undefined) throw new UnknownToolError(name);
    const call = new ToolCallProgress(options.onProgress);
    const deadline = options.deadline ?? Date.now() + tool.timeoutMs;
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      // Called at once, as before: a handler that answers without waiting needs no timer.
      const answer = tool.handler(app.rt, argumentsJson, call);
      if (typeof answer === "string") return answer;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new ToolTimeoutError(name, tool.timeoutMs)),
          Math.max(0, deadline - Date.now()),
        );
      });
      return await Promise.race([answer, late]);
    } finally {
      clearTimeout(timer);
      call.end();
      app.frame();
    }
  }

  /** The inspect snapshot, after the frame that is waiting, if any. */
  inspect(): InspectSnapshot {
    if (this.#app.framePending) this.#app.frame();
    return inspectSnapshot(this.#app);
  }

  /**
   * The parts of the inspect snapshot asked for, after the frame that is waiting, if any: a
   * worker that holds the tree asks only for the signals and frames. Throws a RangeError
   * when `parts.root` names no node.
   */
  inspectParts(parts: InspectParts): PartialSnapshot {
    if (this.#app.framePending) this.#app.frame();
    return inspectParts(this.#app, parts);
  }
}
