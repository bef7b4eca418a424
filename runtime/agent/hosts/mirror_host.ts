/**
 * `MirrorHost`: the server worker's view of the app. Tree reads and queries come from a
 * mirror the UI thread keeps up to date; actions, tool calls and inspection are posted to
 * the UI thread, which answers between frames. A request it does not answer in 5 seconds
 * (an app tool: within its own deadline, up to 60) fails with the contract's message, and
 * the worker goes on serving. A tool call's progress reports come back the same way.
 *
 * @module
 */

import {
  INSPECT_SECTIONS,
  type InspectParts,
  orderedSnapshot,
  type PartialSnapshot,
  treeSections,
} from "../../app/inspect.ts";
import {
  type ChangesAnswer,
  formatTree,
  type FoundNodes,
  type NodeQuery,
  type TreeMirror,
  treeToJson,
  type TreeUpdate,
  type TreeView,
  treeViewText,
} from "../../semantics/mod.ts";
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
import {
  DEFAULT_TOOL_TIMEOUT_MS,
  type ToolProgress,
  toolTimeoutMessage,
} from "../../ui/tool_call.ts";
import { TreeWatch } from "./tree_watch.ts";
import type { RequestResult, UiCall } from "./worker_messages.ts";
import type { AppCells } from "../../render/picture/app_screenshot.ts";
import { drawnScreenshot } from "./screenshots.ts";

/** How long the UI thread has to answer, in milliseconds. */
export const UI_TIMEOUT_MS = 5000;

/** The message when the UI thread does not answer in time. */
export const TIMEOUT_MESSAGE = "the app did not answer within 5 seconds";

/** A request posted to the UI thread and not answered yet. */
interface PendingRequest {
  /** Takes the UI thread's answer. */
  settle: (result: RequestResult) => void;
  /** Takes a tool call's progress reports. */
  onProgress: ((report: ToolProgress) => void) | undefined;
}

/** How one request waits: how long, what it says when it gives up, where progress goes. */
interface RequestWait {
  timeoutMs: number;
  message: string;
  onProgress?: ((report: ToolProgress) => void) | undefined;
}

/** A host over a mirror and a channel to the UI thread. */
export class MirrorHost implements SemanticHost {
  /** The mirror with its change history and waits; every update goes through it. */
  readonly watch: TreeWatch = new TreeWatch();
  /** The mirror of the app's tree. */
  readonly mirror: TreeMirror = this.watch.mirror;
  readonly #post: (id: number, call: UiCall, deadline: number) => void;
  readonly #pending = new Map<number, PendingRequest>();
  readonly #treeListeners = new Set<() => void>();
  readonly #toolListeners = new Set<() => void>();
  readonly #timeoutMs: number;
  #tools: ToolInfo[] = [];
  #treeText: { revision: number; tree: string } | null = null;
  /** The last view written, by revision and arguments: a burst of one read is made once. */
  #treeView: { revision: number; key: string; tree: string } | null = null;
  #nextId = 1;

  /**
   * @param post sends a request to the UI thread
   * @param timeoutMs how long to wait for an answer
   */
  constructor(
    post: (id: number, call: UiCall, deadline: number) => void,
    timeoutMs = UI_TIMEOUT_MS,
  ) {
    this.#post = post;
    this.#timeoutMs = timeoutMs;
  }

  /** Applies a tree update from the UI thread, and answers the waits it satisfies. */
  applyTree(update: TreeUpdate): void {
    this.watch.apply(update);
    for (const listener of this.#treeListeners) listener();
  }

  /** Replaces the tool list. */
  setTools(tools: ToolInfo[]): void {
    this.#tools = tools;
    for (const listener of this.#toolListeners) listener();
  }

  /**
   * A PNG of the window: the compositor's when it offers one, else the app's cells, painted
   * on the UI thread and drawn here.
   */
  async screenshot(options: HostScreenshotOptions): Promise<HostScreenshot> {
    const answer = await this.#request({ kind: "screenshot" }) as HostScreenshot | AppCells;
    // The app's cells are drawn here, in the worker: the UI thread only painted them.
    return "frame" in answer ? await drawnScreenshot(answer, options) : answer;
  }

  /** Delivers the UI thread's answer to request `id`. */
  resolve(id: number, result: RequestResult): void {
    const pending = this.#pending.get(id);
    if (pending === undefined) return; // timed out already
    this.#pending.delete(id);
    pending.settle(result);
  }

  /** Delivers a progress report of request `id`; dropped once it was answered or timed out. */
  progress(id: number, report: ToolProgress): void {
    this.#pending.get(id)?.onProgress?.(report);
  }

  #request(
    call: UiCall,
    wait: RequestWait = { timeoutMs: this.#timeoutMs, message: TIMEOUT_MESSAGE },
  ): Promise<number | string | PartialSnapshot | HostScreenshot> {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new HostError("timeout", wait.message));
      }, wait.timeoutMs);
      const settle = (result: RequestResult) => {
        clearTimeout(timer);
        if (result.ok) resolve(result.value);
        else if (result.app) reject(new Error(result.message));
        else reject(new HostError(result.kind, result.message));
      };
      this.#pending.set(id, { settle, onProgress: wait.onProgress });
      try {
        this.#post(id, call, Date.now() + wait.timeoutMs);
      } catch (error) {
        // Arguments the structured clone cannot copy (nested too deeply, say) never reach
        // the UI thread: say so now rather than wait out the timeout.
        clearTimeout(timer);
        this.#pending.delete(id);
        reject(
          new HostError(
            "invalid",
            `invalid arguments: they could not be passed to the app: ${(error as Error).message}`,
          ),
        );
      }
    });
  }

  /** The tree as text, from the mirror. */
  treeText(): { revision: number; tree: string } {
    // An agent often reads the same revision more than once (ui_tree, then the resource):
    // the text of a large tree is formatted once per revision.
    const revision = this.mirror.revision;
    if (this.#treeText?.revision !== revision) {
      this.#treeText = { revision, tree: formatTree(this.mirror.root) };
    }
    return this.#treeText;
  }

  /** A view of the tree as text, from the mirror. */
  treeView(view: TreeView): { revision: number; tree: string } {
    const mirror = this.mirror;
    const key = JSON.stringify([
      view.root,
      view.depth,
      view.from,
      view.visible,
      view.maxBytes,
      view.reserve,
    ]);
    const cached = this.#treeView;
    if (cached?.revision === mirror.revision && cached.key === key) {
      return { revision: cached.revision, tree: cached.tree };
    }
    const tree = viewOrRefusal(() => treeViewText(mirror.root, view, (id) => mirror.get(id)));
    this.#treeView = { revision: mirror.revision, key, tree };
    return { revision: mirror.revision, tree };
  }

  /** The tree as JSON, from the mirror. */
  treeJson() {
    return { revision: this.mirror.revision, tree: treeToJson(this.mirror.root) };
  }

  /** Finds nodes in the mirror. */
  query(query: NodeQuery): { revision: number } & FoundNodes {
    return this.watch.query(query);
  }

  /** The changes since a revision, from the mirror's history. */
  changesSince(since: number, maxBytes?: number, reserve?: number): ChangesAnswer | null {
    return this.watch.changesSince(since, maxBytes, reserve);
  }

  /** The receipt of an action made at `since`, from the mirror's history. */
  receipt(since: number, reserve?: number, acted?: number): string | undefined {
    return this.watch.receipt(since, reserve, acted);
  }

  /** Waits in the worker, on the mirror: the UI thread is never asked. */
  wait(condition: WaitCondition, signal?: AbortSignal): Promise<WaitAnswer> {
    return this.watch.wait(condition, signal);
  }

  /** Asks the UI thread to act. */
  async act(
    id: number,
    revision: number,
    action: unknown,
    options: ActOptions = {},
  ): Promise<number> {
    const confirm = options.confirm === true;
    return Number(await this.#request({ kind: "act", id, revision, action, confirm }));
  }

  /** The app tools as last sent. */
  tools(): ToolInfo[] {
    return this.#tools;
  }

  /** Asks the UI thread to call an app tool, and waits as long as the tool's deadline. */
  async callTool(
    name: string,
    argumentsJson: string,
    options: HostToolCallOptions = {},
  ): Promise<string> {
    const tool = this.#tools.find((candidate) => candidate.name === name);
    const timeoutMs = tool?.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
    const wait = {
      timeoutMs,
      message: toolTimeoutMessage(name, timeoutMs),
      onProgress: options.onProgress,
    };
    return String(await this.#request({ kind: "call_tool", name, argumentsJson }, wait));
  }

  /**
   * The parts of the inspect snapshot asked for: the tree and the layout from the mirror, in
   * the worker; only the signals, frames and keybinds from the UI thread (asked first, so that the
   * mirror has the frame the UI thread ran before answering).
   */
  async inspect(parts: InspectParts = {}): Promise<PartialSnapshot> {
    const sections = parts.sections ?? INSPECT_SECTIONS;
    const mirror = this.mirror;
    const lookup = (id: number) => mirror.get(id);
    const fromMirror = () =>
      viewOrRefusal(() => treeSections(mirror.root, { sections, root: parts.root }, lookup));
    // An unknown root is refused before the UI thread is asked anything.
    if (parts.root !== undefined) {
      viewOrRefusal(() => treeSections(mirror.root, { sections: [], root: parts.root }, lookup));
    }
    const onUiThread = sections.filter((section) => section !== "tree" && section !== "layout");
    const { revision: _, ...fromUi } = onUiThread.length === 0
      ? { revision: 0 }
      : await this.#request({ kind: "inspect", sections: onUiThread }) as PartialSnapshot;
    return orderedSnapshot(mirror.revision, { ...fromMirror(), ...fromUi });
  }

  /** Follows tree changes. */
  onTreeChange(listener: () => void): () => void {
    this.#treeListeners.add(listener);
    return () => this.#treeListeners.delete(listener);
  }

  /** Follows tool changes. */
  onToolsChange(listener: () => void): () => void {
    this.#toolListeners.add(listener);
    return () => this.#toolListeners.delete(listener);
  }
}
