/**
 * The messages between the UI thread and the server worker. The UI thread sends the tree
 * (whole at start, then each frame's changes) and the tool list, and answers requests; the
 * worker serves agents and asks the UI thread only for what lives there.
 *
 * @module
 */

import type { InspectSection, PartialSnapshot } from "../../app/inspect.ts";
import type { TreeUpdate } from "../../semantics/mod.ts";
import type { HostScreenshot, ToolInfo } from "./host.ts";
import type { AppCells } from "../../render/picture/app_screenshot.ts";
import type { ToolProgress } from "../../ui/tool_call.ts";

/** What the UI thread asks the worker to do. */
export type ToWorker =
  | {
    type: "start";
    socketPath: string;
    name: string;
    tree: TreeUpdate;
    tools: ToolInfo[];
  }
  | { type: "tree"; update: TreeUpdate }
  | { type: "tools"; tools: ToolInfo[] }
  | { type: "reply"; id: number; result: RequestResult }
  | { type: "progress"; id: number; report: ToolProgress }
  | { type: "stop" };

/** What the worker tells the UI thread. */
export type FromWorker =
  | { type: "listening"; path: string }
  | { type: "failed"; reason: string }
  | { type: "log"; line: string }
  | { type: "request"; id: number; call: UiCall; deadline: number }
  | { type: "stopped" };

/**
 * A request only the UI thread can answer. It travels with a deadline (ms since the epoch):
 * past it the worker has already told the agent the app did not answer, so the UI thread
 * must not act on it any more — an agent that retries would otherwise click twice.
 */
export type UiCall =
  | { kind: "act"; id: number; revision: number; action: unknown; confirm?: boolean }
  | { kind: "call_tool"; name: string; argumentsJson: string }
  | { kind: "inspect"; sections: readonly InspectSection[] }
  | { kind: "screenshot" };

/** The answer to a request. `app: true` marks an error thrown by app code. */
export type RequestResult =
  | { ok: true; value: number | string | PartialSnapshot | HostScreenshot | AppCells }
  | { ok: false; kind: string; message: string; app: boolean };
