/**
 * The names of the tools that are not an app's own: the built-in tools every app's server
 * offers, and the tools `crownmcp` offers itself. The server's tool definitions, `crownmcp`'s
 * and the app-tool registry all take the names from here, so an app tool can never take one
 * (an agent would see the name twice and could call only one of them).
 *
 * @module
 */

/** The built-in tools every app's server offers, by role. */
export const BUILTIN_TOOL = {
  tree: "ui_tree",
  query: "ui_query",
  wait: "ui_wait",
  act: "ui_act",
  screenshot: "ui_screenshot",
  inspect: "inspect_snapshot",
} as const;

/** The tools `crownmcp` offers itself, besides what the selected app offers. */
export const PROXY_TOOL = {
  listApps: "list_apps",
  selectApp: "select_app",
} as const;

/** Names an app tool cannot take: the built-in tools and `crownmcp`'s own. */
export const RESERVED_TOOL_NAMES: ReadonlySet<string> = new Set<string>([
  ...Object.values(BUILTIN_TOOL),
  ...Object.values(PROXY_TOOL),
]);
