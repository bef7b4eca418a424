/**
 * `SemanticHost`: what the MCP server needs from the app it serves. The app's own server
 * runs in a worker over a tree mirror and messages to the UI thread; an embedder can start
 * `AgentServer` over any host of its own. It is the bottom of the hosts: the types every host
 * and the server share live here, and it imports no other agent module.
 *
 * @module
 */

import type { InspectParts, PartialSnapshot } from "../../app/inspect.ts";
import type {
  ChangesAnswer,
  FoundNodes,
  NodeMatch,
  NodeQuery,
  TreeJson,
  TreeView,
} from "../../semantics/mod.ts";
import type { JsonSchema } from "../../ui/tools.ts";
import type { ToolProgress } from "../../ui/tool_call.ts";

/** What a `ui_wait` waits for. */
export interface WaitCondition {
  /** The query that must match (or, with `gone`, match nothing): role, name, text, within, state. */
  query: NodeQuery;
  /** One node by id: it must exist (with `query.state`, have that state). */
  id?: number | undefined;
  /** True to wait until nothing matches. */
  gone?: boolean | undefined;
  /** Answer only at a revision after this one. */
  since?: number | undefined;
  /** How long to wait before giving up, in ms. */
  timeoutMs: number;
}

/** What a `ui_wait` answers: the revision where the condition held and the nodes matching. */
export interface WaitAnswer {
  /** The revision at which the condition held. */
  revision: number;
  /** The nodes that matched (none for `gone` and for a wait on `since` alone). */
  nodes: NodeMatch[];
  /** How many more nodes matched than `nodes` lists; absent when none. */
  more?: number;
}

/** An app tool as the server advertises it. */
export interface ToolInfo {
  /** The name agents call the tool by, such as `add_note`. */
  name: string;
  /** What the tool does, for an agent that sees nothing else. */
  description: string;
  /** The JSON Schema of the arguments object, without the `confirm` the server adds. */
  inputSchema: JsonSchema;
  /** True when the tool deletes or overwrites user data: calls then need `"confirm": true`. */
  destructive: boolean;
  /** How long a call may take, in ms, when the tool declares it (up to 60,000); else 5,000. */
  timeoutMs?: number;
}

/** What a tool call may take besides its name and arguments. */
export interface HostToolCallOptions {
  /** Receives each progress report of the call's handler, until the call ends. */
  onProgress?: ((report: ToolProgress) => void) | undefined;
}

/** What an action may take besides the node, the revision and the action. */
export interface ActOptions {
  /** The agent's `"confirm": true`, which activating a destructive control needs. */
  confirm?: boolean;
}

/** A screenshot as the server sends it: a PNG and what it shows. */
export interface HostScreenshot {
  /** The PNG file, in base64. */
  png: string;
  /** The revision of the tree when the picture was taken. */
  revision: number;
  /** `cells`: drawn from the app's own cells; `compositor`: the compositor's picture. */
  source: "cells" | "compositor";
  /** For a picture of the cells: its width in pixels. */
  width?: number;
  /** For a picture of the cells: its height in pixels. */
  height?: number;
  /** For a picture of the cells: the window's width in cells. */
  columns?: number;
  /** For a picture of the cells: the window's height in cells. */
  rows?: number;
  /** For a picture of the cells: the pixels each glyph pixel became across and down. */
  scale?: number;
}

/** What a screenshot may be asked for. */
export interface HostScreenshotOptions {
  /** 1 to 3: how many pixels each glyph pixel becomes (pictures of the cells only). */
  scale?: number;
}

/** A refusal the agent must read: the contract's message, without any prefix. */
export class HostError extends Error {
  /** Which guard refused (`stale_revision`, `disabled`, `rate_limit`, `timeout`, ...). */
  readonly kind: string;

  /**
   * Creates a refusal whose message reaches the agent as it is.
   *
   * @param kind which guard refused
   * @param message the contract's message
   */
  constructor(kind: string, message: string) {
    super(message);
    this.name = "HostError";
    this.kind = kind;
  }
}

/** What the server reads and asks of the app. */
export interface SemanticHost {
  /** The revision and the tree as text. */
  treeText(): { revision: number; tree: string };
  /**
   * The revision and a view of the tree as text (`ui_tree`'s arguments). Throws HostError
   * when `view.root` names no node.
   */
  treeView(view: TreeView): { revision: number; tree: string };
  /** The revision and the tree as nested JSON. */
  treeJson(): { revision: number; tree: TreeJson };
  /**
   * The revision and the nodes that match (at most the query's limit, with how many more).
   * Throws TypeError for a bad query, HostError for an unknown `within` id.
   */
  query(query: NodeQuery): { revision: number } & FoundNodes;
  /**
   * The net changes from revision `since` to now, within `maxBytes` of answer, `reserve` of
   * them spent outside the change text (the result's header); null when `since` is older than
   * the history kept. Throws HostError when `since` is ahead.
   */
  changesSince(since: number, maxBytes?: number, reserve?: number): ChangesAnswer | null;
  /**
   * The receipt of an action made at revision `since`: the change text from it to now, within
   * 2,048 bytes of answer, `reserve` of them spent outside the text; undefined when nothing
   * changed. `acted`: the node the action was done on, when the action focuses what it acts
   * on (all but hover and scroll): the focus it gave that node is not a change worth a line.
   */
  receipt(since: number, reserve?: number, acted?: number): string | undefined;
  /**
   * Resolves at the first revision where `condition` holds (at once when it does now);
   * rejects with HostError on timeout, for an unknown id, and when `signal` aborts.
   */
  wait(condition: WaitCondition, signal?: AbortSignal): Promise<WaitAnswer>;
  /**
   * Acts on a node at a revision; resolves to the revision after the frame, or throws
   * HostError (`confirm` for a destructive control without `options.confirm`).
   */
  act(id: number, revision: number, action: unknown, options?: ActOptions): Promise<number>;
  /** The app tools registered now. */
  tools(): ToolInfo[];
  /**
   * Calls an app tool with its arguments as JSON text; resolves to its JSON (or other) text.
   * Rejects with HostError `timeout` past the tool's deadline (`ToolInfo.timeoutMs`).
   */
  callTool(name: string, argumentsJson: string, options?: HostToolCallOptions): Promise<string>;
  /**
   * The inspect snapshot, or the parts of it asked for (every section of the whole tree when
   * `parts` is absent). Throws HostError when `parts.root` names no node.
   */
  inspect(parts?: InspectParts): Promise<PartialSnapshot>;
  /**
   * A PNG of the window: the compositor's when it offers one, else drawn from the app's own
   * cells. A host that can do neither leaves it out, and `ui_screenshot` is an error.
   */
  screenshot?: (options: HostScreenshotOptions) => Promise<HostScreenshot>;
  /** Calls `listener` after each change of the tree. */
  onTreeChange(listener: () => void): () => void;
  /** Calls `listener` after each change of the app tools. */
  onToolsChange(listener: () => void): () => void;
}

/** Runs `write`, turning the RangeError of an unknown node into the refusal agents read. */
export function viewOrRefusal<T>(write: () => T): T {
  try {
    return write();
  } catch (error) {
    if (error instanceof RangeError) throw new HostError("no_node", error.message);
    throw error;
  }
}
