/**
 * The CrownOS agent access protocol, client side: before its server starts, the app asks the
 * compositor (over the Unix socket named by `CROWNOS_AGENT_ACCESS`), which asks the user.
 * Newline-delimited JSON: the app sends a request with its reason; the compositor answers
 * `granted` (with capabilities), `denied`, and later perhaps `revoked` and `granted` again.
 * With the `screenshot` capability the app can ask for PNGs of its window.
 *
 * Consent fails closed: an unreachable socket, a compositor that runs as neither the user
 * nor root (by the kernel's peer credentials, checked before the app says a word), a closed
 * connection or a message that makes no sense all leave the server off. A screenshot whose
 * data is not a PNG is an error for that request only.
 *
 * @module
 */

import * as net from "node:net";
import { getuid } from "../../../ffi/mod.ts";
import { LineSplitter } from "../transport/line_splitter.ts";
import { checkPng } from "./png.ts";
import { socketPeer } from "../transport/socket_peer.ts";

/** The reason the app gives the user. */
export const ACCESS_REASON = "Let AI agents read and operate this app's UI over MCP";

/** What the app tells the compositor about itself. */
export interface AccessRequest {
  /** The app's id (its `AppConfig.appId`, or a name made from its title). */
  app_id: string;
  /** The window title the user sees. */
  title: string;
  /** The app's process id. */
  pid: number;
}

/** What the access client reports. */
export interface AccessEvents {
  /** The user allowed agents in, with these capabilities (`screenshot`). */
  granted(capabilities: string[]): void;
  /** The user said no. */
  denied(): void;
  /** The user took a grant back. */
  revoked(): void;
  /**
   * The compositor cannot be trusted (its uid is not the user's or root's, or cannot be read),
   * cannot be reached, closed the connection, or answered nonsense.
   */
  failed(reason: string): void;
}

/** How long a screenshot may take, in milliseconds. */
export const SCREENSHOT_TIMEOUT_MS = 5000;

/**
 * Why the compositor at the other end of `socket` may not be trusted with consent, or `null`
 * when it runs as `ownUid` or as root. Credentials that cannot be read are a refusal too.
 */
export function compositorRefusal(
  socket: net.Socket,
  path: string,
  ownUid: () => number = getuid,
): string | null {
  let peerUid: number;
  let uid: number;
  try {
    peerUid = socketPeer(socket).uid;
    uid = ownUid();
  } catch (error) {
    return `cannot tell who runs the compositor at ${path}: ${(error as Error).message}`;
  }
  if (peerUid === uid || peerUid === 0) return null;
  return `the compositor at ${path} runs as uid ${peerUid}, which is neither this user (uid ${uid}) nor root`;
}

/** A connection to the compositor's agent access socket. */
export class AgentAccessClient {
  readonly #path: string;
  readonly #request: AccessRequest;
  readonly #events: AccessEvents;
  readonly #screenshots = new Map<number, { resolve(png: string): void; reject(e: Error): void }>();
  #socket: net.Socket | null = null;
  #nextScreenshot = 1;
  #closed = false;
  #trusted = false;

  /**
   * Makes a client; `connect()` starts it.
   *
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
      // Before the app tells it anything: someone else's socket must not hear who we are,
      // let alone grant consent or see screenshot requests.
      const refusal = compositorRefusal(socket, this.#path);
      if (refusal !== null) return this.#fail(refusal);
      this.#trusted = true;
      socket.write(
        JSON.stringify({ type: "request", ...this.#request, reason: ACCESS_REASON }) + "\n",
      );
    });
    socket.on("data", (chunk: Uint8Array) => {
      if (!this.#trusted) return; // nothing counts before the peer check
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
        if (typeof message.png !== "string") {
          pending.reject(new Error("the compositor sent a screenshot without a png"));
          return;
        }
        try {
          pending.resolve(checkPng(message.png, "the compositor sent a screenshot"));
        } catch (error) {
          pending.reject(error as Error);
        }
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
