/**
 * An MCP transport over this process's standard input and output, one JSON-RPC message a
 * line. Unlike the SDK's stdio server transport it ends when standard input closes, so a
 * server launched by an agent exits with it instead of hanging.
 *
 * @module
 */

import { LineSplitter, parseErrorMessage, readLine } from "./line_transport.ts";
import type { JSONRPCMessage, Transport } from "./sdk.ts";

/** The longest line read from the agent, in bytes. */
export const STDIO_MAX_LINE_BYTES = 64 * 1024 * 1024;

const encoder = new TextEncoder();

/** A transport over standard input and output. */
export class StdioLineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly #input: ReadableStream<Uint8Array>;
  readonly #output: { write(bytes: Uint8Array): Promise<number> };
  #writing: Promise<void> = Promise.resolve();
  #closed = false;

  /** Defaults to the process's stdin and stdout; tests may pass their own streams. */
  constructor(
    input: ReadableStream<Uint8Array> = Deno.stdin.readable,
    output: { write(bytes: Uint8Array): Promise<number> } = Deno.stdout,
  ) {
    this.#input = input;
    this.#output = output;
  }

  /** Starts reading; resolves at once, reading goes on in the background. */
  start(): Promise<void> {
    this.#read();
    return Promise.resolve();
  }

  async #read(): Promise<void> {
    const splitter = new LineSplitter(STDIO_MAX_LINE_BYTES);
    try {
      for await (const chunk of this.#input) {
        const lines = splitter.push(chunk);
        if (lines === "overflow") {
          await this.send(parseErrorMessage("a line is too long")).catch(() => {});
          break;
        }
        for (const line of lines) this.#receive(new TextDecoder().decode(line));
      }
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
    await this.close();
  }

  #receive(text: string): void {
    const read = readLine(text);
    if (read === null) return;
    if ("reply" in read) this.send(read.reply).catch(() => {});
    else this.onmessage?.(read.message);
  }

  /** Writes one message as a line; writes go out in order. */
  send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) return Promise.reject(new Error("standard output is closed"));
    const bytes = encoder.encode(JSON.stringify(message) + "\n");
    const write = this.#writing.then(async () => {
      let offset = 0;
      while (offset < bytes.length) offset += await this.#output.write(bytes.subarray(offset));
    });
    this.#writing = write.catch(() => {});
    return write;
  }

  /** Ends the transport (standard input closed, or asked to). Safe to call twice. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#writing;
    this.onclose?.();
  }
}
