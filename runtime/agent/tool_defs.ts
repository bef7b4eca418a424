/**
 * The tools every app offers (`ui_tree`, `ui_query`, `ui_wait`, `ui_act`, `ui_screenshot`,
 * `inspect_snapshot`), as `tools/list` describes them, and how app tools are described: a
 * destructive one carries `destructiveHint: true` and a required `confirm` argument.
 *
 * @module
 */

import { ACTION_NAMES } from "../input/action.ts";
import { DEFAULT_TREE_BYTES, MAX_TREE_BYTES, QUERY_STATES, ROLES } from "../semantics/mod.ts";
import type { ToolInfo } from "./host.ts";
import type { Tool } from "./sdk.ts";

const point = (what: string) => ({
  type: "object",
  description: what,
  properties: { x: { type: "number" }, y: { type: "number" } },
  required: ["x", "y"],
});

/**
 * The schema of a query's arguments, with `extra` properties. `ui_query` lists the roles and
 * states; `ui_wait` refers to it (the server names them in its refusal anyway), which keeps
 * `tools/list` short.
 */
function queryShape(extra: Record<string, unknown>, listed: boolean) {
  return {
    type: "object" as const,
    properties: {
      role: listed ? { type: "string", enum: [...ROLES] } : { type: "string" },
      name: { type: "string", description: "The whole name" },
      text: { type: "string", description: "A substring of the name or value" },
      within: { type: "integer", description: "An ancestor's id" },
      state: listed
        ? { type: "string", enum: [...QUERY_STATES], description: "enabled = not disabled" }
        : { type: "string", description: "As in ui_query" },
      ...extra,
    },
  };
}

/** The built-in tools, in the order `tools/list` gives them. */
export const BUILTIN_TOOLS: Tool[] = [
  {
    name: "ui_tree",
    title: "Read the UI tree",
    description:
      "The app's semantic tree as indented text, one node a line (role, name, #id, value, states), and the revision to act at. A line starting … says what was cut and the arguments that show it.",
    inputSchema: {
      type: "object",
      properties: {
        root: { type: "integer", description: "Only this node's subtree" },
        depth: { type: "integer", minimum: 0, description: "Levels below root" },
        from: { type: "integer", minimum: 0, description: "Skip this many of root's children" },
        visible: { type: "boolean", description: "Only nodes on screen" },
        since: {
          type: "integer",
          description: "A revision: only what changed since (+ added, - removed, ~ changed)",
        },
        max_bytes: {
          type: "integer",
          minimum: 1,
          maximum: MAX_TREE_BYTES,
          description: `Text budget in bytes (default ${DEFAULT_TREE_BYTES})`,
        },
      },
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: "ui_query",
    title: "Find UI nodes",
    description:
      "Finds nodes by role, whole name, text (a substring of name or value), ancestor and state. Returns each match's id, role, name, path, value and states, with the revision.",
    inputSchema: queryShape({
      limit: { type: "integer", minimum: 1, description: "At most this many matches (50)" },
    }, true),
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: "ui_wait",
    title: "Wait for the UI",
    description:
      'Waits until a node matches (with "gone": true, until none does; with only since, until the revision passes it), then returns the revision and the matches. Times out with an error.',
    inputSchema: queryShape({
      id: { type: "integer", description: "One node: wait for it to have state" },
      gone: { type: "boolean", description: "Wait until nothing matches" },
      since: { type: "integer", description: "Answer only at a later revision" },
      timeout_ms: { type: "integer", minimum: 0, maximum: 30000, description: "Default 5000" },
    }, false),
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: "ui_act",
    title: "Act on a UI node",
    description:
      'Performs an action on the node with this id, as a person\'s input would, at the revision you last read. Actions: {"action":"click"}, {"action":"double_click"}, {"action":"hover"}, {"action":"focus"}, {"action":"type_text","text":"..."}, {"action":"press_key","keybind":"Ctrl+A"}, {"action":"scroll","delta":{"x":0,"y":3}}, {"action":"drag","to":{"x":40,"y":3}}. Returns ok, the revision after the frame the action caused, and what changed. An old revision is refused: read ui_tree again and retry.',
    inputSchema: {
      type: "object",
      properties: {
        id: { type: "integer", description: "The node's id, from ui_tree or ui_query" },
        revision: { type: "integer", description: "The revision the id was read at" },
        action: {
          type: "object",
          description: "The action, tagged by its action field",
          properties: {
            action: { type: "string", enum: [...ACTION_NAMES] },
            text: { type: "string", description: "For type_text" },
            keybind: { type: "string", description: "For press_key: Enter, Tab, Ctrl+A, ..." },
            delta: point("For scroll: cells to scroll by"),
            to: point("For drag: the point to drag to, in window cells"),
          },
          required: ["action"],
        },
      },
      required: ["id", "revision", "action"],
    },
    annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  },
  {
    name: "ui_screenshot",
    title: "Take a screenshot",
    description:
      "Returns a PNG of the app's window when the compositor offers screenshots; otherwise an error. The layout in inspect_snapshot is the alternative.",
    inputSchema: { type: "object", properties: {} },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: "inspect_snapshot",
    title: "Inspect the app",
    description:
      "Returns the semantic tree, every node's position and size in window cells, the live signals and recent frame timings, as JSON.",
    inputSchema: { type: "object", properties: {} },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
];

/** The names of the built-in tools. */
export const BUILTIN_TOOL_NAMES: ReadonlySet<string> = new Set(BUILTIN_TOOLS.map((t) => t.name));

/** The argument a destructive tool requires. */
export const CONFIRM_PROPERTY = {
  type: "boolean",
  description:
    "Must be true. This tool deletes or overwrites the user's data: ask the user for approval first.",
};

/** Describes an app tool for `tools/list`. */
export function appToolDefinition(info: ToolInfo): Tool {
  const schema = structuredClone(info.inputSchema) as Tool["inputSchema"] & {
    required?: string[];
  };
  if (info.destructive) {
    schema.properties = { ...(schema.properties ?? {}), confirm: CONFIRM_PROPERTY };
    schema.required = [...new Set([...(schema.required ?? []), "confirm"])];
  }
  return {
    name: info.name,
    description: info.description,
    inputSchema: schema,
    annotations: { destructiveHint: info.destructive, openWorldHint: false },
  };
}

/** The message for a destructive call without `"confirm": true`. */
export function confirmMessage(name: string): string {
  return `${name} deletes or overwrites the user's data: ask the user for approval, then call it again with "confirm": true`;
}
