/**
 * `AgentServer`: the MCP server an app runs on its Unix socket, for agents. For each connection it reads
 * the kernel's peer credentials, reads an optional `TOKEN` line, asks the gate, and then
 * serves MCP with one SDK `Server` per connection: the built-in tools and the app's tools,
 * the tree resources with subscriptions, and `list_changed` when app tools come and go.
 * This file ties the three together: accepting (`socket_listener.ts`), gating
 * (`admission.ts`) and the MCP sessions (`mcp_session.ts`).
 *
 * The app's own server runs this in a worker over a tree mirror; embedders can start it
 * themselves over any `SemanticHost` with the gate they choose (`TokenGate`, say).
 *
 * @module
 */

import type * as net from "node:net";
import { getuid } from "../../../ffi/mod.ts";
import { admitConnection } from "../access/admission.ts";
import type { AccessGate } from "../access/gate.ts";
import type { SemanticHost } from "../hosts/host.ts";
import { McpSessions } from "../session/mcp_session.ts";
import { RefusalLog } from "../access/refusal_log.ts";
import { MAX_CONNECTIONS, SocketListener } from "../transport/socket_listener.ts";

export { RESOURCES, SERVER_VERSION } from "../session/mcp_session.ts";
export {
  MAX_CONNECTIONS,
  SOCKET_CHECK_MS,
  tooManyConnectionsMessage,
} from "../transport/socket_listener.ts";

/** What an `AgentServer` is made with. */
export interface AgentServerOptions {
  /** The app the server serves. */
  host: SemanticHost;
  /** Who may connect. */
  gate: AccessGate;
  /** The socket file to listen on; its directory is created or checked first. */
  socketPath: string;
  /** The name the server reports (the app's name). */
  name?: string;
  /** The uid that must own the socket directory; this process's by default. */
  uid?: number;
  /** Where log lines go; standard error by default. */
  log?: (line: string) => void;
  /**
   * The most connections held at once, `MAX_CONNECTIONS` (256) by default. Keep it well
   * under the process's descriptor limit (`ulimit -n`).
   */
  maxConnections?: number;
  /**
   * The least time between two summary lines of refused connections, in milliseconds: a
   * minute by default (the first few refusals are logged one by one).
   */
  refusalSummaryMs?: number;
}

/**
 * The app's MCP server for agents, on a Unix socket: it gates each connection and serves the
 * built-in tools, the app's tools and the tree resources over a `SemanticHost`. Named for its
 * role; the MCP SDK's own `McpServer` is another class.
 */
export class AgentServer {
  /** The Unix socket the server listens on. */
  readonly socketPath: string;
  readonly #host: SemanticHost;
  readonly #gate: AccessGate;
  readonly #uid: number | undefined;
  readonly #log: (line: string) => void;
  readonly #sessions: McpSessions;
  readonly #listener: SocketListener;
  readonly #unsubscribe: (() => void)[] = [];
  #ownUid = -1;
  #stopped = false;
  readonly #refusals: RefusalLog;

  /** Makes a server; `start()` listens. */
  constructor(options: AgentServerOptions) {
    this.#host = options.host;
    this.#gate = options.gate;
    this.socketPath = options.socketPath;
    this.#uid = options.uid;
    this.#log = options.log ?? ((line) => console.error(line));
    this.#sessions = new McpSessions({
      host: this.#host,
      name: options.name ?? "crownui-app",
      log: this.#log,
    });
    const max = options.maxConnections ?? MAX_CONNECTIONS;
    if (!Number.isInteger(max) || max < 1) {
      throw new RangeError(`maxConnections must be a positive integer, got ${max}`);
    }
    this.#listener = new SocketListener({
      socketPath: this.socketPath,
      uid: this.#uid,
      log: this.#log,
      maxConnections: max,
      onConnection: (socket) => this.#accept(socket),
    });
    this.#refusals = new RefusalLog(this.#log, options.refusalSummaryMs);
  }

  /** How many connections are being served. */
  get connections(): number {
    return this.#sessions.size;
  }

  /** Prepares the directory, listens, and sets the socket's mode to 0600. */
  async start(): Promise<void> {
    if (this.#listener.started) throw new Error("the server is already started");
    const uid = this.#uid ?? getuid();
    this.#ownUid = uid;
    await this.#listener.start(uid);
    this.#unsubscribe.push(
      this.#host.onTreeChange(() => this.#sessions.treeChanged()),
      this.#host.onToolsChange(() => this.#sessions.toolsChanged()),
    );
  }

  /** Gates a connection the listener accepted, then serves MCP on it. */
  async #accept(socket: net.Socket): Promise<void> {
    if (this.#stopped) {
      socket.destroy();
      return;
    }
    const initial = await admitConnection(socket, {
      gate: this.#gate,
      refusals: this.#refusals,
      log: this.#log,
      ownUid: this.#ownUid,
      listener: this.#listener,
    });
    if (initial === null) return;
    await this.#sessions.serve(socket, initial, () => this.#stopped);
  }

  /** Stops listening, closes every connection and removes the socket file. Safe twice. */
  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#refusals.close();
    for (const unsubscribe of this.#unsubscribe) unsubscribe();
    await this.#listener.stop(() => this.#sessions.closeAll());
  }
}
