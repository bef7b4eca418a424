/**
 * The CrownOS agent access protocol, client side: before its server starts, the app asks the
 * compositor (over the Unix socket named by `CROWNOS_AGENT_ACCESS`), which asks the user.
 * Newline-delimited JSON: the app sends a request with its reason; the compositor answers
 * `granted` (with capabilities), `denied`, and later perhaps `revoked` and `granted` again.
 * With the `screenshot` capability the app can ask for PNGs of its window.
 *
 * Consent fails closed: an unreachable socket, a closed connection or a message that makes
 * no sense all leave the server off.
 *
 * @module
 */

import * as net from "node:net";
import { LineSplitter } from "./line_transport.ts";

/** The reason the app gives the user. */
export const ACCESS_REASON = "Let AI agents read and operate this app's UI over MCP";

/** What the app tells the compositor about itself. */
export interface AccessRequest {
  app_id: string;
  title: string;
  pid: number;
}

/** What the access client reports. */
export interface AccessEvents {
  granted(capabilities: string[]): void;
  denied(): void;
  revoked(): void;
  /** The compositor cannot be reached, closed the connection, or answered nonsense. */
  failed(reason: string): void;
}

/** How long a screenshot may take, in milliseconds. */
export const SCREENSHOT_TIMEOUT_MS = 5000;

/** A connection to the compositor's agent access socket. */
export class AgentAccessClient {
  readonly #path: string;
  readonly #request: AccessRequest;
  readonly #events: AccessEvents;
  readonly #screenshots = new Map<number, { resolve(png: string): void; reject(e: Error): void }>();
  #socket: net.Socket | null = null;
  #nextScreenshot = 1;
  #closed = false;

  /**
   * @param path the compositor's socket
   * @param request who is asking
   * @param events where answers go
   */
  constructor(path: string, request: AccessRequest, events: AccessEvents) {
    this.#path = path;
    this.#request = request;
    this.#events = events;
  }

  /** Connects and sends the request; answers arrive through the events. */
  connect(): void {
    const socket = net.createConnection(this.#path);
    this.#socket = socket;
    const splitter = new LineSplitter(64 * 1024 * 1024);
    socket.on("connect", () => {
      socket.write(
        JSON.stringify({ type: "request", ...this.#request, reason: ACCESS_REASON }) + "\n",
      );
    });
    socket.on("data", (chunk: Uint8Array) => {
      const lines = splitter.push(chunk);
      if (lines === "overflow") return this.#fail("the compositor sent a line that is too long");
      for (const line of lines) this.#receive(line.toString("utf8"));
    });
    socket.on(
      "error",
      (error: Error) =>
        this.#fail(`cannot reach the compositor at ${this.#path}: ${error.message}`),
    );
    socket.on("close", () => this.#fail("the compositor closed the agent access connection"));
  }

  #receive(line: string): void {
    if (line.trim() === "") return;
    let message: { type?: unknown; capabilities?: unknown; id?: unknown; png?: unknown };
    try {
      message = JSON.parse(line);
    } catch {
      return this.#fail("the compositor answered with something that is not JSON");
    }
    switch (message?.type) {
      case "granted": {
        const capabilities = Array.isArray(message.capabilities)
          ? message.capabilities.filter((c): c is string => typeof c === "string")
          : [];
        this.#events.granted(capabilities);
        return;
      }
      case "denied":
        return this.#events.denied();
      case "revoked":
        return this.#events.revoked();
      case "screenshot": {
        const pending = typeof message.id === "number"
          ? this.#screenshots.get(message.id)
          : undefined;
        if (pending === undefined) return;
        this.#screenshots.delete(message.id as number);
        if (typeof message.png === "string") pending.resolve(message.png);
        else pending.reject(new Error("the compositor sent a screenshot without a png"));
        return;
      }
      default:
        return this.#fail(
          `the compositor sent an unknown message type ${JSON.stringify(message?.type)}`,
        );
    }
  }

  /** Asks the compositor for a PNG of the window, as base64. */
  screenshot(): Promise<string> {
    const socket = this.#socket;
    if (socket === null || this.#closed) {
      return Promise.reject(new Error("screenshots are not available: no compositor connection"));
    }
    const id = this.#nextScreenshot++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#screenshots.delete(id);
        reject(new Error("the compositor did not send the screenshot within 5 seconds"));
      }, SCREENSHOT_TIMEOUT_MS);
      this.#screenshots.set(id, {
        resolve: (png) => (clearTimeout(timer), resolve(png)),
        reject: (error) => (clearTimeout(timer), reject(error)),
      });
      socket.write(JSON.stringify({ type: "screenshot", id }) + "\n");
    });
  }

  #fail(reason: string): void {
    if (this.#closed) return;
    this.close();
    this.#events.failed(reason);
  }

  /** Closes the connection without reporting. Safe to call twice. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const pending of this.#screenshots.values()) {
      pending.reject(new Error("the compositor connection closed"));
    }
    this.#screenshots.clear();
    this.#socket?.destroy();
  }
}
