/**
 * Newline-delimited JSON-RPC over a stream socket, as an MCP transport: one message a line,
 * UTF-8. A line over the limit (4 MiB) gets a JSON-RPC parse error and closes the
 * connection; a line that is not JSON gets a parse error and the connection goes on. A peer
 * that stops reading cannot make the other side buffer without bound: past a limit of
 * unsent bytes the connection is closed.
 *
 * Used on both sides: the app's server and the clients (`crownmcp`, `crowndev`, tests).
 *
 * @module
 */

import type { Socket } from "node:net";
import { Buffer } from "node:buffer";
import type { JSONRPCMessage, Transport } from "./sdk.ts";

/** The longest line accepted, in bytes: 4 MiB. */
export const MAX_LINE_BYTES = 4 * 1024 * 1024;

/** How many bytes may wait unsent to a peer that does not read before it is cut off. */
export const MAX_UNSENT_BYTES = 16 * 1024 * 1024;

const NEWLINE = 0x0a;

/** Splits a byte stream into lines, refusing lines longer than a limit. */
export class LineSplitter {
  readonly #maxBytes: number;
  #pending: Buffer[] = [];
  #pendingBytes = 0;

  /** @param maxBytes the longest line accepted */
  constructor(maxBytes: number = MAX_LINE_BYTES) {
    this.#maxBytes = maxBytes;
  }

  /**
   * Adds bytes; returns the complete lines (without the newline), or `"overflow"` when the
   * line being read has grown past the limit.
   */
  push(chunk: Uint8Array): Buffer[] | "overflow" {
    const lines: Buffer[] = [];
    let start = 0;
    let data = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    for (;;) {
      const end = data.indexOf(NEWLINE, start);
      if (end === -1) break;
      const piece = data.subarray(start, end);
      if (this.#pendingBytes + piece.length > this.#maxBytes) return "overflow";
      if (this.#pending.length > 0) {
        this.#pending.push(piece);
        lines.push(Buffer.concat(this.#pending));
        this.#pending = [];
        this.#pendingBytes = 0;
      } else {
        lines.push(piece);
      }
      start = end + 1;
    }
    if (start < data.length) {
      data = data.subarray(start);
      this.#pendingBytes += data.length;
      if (this.#pendingBytes > this.#maxBytes) return "overflow";
      this.#pending.push(Buffer.from(data)); // copy: the caller may reuse its chunk
    }
    return lines;
  }
}

/** A JSON-RPC parse error for a bad line, sent before going on (or closing). */
export function parseErrorMessage(detail: string): JSONRPCMessage {
  return {
    jsonrpc: "2.0",
    id: null,
    error: { code: -32700, message: `Parse error: ${detail}` },
  } as unknown as JSONRPCMessage;
}

/**
 * A structural check of a JSON-RPC 2.0 message. The SDK validates each request and result
 * against its method's schema; checking every line against the SDK's whole message union
 * as well cost more than the rest of a round trip.
 */
export function isJsonRpcMessage(value: unknown): value is JSONRPCMessage {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const message = value as Record<string, unknown>;
  if (message.jsonrpc !== "2.0") return false;
  const hasId = typeof message.id === "string" || typeof message.id === "number";
  if (typeof message.method === "string") {
    return message.params === undefined ||
      (typeof message.params === "object" && message.params !== null);
  }
  return hasId && ("result" in message || "error" in message);
}

/** An MCP transport over a connected stream socket. */
export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly #socket: Socket;
  readonly #splitter: LineSplitter;
  readonly #initial: Buffer | undefined;
  #closed = false;
  #started = false;

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
    this.#socket.on("error", (error: Error) => {
      this.onerror?.(error);
      this.#finish();
    });
    if (this.#initial !== undefined && this.#initial.length > 0) this.#receive(this.#initial);
    this.#socket.resume();
    return Promise.resolve();
  }

  #receive(chunk: Buffer): void {
    if (this.#closed) return;
    const lines = this.#splitter.push(chunk);
    if (lines === "overflow") {
      // The peer may be gone already: a failed write must not become an unhandled rejection.
      this.#write(parseErrorMessage(`a line is longer than ${MAX_LINE_BYTES} bytes`))
        .catch(() => {})
        .finally(() => this.close());
      return;
    }
    for (const line of lines) {
      if (this.#closed) return;
      const text = line.toString("utf8").trim();
      if (text === "") continue;
      let message: unknown;
      try {
        message = JSON.parse(text);
      } catch {
        this.#write(parseErrorMessage("not JSON")).catch(() => {});
        continue;
      }
      if (!isJsonRpcMessage(message)) {
        this.#write(parseErrorMessage("not a JSON-RPC 2.0 message")).catch(() => {});
        continue;
      }
      try {
        this.onmessage?.(message);
      } catch (error) {
        this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      }
    }
  }

  /** Sends one message as a line. */
  send(message: JSONRPCMessage): Promise<void> {
    return this.#write(message);
  }

  #write(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) return Promise.reject(new Error("the connection is closed"));
    if (this.#socket.writableLength > MAX_UNSENT_BYTES) {
      // The peer has stopped reading: cut it off rather than hold its backlog.
      this.close();
      return Promise.reject(new Error("the peer stopped reading; connection closed"));
    }
    const line = JSON.stringify(message) + "\n";
    return new Promise((resolve, reject) => {
      this.#socket.write(line, (error?: Error | null) => error ? reject(error) : resolve());
    });
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
    this.onclose?.();
  }
}

/**
 * Reads the first line of a new connection. Resolves with the line (without the newline,
 * null if the peer closed first or sent an over-long line) and every byte read, so the
 * caller can hand the bytes on when the line is not a `TOKEN` line. The socket is paused
 * again when it resolves.
 */
export function readFirstLine(
  socket: Socket,
  maxBytes: number = MAX_LINE_BYTES,
): Promise<{ line: string | null; bytes: Buffer; rest: Buffer }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const done = (line: string | null, end: number) => {
      socket.off("data", onData);
      socket.off("close", onClose);
      socket.off("error", onClose);
      socket.pause();
      const bytes = Buffer.concat(chunks);
      resolve({ line, bytes, rest: bytes.subarray(Math.min(end, bytes.length)) });
    };
    const onData = (chunk: Buffer) => {
      const before = total;
      chunks.push(chunk);
      total += chunk.length;
      const index = chunk.indexOf(NEWLINE);
      if (index !== -1) {
        const end = before + index;
        const all = Buffer.concat(chunks);
        done(all.subarray(0, end).toString("utf8"), end + 1);
      } else if (total > maxBytes) {
        done(null, total);
      }
    };
    const onClose = () => done(null, total);
    socket.on("data", onData);
    socket.on("close", onClose);
    socket.on("error", onClose);
    socket.resume();
  });
}
