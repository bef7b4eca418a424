/**
 * `LineSplitter` splits a byte stream into lines, refusing lines longer than a limit: the
 * one splitter of the server's transports, the compositor's client and `crownmcp` (which keeps
 * each line's newline, to forward it as the very bytes that came in); `readFirstLine()` reads
 * a new connection's first line. Kept apart from `line_transport.ts`
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

/** What a `LineSplitter` is made with besides its limit. */
export interface LineSplitterOptions {
  /** True to end each line with its newline (crownmcp forwards lines as they came). */
  keepNewline?: boolean;
}

/**
 * Splits a byte stream into lines, refusing lines longer than a limit (the newline not
 * counted). A line that arrived in one chunk is a view of that chunk; the start of a line
 * that waits for the next chunk is copied, so a caller may reuse its chunk after `push()`
 * only when it does not keep the lines.
 */
export class LineSplitter {
  readonly #maxBytes: number;
  readonly #newline: 0 | 1;
  #pending: Buffer[] = [];
  #pendingBytes = 0;

  /**
   * @param maxBytes the longest line accepted, newline excluded
   * @param options `keepNewline` to end each line with its newline
   */
  constructor(maxBytes: number = MAX_LINE_BYTES, options: LineSplitterOptions = {}) {
    this.#maxBytes = maxBytes;
    this.#newline = options.keepNewline === true ? 1 : 0;
  }

  /**
   * Adds bytes; returns the complete lines (without the newline unless kept), or
   * `"overflow"` when the line being read has grown past the limit.
   */
  push(chunk: Uint8Array): Buffer[] | "overflow" {
    const lines: Buffer[] = [];
    let start = 0;
    let data = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    for (;;) {
      const end = data.indexOf(NEWLINE, start);
      if (end === -1) break;
      if (this.#pendingBytes + end - start > this.#maxBytes) return "overflow";
      const piece = data.subarray(start, end + this.#newline);
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
