/**
 * `LineSplitter`: splits a byte stream into lines, refusing lines longer than a limit. Kept
 * apart from `line_transport.ts` so that code that only splits lines (the compositor's client
 * on the app's thread) does not load the MCP SDK: that costs an app about 18 MiB of memory.
 *
 * @module
 */

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
