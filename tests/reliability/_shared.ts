/**
 * Shared pieces of the reliability suite (`tests/reliability/*_test.ts`): the short and
 * long (soak) forms, a seeded random source so a failing run can be replayed, a raw
 * JSON-RPC client that sees every byte an app sends back, and scenes that own a runtime
 * directory with the apps, `crownmcp` sessions and clients started in it.
 *
 * The short form runs in CI. `deno task soak` sets `CROWNUI_SOAK=1`, which multiplies every
 * count (and the durations built from counts) by `CROWNUI_SOAK_FACTOR`, 10 by default.
 * `CROWNUI_SEED` replays the random choices of a run that failed (each test prints its seed
 * in its failure messages).
 *
 * Every wait is bounded; nothing asserts how long anything took.
 *
 * @module
 */

import { markedContent } from "../_marked.ts";
import assert from "node:assert/strict";
import type { Buffer } from "node:buffer";
import type * as net from "node:net";
import { basename, join } from "node:path";
import { openAppSocket } from "../../runtime/agent/clients/client.ts";
import { LineSplitter } from "../../runtime/agent/transport/line_transport.ts";
import { Client } from "../../runtime/agent/transport/sdk.ts";
import type { StdioClientTransport } from "../../runtime/agent/transport/sdk_stdio.ts";
import {
  type AppProcess,
  callTool,
  connect,
  makeRuntimeDir,
  PROCESS_TIMEOUT_MS,
  removeDir,
  REQUEST_TIMEOUT_MS,
  startApp,
  type StartOptions,
  type ToolText,
  withTimeout,
} from "../_app_process.ts";
import { crowndev, type Run } from "../_crowndev_process.ts";
import { crownmcpTransport } from "../_crownmcp.ts";
import { readEnv } from "../../runtime/app/env.ts";

/** True in the long form (`deno task soak`, `CROWNUI_SOAK=1`). */
export const SOAK: boolean = readEnv("CROWNUI_SOAK") === "1";

/** How much the long form multiplies counts by: `CROWNUI_SOAK_FACTOR`, 10 by default. */
export const SOAK_FACTOR: number = SOAK ? Number(readEnv("CROWNUI_SOAK_FACTOR") ?? "10") || 10 : 1;

/** `count` in the short form, `count × SOAK_FACTOR` in the long one. */
export function scaled(count: number): number {
  return Math.round(count * SOAK_FACTOR);
}

/** The seed of this run's random choices: `CROWNUI_SEED`, or a fresh one. */
export const SEED: number = Number(readEnv("CROWNUI_SEED") ?? "") ||
  Math.floor(Math.random() * 2 ** 31);

/** A seeded random source (mulberry32): the same seed gives the same sequence. */
export function randomSource(seed: number = SEED): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

/** Says which seed to replay a failure with. */
export function seedNote(): string {
  return `(replay with CROWNUI_SEED=${SEED})`;
}

/** Waits until `condition` holds, checking every 50 ms; fails after `timeoutMs`. */
export async function until(
  condition: () => boolean | Promise<boolean>,
  what: string | (() => string),
  timeoutMs: number = REQUEST_TIMEOUT_MS,
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await condition())) {
    if (performance.now() > deadline) {
      throw new Error(
        `timed out after ${timeoutMs} ms: ${typeof what === "string" ? what : what()}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Waits `ms` milliseconds (to let something happen, never to measure it). */
export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** One JSON-RPC message as a raw client reads it. */
export interface RawMessage {
  jsonrpc?: unknown;
  id?: unknown;
  method?: string;
  params?: unknown;
  result?: {
    content?: { type: string; text?: string }[];
    isError?: boolean;
    [key: string]: unknown;
  };
  error?: { code: number; message: string };
}

/** An `initialize` request line for raw clients. */
export function initializeMessage(id: number | string = 0): Record<string, unknown> {
  return {
    jsonrpc: "2.0",
    id,
    method: "initialize",
    params: {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "reliability-raw", version: "0" },
    },
  };
}

/**
 * A client on an app's socket that speaks JSON-RPC by hand: it sends whatever bytes a test
 * gives it and records every line that comes back, by id, so a test can check that each
 * request was answered exactly once. Lines that are not JSON are kept apart (`garbage`):
 * an app must never send one.
 */
export class RawClient {
  readonly socket: net.Socket;
  /** Every message received, in order. */
  readonly messages: RawMessage[] = [];
  /** Lines received that were not JSON. */
  readonly garbage: string[] = [];
  /** Settles when the connection has closed (either side). */
  readonly closed: Promise<void>;
  #bytes = 0;
  #isClosed = false;
  #nextId = 1;
  readonly #answers = new Map<unknown, RawMessage[]>();
  readonly #waiting = new Map<unknown, (message: RawMessage) => void>();
  readonly #countWaiters = new Set<{ count: number; resolve: () => void }>();

  /** Opens a connection; sends `TOKEN <token>` first when a token is given. */
  static async open(path: string, token?: string): Promise<RawClient> {
    const socket = await withTimeout(openAppSocket(path, token), REQUEST_TIMEOUT_MS, path);
    return new RawClient(socket);
  }

  constructor(socket: net.Socket) {
    this.socket = socket;
    const splitter = new LineSplitter(Number.MAX_SAFE_INTEGER);
    socket.on("error", () => {}); // a reset peer; "close" follows
    this.closed = new Promise((resolve) =>
      socket.on("close", () => {
        this.#isClosed = true;
        for (const waiter of this.#countWaiters) waiter.resolve();
        resolve();
      })
    );
    socket.on("data", (chunk: Buffer) => {
      this.#bytes += chunk.length;
      const lines = splitter.push(chunk);
      if (lines === "overflow") throw new Error("unreachable: the splitter has no limit");
      for (const line of lines) this.#receive(line.toString("utf8"));
    });
  }

  #receive(line: string): void {
    let message: RawMessage;
    try {
      message = JSON.parse(line);
    } catch {
      this.garbage.push(line);
      return;
    }
    this.messages.push(message);
    if ("id" in message && !("method" in message)) {
      const list = this.#answers.get(message.id) ?? [];
      list.push(message);
      this.#answers.set(message.id, list);
      const waiter = this.#waiting.get(message.id);
      if (waiter !== undefined) {
        this.#waiting.delete(message.id);
        waiter(message);
      }
    }
    for (const waiter of this.#countWaiters) {
      if (this.messages.length >= waiter.count) {
        this.#countWaiters.delete(waiter);
        waiter.resolve();
      }
    }
  }

  /** How many bytes have come back. */
  get bytes(): number {
    return this.#bytes;
  }

  /** True once the connection has closed. */
  get isClosed(): boolean {
    return this.#isClosed;
  }

  /** The answers received for request `id` (an app must send exactly one). */
  answersTo(id: unknown): RawMessage[] {
    return this.#answers.get(id) ?? [];
  }

  /** Every id an answer came back for. */
  answeredIds(): unknown[] {
    return [...this.#answers.keys()];
  }

  /** Writes raw text or bytes; resolves once written (or once the peer is gone). */
  write(data: string | Uint8Array): Promise<void> {
    if (this.#isClosed || this.socket.destroyed) return Promise.resolve();
    return new Promise((resolve) => this.socket.write(data, () => resolve()));
  }

  /** Writes each of `lines` followed by a newline. */
  sendLines(lines: readonly string[]): Promise<void> {
    return this.write(lines.map((line) => line + "\n").join(""));
  }

  /** The next free request id. */
  nextId(): number {
    return this.#nextId++;
  }

  /** Sends a request with a fresh id; returns the id. */
  request(method: string, params?: unknown): number {
    const id = this.nextId();
    const message: Record<string, unknown> = { jsonrpc: "2.0", id, method };
    if (params !== undefined) message.params = params;
    this.write(JSON.stringify(message) + "\n");
    return id;
  }

  /** Waits for the answer to `id`, failing if the connection closes first. */
  answer(id: unknown, timeoutMs: number = REQUEST_TIMEOUT_MS): Promise<RawMessage> {
    const received = this.#answers.get(id);
    if (received !== undefined) return Promise.resolve(received[0]!);
    const answered = new Promise<RawMessage>((resolve, reject) => {
      this.#waiting.set(id, resolve);
      this.closed.then(() => {
        if (this.#waiting.delete(id)) reject(new Error(`closed before an answer to id ${id}`));
      });
    });
    return withTimeout(answered, timeoutMs, `the answer to id ${id}`).finally(() =>
      this.#waiting.delete(id)
    );
  }

  /** Sends a request and waits for its answer. */
  call(method: string, params?: unknown, timeoutMs?: number): Promise<RawMessage> {
    return this.answer(this.request(method, params), timeoutMs);
  }

  /** Calls a tool; returns its answer. */
  callTool(name: string, args?: unknown, timeoutMs?: number): Promise<RawMessage> {
    return this.call("tools/call", { name, arguments: args }, timeoutMs);
  }

  /** Waits until `count` messages have arrived in all (or the connection closed). */
  async received(count: number, timeoutMs: number = REQUEST_TIMEOUT_MS): Promise<void> {
    if (this.messages.length >= count || this.#isClosed) return;
    const waiter = { count, resolve: () => {} };
    const arrived = new Promise<void>((resolve) => (waiter.resolve = resolve));
    this.#countWaiters.add(waiter);
    try {
      await withTimeout(arrived, timeoutMs, `${count} messages, got ${this.messages.length}`);
    } finally {
      this.#countWaiters.delete(waiter);
    }
  }

  /** Sends `initialize` and `notifications/initialized`, as a client does first. */
  async initialize(): Promise<void> {
    const id = this.nextId();
    await this.sendLines([JSON.stringify(initializeMessage(id))]);
    const answer = await this.answer(id);
    assert.ok(answer.result !== undefined, `initialize failed: ${JSON.stringify(answer)}`);
    await this.sendLines([`{"jsonrpc":"2.0","method":"notifications/initialized"}`]);
  }

  /** Waits (bounded) for the app to close the connection. */
  async waitClosed(what = "the app to close the connection"): Promise<void> {
    await withTimeout(this.closed, REQUEST_TIMEOUT_MS, what);
  }

  /** Drops the connection at once, as a client that vanishes. */
  destroy(): void {
    this.socket.destroy();
  }
}

/** The first text of a raw `tools/call` answer; fails when there is none. */
export function rawToolText(message: RawMessage): { text: string; isError: boolean } {
  const first = message.result?.content?.[0];
  assert.ok(
    first?.type === "text" && typeof first.text === "string",
    `not a tool result with text: ${JSON.stringify(message).slice(0, 500)}`,
  );
  return { text: first.text, isError: message.result?.isError === true };
}

/** The content of a result marked as untrusted app data; fails when the marker is missing. */
export function unwrap(text: string): unknown {
  return markedContent(text);
}

/** A crownmcp child driven by the SDK client, as an agent launches it; stderr is kept. */
export class CrownmcpSession {
  readonly client: Client;
  readonly transport: StdioClientTransport;
  readonly #stderr: string[] = [];

  constructor(transport: StdioClientTransport) {
    this.transport = transport;
    this.client = new Client({ name: "reliability-test", version: "0.1.0" }, { capabilities: {} });
    transport.stderr?.on("data", (chunk: Uint8Array) => {
      this.#stderr.push(new TextDecoder().decode(chunk));
    });
  }

  /** Everything crownmcp wrote to standard error so far. */
  get stderr(): string {
    return this.#stderr.join("");
  }

  /** crownmcp's process id. */
  get pid(): number {
    return this.transport.pid!;
  }

  /** Calls a tool through crownmcp. */
  call(name: string, args: Record<string, unknown> = {}): Promise<ToolText> {
    return callTool(this.client, name, args);
  }

  /** Sends crownmcp a signal (SIGKILL to make it vanish). */
  kill(signal: Deno.Signal): void {
    try {
      Deno.kill(this.pid, signal);
    } catch {
      // Gone already.
    }
  }

  /** Closes the session (standard input first, signals if it must). */
  async close(): Promise<void> {
    await withTimeout(this.client.close(), PROCESS_TIMEOUT_MS, "crownmcp to close");
  }
}

/** An app a scene started and saw listen. */
export interface SceneApp {
  process: AppProcess;
  socket: string;
  /** `name-pid`, as crownmcp and crowndev call it */
  app: string;
}

/**
 * A fresh runtime directory (`XDG_RUNTIME_DIR`) and everything a test started in it: apps,
 * crownmcp sessions, raw and SDK clients. `close()` ends them all and removes the directory.
 */
export class Scene {
  readonly runtimeDir: string;
  readonly socketDir: string;
  readonly #apps: AppProcess[] = [];
  readonly #sessions: CrownmcpSession[] = [];
  readonly #raws: RawClient[] = [];
  readonly #clients: Client[] = [];

  constructor(runtimeDir: string) {
    this.runtimeDir = runtimeDir;
    this.socketDir = join(runtimeDir, "crownui");
  }

  /** The environment every child of the scene gets. */
  get env(): Record<string, string> {
    return { XDG_RUNTIME_DIR: this.runtimeDir };
  }

  /** Starts an app without waiting for it to listen. */
  spawn(script: string, options: StartOptions = {}): AppProcess {
    const process = startApp(script, { ...options, env: { ...this.env, ...options.env } });
    this.#apps.push(process);
    return process;
  }

  /** Starts an app and waits until it listens. */
  async app(script: string, options: StartOptions = {}): Promise<SceneApp> {
    const process = this.spawn(script, options);
    const socket = await process.listening();
    return { process, socket, app: basename(socket).slice(0, -".sock".length) };
  }

  /** Launches crownmcp as an agent does and connects the SDK client to it. */
  async crownmcp(env: Record<string, string> = {}): Promise<CrownmcpSession> {
    const session = new CrownmcpSession(crownmcpTransport({ ...this.env, ...env }));
    this.#sessions.push(session);
    await withTimeout(
      session.client.connect(session.transport, { timeout: REQUEST_TIMEOUT_MS }),
      PROCESS_TIMEOUT_MS,
      "crownmcp to start and answer initialize",
    );
    return session;
  }

  /** Runs crowndev to its end with this scene's runtime directory. */
  crowndev(...args: string[]): Promise<Run> {
    return crowndev(this.env, ...args);
  }

  /** Opens a raw client on `socket` (destroyed with the scene). */
  async raw(socket: string, token?: string): Promise<RawClient> {
    const client = await RawClient.open(socket, token);
    this.#raws.push(client);
    return client;
  }

  /** Connects an SDK client to `socket` (closed with the scene). */
  async client(socket: string): Promise<Client> {
    const client = await connect(socket);
    this.#clients.push(client);
    return client;
  }

  /** Ends everything the scene started and removes its directory. */
  async close(): Promise<void> {
    for (const raw of this.#raws) raw.destroy();
    await Promise.allSettled(this.#clients.map((client) => client.close()));
    await Promise.allSettled(this.#sessions.map((session) => session.close()));
    await Promise.allSettled(this.#apps.map((app) => app.close()));
    await removeDir(this.runtimeDir);
  }
}

/** Runs `body` in a fresh scene, always closed afterwards. */
export async function withScene(body: (scene: Scene) => Promise<void>): Promise<void> {
  const scene = new Scene(await makeRuntimeDir("crownui-reliability-"));
  try {
    await body(scene);
  } finally {
    await scene.close();
  }
}
