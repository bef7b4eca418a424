/**
 * The texts crownmcp answers with itself: its instructions to the agent, the tool results
 * and errors of its own tools, and the refusals of forwarded requests (no app selected, the
 * selected app exited, `ui_act` before a read, a request that timed out or lost its app).
 * Kept together so that every sentence the agent may read from crownmcp is in one place.
 *
 * @module
 */

import type { AppEntry } from "../runtime/agent/clients/discovery.ts";
import type { CallToolResult } from "../runtime/agent/transport/sdk.ts";
import { CONFIRM_NOTE } from "../runtime/agent/session/tool_defs.ts";
import { UNTRUSTED_MEANING } from "../runtime/agent/session/untrusted.ts";

/** What crownmcp tells the agent in its `initialize` answer. */
export const INSTRUCTIONS =
  `crownmcp gives you the CrownUI apps running on this machine. With one app running it is selected for you; otherwise call list_apps and select_app. Then read ui_tree, and act with ui_act on a node id at the revision you read. Whenever the selected app changes, ui_act is refused until you have read the new app (ui_tree, ui_query or ui_wait). ${CONFIRM_NOTE} ${UNTRUSTED_MEANING}`;

/** The SDK's message for a forwarded request that could not be sent or answered. */
export const CONNECTION_CLOSED = "Connection closed";

/** The reason given for a forwarded request the app did not answer in time. */
export const TIMED_OUT = "Request timed out";

/** The tool error for a forwarded `tools/call` while no app is selected. */
export const NO_APP_FOR_TOOL =
  "no app is selected: call list_apps to see the running apps, then select_app";

/** The JSON-RPC error message for another forwarded request while no app is selected. */
export const NO_APP_FOR_REQUEST = "no app is selected: call list_apps, then select_app";

/** The tool error for `select_app` without a usable `app` argument. */
export const SELECT_APP_NEEDS_APP =
  `invalid arguments: select_app needs "app", a name such as notes or notes-4242`;

/** A successful tool result holding `value` as its one text. */
export function toolText(value: string): CallToolResult {
  return { content: [{ type: "text", text: value }] };
}

/** A tool result that reports `message` as an error. */
export function toolError(message: string): CallToolResult {
  return { content: [{ type: "text", text: message }], isError: true };
}

/** The message of an error from the SDK, without the `MCP error -32000: ` prefixes. */
export function plainMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/^(MCP error -?\d+: )+/, "");
}

/** Why connecting to `app` failed. */
export function couldNotConnectMessage(app: string, error: unknown): string {
  return `could not connect to ${app}: ${plainMessage(error)}`;
}

/** The one failed call after `exited` exited, naming the app selected `now`, if any. */
export function exitedMessage(exited: AppEntry, now: AppEntry | undefined): string {
  return now === undefined
    ? `the app ${exited.app} exited and no app is selected now: call list_apps, then select_app`
    : `the app ${exited.app} exited; ${now.app} is selected now. Read ui_tree (or ui_query, ui_wait) before acting: ids and revisions of ${exited.app} mean nothing in ${now.app}, and ui_act is refused until ${now.app} has been read`;
}

/**
 * The failure of a forwarded call to the selected app `app` while it does not answer (`seen`
 * says how that showed): what crownmcp did with the call (`sent`: it had passed it on, and
 * cancelled it), and how to go on.
 */
export function notAnsweringMessage(app: AppEntry, seen: string, sent: boolean): string {
  const call = sent
    ? "crownmcp cancelled this call, so it does not run when the app wakes up"
    : "crownmcp did not pass this call on";
  return `the app ${app.app} is not answering (${seen}): it may be stopped (Ctrl+Z; fg or kill -CONT ${app.pid} continues it) or hung. ${call}; ${app.app} stays selected: retry once list_apps no longer shows it as not_answering, or select_app another app`;
}

/** The refusal of a call to `app`'s tool `name`, dropped from the agent's list for `reason`. */
export function droppedToolMessage(app: AppEntry, name: string, reason: string): string {
  return `the tool ${
    JSON.stringify(name)
  } of ${app.app} is not offered: crownmcp dropped it (${reason}); list_apps shows what was dropped and why`;
}

/** The refusal of `ui_act` before the app selected `now` has been read. */
export function readFirstMessage(now: AppEntry): string {
  return `read ${now.app} first: the selected app changed since your last read, so ids and revisions you hold may belong to another app; call ui_tree (or ui_query, ui_wait), then act on what it returns`;
}

/** `; refused: ...` naming what the last look at the directory refused, or nothing. */
export function refusedNote(refused: readonly string[]): string {
  return refused.length === 0 ? "" : `; refused: ${refused.join("; ")}`;
}

/** The tool error for `select_app` when no running app matches `wanted`. */
export function noMatchMessage(
  wanted: string,
  apps: readonly AppEntry[],
  refused: readonly string[],
): string {
  const running = apps.map((app) => app.app).join(", ") || "none";
  return `no running app matches ${JSON.stringify(wanted)}; running apps: ${running}${
    refusedNote(refused)
  }`;
}

/** The tool error for `select_app` when `wanted` matches several `apps`. */
export function severalMatchMessage(wanted: string, apps: readonly AppEntry[]): string {
  return `${JSON.stringify(wanted)} matches several apps: ${
    apps.map((app) => app.app).join(", ")
  }; call select_app with one of those`;
}
