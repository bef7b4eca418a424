/**
 * The accepting side of `AgentServer`: it listens on the Unix socket (mode 0600), keeps count
 * of the connections it holds and turns away those past the cap, listens again when running
 * out of descriptors has silently stopped `node:net`'s accept loop, and watches that the socket
 * file is still the one it made. What a connection is let in for is not its business: each
 * accepted socket goes to the server's connection handler.
 *
 * @module
 */

import * as net from "node:net";
import { dirname } from "node:path";
import { getuid } from "../../../ffi/mod.ts";
import { isOutOfDescriptors, probeListener } from "./accept_probe.ts";
import { type FileIdentity, fileIdentity, prepareSocketDirectory } from "./socket_dir.ts";

/** How often the server checks that its socket file is still the one it made, in milliseconds. */
export const SOCKET_CHECK_MS = 2000;

/**
 * How many connections an app's server holds at once unless told otherwise (open ones,
 * and ones not yet past the gate). Past it a connection of the app's own user gets a
 * JSON-RPC error line saying so and is closed; anyone else's is closed without a word.
 */
export const MAX_CONNECTIONS = 256;

/** The message a connection of the app's own user gets past `maxConnections`. */
export function tooManyConnectionsMessage(max: number): string {
  return `Too many connections: this app serves at most ${max} at once; close one and connect again`;
}

/**
 * How many connections must have been open at once before closing ones makes the server
 * check that it still accepts: a listener stops accepting only when the process runs out of
 * descriptors, which takes many connections.
 */
const PROBE_AFTER_CONNECTIONS = 8;

/** How long after a connection closes the server checks that it still accepts, in ms. */
const PROBE_DELAY_MS = 250;

/** The longest wait between two tries to listen again while descriptors are short, in ms. */
const PROBE_BACKOFF_MAX_MS = 8000;

/** What a `SocketListener` is made with. */
export interface SocketListenerOptions {
  /** The socket file to listen on. */
  socketPath: string;
  /** The uid that must own the socket directory; this process's when undefined. */
  uid: number | undefined;
  /** Where log lines go. */
  log: (line: string) => void;
  /** The most connections held at once. */
  maxConnections: number;
  /** Serves one accepted connection; a rejection destroys the socket and is logged. */
  onConnection: (socket: net.Socket) => Promise<void>;
}

/** Listens on a Unix socket for `AgentServer` and holds the sockets it accepted. */
export class SocketListener {
  readonly #socketPath: string;
  readonly #uid: number | undefined;
  readonly #log: (line: string) => void;
  readonly #onConnection: (socket: net.Socket) => Promise<void>;
  /** The most connections held at once. */
  readonly maxConnections: number;
  readonly #sockets = new Set<net.Socket>();
  #server: net.Server | null = null;
  #socketCheck: ReturnType<typeof setInterval> | undefined;
  #relistening = false;
  /** The device and inode of the socket file this server made last. */
  #socketIdentity: FileIdentity | null = null;
  /** The last reason the socket could not be made again, logged once while it lasts. */
  #socketProblem = "";
  readonly #retired: net.Server[] = [];
  #stopped = false;
  /** Connections accepted so far, by every listener. */
  #accepted = 0;
  /** The most connections held at once since the server last checked that it accepts. */
  #peakConnections = 0;
  #probeTimer: ReturnType<typeof setTimeout> | undefined;
  #probeBackoffMs = PROBE_DELAY_MS;

  /** Makes a listener; `start()` listens. */
  constructor(options: SocketListenerOptions) {
    this.#socketPath = options.socketPath;
    this.#uid = options.uid;
    this.#log = options.log;
    this.maxConnections = options.maxConnections;
    this.#onConnection = options.onConnection;
  }

  /** True once the listener has listened. */
  get started(): boolean {
    return this.#server !== null;
  }

  /** True when more connections are held than `maxConnections`. */
  get overLimit(): boolean {
    return this.#sockets.size > this.maxConnections;
  }

  /**
   * Prepares the directory (owned by `uid`), removes a leftover socket file, listens, and
   * starts watching the socket file.
   */
  async start(uid: number): Promise<void> {
    prepareSocketDirectory(dirname(this.#socketPath), uid);
    try {
      Deno.removeSync(this.#socketPath); // a leftover of a process that had our pid
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
    this.#server = await this.#listen();
    this.#watchSocket();
  }

  /** Listens on the socket path and sets its mode to 0600. */
  async #listen(): Promise<net.Server> {
    const server = net.createServer({ pauseOnConnect: true }, (socket) => {
      this.#accepted++;
      this.#track(socket);
      // A throwing gate or log function of an embedder must not take the app down.
      this.#onConnection(socket).catch((error) => {
        socket.destroy();
        try {
          this.#log(`MCP connection failed: ${(error as Error).message}`);
        } catch {
          // Nowhere left to report.
        }
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(this.#socketPath, () => {
        server.off("error", reject);
        resolve();
      });
    });
    Deno.chmodSync(this.#socketPath, 0o600);
    this.#socketIdentity = fileIdentity(this.#socketPath);
    server.on("error", (error) => this.#log(`MCP server error: ${error.message}`));
    return server;
  }

  /** Counts an accepted socket among those held until it closes. */
  #track(socket: net.Socket): void {
    this.#sockets.add(socket);
    this.#peakConnections = Math.max(this.#peakConnections, this.#sockets.size);
    socket.on("close", () => {
      this.#sockets.delete(socket);
      this.#connectionClosed();
    });
    socket.on("error", () => {}); // a vanished peer; "close" follows
  }

  /**
   * Checks now and then that the socket path still names the socket file this server made
   * (same device and inode), not merely that something is there. Someone deleting it (a
   * cleanup of the runtime directory, a mistaken rm) would leave the app reachable by nobody,
   * and a directory renamed away and replaced would leave a stranger's socket in its place;
   * the server then checks the directory again (ancestors included) and listens again at the
   * same path, and says so. A directory that is no longer safe is refused (CUI0408, logged once
   * per reason) and looked at again on the next check. Connections already open are not
   * touched.
   */
  #watchSocket(): void {
    const timer = setInterval(async () => {
      if (this.#stopped || this.#relistening) return;
      const now = fileIdentity(this.#socketPath);
      const made = this.#socketIdentity;
      if (now !== null && made !== null && now.dev === made.dev && now.ino === made.ino) return;
      this.#relistening = true;
      const old = this.#server;
      try {
        prepareSocketDirectory(dirname(this.#socketPath), this.#uid ?? getuid());
        // Whatever is there now is not ours, in a directory only we can write to: replace it.
        if (now !== null) Deno.removeSync(this.#socketPath);
        // The old listener stays open until stop(): it is bound to a file nobody can reach
        // any more, and closing it now would remove the new socket file at the same path (and
        // wait for its connections).
        const fresh = await this.#listen();
        if (old !== null) this.#retired.push(old);
        this.#server = fresh;
        this.#socketProblem = "";
        this.#log(
          `MCP server socket ${this.#socketPath} was ${
            now === null ? "removed" : "replaced"
          }; listening there again`,
        );
      } catch (error) {
        const problem = `CUI0408 MCP server socket ${this.#socketPath} was ${
          now === null ? "removed" : "replaced"
        } and cannot be made again: ${(error as Error).message}`;
        if (problem !== this.#socketProblem) this.#log(problem);
        this.#socketProblem = problem;
      } finally {
        this.#relistening = false;
      }
    }, SOCKET_CHECK_MS);
    Deno.unrefTimer(timer); // never the reason the app stays alive
    this.#socketCheck = timer;
  }

  /**
   * Turns away a connection past `maxConnections`: the app's own user is told why in a
   * JSON-RPC error line, anyone else learns nothing.
   */
  refuseOverLimit(socket: net.Socket, ownUser: boolean): void {
    if (!ownUser) {
      socket.destroy();
      return;
    }
    const error = {
      jsonrpc: "2.0",
      id: null,
      error: { code: -32000, message: tooManyConnectionsMessage(this.maxConnections) },
    };
    socket.end(JSON.stringify(error) + "\n");
    // It is on its way out: it must not keep the next one out while its line leaves (a paused
    // socket never reads the peer's end, so it can linger until the timer below).
    this.#sockets.delete(socket);
    // Give the line a moment to leave, then make sure the socket is gone.
    const timer = setTimeout(() => socket.destroy(), 200);
    socket.once("close", () => clearTimeout(timer));
  }

  /**
   * After connections close, checks (soon, once) that the listener still accepts, when many
   * were open: running out of descriptors stops `node:net`'s accept loop for good, silently.
   */
  #connectionClosed(): void {
    if (this.#stopped || this.#probeTimer !== undefined) return;
    if (this.#peakConnections < PROBE_AFTER_CONNECTIONS) return;
    this.#scheduleProbe(PROBE_DELAY_MS);
  }

  #scheduleProbe(delayMs: number): void {
    const timer = setTimeout(() => this.#probe(), delayMs);
    Deno.unrefTimer(timer); // never the reason the app stays alive
    this.#probeTimer = timer;
  }

  /** Probes the listener; listens again when it has stopped, retrying with backoff. */
  async #probe(): Promise<void> {
    this.#peakConnections = this.#sockets.size;
    let retry = false;
    try {
      const result = await probeListener(this.#socketPath, () => this.#accepted);
      if (result === "stalled") retry = !(await this.#listenAgain());
      else retry = result === "out of descriptors";
    } catch (error) {
      this.#log(
        `MCP server could not check that it accepts connections: ${(error as Error).message}`,
      );
    }
    this.#probeTimer = undefined;
    if (this.#stopped) return;
    if (retry) {
      this.#scheduleProbe(this.#probeBackoffMs);
      this.#probeBackoffMs = Math.min(this.#probeBackoffMs * 2, PROBE_BACKOFF_MAX_MS);
    } else {
      this.#probeBackoffMs = PROBE_DELAY_MS;
    }
  }

  /**
   * Replaces a listener that stopped accepting with a new one at the same path. Returns
   * false when it could not (descriptors still short): the caller tries again later.
   */
  async #listenAgain(): Promise<boolean> {
    if (this.#relistening || this.#stopped) return true; // the socket watchdog is at it
    this.#relistening = true;
    try {
      // Closing it removes its socket file; its own connections are not touched.
      this.#server?.close();
      this.#server = null;
      try {
        Deno.removeSync(this.#socketPath);
      } catch {
        // Already removed by close.
      }
      this.#server = await this.#listen();
      this.#log(
        `MCP server had stopped accepting connections (the process ran out of file descriptors); listening again at ${this.#socketPath}`,
      );
      return true;
    } catch (error) {
      if (!isOutOfDescriptors(error)) {
        this.#log(`MCP server cannot listen again: ${(error as Error).message}`);
      }
      return false;
    } finally {
      this.#relistening = false;
    }
  }

  /**
   * Stops watching and probing, lets `closeSessions` end the served connections, then
   * destroys every socket left, closes every listener and removes the socket file.
   */
  async stop(closeSessions: () => Promise<void>): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#socketCheck);
    clearTimeout(this.#probeTimer);
    const server = this.#server;
    await closeSessions();
    for (const socket of this.#sockets) socket.destroy();
    for (const listener of [...this.#retired, ...(server === null ? [] : [server])]) {
      await new Promise<void>((resolve) => listener.close(() => resolve()));
    }
    try {
      Deno.removeSync(this.#socketPath);
    } catch {
      // Already gone (removed by close, or by someone else).
    }
  }
}
