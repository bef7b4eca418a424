/**
 * The `crowndev` commands: `apps`, `tree`, `inspect`, `act`, `wait`, `watch` and `screenshot`, each over
 * the same client pieces `crownmcp` uses (discovery, the socket transport, the token line).
 *
 * @module
 */

import { connectToApp } from "../runtime/agent/clients/client.ts";
import {
  type AppEntry,
  type AppScan,
  checkAppSocket,
  listApps,
  matchApp,
} from "../runtime/agent/clients/discovery.ts";
import {
  type CallToolResult,
  type Client,
  ErrorCode,
  McpError,
  ResourceUpdatedNotificationSchema,
} from "../runtime/agent/transport/sdk.ts";
import { SocketDirectoryError } from "../runtime/agent/transport/socket_dir.ts";
import { readAnswer } from "../runtime/agent/session/untrusted.ts";
import { CliError, colourTree, EXIT, type Palette } from "./output.ts";
import type { CliQuery } from "./parse.ts";

/** What every command gets. */
export interface CommandContext {
  socketDir: string;
  /** The user whose sockets are trusted: the owner the socket directory and files must have. */
  uid: number;
  /** How long connecting, and each request, may wait for the app (`--timeout`), in ms. */
  timeoutMs: number;
  token: string | undefined;
  json: boolean;
  /** Colours for standard output. */
  colours: Palette;
  /** Writes a line to standard output. */
  out(line: string): void;
  /** Writes a warning to standard error. */
  warn(line: string): void;
}

function describeApps(apps: readonly AppEntry[]): string {
  return apps.map((app) => app.app).join(", ");
}

/**
 * Lists the apps; every socket directory or socket refused as unsafe is named on standard
 * error and nothing from it is listed.
 */
async function scanApps(context: CommandContext): Promise<AppScan> {
  const scan = await listApps(context.socketDir, context.uid);
  for (const refused of scan.refused) context.warn(`refused ${refused}`);
  return scan;
}

/** Finds the app a command means: the one named, or the only one running. */
export async function resolveApp(
  context: CommandContext,
  wanted: string | undefined,
): Promise<AppEntry> {
  const { apps } = await scanApps(context);
  if (wanted === undefined) {
    if (apps.length === 1) return apps[0]!;
    if (apps.length === 0) {
      throw new CliError(EXIT.noApp, `no CrownUI app is running (looked in ${context.socketDir})`);
    }
    throw new CliError(
      EXIT.severalMatches,
      `several apps are running: ${describeApps(apps)}; name one (a name or a name-pid)`,
    );
  }
  const match = matchApp(apps, wanted);
  if (match.kind === "one") return match.app;
  if (match.kind === "several") {
    throw new CliError(
      EXIT.severalMatches,
      `${JSON.stringify(wanted)} matches several apps: ${
        describeApps(match.apps)
      }; use the name-pid`,
    );
  }
  const running = apps.length === 0 ? "none is running" : `running: ${describeApps(apps)}`;
  throw new CliError(EXIT.noApp, `no running app matches ${JSON.stringify(wanted)} (${running})`);
}

/** A client connected to one app, and how long it waits for each answer. */
interface AppSession {
  client: Client;
  app: AppEntry;
  timeoutMs: number;
}

/**
 * The error for an app that did not answer within `timeoutMs` while crowndev `waited` (for
 * the connection, `initialize`, a tool): the process may be stopped or hung.
 */
function noAnswer(app: AppEntry, timeoutMs: number, waited: string): CliError {
  return new CliError(
    EXIT.connection,
    `${app.app} did not answer within ${timeoutMs} ms (${waited}): it may be stopped (Ctrl+Z; fg or kill -CONT ${app.pid} continues it) or hung; --timeout MS waits longer`,
  );
}

/** True for the SDK's error for a request that was not answered in time. */
function timedOut(error: unknown): boolean {
  return error instanceof McpError && error.code === ErrorCode.RequestTimeout;
}

async function connect(context: CommandContext, app: AppEntry): Promise<AppSession> {
  try {
    checkAppSocket(app, context.uid); // again, right before connecting
  } catch (error) {
    const reason = error instanceof SocketDirectoryError
      ? `${error.path}: ${error.reason}`
      : `${app.socket}: ${(error as Error).message}`;
    throw new CliError(EXIT.noApp, `refused ${reason}`);
  }
  const timeoutMs = context.timeoutMs;
  try {
    const client = await connectToApp(app.socket, {
      token: context.token,
      name: "crowndev",
      timeoutMs,
    });
    return { client, app, timeoutMs };
  } catch (error) {
    if (timedOut(error)) throw noAnswer(app, timeoutMs, "initialize");
    const message = (error as Error).message.replace(/^(MCP error -?\d+: )+/, "");
    const hint = /connection closed/i.test(message)
      ? context.token === undefined
        ? "; the app closed the connection: if it requires a token, set CROWNMCP_TOKEN"
        : "; the app closed the connection: check that CROWNMCP_TOKEN is the app's token"
      : "";
    throw new CliError(
      EXIT.connection,
      `cannot talk to ${app.app} at ${app.socket}: ${message}${hint}`,
    );
  }
}

/** Runs `body` with a client connected to the app, closing it after. */
async function withApp<T>(
  context: CommandContext,
  wanted: string | undefined,
  body: (session: AppSession) => Promise<T>,
): Promise<T> {
  const session = await connect(context, await resolveApp(context, wanted));
  try {
    return await body(session);
  } finally {
    await session.client.close().catch(() => {});
  }
}

function resultText(result: CallToolResult): string {
  const first = result.content[0];
  return first !== undefined && first.type === "text" ? first.text : "";
}

/** Calls a tool and returns its result as it came; a tool error ends the command (exit 1). */
async function callForResult(
  session: AppSession,
  name: string,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  let result: CallToolResult;
  try {
    result = await session.client.callTool({ name, arguments: args }, undefined, {
      timeout: session.timeoutMs,
    }) as CallToolResult;
  } catch (error) {
    if (timedOut(error)) throw noAnswer(session.app, session.timeoutMs, name);
    throw new CliError(EXIT.connection, `${name} failed: ${(error as Error).message}`);
  }
  if (result.isError) throw new CliError(EXIT.toolError, resultText(result));
  return result;
}

/**
 * Calls a tool; a tool error ends the command (exit 1); the answer is read back into its
 * fields (`readAnswer`): the revision, and the JSON's fields or the text.
 */
async function call(
  session: AppSession,
  name: string,
  args: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  return readAnswer(resultText(await callForResult(session, name, args)));
}

/** `ui_tree`'s answer: the tree, or with `since` the changes. */
async function readTreeAnswer(
  session: AppSession,
  args: Record<string, unknown>,
): Promise<TreeAnswer> {
  const { revision, since, text } = await call(session, "ui_tree", args) as {
    revision: number;
    since?: number;
    text?: string;
  };
  return since === undefined
    ? { revision, tree: text ?? "" }
    : { revision, since, changes: text ?? "" };
}

/** `crowndev apps`: the running apps. */
export async function appsCommand(context: CommandContext): Promise<number> {
  const { apps, refused } = await scanApps(context);
  // A refusal is worth a non-zero exit: someone may be impersonating the user's apps.
  const code = refused.length === 0 ? EXIT.ok : EXIT.noApp;
  if (context.json) {
    context.out(JSON.stringify(refused.length === 0 ? { apps } : { apps, refused }, null, 2));
    return code;
  }
  if (apps.length === 0) {
    context.out(`no CrownUI app is running (looked in ${context.socketDir})`);
    return code;
  }
  const width = Math.max(3, ...apps.map((app) => app.app.length));
  context.out(context.colours.bold(`${"APP".padEnd(width)}  ${"PID".padStart(7)}  SOCKET`));
  for (const app of apps) {
    context.out(`${app.app.padEnd(width)}  ${String(app.pid).padStart(7)}  ${app.socket}`);
  }
  return code;
}

/**
 * What `ui_tree` answers: the tree text, or with `since` the change text (`tree` instead when
 * the app no longer keeps that revision).
 */
interface TreeAnswer {
  revision: number;
  tree?: string;
  since?: number;
  changes?: string;
}

/**
 * `crowndev tree [app]`: the semantic tree, or the view `args` asks `ui_tree` for (`root`,
 * `depth`, `from`, `visible`, `max_bytes`), or with `since` what changed since that revision.
 */
export async function treeCommand(
  context: CommandContext,
  wanted: string | undefined,
  args: Record<string, unknown> = {},
): Promise<number> {
  return await withApp(context, wanted, async (session) => {
    const answer = await readTreeAnswer(session, args);
    if (context.json) context.out(JSON.stringify(answer, null, 2));
    else if (answer.tree !== undefined) {
      context.out(colourTree(answer.tree.trimEnd(), context.colours));
    } else if (answer.changes !== undefined && answer.changes !== "") {
      context.out(answer.changes.trimEnd());
    }
    return EXIT.ok;
  });
}

/** `crowndev inspect [app]`: the inspect snapshot as JSON. */
export async function inspectCommand(
  context: CommandContext,
  wanted: string | undefined,
): Promise<number> {
  return await withApp(context, wanted, async (session) => {
    context.out(JSON.stringify(await call(session, "inspect_snapshot", {}), null, 2));
    return EXIT.ok;
  });
}

/**
 * `screenshot`: asks the app for `ui_screenshot` and writes the PNG to `file` (`-`: standard
 * output, the summary then going to standard error).
 */
export async function screenshotCommand(
  context: CommandContext,
  wanted: string | undefined,
  file: string,
  scale: number | undefined,
): Promise<number> {
  return await withApp(context, wanted, async (session) => {
    const result = await callForResult(
      session,
      "ui_screenshot",
      scale === undefined ? {} : { scale },
    );
    const image = result.content.find((content) => content.type === "image");
    if (image === undefined || image.type !== "image" || image.mimeType !== "image/png") {
      throw new CliError(
        EXIT.connection,
        `${session.app.app} answered ui_screenshot without a PNG`,
      );
    }
    const png = Uint8Array.from(atob(image.data), (char) => char.charCodeAt(0));
    const text = result.content.find((content) => content.type === "text");
    const about = text?.type === "text" ? readAnswer(text.text) : {};
    const written = file === "-" ? "standard output" : file;
    if (file === "-") await writeAll(Deno.stdout, png);
    else await Deno.writeFile(file, png);
    const summary = { file: written, bytes: png.length, ...about };
    const line = context.json
      ? JSON.stringify(summary)
      : `wrote ${written}: ${
        about.width === undefined ? "" : `${about.width}×${about.height} pixels, `
      }${(png.length / 1024).toFixed(1)} KB, revision ${about.revision}${
        about.source === "compositor" ? ", from the compositor" : ""
      }`;
    if (file === "-") context.warn(line);
    else context.out(line);
    return EXIT.ok;
  });
}

async function writeAll(to: { write(bytes: Uint8Array): Promise<number> }, bytes: Uint8Array) {
  let at = 0;
  while (at < bytes.length) at += await to.write(bytes.subarray(at));
}

/** One node `ui_query` or `ui_wait` found. */
interface FoundNode {
  id: number;
  role: string;
  name: string | null;
  path: string;
  value?: string;
  states?: string[];
}

/** What `ui_query` and `ui_wait` answer. */
interface QueryAnswer {
  revision: number;
  nodes: FoundNode[];
  /** How many more nodes matched than `nodes` lists. */
  more?: number;
}

/** What `ui_act` answers: the new revision and, marked as app data, the change text. */
interface ActAnswer {
  revision: number;
  text?: string;
}

/** A found node as one line: `#id role "name" states...`. */
function nodeLine(node: FoundNode, colours: Palette): string {
  const name = node.name === null ? "" : ` ${JSON.stringify(node.name)}`;
  const states = (node.states ?? []).map((state) => ` ${colours.yellow(state)}`).join("");
  return `${colours.dim(`#${node.id}`)} ${colours.cyan(node.role)}${name}${states}`;
}

/** The error a wait that timed out answers with, as the app words it. */
const TIMED_OUT = /^timed out after \d+ ms: /;

/**
 * Finds the nodes a query means: `ui_query`, or, for a query with an `#id`, `ui_wait` that
 * answers at once (it is the read that takes an id); a node that does not match then is no
 * match.
 */
async function find(session: AppSession, query: CliQuery): Promise<QueryAnswer> {
  if (query.id === undefined) {
    return await call(session, "ui_query", { ...query }) as unknown as QueryAnswer;
  }
  try {
    return await call(session, "ui_wait", { ...query, timeout_ms: 0 }) as unknown as QueryAnswer;
  } catch (error) {
    if (error instanceof CliError && TIMED_OUT.test(error.message)) {
      return { revision: 0, nodes: [] };
    }
    throw error;
  }
}

/**
 * `crowndev act [app] <query> <action> [--confirm]`: find exactly one node, act at the
 * revision read; `confirm` sends `"confirm": true`, which a destructive control needs.
 */
export async function actCommand(
  context: CommandContext,
  wanted: string | undefined,
  query: CliQuery,
  action: Record<string, unknown>,
  confirm = false,
): Promise<number> {
  return await withApp(context, wanted, async (session) => {
    const app = session.app;
    const answer = await find(session, query);
    const listing = () =>
      answer.nodes.map((node) =>
        `  #${node.id} ${node.role}${
          node.name === null ? "" : ` ${JSON.stringify(node.name)}`
        }  ${node.path}`
      ).join("\n");
    if (answer.nodes.length === 0) {
      throw new CliError(EXIT.noMatch, `no node in ${app.app} matches ${JSON.stringify(query)}`);
    }
    if (answer.nodes.length > 1) {
      const more = answer.more ?? 0;
      throw new CliError(
        EXIT.severalMatches,
        `${answer.nodes.length + more} nodes in ${app.app} match ${
          JSON.stringify(query)
        }; narrow the query:\n${listing()}${more > 0 ? `\n  … ${more} more` : ""}`,
      );
    }
    const node = answer.nodes[0]!;
    let result: ActAnswer;
    try {
      result = await call(session, "ui_act", {
        id: node.id,
        revision: answer.revision,
        action,
        ...(confirm ? { confirm: true } : {}),
      }) as unknown as ActAnswer;
    } catch (error) {
      // The app's refusal speaks to agents ("confirm": true); on the command line it is a flag.
      if (error instanceof CliError && !confirm && error.message.includes('"confirm": true')) {
        throw new CliError(error.code, `${error.message} (with crowndev: add --confirm)`);
      }
      throw error;
    }
    // The receipt's change text: crowndev shows app text as data, escaped.
    const changes = result.text;
    if (context.json) {
      context.out(JSON.stringify({ ok: true, revision: result.revision, changes, node }, null, 2));
    } else {
      context.out(
        `${
          context.colours.green("ok")
        }: ${action.action} on #${node.id} ${node.path}; revision ${answer.revision} → ${result.revision}`,
      );
      if (changes !== undefined && changes !== "") context.out(changes.trimEnd());
    }
    return EXIT.ok;
  });
}

/**
 * `crowndev wait [app] <query>`: `ui_wait` with `args` (the query, `state`, `gone`,
 * `timeout_ms`); prints the nodes that matched when the condition held, one a line. A
 * timeout is the app's error (exit 1) with its message.
 */
export async function waitCommand(
  context: CommandContext,
  wanted: string | undefined,
  args: Record<string, unknown>,
): Promise<number> {
  return await withApp(context, wanted, async (session) => {
    const answer = await call(session, "ui_wait", args) as unknown as QueryAnswer;
    if (context.json) {
      context.out(JSON.stringify(answer, null, 2));
      return EXIT.ok;
    }
    for (const node of answer.nodes) context.out(nodeLine(node, context.colours));
    if ((answer.more ?? 0) > 0) context.out(context.colours.dim(`… ${answer.more} more`));
    return EXIT.ok;
  });
}

/**
 * `crowndev watch [app]`: prints the tree, then again after every change (a resource
 * subscription, not polling), until interrupted or the app exits.
 */
export async function watchCommand(
  context: CommandContext,
  wanted: string | undefined,
  stop: Promise<void>,
): Promise<number> {
  const app = await resolveApp(context, wanted);
  const session = await connect(context, app);
  const client = session.client;
  const closed = new Promise<void>((resolve) => {
    client.onclose = () => resolve();
  });
  // The reader of standard output went away (`crowndev watch | head`): stop watching.
  const outputClosed = Promise.withResolvers<void>();
  let printing = Promise.resolve();
  let last = "";
  const print = () => {
    printing = printing.then(async () => {
      const answer = await readTreeAnswer(session, {}) as { revision: number; tree: string };
      if (answer.tree === last) return;
      last = answer.tree;
      if (context.json) {
        context.out(JSON.stringify(answer));
      } else {
        context.out(context.colours.dim(`── ${app.app} revision ${answer.revision} ──`));
        context.out(colourTree(answer.tree.trimEnd(), context.colours));
      }
    }).catch((error) => {
      if (error instanceof Deno.errors.BrokenPipe) outputClosed.resolve();
    });
  };
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
    if (notification.params.uri === "ui://tree") print();
  });
  await client.subscribeResource({ uri: "ui://tree" }, { timeout: session.timeoutMs }).catch(
    (error) => {
      throw timedOut(error) ? noAnswer(app, session.timeoutMs, "resources/subscribe") : error;
    },
  );
  print();
  const how = await Promise.race([
    stop.then(() => "stopped"),
    outputClosed.promise.then(() => "stopped"),
    closed.then(() => "closed"),
  ]);
  await printing;
  await client.close().catch(() => {});
  if (how === "closed") throw new CliError(EXIT.noApp, `${app.app} exited`);
  return EXIT.ok;
}
