/**
 * The proxy behind `crownmcp`: an MCP server for the agent with two tools of its own
 * (`list_apps`, `select_app`, in `own_tools.ts`) plus everything the selected app offers,
 * forwarded — its tools once checked (`app_tools.ts`), its resources and subscriptions, its
 * `list_changed` and `resources/updated` notifications coalesced (`app_notifications.ts`),
 * and cancellation.
 *
 * Which app is selected, and the rule that `ui_act` is refused after every change of the
 * selected app until the agent has read the app now selected, live in `selection.ts`; what is
 * forwarded and how ids are remapped, in `forwarding.ts`; the texts crownmcp answers with, in
 * `messages.ts`. This module ties them to the agent's lines: it keeps the forwarded requests
 * that wait for an answer or for an app, their time-outs and cancellations.
 *
 * After the handshake, what the agent sends to the app and what the app answers is
 * forwarded as the very lines that came in, never decoded and encoded again: crownmcp parses
 * each line once to read its method, id and the few fields it acts on (the tool's name, the
 * resource's uri, whether a read succeeded). The SDK's `Server` still answers what crownmcp
 * answers itself: `initialize`, `ping`, `tools/list` (its tools and the app's, as the app
 * last listed them: it never waits on the app), `list_apps`, `select_app`, and every line
 * that is not a request it forwards. A selected app that stops answering fails what waits
 * for it (`liveness.ts`), and stays selected until it answers again.
 *
 * @module
 */

import type { AppEntry } from "../runtime/agent/clients/discovery.ts";
import { McpLifecycle } from "../runtime/agent/session/lifecycle.ts";
import {
  idInUseMessage,
  isJsonRpcMessage,
  looksLikeResponse,
  parseErrorMessage,
} from "../runtime/agent/transport/line_transport.ts";
import { ErrorCode, Server } from "../runtime/agent/transport/sdk.ts";
import { BUILTIN_TOOL } from "../runtime/ui/tool_names.ts";
import type { Message, RequestId } from "./app_link.ts";
import {
  type AgentRequest,
  askedOf,
  calledTool,
  cancellation,
  cancellationWithId,
  countsAsRead,
  FORWARD_TIMEOUT_MS,
  hasOwnPrefix,
  isForwarded,
  isRequestId,
  oversizeAnswer,
  pendingEntry,
  requestWithId,
  subscriptionOf,
} from "./forwarding.ts";
import type { AgentStdio } from "./lines.ts";
import {
  CONNECTION_CLOSED,
  droppedToolMessage,
  INSTRUCTIONS,
  NO_APP_FOR_REQUEST,
  NO_APP_FOR_TOOL,
  notAnsweringMessage,
  plainMessage,
  readFirstMessage,
  TIMED_OUT,
  toolError,
} from "./messages.ts";
import { serveOwnRequests } from "./own_tools.ts";
import { Replies } from "./replies.ts";
import { AppSelection, type Selection } from "./selection.ts";
import { ServerSide } from "./server_side.ts";
import type { ProxyOptions } from "./types.ts";

export { FORWARD_TIMEOUT_MS, plainMessage };

const decoder = new TextDecoder();

/** The crownmcp proxy. */
export class CrownProxy {
  readonly server: Server;
  #stdio: AgentStdio | null = null;
  readonly #replies = new Replies((message) => this.#stdio?.writeMessage(message));
  #serverSide: ServerSide | null = null;
  readonly #apps: AppSelection;
  /** MCP's lifecycle with the agent: `initialize` first, and once. */
  readonly #lifecycle = new McpLifecycle();
  /** Ids of forwarded requests that wait for an app to be selected before they are sent. */
  readonly #held = new Set<RequestId>();
  /** Ids among `#held` the agent cancelled: they are dropped unanswered. */
  readonly #heldCancelled = new Set<RequestId>();
  #closed = false;

  /** Makes the proxy; `start()` connects it to the agent. */
  constructor(options: ProxyOptions) {
    this.server = new Server(
      { name: "crownmcp", version: options.version },
      {
        capabilities: {
          tools: { listChanged: true },
          resources: { subscribe: true, listChanged: true },
        },
        instructions: INSTRUCTIONS,
      },
    );
    this.#apps = new AppSelection(options, {
      connected: (selection) => this.#attach(selection),
      listsChanged: () => this.#notifyLists(),
      toolsChanged: () => {
        if (!this.#closed) this.server.sendToolListChanged().catch(() => {});
      },
      silent: (selection, seen) => this.#failSilent(selection, seen),
      write: (selection, line) => {
        if (this.#apps.current === selection && !this.#closed) this.#stdio?.write(line);
      },
    });
    serveOwnRequests(this.server, this.#apps);
  }

  /** The app selected now, if any. */
  get selected(): AppEntry | null {
    return this.#apps.current?.entry ?? null;
  }

  /**
   * Serves the agent over `stdio` (its lines are taken from now on; reading is the caller's
   * `stdio.run()`) and starts watching for apps.
   */
  async start(stdio: AgentStdio): Promise<void> {
    // Requests wait for the first look at the directory, so the agent's first tools/list
    // already has the tools of an app that was running when crownmcp started.
    this.#apps.awaitFirstScan();
    this.#stdio = stdio;
    const serverSide = new ServerSide(stdio);
    this.#serverSide = serverSide;
    await this.server.connect(serverSide);
    stdio.onLine = (line) => this.#fromAgent(line);
    this.#apps.watch();
  }

  /** A new selection's link: its answers and notifications go to the agent. */
  #attach(selection: Selection): void {
    const entry = selection.entry;
    selection.link.attach({
      response: (id, message, line) => this.#answered(selection, id, message, line),
      notification: (method, message, line) => selection.notifications.take(method, message, line),
      close: () => {
        if (this.#apps.current === selection) this.#apps.lost(entry);
        this.#failPending(selection);
      },
    });
  }

  #notifyLists(): void {
    if (this.#closed) return;
    this.server.sendToolListChanged().catch(() => {});
    this.server.sendResourceListChanged().catch(() => {});
  }

  /** One line from the agent: forwarded as it is, or handed to the SDK's server. */
  #fromAgent(line: Uint8Array): void {
    const text = decoder.decode(line);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      if (text.trim() !== "") this.#stdio?.writeMessage(parseErrorMessage("not JSON"));
      return;
    }
    // The envelope is checked as before (the SDK's schemas, under a microsecond): a request
    // the app would refuse with an id-less parse error is refused here, where its sender can
    // be told.
    if (!isJsonRpcMessage(value)) {
      if (!looksLikeResponse(value)) {
        this.#stdio?.writeMessage(parseErrorMessage("not a JSON-RPC 2.0 message"));
      }
      return;
    }
    const message = value as Message;
    const refused = this.#lifecycle.refusal(value);
    if (refused !== null) {
      this.#stdio?.writeMessage(refused);
      return;
    }
    if (isForwarded(message)) {
      this.#forward(message as AgentRequest, line);
      return;
    }
    if (message.method === "notifications/cancelled" && this.#cancelForwarded(message, line)) {
      return;
    }
    this.#serverSide?.onmessage?.(value);
  }

  /** Forwards `request` now when an app is selected and ready, or once that is settled. */
  #forward(request: AgentRequest, line: Uint8Array): void {
    const apps = this.#apps;
    const selection = apps.current;
    if (
      apps.scannedOnce && apps.connecting === null && selection !== null &&
      apps.exited === null && !this.#held.has(request.id)
    ) {
      this.#send(selection, request, line);
      return;
    }
    this.#held.add(request.id);
    this.#forwardLater(request, line.slice()).finally(() => {
      this.#held.delete(request.id);
      this.#heldCancelled.delete(request.id);
    });
  }

  /** The checks a forwarded request passes when it cannot be sent at once, as they always were. */
  async #forwardLater(request: AgentRequest, line: Uint8Array): Promise<void> {
    const { id, method } = request;
    let upstream: Selection | null;
    if (method === "tools/call") {
      const exited = this.#apps.exited;
      if (exited !== null) {
        const result = await this.#apps.exitedError(exited);
        if (!this.#heldCancelled.has(id)) this.#replies.result(id, result);
        return;
      }
      upstream = await this.#apps.upstream();
      if (upstream === null) {
        if (!this.#heldCancelled.has(id)) this.#replies.result(id, toolError(NO_APP_FOR_TOOL));
        return;
      }
    } else {
      upstream = await this.#apps.upstream();
      if (upstream === null) {
        if (this.#heldCancelled.has(id)) return;
        if (method === "resources/list") this.#replies.result(id, { resources: [] });
        else this.#replies.error(id, ErrorCode.InvalidRequest, NO_APP_FOR_REQUEST);
        return;
      }
    }
    if (!this.#heldCancelled.has(id)) this.#send(upstream, request, line);
  }

  /** Sends a forwarded request to the app selected now, unless the read-before-act rule refuses it. */
  #send(selection: Selection, request: AgentRequest, line: Uint8Array): void {
    const id = request.id;
    const called = calledTool(request);
    if (called === BUILTIN_TOOL.act && !this.#apps.mayAct) {
      this.#replies.result(id, toolError(readFirstMessage(selection.entry)));
      return;
    }
    const tool = request.method === "tools/call";
    const dropped = tool ? selection.tools.droppedNames.get(called) : undefined;
    if (dropped !== undefined) {
      this.#replies.result(id, toolError(droppedToolMessage(selection.entry, called, dropped)));
      return;
    }
    const seen = selection.liveness.seen;
    if (seen !== null) {
      // Never sent: it would run whenever the app wakes up, long after the agent gave up.
      const message = notAnsweringMessage(selection.entry, seen, false);
      this.#replies.failed(request.method === "tools/call", id, message, ErrorCode.RequestTimeout);
      return;
    }
    if (pendingEntry(selection.pending, id) !== undefined) {
      // The app would refuse it too; answered here, the first request's answer stays its own.
      this.#stdio?.writeMessage(idInUseMessage(id));
      return;
    }
    const read = countsAsRead(request);
    // An agent's id that looks like one of crownmcp's own is sent with another one.
    const own = hasOwnPrefix(id);
    const sentId = own ? selection.link.ownId() : id;
    const timer = setTimeout(() => this.#timedOut(selection, sentId), FORWARD_TIMEOUT_MS);
    selection.pending.set(sentId, {
      agentId: id,
      tool,
      read,
      change: this.#apps.changes,
      sentAt: performance.now(),
      asked: askedOf(request),
      timer,
      subscription: subscriptionOf(request),
    });
    selection.link.send(own ? requestWithId(request, sentId) : line);
  }

  /**
   * The agent cancelled a request: when it was forwarded, the cancellation goes to the app
   * (with the agent's reason) and the request is forgotten, unanswered. Returns false for a
   * request the SDK's server handles.
   */
  #cancelForwarded(message: Message, line: Uint8Array): boolean {
    const requestId = message.params?.requestId;
    if (!isRequestId(requestId)) return false;
    if (this.#held.has(requestId)) {
      this.#heldCancelled.add(requestId);
      return true;
    }
    const selection = this.#apps.current;
    const found = selection === null ? undefined : pendingEntry(selection.pending, requestId);
    if (found === undefined) return false;
    const [sentId, entry] = found;
    clearTimeout(entry.timer);
    selection!.pending.delete(sentId);
    selection!.link.send(sentId === requestId ? line : cancellationWithId(message, sentId));
    return true;
  }

  /** The app answered a forwarded request: written to the agent as it came. */
  #answered(selection: Selection, id: RequestId, message: Message, line: Uint8Array): void {
    const entry = selection.pending.get(id);
    if (entry === undefined) return; // cancelled, timed out, or never asked
    selection.pending.delete(id);
    clearTimeout(entry.timer);
    const tooLong = oversizeAnswer(entry, line);
    if (tooLong !== null) {
      this.#stdio?.writeMessage(tooLong);
      return;
    }
    const result = message.result;
    if (entry.read && result !== undefined && !(entry.tool && result.isError === true)) {
      this.#apps.read(entry.change);
    }
    if (entry.subscription !== undefined && result !== undefined) {
      selection.notifications.subscribed(entry.subscription.uri, entry.subscription.on);
    }
    if (entry.tool && result === undefined) {
      // As a tool error with the plain message, as the agent always got it.
      this.#replies.result(
        entry.agentId,
        toolError(plainMessage(String(message.error?.message ?? ""))),
      );
    } else if (entry.agentId !== id) {
      this.#stdio?.writeMessage({ ...message, id: entry.agentId });
    } else {
      this.#stdio?.write(line);
    }
  }

  #timedOut(selection: Selection, sentId: RequestId): void {
    const entry = selection.pending.get(sentId);
    if (entry === undefined) return;
    selection.pending.delete(sentId);
    selection.link.send(cancellation(sentId, TIMED_OUT));
    this.#replies.failed(entry.tool, entry.agentId, TIMED_OUT, ErrorCode.RequestTimeout, {
      timeout: FORWARD_TIMEOUT_MS,
    });
  }

  /**
   * The selected app does not answer: what waits for it is cancelled toward it (so that none
   * of it runs when it wakes up) and fails with what was seen.
   */
  #failSilent(selection: Selection, seen: string): void {
    const pending = [...selection.pending];
    selection.pending.clear();
    for (const [sentId, entry] of pending) {
      clearTimeout(entry.timer);
      selection.link.send(cancellation(sentId, seen));
      const message = notAnsweringMessage(selection.entry, seen, true);
      this.#replies.failed(entry.tool, entry.agentId, message, ErrorCode.RequestTimeout);
    }
  }

  /** The app's connection ended: its unanswered requests fail, as they always did. */
  #failPending(selection: Selection): void {
    const pending = [...selection.pending.values()];
    selection.pending.clear();
    for (const entry of pending) {
      clearTimeout(entry.timer);
      const exited = this.#apps.exited;
      if (entry.tool && exited !== null && exited.app === selection.entry.app) {
        this.#apps.exitedError(exited).then((result) =>
          this.#replies.result(entry.agentId, result)
        );
      } else {
        this.#replies.failed(
          entry.tool,
          entry.agentId,
          CONNECTION_CLOSED,
          ErrorCode.ConnectionClosed,
        );
      }
    }
  }

  /** Stops watching and disconnects from the app. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#apps.stop();
    await this.server.close().catch(() => {});
  }
}
