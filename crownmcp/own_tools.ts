/**
 * crownmcp's own tools, `list_apps` and `select_app`: their definitions, what they answer,
 * and how they sit beside the selected app's tools in `tools/list` (first, and an app's tool
 * of the same name is left out).
 *
 * @module
 */

import { matchApp } from "../runtime/agent/clients/discovery.ts";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type Server,
  SubscribeRequestSchema,
  type Tool,
  UnsubscribeRequestSchema,
} from "../runtime/agent/transport/sdk.ts";
import { PROXY_TOOL } from "../runtime/ui/tool_names.ts";
import {
  couldNotConnectMessage,
  noMatchMessage,
  SELECT_APP_NEEDS_APP,
  severalMatchMessage,
  toolError,
  toolText,
} from "./messages.ts";
import type { AppSelection } from "./selection.ts";

/** The tools crownmcp offers itself, whether or not an app is selected. */
export const OWN_TOOLS: Tool[] = [
  {
    name: PROXY_TOOL.listApps,
    description: "The CrownUI apps this user runs.",
    inputSchema: { type: "object", properties: {} },
    annotations: { readOnlyHint: true },
  },
  {
    name: PROXY_TOOL.selectApp,
    description: "Selects the app to drive; a lone app is selected for you.",
    inputSchema: {
      type: "object",
      properties: { app: { type: "string", description: "Name or name-pid" } },
      required: ["app"],
    },
    annotations: { destructiveHint: false },
  },
];

/** The names of `OWN_TOOLS`: a call of one of them is answered by crownmcp, never forwarded. */
export const OWN_TOOL_NAMES: ReadonlySet<string> = new Set(OWN_TOOLS.map((tool) => tool.name));

/** The tools the agent sees: crownmcp's own, then the app's `tools` (if a list) but for those names. */
export function withOwnTools(tools: unknown): { tools: Tool[] } {
  if (!Array.isArray(tools)) return { tools: OWN_TOOLS };
  const theirs = (tools as Tool[]).filter((tool) => !OWN_TOOL_NAMES.has(tool.name));
  return { tools: [...OWN_TOOLS, ...theirs] };
}

/**
 * `list_apps`: looks at the socket directory again and lists the apps (and any refused). An
 * app that did not answer carries `not_answering`, what was seen; the selected app carries
 * `dropped_tools` when some of its tools were not fit for the agent (`app_tools.ts`). It waits
 * for an app being selected on its own only briefly (`settled()`), never for an app that does
 * not answer.
 */
export async function listApps(selection: AppSelection): Promise<CallToolResult> {
  selection.takeScan(await selection.scanNow());
  const selected = selection.current?.entry.app;
  if (selected !== undefined && !selection.apps.some((app) => app.app === selected)) {
    selection.lost(selection.current!.entry);
  } else {
    selection.autoSelect();
  }
  selection.current?.liveness.check(); // not waited for: the next list_apps has the verdict
  await selection.settled();
  const current = selection.current;
  const apps = selection.apps.map((app) => {
    const notAnswering = selection.notAnswering(app);
    const selected = app.app === current?.entry.app;
    const dropped = selected ? current!.tools.dropped : [];
    return {
      ...app,
      selected,
      ...(notAnswering === undefined ? {} : { not_answering: notAnswering }),
      ...(dropped.length === 0 ? {} : { dropped_tools: dropped }),
    };
  });
  const refused = selection.refused;
  return toolText(JSON.stringify(refused.length === 0 ? { apps } : { apps, refused }));
}

/** `select_app`: selects the app `args.app` names; any select asks for a new read. */
export async function selectApp(
  selection: AppSelection,
  args: Record<string, unknown> | undefined,
): Promise<CallToolResult> {
  const wanted = args?.app;
  if (typeof wanted !== "string" || wanted === "") return toolError(SELECT_APP_NEEDS_APP);
  selection.takeScan(await selection.scanNow());
  const match = matchApp(selection.apps, wanted);
  if (match.kind === "none") {
    return toolError(noMatchMessage(wanted, selection.apps, selection.refused));
  }
  if (match.kind === "several") return toolError(severalMatchMessage(wanted, match.apps));
  if (selection.connecting !== null) await selection.connecting;
  try {
    await selection.select(match.app);
  } catch (e) {
    return toolError(couldNotConnectMessage(match.app.app, e));
  }
  selection.exited = null; // the agent chose; it knows which app it talks to
  selection.changed(); // any select_app, even of the app already selected, asks for a new read
  return toolText(
    JSON.stringify({ selected: match.app.app, name: match.app.name, pid: match.app.pid }),
  );
}

/**
 * Makes `server` (the SDK's, on the agent's side) answer what crownmcp answers itself:
 * `tools/list` (from what `selection` keeps: it never waits on the app, but for a first try to
 * connect, briefly), `list_apps` and `select_app`. Forwarded requests never reach it; their
 * handlers are registered so that the SDK refuses malformed ones as it always did.
 */
export function serveOwnRequests(server: Server, selection: AppSelection): void {
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    await selection.settled();
    const current = selection.current;
    return current === null ? { tools: OWN_TOOLS } : withOwnTools(current.tools.list);
  });
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args } = request.params;
    if (name === PROXY_TOOL.listApps) return await listApps(selection);
    if (name === PROXY_TOOL.selectApp) return await selectApp(selection, args);
    throw new McpError(ErrorCode.InternalError, `crownmcp forwards ${name} itself`);
  });
  const forwarded = () => {
    throw new McpError(ErrorCode.InternalError, "crownmcp forwards this request itself");
  };
  server.setRequestHandler(ListResourcesRequestSchema, forwarded);
  server.setRequestHandler(ReadResourceRequestSchema, forwarded);
  server.setRequestHandler(SubscribeRequestSchema, forwarded);
  server.setRequestHandler(UnsubscribeRequestSchema, forwarded);
}
