/**
 * `crownmcp`'s connection to the selected app, without the SDK: the `TOKEN` line and the MCP
 * handshake, then JSON-RPC lines both ways. The agent's lines are written to the app as they
 * came; each line from the app is parsed once to learn what it is, and handed on with its
 * bytes, so the proxy can write it to the agent unchanged. The connection is Deno's own Unix
 * socket (`Deno.connect`): a read or a write is one operation, with none of the layers of
 * `node:net`'s streams (a bare byte pipe between an agent and an app built each way, measured
 * side by side in bursts of `ui_act`: 0.77–0.81 ms a call on `Deno.connect`, 1.02–1.04 ms on
 * `node:net`).
 *
 * crownmcp's own requests to the app (the handshake, `tools/list` for merging) use string
 * ids that begin with `OWN_ID_PREFIX`; their answers are taken out of the stream here. The
 * proxy gives an agent's request whose id begins with the prefix another id on the way to
 * the app, so the two can never collide.
 *
 * Nothing here waits on an app for long: connecting and the handshake share one deadline, and
 * each of crownmcp's own requests has one. What a missed deadline shows is a `NoAnswerError`
 * whose message says what went unanswered and for how long (`no answer to initialize within
 * 5 s`), the words `list_apps` shows.
 *
 * @module
 */

import { CLIENT_MAX_LINE_BYTES } from "../runtime/agent/clients/client.ts";
import { MAX_UNSENT_BYTES } from "../runtime/agent/transport/line_transport.ts";
import {
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "../runtime/agent/transport/sdk.ts";
import { LineSplitter } from "../runtime/agent/transport/line_splitter.ts";

/** The start of every id crownmcp gives a request of its own toward the app. */
export const OWN_ID_PREFIX = "crownmcp:";

/** A JSON-RPC id: what the SDK accepts on a request. */
export type RequestId = string | number;

/** A JSON-RPC message as parsed: the fields crownmcp looks at. */
export interface Message {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code?: unknown; message?: unknown; data?: unknown };
}

/** What the proxy does with the app's lines. */
export interface AppLinkHandlers {
  /** An answer to a request crownmcp forwarded: `line` is its bytes, newline included. */
  response(id: RequestId, message: Message, line: Uint8Array): void;
  /** A notification from the app. */
  notification(method: string, message: Message, line: Uint8Array): void;
  /** The connection ended (the app exited, refused, or was let go). */
  close(): void;
}

/** Options for `AppLink.connect`. */
export interface AppLinkOptions {
  /** Sent as the `TOKEN` line first, when set. */
  token?: string | undefined;
  /** crownmcp's name and version in `initialize`. */
  name: string;
  version: string;
  /** How long connecting and the handshake may take in all, in milliseconds. */
  timeoutMs: number;
}

/** An app did not answer in time: the message says what went unanswered and for how long. */
export class NoAnswerError extends Error {
  /** @param message what was seen, as `list_apps` shows it */
  constructor(message: string) {
    super(message);
    this.name = "NoAnswerError";
  }
}

/** `5 s`, `1.5 s`: a duration in milliseconds as messages give it. */
export function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

/** What `NoAnswerError` says when `what` went unanswered for `ms`. */
export function noAnswerTo(what: string, ms: number): string {
  return `no answer to ${what} within ${seconds(ms)}`;
}

interface Waiting {
  resolve(result: Record<string, unknown>): void;
  reject(error: Error): void;
  timer: ReturnType<typeof setTimeout> | undefined;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** How many bytes one read from the app asks for. */
const READ_BYTES = 64 * 1024;

/** The error crownmcp's own requests fail with once the connection is gone. */
const CONNECTION_CLOSED = "Connection closed";

/** A connection to one app, after the handshake. */
export class AppLink {
  readonly #conn: Deno.UnixConn;
  readonly #splitter = new LineSplitter(CLIENT_MAX_LINE_BYTES, { keepNewline: true });
  readonly #waiting = new Map<string, Waiting>();
  #handlers: AppLinkHandlers | null = null;
  #nextId = 0;
  #closed = false;
  /** Lines that wait while a write is under way, and their size. */
  #queue: Uint8Array[] = [];
  #queuedBytes = 0;
  #writing = false;

  private constructor(conn: Deno.UnixConn) {
    this.#conn = conn;
    this.#read();
  }

  /** Reads until the app closes the connection (or it is closed here). */
  async #read(): Promise<void> {
    try {
      for (;;) {
        const buffer = new Uint8Array(READ_BYTES); // a fresh one: lines may be views of it
        const count = await this.#conn.read(buffer);
        if (count === null || this.#closed) break;
        this.#receive(buffer.subarray(0, count));
      }
    } catch {
      // The connection failed or was closed here: either way it has ended.
    }
    this.#finish();
  }

  /**
   * Connects to the app listening at `path`, sends the token line when there is a token, and
   * makes the MCP handshake, all within `options.timeoutMs`. Fails with the reason when the
   * app refuses or answers nonsense, and with a `NoAnswerError` when it does not answer in
   * time (a stopped process: its kernel still accepts the connection).
   */
  static async connect(path: string, options: AppLinkOptions): Promise<AppLink> {
    const deadline = performance.now() + options.timeoutMs;
    const connecting = Deno.connect({ transport: "unix", path });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new NoAnswerError(`the socket took no connection within ${seconds(options.timeoutMs)}`),
          ),
        options.timeoutMs,
      );
    });
    let conn: Deno.UnixConn;
    try {
      conn = await Promise.race([connecting, late]);
    } catch (error) {
      connecting.then((conn) => conn.close(), () => {}); // one that comes late is let go
      throw error;
    } finally {
      clearTimeout(timer);
    }
    const link = new AppLink(conn);
    if (options.token !== undefined && options.token !== "") {
      link.send(encoder.encode(`TOKEN ${options.token}\n`));
    }
    try {
      const result = await link.request("initialize", {
        protocolVersion: LATEST_PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name: options.name, version: options.version },
      }, Math.max(1, deadline - performance.now()));
      const version = result.protocolVersion;
      if (typeof version !== "string" || !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
        throw new Error(`the app's protocol version is not supported: ${String(version)}`);
      }
      link.send(encoder.encode(`{"jsonrpc":"2.0","method":"notifications/initialized"}\n`));
    } catch (error) {
      link.close();
      // A deadline missed is said with the whole time the handshake had.
      if (error instanceof NoAnswerError) {
        throw new NoAnswerError(noAnswerTo("initialize", options.timeoutMs));
      }
      throw error;
    }
    return link;
  }

  /** Whether the connection has ended. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Starts handing the app's lines to `handlers` (before this, only own answers are read). */
  attach(handlers: AppLinkHandlers): void {
    this.#handlers = handlers;
    if (this.#closed) handlers.close();
  }

  /**
   * Writes one complete line (newline included) to the app: at once when no write is under
   * way, else after the lines before it. `line` must not be changed afterwards.
   */
  send(line: Uint8Array): void {
    if (this.#closed) return;
    if (this.#writing) {
      this.#queue.push(line);
      this.#queuedBytes += line.length;
      // The app has stopped reading: let it go rather than hold its backlog.
      if (this.#queuedBytes > MAX_UNSENT_BYTES) this.close();
      return;
    }
    this.#writing = true;
    this.#write(line);
  }

  async #write(first: Uint8Array): Promise<void> {
    let bytes: Uint8Array | undefined = first;
    try {
      while (bytes !== undefined && !this.#closed) {
        let offset = 0;
        while (offset < bytes.length) offset += await this.#conn.write(bytes.subarray(offset));
        bytes = this.#queue.shift();
        if (bytes !== undefined) this.#queuedBytes -= bytes.length;
      }
    } catch {
      this.close();
    }
    this.#writing = false;
  }

  /**
   * Sends a request of crownmcp's own and resolves with its result. Past `timeoutMs` it is
   * cancelled and fails with a `NoAnswerError`; with `null` it waits as long as the
   * connection lasts (a ping whose answer, however late, says the app answers again).
   */
  request(
    method: string,
    params: Record<string, unknown> | undefined,
    timeoutMs: number | null,
  ): Promise<Record<string, unknown>> {
    if (this.#closed) return Promise.reject(new Error(CONNECTION_CLOSED));
    const id = this.ownId();
    return new Promise((resolve, reject) => {
      const timer = timeoutMs === null ? undefined : setTimeout(() => {
        this.#waiting.delete(id);
        this.send(encoder.encode(
          JSON.stringify({
            jsonrpc: "2.0",
            method: "notifications/cancelled",
            params: { requestId: id, reason: "Request timed out" },
          }) + "\n",
        ));
        reject(new NoAnswerError(noAnswerTo(method, timeoutMs)));
      }, timeoutMs);
      this.#waiting.set(id, { resolve, reject, timer });
      const message = params === undefined
        ? { jsonrpc: "2.0", id, method }
        : { jsonrpc: "2.0", id, method, params };
      this.send(encoder.encode(JSON.stringify(message) + "\n"));
    });
  }

  /** A fresh id of crownmcp's own: no agent's request is ever sent with it. */
  ownId(): string {
    return `${OWN_ID_PREFIX}${++this.#nextId}`;
  }

  #receive(chunk: Uint8Array): void {
    if (this.#closed) return;
    const lines = this.#splitter.push(chunk);
    if (lines === "overflow") {
      this.close();
      return;
    }
    for (const line of lines) {
      if (this.#closed) return;
      this.#take(line);
    }
  }

  #take(line: Uint8Array): void {
    let message: Message;
    try {
      message = JSON.parse(decoder.decode(line));
    } catch {
      return; // not JSON: nothing to answer, nothing the agent could use
    }
    if (typeof message !== "object" || message === null) return;
    const { id, method } = message;
    if (typeof method === "string") {
      if (id === undefined) this.#handlers?.notification(method, message, line);
      else this.#answerAppRequest(id, method);
      return;
    }
    if (typeof id === "string" && this.#waiting.has(id)) {
      const waiting = this.#waiting.get(id)!;
      this.#waiting.delete(id);
      clearTimeout(waiting.timer);
      if (message.result !== undefined) waiting.resolve(message.result);
      else waiting.reject(new Error(String(message.error?.message ?? "invalid answer")));
      return;
    }
    if (typeof id === "string" || typeof id === "number") {
      this.#handlers?.response(id, message, line);
    }
  }

  /** The app asked crownmcp something: a ping is answered, anything else is not offered. */
  #answerAppRequest(id: unknown, method: string): void {
    const answer = method === "ping"
      ? { jsonrpc: "2.0", id, result: {} }
      : { jsonrpc: "2.0", id, error: { code: -32601, message: "Method not found" } };
    this.send(encoder.encode(JSON.stringify(answer) + "\n"));
  }

  /** Ends the connection; safe to call twice. */
  close(): void {
    this.#finish();
  }

  #finish(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#queue = [];
    try {
      this.#conn.close(); // a read or write under way ends with an error, which is ignored
    } catch {
      // Closed already.
    }
    for (const waiting of this.#waiting.values()) {
      clearTimeout(waiting.timer);
      waiting.reject(new Error(CONNECTION_CLOSED));
    }
    this.#waiting.clear();
    this.#handlers?.close();
  }
}
