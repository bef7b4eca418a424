/**
 * `AppHost`: a `SemanticHost` over an `App` on the same thread. Embedders that run
 * `AgentServer` themselves use it; the app's own server uses a mirror in a worker instead.
 *
 * @module
 */

import type { App } from "../../app/app.ts";
import { AppCalls, refusalOf } from "../../app/app_calls.ts";
import type { InspectParts, PartialSnapshot } from "../../app/inspect.ts";
import {
  type ChangesAnswer,
  formatTree,
  type FoundNodes,
  type NodeQuery,
  snapshotUpdate,
  type TreeJson,
  treeToJson,
  type TreeView,
  treeViewText,
} from "../../semantics/mod.ts";
import type { AppTool } from "../../ui/tools.ts";
import {
  type ActOptions,
  HostError,
  type HostScreenshot,
  type HostScreenshotOptions,
  type HostToolCallOptions,
  type SemanticHost,
  type ToolInfo,
  viewOrRefusal,
  type WaitAnswer,
  type WaitCondition,
} from "./host.ts";
import { cellScreenshot } from "./screenshots.ts";
import { TreeWatch } from "./tree_watch.ts";

/** Describes an app tool for the server. */
export function toolInfo(tool: AppTool): ToolInfo {
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
    destructive: tool.isDestructive,
    timeoutMs: tool.timeoutMs,
  };
}

/**
 * Serves an app that runs on this thread. Changes, receipts and waits come from a mirror it
 * keeps from the app's updates (the same code the worker runs), since the app's own tree
 * holds no history.
 */
export class AppHost implements SemanticHost {
  readonly #app: App;
  readonly #calls: AppCalls;
  readonly #watch = new TreeWatch();

  /**
   * Creates a host that reads and drives `app` directly, on the caller's thread.
   *
   * @param app the app to serve
   */
  constructor(app: App) {
    this.#app = app;
    this.#calls = new AppCalls(app);
    this.#watch.apply(snapshotUpdate(app.tree));
    app.onTreeUpdate((update) => this.#watch.apply(update));
  }

  /** The tree as text. */
  treeText(): { revision: number; tree: string } {
    return { revision: this.#app.tree.revision, tree: formatTree(this.#app.tree.root) };
  }

  /** A view of the tree as text. */
  treeView(view: TreeView): { revision: number; tree: string } {
    const tree = this.#app.tree;
    return {
      revision: tree.revision,
      tree: viewOrRefusal(() => treeViewText(tree.root, view, (id) => tree.get(id))),
    };
  }

  /** The tree as JSON. */
  treeJson(): { revision: number; tree: TreeJson } {
    return { revision: this.#app.tree.revision, tree: treeToJson(this.#app.tree.root) };
  }

  /** Finds nodes. */
  query(query: NodeQuery): { revision: number } & FoundNodes {
    return this.#watch.query(query);
  }

  /** The changes since a revision. */
  changesSince(since: number, maxBytes?: number, reserve?: number): ChangesAnswer | null {
    return this.#watch.changesSince(since, maxBytes, reserve);
  }

  /** The receipt of an action made at `since`. */
  receipt(since: number, reserve?: number, acted?: number): string | undefined {
    return this.#watch.receipt(since, reserve, acted);
  }

  /** How many `ui_wait` calls are pending. */
  get waiting(): number {
    return this.#watch.waiting;
  }

  /** Waits for a condition, checked after each frame that changed the tree. */
  wait(condition: WaitCondition, signal?: AbortSignal): Promise<WaitAnswer> {
    return this.#watch.wait(condition, signal);
  }

  /** Acts as an agent. */
  act(id: number, revision: number, action: unknown, options: ActOptions = {}): Promise<number> {
    try {
      return Promise.resolve(
        this.#calls.act(id, action, revision, "agent", options.confirm === true),
      );
    } catch (error) {
      throw asHostError(error);
    }
  }

  /** The app tools. */
  tools(): ToolInfo[] {
    return this.#app.tools.list().map(toolInfo);
  }

  /** Calls an app tool and runs the frame it caused; past its deadline, a `timeout` refusal. */
  async callTool(
    name: string,
    argumentsJson: string,
    options: HostToolCallOptions = {},
  ): Promise<string> {
    const { onProgress } = options;
    try {
      return await this.#calls.callTool(
        name,
        argumentsJson,
        onProgress === undefined ? {} : { onProgress },
      );
    } catch (error) {
      throw asHostError(error);
    }
  }

  /** The inspect snapshot, or the parts of it asked for. */
  inspect(parts?: InspectParts): Promise<PartialSnapshot> {
    return Promise.resolve(viewOrRefusal(() => this.#calls.inspectParts(parts ?? {})));
  }

  /** A PNG of the app's cells. */
  screenshot(options: HostScreenshotOptions): Promise<HostScreenshot> {
    return cellScreenshot(this.#app, options);
  }

  /** Follows tree changes. */
  onTreeChange(listener: () => void): () => void {
    return this.#app.onTreeUpdate(() => listener());
  }

  /** Follows tool changes. */
  onToolsChange(listener: () => void): () => void {
    return this.#app.tools.onChange(listener);
  }
}

/** A refusal as the refusal agents read; an error thrown by app code as it is. */
function asHostError(error: unknown): unknown {
  const refusal = refusalOf(error);
  return refusal === null ? error : new HostError(refusal.kind, refusal.message);
}
