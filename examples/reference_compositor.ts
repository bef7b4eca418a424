/**
 * A reference compositor for the CrownOS agent access protocol: it listens on a Unix socket,
 * asks a person (or a test's policy) whether each app may let agents in, and can revoke and
 * grant again later. It also answers screenshot requests with a PNG when it grants the
 * `screenshot` capability.
 *
 * Try it with two terminals:
 *
 * ```sh
 * deno run --allow-read --allow-write --allow-net examples/reference_compositor.ts --socket /tmp/agent-access.sock
 * CROWNOS_AGENT_ACCESS=/tmp/agent-access.sock deno task counter
 * ```
 *
 * Then answer `y` or `n`, and type `revoke <pid>` or `grant <pid>` later.
 *
 * An app accepts a compositor only when the kernel says it runs as the app's own user or as
 * root (so run this as yourself), and it passes a screenshot on to the agent only when the
 * data is base64 of a PNG.
 *
 * @module
 */

import * as net from "node:net";
import { parseArgs } from "node:util";
import { LineSplitter } from "../runtime/agent/transport/line_transport.ts";

/** A request from an app, as the compositor receives it. */
export interface AccessRequestMessage {
  type: "request";
  app_id: string;
  title: string;
  pid: number;
  reason: string;
}

/** What the compositor decides for a request. */
export type Decision = "grant" | "deny";

/** How a `ReferenceCompositor` behaves. */
export interface ReferenceCompositorOptions {
  socketPath: string;
  /** Decides each request: a person's answer, or a test's policy. */
  decide: (request: AccessRequestMessage) => Decision | Promise<Decision>;
  /** The capabilities granted with each grant (`screenshot`). */
  capabilities?: string[];
  /** The PNG (base64) sent for a screenshot; a 1×1 image by default. */
  screenshot?: (request: AccessRequestMessage) => string;
}

/** A 1×1 PNG, base64. */
export const TINY_PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

interface Client {
  socket: net.Socket;
  request: AccessRequestMessage | null;
  granted: boolean;
}

/** A small compositor that speaks the agent access protocol. */
export class ReferenceCompositor {
  readonly #options: ReferenceCompositorOptions;
  readonly #clients = new Set<Client>();
  readonly #requestListeners = new Set<(request: AccessRequestMessage) => void>();
  #server: net.Server | null = null;

  /** Makes a compositor; `start()` listens. */
  constructor(options: ReferenceCompositorOptions) {
    this.#options = options;
  }

  /** The requests received so far, oldest first. */
  get requests(): AccessRequestMessage[] {
    return [...this.#clients].flatMap((client) => client.request === null ? [] : [client.request]);
  }

  /** Calls `listener` for each request that arrives. */
  onRequest(listener: (request: AccessRequestMessage) => void): void {
    this.#requestListeners.add(listener);
  }

  /** Listens on the socket. */
  async start(): Promise<void> {
    const server = net.createServer((socket) => this.#accept(socket));
    this.#server = server;
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(this.#options.socketPath, () => resolve());
    });
    Deno.chmodSync(this.#options.socketPath, 0o600);
  }

  #accept(socket: net.Socket): void {
    const client: Client = { socket, request: null, granted: false };
    this.#clients.add(client);
    const splitter = new LineSplitter();
    socket.on("error", () => {});
    socket.on("close", () => this.#clients.delete(client));
    socket.on("data", async (chunk: Uint8Array) => {
      const lines = splitter.push(chunk);
      if (lines === "overflow") return socket.destroy();
      for (const line of lines) await this.#receive(client, line.toString("utf8"));
    });
  }

  async #receive(client: Client, line: string): Promise<void> {
    let message: { type?: string; id?: number; app_id?: string; title?: string; pid?: number };
    try {
      message = JSON.parse(line);
    } catch {
      return;
    }
    if (message.type === "request" && client.request === null) {
      client.request = message as unknown as AccessRequestMessage;
      for (const listener of this.#requestListeners) listener(client.request);
      const decision = await this.#options.decide(client.request);
      if (decision === "grant") this.#grant(client);
      else this.#send(client, { type: "denied" });
    } else if (message.type === "screenshot" && client.granted && client.request !== null) {
      const canScreenshot = (this.#options.capabilities ?? []).includes("screenshot");
      if (!canScreenshot) return;
      const png = this.#options.screenshot?.(client.request) ?? TINY_PNG;
      this.#send(client, { type: "screenshot", id: message.id, png });
    }
  }

  #send(client: Client, message: unknown): void {
    if (!client.socket.destroyed) client.socket.write(JSON.stringify(message) + "\n");
  }

  #grant(client: Client): void {
    client.granted = true;
    this.#send(client, { type: "granted", capabilities: this.#options.capabilities ?? [] });
  }

  #find(pid: number): Client | undefined {
    return [...this.#clients].find((client) => client.request?.pid === pid);
  }

  /** Revokes the grant of the app with `pid`; returns false when no such app is connected. */
  revoke(pid: number): boolean {
    const client = this.#find(pid);
    if (client === undefined) return false;
    client.granted = false;
    this.#send(client, { type: "revoked" });
    return true;
  }

  /** Grants access again to the app with `pid`. */
  grant(pid: number): boolean {
    const client = this.#find(pid);
    if (client === undefined) return false;
    this.#grant(client);
    return true;
  }

  /** Sends a raw line to the app with `pid` (tests of nonsense answers). */
  sendRaw(pid: number, line: string): boolean {
    const client = this.#find(pid);
    if (client === undefined) return false;
    client.socket.write(line + "\n");
    return true;
  }

  /** Stops listening and drops every app's connection. */
  async stop(): Promise<void> {
    for (const client of this.#clients) client.socket.destroy();
    const server = this.#server;
    this.#server = null;
    if (server !== null) await new Promise<void>((resolve) => server.close(() => resolve()));
    try {
      Deno.removeSync(this.#options.socketPath);
    } catch {
      // Gone already.
    }
  }
}

const USAGE =
  `Usage: reference_compositor.ts --socket PATH [--capabilities screenshot] [--grant-all]

Listens on PATH for the CrownOS agent access protocol and asks you, for each app that
wants to let agents in, whether to allow it. Commands while it runs:
  revoke <pid>   take access away from an app
  grant <pid>    give it back
  list           show the apps that asked
  quit           stop`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      socket: { type: "string" },
      capabilities: { type: "string", default: "" },
      "grant-all": { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help || values.socket === undefined) {
    console.log(USAGE);
    Deno.exit(values.help ? 0 : 2);
  }
  // One reader: a line answers the oldest open question, or else is a command.
  const questions: ((answer: string) => void)[] = [];
  const compositor = new ReferenceCompositor({
    socketPath: values.socket,
    capabilities: values.capabilities.split(",").filter((c) => c !== ""),
    decide: async (request) => {
      if (values["grant-all"]) {
        console.log(`granted ${request.title} (pid ${request.pid})`);
        return "grant";
      }
      console.log(
        `\n${request.title} (${request.app_id}, pid ${request.pid}) asks: ${request.reason}`,
      );
      console.log("Allow? [y/N]");
      const answer = await new Promise<string>((resolve) => questions.push(resolve));
      return /^y(es)?$/i.test(answer.trim()) ? "grant" : "deny";
    },
  });
  await compositor.start();
  console.log(`Listening. Start apps with CROWNOS_AGENT_ACCESS=${values.socket}`);
  for await (const line of readLines()) {
    const question = questions.shift();
    if (question !== undefined) {
      question(line);
      continue;
    }
    const [command, argument] = line.trim().split(/\s+/);
    const pid = Number(argument);
    if (command === "quit") break;
    if (command === "list") {
      for (const r of compositor.requests) console.log(`${r.pid}\t${r.title}\t${r.app_id}`);
    } else if (command === "revoke" || command === "grant") {
      const done = command === "revoke" ? compositor.revoke(pid) : compositor.grant(pid);
      console.log(done ? `${command}d ${pid}` : `no app with pid ${argument}`);
    } else if (command !== undefined && command !== "") {
      console.log(USAGE);
    }
  }
  await compositor.stop();
}

async function* readLines(): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffered = "";
  for await (const chunk of Deno.stdin.readable) {
    buffered += decoder.decode(chunk, { stream: true });
    let index;
    while ((index = buffered.indexOf("\n")) !== -1) {
      yield buffered.slice(0, index);
      buffered = buffered.slice(index + 1);
    }
  }
}

if (import.meta.main) await main();
