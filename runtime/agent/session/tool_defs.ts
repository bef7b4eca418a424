/**
 * What `tools/list` says: the built-in tools' definitions (each held by its record in
 * `builtin_tools.ts`), and how app tools are described: a destructive one carries
 * `destructiveHint: true` and a required `confirm` argument.
 *
 * @module
 */

import { BUILTIN_TOOL } from "../../ui/tool_names.ts";
import type { ToolInfo } from "../hosts/host.ts";
import type { Tool } from "../transport/sdk.ts";
import { BUILTINS } from "./builtin_tools.ts";

/** The built-in tools, in the order `tools/list` gives them (their records' definitions). */
export const BUILTIN_TOOLS: Tool[] = BUILTINS.map((tool) => tool.definition);

/** The names of the built-in tools. */
export const BUILTIN_TOOL_NAMES: ReadonlySet<string> = new Set(Object.values(BUILTIN_TOOL));

/**
 * What the servers' instructions say once about `ui_act`'s `confirm`, which `tools/list` only
 * names (it is paid at the start of every session).
 */
export const CONFIRM_NOTE =
  'On a node with the state destructive, ui_act needs "confirm": true, sent once the user approved.';

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
    annotations: { destructiveHint: info.destructive },
  };
}
