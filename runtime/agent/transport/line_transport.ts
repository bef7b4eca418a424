/**
 * Newline-delimited JSON-RPC over a stream socket, as an MCP transport: one message a line,
 * UTF-8. A line over the limit (4 MiB) gets a JSON-RPC parse error and closes the
 * connection; a line that is not JSON, or not a message the SDK takes, gets a parse error
 * and the connection goes on; a line that looks like a response is never answered.
 *
 * Output has backpressure: while more than 1 MiB waits unsent to a peer, the transport hands
 * on none of its requests and reads none of its input, until the socket has taken most of it.
 * A peer that reads slowly is thus served at its own pace; only one that takes no byte for 10
 * s while output waits, or whose unsent output passes 64 MiB (answers of requests started
 * before the pause), is cut off. Nor can a peer that sends requests faster than they are
 * answered take more than its share: at most 64 of its requests are handed on at a time,
 * one per turn of the event loop (so other connections' requests interleave with a burst),
 * the rest wait, and reading stops while 1 MiB of them wait. The window counts requests, not
 * ids: a request whose id is still in use by an earlier one is answered with -32600 at once,
 * and a cancelled request keeps its place until the work it started has ended. A `ping` is
 * answered by the transport itself, at once and outside the window, so that a peer can tell
 * an app busy with its requests from one that has stopped.
 *
 * Used on both sides: the app's server and the clients (`crownmcp`, `crowndev`, tests).
 *
 * @module
 */

import type { Socket } from "node:net";
import { Buffer } from "node:buffer";
import { setImmediate } from "node:timers";
import {
  type JSONRPCMessage,
  JSONRPCNotificationSchema,
  JSONRPCRequestSchema,
  type Transport,
} from "./sdk.ts";

import { LineSplitter, MAX_LINE_BYTES, readFirstLine } from "./line_splitter.ts";

// In a module of its own, with the longest line and the first line's reader, so that code
// that only splits lines (the compositor's client, on the app's thread) or reads a first line
// (the server, before anyone passed its gate) does not load the MCP SDK, which this one needs.
export { LineSplitter, MAX_LINE_BYTES, readFirstLine };

/**
 * How many bytes may wait unsent to a peer before it is cut off, whatever its pace: far above
 * the largest answer (a `ui_tree` is at most 3.5 MB), reached only by a peer that asked for
 * many large answers at once and does not read them.
 */
export const MAX_UNSENT_BYTES = 64 * 1024 * 1024;

/**
 * How many unsent bytes make the transport pause a peer: past it, none of its requests is
 * handed on and none of its input is read until the socket has taken all but a quarter of it.
 */
export const UNSENT_HIGH_WATER_BYTES = 1024 * 1024;

/**
 * How long a paused peer may take no byte at all before it is cut off, in milliseconds: it
 * has stopped reading (a peer that reads, however slowly, takes a piece of 64 KiB now and
 * then).
 */
export const STALL_MS = 10_000;

/** The most bytes handed to the socket in one write: each piece taken counts as progress. */
const WRITE_PIECE_BYTES = 64 * 1024;

/**
 * How many of the peer's requests may await their answers at once. Past it the transport
 * reads no more lines until answers have gone out: a peer that pipelines thousands of
 * requests (and perhaps reads none of the answers) has at most this many answers in the
 * making at a time, and cannot hold the thread for everyone else while they are made.
 */
export const MAX_PENDING_REQUESTS = 64;

/**
 * The JSON-RPC error for a request whose id is in use by an earlier request of the same
 * peer that has not been answered (or, if cancelled, whose work has not ended).
 */
export function idInUseMessage(id: unknown): JSONRPCMessage {
  return {
    jsonrpc: "2.0",
    id,
    error: {
      code: -32600,
      message: `Invalid Request: id ${
        JSON.stringify(id)
      } is in use by a request still in progress; give each request an id of its own`,
    },
  } as unknown as JSONRPCMessage;
}

/** A JSON-RPC parse error for a bad line, sent before going on (or closing). */
export function parseErrorMessage(detail: string): JSONRPCMessage {
  return {
    jsonrpc: "2.0",
    id: null,
    error: { code: -32700, message: `Parse error: ${detail}` },
  } as unknown as JSONRPCMessage;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A check of a JSON-RPC 2.0 message. A request or notification must be exactly what the
 * SDK's protocol takes (its envelope schemas: an integer or string id, params an object,
 * no other keys): anything else the protocol drops without a word, and the sender would
 * wait for an answer that never comes. A response gets a structural check only (the SDK
 * validates each result against its request); its id may be null for an error, as JSON-RPC
 * allows when the request's id could not be read.
 */
export function isJsonRpcMessage(value: unknown): value is JSONRPCMessage {
  if (!isPlainObject(value) || value.jsonrpc !== "2.0") return false;
  if ("method" in value) {
    const schema = "id" in value ? JSONRPCRequestSchema : JSONRPCNotificationSchema;
    return schema.safeParse(value).success;
  }
  const id = value.id;
  if ("error" in value) return id === null || typeof id === "string" || typeof id === "number";
  return (typeof id === "string" || typeof id === "number") && "result" in value;
}

/**
 * True for a line that looks like a response (it has `result` or `error` and no `method`).
 * Such a line is never answered, even when malformed: two peers that each answered the
 * other's bad responses with an error would trade errors forever.
 */
export function looksLikeResponse(value: unknown): boolean {
  return isPlainObject(value) && !("method" in value) && ("result" in value || "error" in value);
}

/**
 * What to do with one received line (without its newline): the message to hand on, or the
 * error to answer with (`reply`), or nothing (`null`: a blank line, or a malformed response).
 */
export function readLine(
  text: string,
): { message: JSONRPCMessage } | { reply: JSONRPCMessage } | null {
  if (text.trim() === "") return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { reply: parseErrorMessage("not JSON") };
  }
  if (isJsonRpcMessage(value)) return { message: value };
  if (looksLikeResponse(value)) return null;
  return { reply: parseErrorMessage("not a JSON-RPC 2.0 message") };
}

/** How many bytes of read messages may wait to be handed on before reading stops. */
const MAX_WAITING_BYTES = 1024 * 1024;

/**
 * How long the thread may run requests turn after turn before it lets sockets be read, in
 * milliseconds. In Deno, `setImmediate` callbacks that schedule more of them keep running
 * without the sockets being polled (another connection's request would wait for a whole
 * burst), while a timer lets them be polled but costs a millisecond or more: the next turn is
 * a timer only once this much time has passed since sockets were last read.
 */
const TURN_SLICE_MS = 5;

/** When sockets were last read on this thread (any transport's data, or a timer turn). */
let lastPolled = 0;

/** Runs `next` in a later turn of the event loop, letting sockets be read when it is time. */
function nextTurn(next: () => void): void {
  if (performance.now() - lastPolled > TURN_SLICE_MS) {
    setTimeout(() => {
      lastPolled = performance.now();
      next();
    }, 0);
  } else {
    setImmediate(next);
  }
}

/** The fields of a received message the transport looks at. */
interface Incoming {
  id?: unknown;
  method?: unknown;
  params?: { requestId?: unknown };
}

/** True for a request (a message with a method and an id). */
function isRequest(message: unknown): boolean {
  const incoming = message as Incoming;
  return typeof incoming.method === "string" && "id" in incoming;
}

/** An MCP transport over a connected stream socket. */
export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly #socket: Socket;
  readonly #splitter: LineSplitter;
  readonly #initial: Buffer | undefined;
  /**
   * Ids of the peer's requests handed on and not done yet: not answered, or cancelled while
   * their work goes on. Its size is the window the limit applies to.
   */
  readonly #pending = new Set<unknown>();
  /** Ids of the peer's requests that wait to be handed on, each with its index in `#waiting`. */
  readonly #queuedIds = new Map<unknown, number>();
  /** Ids of handed-on requests the peer cancelled; each keeps its place until its work ends. */
  readonly #cancelled = new Set<unknown>();
  /** Ids of requests whose work the owner follows (`holdUntilSettled`) and that still runs. */
  readonly #busy = new Set<unknown>();
  /** Messages read that wait, from `#next` on, until fewer requests are pending. */
  #waiting: { message: JSONRPCMessage | null; bytes: number }[] = [];
  #next = 0;
  #waitingBytes = 0;
  #paused = false;
  #resumeScheduled = false;
  /** True once a request was handed on in this turn of the event loop. */
  #turnTaken = false;
  /** True while more than `UNSENT_HIGH_WATER_BYTES` wait unsent. */
  #backedUp = false;
  /** When the socket last took a piece of output (or the pause began), from `performance.now()`. */
  #lastProgress = 0;
  #stallTimer: ReturnType<typeof setTimeout> | undefined;
  #closed = false;
  #started = false;
  /**
   * Set by the owner to refuse a message before any handler sees it: returns the answer to
   * send instead (a request refused), or null to hand the message on.
   */
  screen?: (message: JSONRPCMessage) => JSONRPCMessage | null;

  /**
   * @param socket a connected socket
   * @param initial bytes already read from it that belong to the MCP stream
   * @param maxLineBytes the longest line accepted
   */
  constructor(socket: Socket, initial?: Buffer, maxLineBytes: number = MAX_LINE_BYTES) {
    this.#socket = socket;
    this.#initial = initial;
    this.#splitter = new LineSplitter(maxLineBytes);
  }

  /** Starts reading messages. */
  start(): Promise<void> {
    if (this.#started) throw new Error("LineTransport already started");
    this.#started = true;
    this.#socket.on("data", (chunk: Buffer) => this.#receive(chunk));
    this.#socket.on("close", () => this.#finish());
    this.#socket.on("drain", () => this.#progress());
    this.#socket.on("error", (error: Error) => {
      this.onerror?.(error);
      this.#finish();
    });
    if (this.#initial !== undefined && this.#initial.length > 0) this.#receive(this.#initial);
    if (!this.#paused) this.#socket.resume(); // too much may wait already
    return Promise.resolve();
  }

  #receive(chunk: Buffer): void {
    lastPolled = performance.now();
    if (this.#closed) return;
    const lines = this.#splitter.push(chunk);
    if (lines === "overflow") {
      // The peer may be gone already: a failed write must not become an unhandled rejection.
      this.#write(parseErrorMessage(`a line is longer than ${MAX_LINE_BYTES} bytes`))
        .catch(() => {})
        .finally(() => this.close());
      return;
    }
    for (const line of lines) this.#take(line);
    this.#handOn();
  }

  /** Reads one line: answers it, hands it on, or lets it wait behind earlier requests. */
  #take(line: Buffer): void {
    const read = readLine(line.toString("utf8"));
    if (read === null) return;
    if ("reply" in read) {
      this.#write(read.reply).catch(() => {});
      return;
    }
    const message = read.message as Incoming;
    if (message.method === "notifications/cancelled") {
      this.#cancel(message.params?.requestId, read.message);
      return;
    }
    const request = isRequest(message);
    if (request && (this.#pending.has(message.id) || this.#queuedIds.has(message.id))) {
      // Two requests with one id cannot both be answered (nor cancelled) apart, and counting
      // them once would let a peer past the window: refuse the second.
      this.#write(idInUseMessage(message.id)).catch(() => {});
      return;
    }
    if (request && message.method === "ping") {
      // Answered here, ahead of whatever waits: a peer pings to tell a busy app (whose
      // window is full of long waits) from a stopped one, and the answer costs nothing.
      this.#write({ jsonrpc: "2.0", id: message.id, result: {} } as JSONRPCMessage)
        .catch(() => {});
      return;
    }
    const waits = this.#next < this.#waiting.length ||
      (request && !this.#mayHandOnRequest());
    if (!waits) {
      if (request) this.#takeTurn();
      this.#deliver(read.message);
      return;
    }
    if (request) this.#queuedIds.set(message.id, this.#waiting.length);
    this.#waiting.push({ message: read.message, bytes: line.length });
    this.#waitingBytes += line.length;
  }

  /**
   * A cancellation passes the requests that wait. A request still waiting here is dropped
   * (its bytes still count until the queue moves past it, so cancelled requests cannot pile
   * up for free). A request handed on learns of it, but keeps its place until its work has
   * ended: when the owner follows that work (`holdUntilSettled`), until it settles; otherwise
   * once the current turn of the event loop is over, by when a handler that does not follow
   * its work has done it. A cancelled request is never answered.
   */
  #cancel(id: unknown, notification: JSONRPCMessage): void {
    const index = this.#queuedIds.get(id);
    if (index !== undefined) {
      this.#waiting[index] = { message: null, bytes: this.#waiting[index]!.bytes };
      this.#queuedIds.delete(id);
      return;
    }
    if (this.#pending.has(id) && !this.#cancelled.has(id)) {
      this.#cancelled.add(id);
      setImmediate(() => {
        if (!this.#busy.has(id) && this.#cancelled.has(id)) this.#release(id);
      });
    }
    this.#deliver(notification);
  }

  /** Gives back the place of request `id` and reads on. */
  #release(id: unknown): void {
    this.#cancelled.delete(id);
    if (this.#pending.delete(id)) this.#scheduleHandOn();
  }

  /** Hands on what waits once other connections' events have had their turn. */
  #scheduleHandOn(): void {
    if (this.#resumeScheduled || this.#next === this.#waiting.length) return;
    this.#resumeScheduled = true;
    nextTurn(() => {
      this.#resumeScheduled = false;
      this.#handOn();
    });
  }

  /**
   * True when a request may be handed on now: the window has room, the peer is taking its
   * output, and no other request of this peer was handed on in this turn of the event loop.
   * One request a turn lets every connection's requests interleave with one peer's burst:
   * the answers a handler makes at once (a tree text, say) are made between other events.
   */
  #mayHandOnRequest(): boolean {
    return !this.#turnTaken && !this.#backedUp && this.#pending.size < MAX_PENDING_REQUESTS;
  }

  /** Marks this turn as used by a request; the next turn hands on what waits. */
  #takeTurn(): void {
    this.#turnTaken = true;
    nextTurn(() => {
      this.#turnTaken = false;
      this.#handOn();
    });
  }

  /**
   * Tells the transport that `work` is what request `id` set going: if the peer cancels the
   * request, its place in the window is given back only once `work` has settled. Returns
   * `work`. Call it while the request is being handled (the server's handlers do).
   *
   * @param id the id of a request this transport handed on
   * @param work the handler's work for it
   */
  holdUntilSettled<T>(id: unknown, work: Promise<T>): Promise<T> {
    this.#busy.add(id);
    const settled = () => {
      this.#busy.delete(id);
      if (this.#cancelled.has(id)) this.#release(id);
    };
    work.then(settled, settled);
    return work;
  }

  /** Hands on what waits, as places free up; stops reading while too much waits. */
  #handOn(): void {
    while (this.#next < this.#waiting.length && !this.#closed) {
      const waiting = this.#waiting[this.#next]!;
      const request = waiting.message !== null && isRequest(waiting.message);
      if (request && !this.#mayHandOnRequest()) break;
      this.#next++;
      this.#waitingBytes -= waiting.bytes;
      if (waiting.message === null) continue;
      this.#queuedIds.delete((waiting.message as Incoming).id);
      if (request) this.#takeTurn();
      this.#deliver(waiting.message);
    }
    if (this.#next === this.#waiting.length) {
      this.#waiting = [];
      this.#next = 0;
    }
    // Paused for its output, the peer's input is of no use yet: read no more of it. (What
    // is not a request still flows, so a client whose requests back up reads its answers.)
    const full = this.#waitingBytes > MAX_WAITING_BYTES ||
      (this.#backedUp && this.#next < this.#waiting.length);
    if (full !== this.#paused && !this.#closed) {
      this.#paused = full;
      if (full) this.#socket.pause();
      else this.#socket.resume();
    }
  }

  #deliver(message: JSONRPCMessage): void {
    if (isRequest(message)) this.#pending.add((message as Incoming).id);
    const refused = this.screen?.(message) ?? null;
    if (refused !== null) {
      this.send(refused).catch(() => {}); // the answer gives the request's place back
      return;
    }
    try {
      this.onmessage?.(message);
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /** Sends one message as a line. */
  send(message: JSONRPCMessage): Promise<void> {
    const sent = this.#write(message);
    const answered = message as Incoming;
    if (answered.method === undefined) this.#release(answered.id);
    return sent;
  }

  /**
   * Writes one line, in pieces of at most 64 KiB so that a peer reading slowly shows
   * progress. Past the high-water mark the peer is paused (see `#handOn`); past the hard cap
   * it is cut off.
   */
  #write(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) return Promise.reject(new Error("the connection is closed"));
    const line = Buffer.from(JSON.stringify(message) + "\n", "utf8");
    const unsent = this.#socket.writableLength;
    // One answer alone is never refused for its size: the cap is on what piles up.
    if (unsent > 0 && unsent + line.length > MAX_UNSENT_BYTES) {
      return this.#cutOff(`more than ${MAX_UNSENT_BYTES} bytes wait unsent`);
    }
    const written = new Promise<void>((resolve, reject) => {
      for (let start = 0; start < line.length; start += WRITE_PIECE_BYTES) {
        const end = Math.min(start + WRITE_PIECE_BYTES, line.length);
        this.#socket.write(line.subarray(start, end), (error?: Error | null) => {
          if (error) {
            reject(error);
            return;
          }
          this.#progress();
          if (end === line.length) resolve();
        });
      }
    });
    if (!this.#backedUp && this.#socket.writableLength > UNSENT_HIGH_WATER_BYTES) {
      this.#backedUp = true;
      this.#lastProgress = performance.now();
      this.#watchStall(STALL_MS);
      this.#handOn(); // stops reading
    }
    return written;
  }

  /** The socket took output: a paused peer goes on once all but a quarter has left. */
  #progress(): void {
    this.#lastProgress = performance.now();
    if (
      this.#backedUp && !this.#closed &&
      this.#socket.writableLength <= UNSENT_HIGH_WATER_BYTES / 4
    ) {
      this.#backedUp = false;
      clearTimeout(this.#stallTimer);
      this.#stallTimer = undefined;
      this.#handOn();
    }
  }

  /** Cuts the peer off once it has taken nothing for `STALL_MS` while paused. */
  #watchStall(delayMs: number): void {
    clearTimeout(this.#stallTimer);
    const timer = setTimeout(() => {
      this.#stallTimer = undefined;
      if (!this.#backedUp || this.#closed) return;
      const idle = performance.now() - this.#lastProgress;
      if (idle >= STALL_MS) {
        this.#cutOff(`it took no output for ${STALL_MS} ms`).catch(() => {});
      } else this.#watchStall(STALL_MS - idle);
    }, delayMs);
    Deno.unrefTimer(timer); // never the reason the process stays alive
    this.#stallTimer = timer;
  }

  /** Closes the connection of a peer that stopped reading, rather than hold its backlog. */
  #cutOff(reason: string): Promise<void> {
    this.close();
    // Its backlog is dropped at once: nobody will read it.
    this.#socket.destroy();
    return Promise.reject(new Error(`the peer stopped reading: ${reason}; connection closed`));
  }

  /** Closes the connection; safe to call twice. */
  close(): Promise<void> {
    if (!this.#closed) {
      this.#socket.end();
      // Give the last line a moment to leave, then make sure the socket is gone.
      const timer = setTimeout(() => this.#socket.destroy(), 200);
      this.#socket.once("close", () => clearTimeout(timer));
    }
    this.#finish();
    return Promise.resolve();
  }

  #finish(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#stallTimer);
    this.onclose?.();
  }
}
