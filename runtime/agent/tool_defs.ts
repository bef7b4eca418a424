/**
 * The tools every app offers (`ui_tree`, `ui_query`, `ui_wait`, `ui_act`, `ui_screenshot`,
 * `inspect_snapshot`), as `tools/list` describes them, and how app tools are described: a
 * destructive one carries `destructiveHint: true` and a required `confirm` argument.
 *
 * @module
 */

import { actionSchema } from "../input/actions.ts";
import { INSPECT_SECTIONS } from "../app/inspect.ts";
import { DEFAULT_TREE_BYTES, MAX_TREE_BYTES, QUERY_STATES, ROLES } from "../semantics/mod.ts";
import { BUILTIN_TOOL } from "../ui/tool_names.ts";
import type { ToolInfo } from "./host.ts";
import type { Tool } from "./sdk.ts";

/**
 * The schema of a query's arguments, with `extra` properties. `ui_query` lists the roles and
 * states and says what each key means; `ui_wait`'s description refers to it (the server names
 * them in its refusal anyway), which keeps `tools/list` short.
 */
function queryShape(extra: Record<string, unknown>, listed: boolean) {
  const described = (type: string, description: string) =>
    listed ? { type, description } : { type };
  return {
    type: "object" as const,
    properties: {
      role: listed ? { type: "string", enum: [...ROLES] } : { type: "string" },
      name: described("string", "Whole name"),
      text: described("string", "Substring of name or value"),
      within: described("integer", "Ancestor id"),
      state: listed ? { type: "string", enum: [...QUERY_STATES] } : { type: "string" },
      ...extra,
    },
  };
}

/** The built-in tools, in the order `tools/list` gives them. */
export const BUILTIN_TOOLS: Tool[] = [
  {
    name: BUILTIN_TOOL.tree,
    description:
      "Semantic tree and revision, a node a line: role, name, #id, value, states. A … line names what was cut and the call showing it.",
    inputSchema: {
      type: "object",
      properties: {
        root: { type: "integer", description: "Subtree of this id" },
        depth: { type: "integer", minimum: 0, description: "Levels below root" },
        from: { type: "integer", minimum: 0, description: "Children of root to skip" },
        visible: { type: "boolean", description: "Only nodes on screen" },
        since: {
          type: "integer",
          description: "Only changes since this revision",
        },
        max_bytes: {
          type: "integer",
          minimum: 1,
          maximum: MAX_TREE_BYTES,
          description: `Bytes (default ${DEFAULT_TREE_BYTES})`,
        },
      },
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: BUILTIN_TOOL.query,
    description: "Finds nodes: id, role, name, path, value, states; and the revision.",
    inputSchema: queryShape({
      id: { type: "integer" },
      limit: { type: "integer", minimum: 1, description: "Most matches (default 50)" },
      full: { type: "boolean" },
    }, true),
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: BUILTIN_TOOL.wait,
    description:
      "Waits until a ui_query matches (gone: none does; since alone: a later revision); answers like ui_query.",
    inputSchema: queryShape({
      id: { type: "integer", description: "One node, with state" },
      gone: { type: "boolean" },
      since: { type: "integer" },
      timeout_ms: { type: "integer", minimum: 0, maximum: 30000, description: "Default 5000" },
    }, false),
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: BUILTIN_TOOL.act,
    description:
      'Acts as a person would: {"action":"click"}; each takes its field (press_key keybind: Enter, Ctrl+A). Answers revision and changes.',
    inputSchema: {
      type: "object",
      properties: {
        id: { type: "integer" },
        revision: { type: "integer", description: "Of the read" },
        action: actionSchema(),
      },
      required: ["id", "revision", "action"],
    },
    annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  },
  {
    name: BUILTIN_TOOL.screenshot,
    description: "The window as PNG, if the compositor allows.",
    inputSchema: { type: "object", properties: {} },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: BUILTIN_TOOL.inspect,
    description: "Tree, layout in cells, signals, frame timings; cut says what was left out.",
    inputSchema: {
      type: "object",
      properties: {
        sections: { type: "array", items: { enum: [...INSPECT_SECTIONS] } },
        root: { type: "integer" },
        from: { type: "integer", minimum: 0 },
        max_bytes: { type: "integer", minimum: 1024, maximum: MAX_TREE_BYTES },
      },
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
];

/** The names of the built-in tools. */
export const BUILTIN_TOOL_NAMES: ReadonlySet<string> = new Set(Object.values(BUILTIN_TOOL));

/** The argument a destructive tool requires. */
export const CONFIRM_PROPERTY = {
  type: "boolean",
  description: "true once the user approved",
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
