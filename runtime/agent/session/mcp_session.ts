/**
 * The MCP side of `AgentServer`: one SDK `Server` per connection a gate let in, serving the
 * built-in tools and the app's tools, the tree resources with subscriptions, and
 * `list_changed` when app tools come and go, after MCP's lifecycle (`lifecycle.ts`:
 * `initialize` first, and once), which the SDK's server does not keep. The SDK, its transport,
 * the lifecycle and the tool calls are
 * loaded with the first such connection, never with the server: this file imports them as
 * types only, so the worker's start-up module graph holds no SDK or zod module.
 *
 * @module
 */

import type { Buffer } from "node:buffer";
import type * as net from "node:net";
import type { SemanticHost } from "../hosts/host.ts";
import { answerInspect } from "./inspect_call.ts";
import type { LineTransport } from "../transport/line_transport.ts";
import { ProgressNotifier } from "./progress.ts";
import { TokenBucket } from "./rate_limit.ts";
import type * as Sdk from "../transport/sdk.ts";
import { appToolDefinition, BUILTIN_TOOLS, CONFIRM_NOTE } from "./tool_defs.ts";
import { RESOURCE_DATA_NOTE, UNTRUSTED_MEANING } from "./untrusted.ts";

/** The version the server reports. */
export const SERVER_VERSION = "0.1.0";

/** The resources every app offers. */
export const RESOURCES = [
  {
    uri: "ui://tree",
    name: "UI tree",
    mimeType: "text/plain",
    description: `The semantic tree as indented text, one node a line. ${RESOURCE_DATA_NOTE}`,
  },
  {
    uri: "ui://tree.json",
    name: "UI tree (JSON)",
    mimeType: "application/json",
    description: `The semantic tree as nested JSON with the revision. ${RESOURCE_DATA_NOTE}`,
  },
  {
    uri: "inspect://snapshot",
    name: "Inspect snapshot",
    mimeType: "application/json",
    description:
      `The tree, each node's layout in window cells, live signals and recent frame timings. ${RESOURCE_DATA_NOTE}`,
  },
] as const;

interface Session {
  server: Sdk.Server;
  subscriptions: Set<string>;
}

/** What serving a connection takes beyond the gate: the MCP SDK, its transport, tool calls. */
interface SessionModules {
  sdk: typeof Sdk;
  transport: typeof import("../transport/line_transport.ts");
  calls: typeof import("./tool_calls.ts");
  lifecycle: typeof import("./lifecycle.ts");
}

let sessionModules: Promise<SessionModules> | undefined;

/**
 * Loads the session modules once, at the first connection a gate lets in rather than with the
 * server: an app no agent connects to does not pay for the SDK's schemas and JSON Schema
 * validator (about 20 MiB of the server thread's memory).
 */
function loadSessionModules(): Promise<SessionModules> {
  return sessionModules ??= Promise.all([
    import("../transport/sdk.ts"),
    import("../transport/line_transport.ts"),
    import("./tool_calls.ts"),
    import("./lifecycle.ts"),
  ]).then(([sdk, transport, calls, lifecycle]) => ({ sdk, transport, calls, lifecycle }));
}

/**
 * Runs a request handler's work and tells the transport when it has ended. A request
 * cancelled before its handler started (its cancellation came in the same read) does no work
 * at all: nobody will read its answer.
 */
function held<T>(
  sdk: typeof Sdk,
  transport: LineTransport,
  extra: { requestId: unknown; signal: AbortSignal },
  work: () => T | Promise<T>,
): Promise<T> {
  if (extra.signal.aborted) {
    return Promise.reject(
      new sdk.McpError(sdk.ErrorCode.InvalidRequest, "the request was cancelled"),
    );
  }
  return transport.holdUntilSettled(extra.requestId, (async () => await work())());
}

/** What `McpSessions` is made with. */
export interface McpSessionsOptions {
  /** The app the sessions serve. */
  host: SemanticHost;
  /** The name the server reports (the app's name). */
  name: string;
  /** Where log lines go. */
  log: (line: string) => void;
}

/** The MCP sessions of an `AgentServer`, one per connection a gate let in. */
export class McpSessions {
  readonly #host: SemanticHost;
  readonly #name: string;
  readonly #log: (line: string) => void;
  readonly #bucket = new TokenBucket();
  readonly #sessions = new Set<Session>();

  /** Makes an empty set of sessions. */
  constructor(options: McpSessionsOptions) {
    this.#host = options.host;
    this.#name = options.name;
    this.#log = options.log;
  }

  /** How many connections are being served. */
  get size(): number {
    return this.#sessions.size;
  }

  /**
   * Serves MCP on a socket the gate let in, `initial` being the bytes already read past the
   * first line. `stopped` is asked once the session modules are loaded: a server stopped in
   * the meantime serves nothing.
   */
  async serve(socket: net.Socket, initial: Buffer, stopped: () => boolean): Promise<void> {
    let modules: SessionModules;
    try {
      modules = await loadSessionModules();
    } catch (error) {
      this.#log(`MCP connection failed: ${(error as Error).message}`);
      socket.destroy();
      return;
    }
    if (stopped() || socket.destroyed) {
      socket.destroy();
      return;
    }
    const transport = new modules.transport.LineTransport(socket, initial);
    // MCP's lifecycle, which the SDK's server does not keep: initialize first, and once.
    const lifecycle = new modules.lifecycle.McpLifecycle();
    transport.screen = (message) => lifecycle.refusal(message);
    const session: Session = {
      server: this.#makeServer(transport, modules),
      subscriptions: new Set(),
    };
    this.#sessions.add(session);
    session.server.onclose = () => this.#sessions.delete(session);
    this.#wireResources(session, transport, modules.sdk);
    try {
      await session.server.connect(transport);
    } catch (error) {
      this.#log(`MCP connection failed: ${(error as Error).message}`);
      this.#sessions.delete(session);
      socket.destroy();
    }
  }

  #makeServer(transport: LineTransport, modules: SessionModules): Sdk.Server {
    const { sdk, calls } = modules;
    const { CallToolRequestSchema, ListToolsRequestSchema } = sdk;
    const server = new sdk.Server(
      { name: this.#name, version: SERVER_VERSION },
      {
        capabilities: {
          tools: { listChanged: true },
          resources: { subscribe: true, listChanged: true },
        },
        instructions:
          `This server drives a CrownUI app through its semantic tree. Read ui_tree (or ui_query) first, then act with ui_act on a node id at the revision you read. ${CONFIRM_NOTE} ${UNTRUSTED_MEANING}`,
      },
    );
    const host = this.#host;
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: [...BUILTIN_TOOLS, ...host.tools().map(appToolDefinition)],
    }));
    server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
      // Progress goes out only to an agent that sent a progressToken with its call.
      const token = extra._meta?.progressToken;
      const progress = token === undefined
        ? undefined
        : new ProgressNotifier(token, (notification) => extra.sendNotification(notification));
      // The signal aborts on notifications/cancelled and when the connection closes: a
      // pending ui_wait then ends at once. A cancelled call keeps its place in the
      // connection's window until it has ended (held).
      return held(sdk, transport, extra, async () => {
        try {
          return await calls.callTool(
            host,
            this.#bucket,
            request.params.name,
            request.params.arguments,
            extra.signal,
            progress && ((report) => progress.report(report)),
          );
        } finally {
          await progress?.end(); // the answer goes a moment after the last notification
        }
      });
    });
    return server;
  }

  #wireResources(session: Session, transport: LineTransport, sdk: typeof Sdk): void {
    const { server } = session;
    const {
      ErrorCode,
      ListResourcesRequestSchema,
      McpError,
      ReadResourceRequestSchema,
      SubscribeRequestSchema,
      UnsubscribeRequestSchema,
    } = sdk;
    const host = this.#host;
    server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: [...RESOURCES] }));
    server.setRequestHandler(
      ReadResourceRequestSchema,
      (request, extra) =>
        held(sdk, transport, extra, async () => {
          const uri = request.params.uri;
          const contents = (mimeType: string, text: string) => ({
            contents: [{ uri, mimeType, text }],
          });
          switch (uri) {
            case "ui://tree":
              return contents("text/plain", host.treeText().tree);
            case "ui://tree.json":
              return contents("application/json", JSON.stringify(host.treeJson()));
            case "inspect://snapshot":
              return contents("application/json", JSON.stringify(await answerInspect(host, {})));
          }
          throw new McpError(
            ErrorCode.InvalidParams,
            `unknown resource ${uri}: see resources/list`,
          );
        }),
    );
    const known = new Set<string>(RESOURCES.map((resource) => resource.uri));
    server.setRequestHandler(SubscribeRequestSchema, (request) => {
      if (!known.has(request.params.uri)) {
        throw new McpError(ErrorCode.InvalidParams, `unknown resource ${request.params.uri}`);
      }
      session.subscriptions.add(request.params.uri);
      return {};
    });
    server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
      session.subscriptions.delete(request.params.uri);
      return {};
    });
  }

  /** Tells every session subscribed to a tree resource that it changed. */
  treeChanged(): void {
    for (const session of this.#sessions) {
      for (const uri of session.subscriptions) {
        session.server.sendResourceUpdated({ uri }).catch(() => {});
      }
    }
  }

  /** Tells every session that the list of tools changed. */
  toolsChanged(): void {
    for (const session of this.#sessions) session.server.sendToolListChanged().catch(() => {});
  }

  /** Closes every session's SDK server, one after the other. */
  async closeAll(): Promise<void> {
    for (const session of this.#sessions) await session.server.close().catch(() => {});
  }
}
