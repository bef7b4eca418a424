/**
 * `LineSplitter` splits a byte stream into lines, refusing lines longer than a limit;
 * `readFirstLine()` reads a new connection's first line. Kept apart from `line_transport.ts`
 * so that code that only splits lines (the compositor's client on the app's thread) or reads
 * a first line (the server, before a peer passed its gate) does not load the MCP SDK.
 *
 * @module
 */

import type { Socket } from "node:net";
import { Buffer } from "node:buffer";

/** The longest line accepted, in bytes: 4 MiB. */
export const MAX_LINE_BYTES = 4 * 1024 * 1024;

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
