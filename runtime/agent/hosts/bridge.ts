/**
 * The UI thread's side of the agent server. `startAgent()` is what `run()` loads (only when
 * `AppConfig.mcp(true)`): it asks the compositor for consent when there is one, starts the
 * server worker, sends it the tree after every frame that changed it and the tool list after
 * every change, answers its requests between frames, and removes the socket file on every
 * way out of the process it can see.
 *
 * @module
 */

import { getuid } from "../../../ffi/mod.ts";
import type { App } from "../../app/app.ts";
import { AppCalls, refusalOf } from "../../app/app_calls.ts";
import type { AppSettings } from "../../app/config.ts";
import { readEnv } from "../../app/env.ts";
import { log } from "../../app/log.ts";
import { snapshotUpdate } from "../../semantics/mod.ts";
import { toolInfo } from "./app_host.ts";
import { AgentAccessClient } from "../consent/compositor.ts";
import { appCells } from "../../render/picture/app_screenshot.ts";
import { TIMEOUT_MESSAGE } from "./mirror_host.ts";
import {
  socketDirectory,
  socketEnv,
  socketNameFor,
  socketPathFor,
} from "../transport/socket_dir.ts";
import type { FromWorker, RequestResult, ToWorker, UiCall } from "./worker_messages.ts";
import type { ToolProgress } from "../../ui/tool_call.ts";

/** The code logged when the server cannot start. */
export const START_FAILURE_CODE = "CUI0408";

/** The agent side of a running app. */
export interface Agent {
  /** Stops the server and the compositor connection; removes the socket. */
  stop(): Promise<void>;
  /** Settles when the server has started, failed, or been refused (for tests and logs). */
  readonly ready: Promise<void>;
}

/** The compositor's agent-access socket, when the app runs under one. */
function accessSocket(): string | undefined {
  const value = readEnv("CROWNOS_AGENT_ACCESS");
  return value === "" ? undefined : value;
}

function removeQuietly(path: string): void {
  try {
    Deno.removeSync(path);
  } catch {
    // Gone already.
  }
}

/** How long a start may take before the next start or stop stops waiting for it, in ms. */
const START_TIMEOUT_MS = 10_000;

/**
 * Runs the server worker for one app, and restarts it on each new grant. Starts and stops
 * take turns (`#inTurn`): a start waits until the previous server has stopped and its worker
 * is terminated, so at most one worker is alive at any time, and a burst of grants and
 * revocations from the compositor is folded into one step that follows its last message.
 */
class AgentBridge implements Agent {
  readonly ready: Promise<void>;
  readonly #app: App;
  readonly #calls: AppCalls;
  readonly #settings: AppSettings;
  #worker: Worker | null = null;
  #socketPath: string | null = null;
  #access: AgentAccessClient | null = null;
  #screenshots = false;
  #stopped = false;
  /** The compositor's last word: true after a grant, false after anything else. */
  #granted = false;
  /** What to log when the compositor's last word stops a running server. */
  #offNote: string | null = null;
  /** The end of the last start or stop; the next one waits for it. */
  #serverTurn: Promise<void> = Promise.resolve();
  /** The consent step queued that has not yet read `#granted`: later messages join it. */
  #consentStep: Promise<void> | null = null;
  /** Ends the wait of the start under way (the worker listens, failed, or died). */
  #startAnswered: (() => void) | null = null;
  #unsubscribe: (() => void)[] = [];
  #markReady!: () => void;
  readonly #cleanupOnExit = (event: Event) => {
    // An error or rejection the app handles itself (preventDefault) does not end the
    // process, so its socket must stay. Deno runs no code after an unhandled one (no unload,
    // no microtask), so this is the last chance to remove the file. An app's own handler
    // registered after run() started runs after this one and is not seen here.
    if (event.defaultPrevented) return;
    if (this.#socketPath !== null) removeQuietly(this.#socketPath);
  };

  constructor(app: App, settings: AppSettings) {
    this.#app = app;
    this.#calls = new AppCalls(app);
    this.#settings = settings;
    this.ready = new Promise((resolve) => (this.#markReady = resolve));
    globalThis.addEventListener("unload", this.#cleanupOnExit);
    globalThis.addEventListener("error", this.#cleanupOnExit);
    globalThis.addEventListener("unhandledrejection", this.#cleanupOnExit);
  }

  begin(): void {
    const accessPath = accessSocket();
    if (accessPath === undefined) {
      this.#inTurn(() => this.#startServer()); // no compositor to ask: start at once
      return;
    }
    const { title, appId } = this.#settings;
    this.#access = new AgentAccessClient(
      accessPath,
      { app_id: appId ?? socketNameFor(title), title, pid: Deno.pid },
      {
        granted: (capabilities) => {
          this.#granted = true;
          this.#screenshots = capabilities.includes("screenshot");
          this.#followConsent();
        },
        denied: () => {
          log("agent access denied by the compositor: the MCP server stays off");
          this.#withdraw(null).then(() => this.#markReady());
        },
        revoked: () => {
          this.#withdraw("agent access revoked by the compositor: MCP server stopped");
        },
        failed: (reason) => {
          log(`${START_FAILURE_CODE} MCP server off: agent access failed: ${reason}`);
          this.#withdraw(null).then(() => this.#markReady());
        },
      },
    );
    this.#access.connect();
  }

  #post(message: ToWorker): void {
    this.#worker?.postMessage(message);
  }

  /** Runs `step` once every start and stop queued before it has ended. Never rejects. */
  #inTurn(step: () => void | Promise<void>): Promise<void> {
    this.#serverTurn = this.#serverTurn.then(step).catch((error) => {
      log(`${START_FAILURE_CODE} MCP server failed: ${(error as Error).message}`);
    });
    return this.#serverTurn;
  }

  /** Takes consent away; `note` is logged if that stops a running server. */
  #withdraw(note: string | null): Promise<void> {
    this.#granted = false;
    this.#offNote = note;
    return this.#followConsent();
  }

  /**
   * Brings the server in line with the compositor's last word once the start or stop under
   * way has ended. Messages that arrive before the step reads `#granted` join it, so a burst
   * costs at most a stop and a start, whatever its length.
   */
  #followConsent(): Promise<void> {
    this.#consentStep ??= this.#inTurn(async () => {
      await new Promise((resolve) => setTimeout(resolve, 0)); // let the rest of a burst in
      this.#consentStep = null;
      if (this.#granted) {
        if (this.#worker === null) await this.#startServer();
      } else if (this.#worker !== null) {
        if (this.#offNote !== null) log(this.#offNote);
        await this.#stopServer();
      }
    });
    return this.#consentStep;
  }

  /** Ends the wait of the start under way. */
  #answerStart(): void {
    this.#startAnswered?.();
    this.#startAnswered = null;
  }

  /** A worker that failed is stopped in its turn, unless another has replaced it by then. */
  #workerFailed(worker: Worker): void {
    this.#answerStart();
    this.#inTurn(() => this.#stopServer(worker)).then(() => this.#markReady());
  }

  /** Starts the server worker; settles once it listens or has failed (or gives up waiting). */
  #startServer(): Promise<void> {
    if (this.#stopped || this.#worker !== null) return Promise.resolve();
    const app = this.#app;
    try {
      const directory = socketDirectory(getuid(), socketEnv());
      this.#socketPath = socketPathFor(directory, this.#settings.title, Deno.pid);
      const worker = new Worker(new URL("../server/server_worker.ts", import.meta.url), {
        type: "module",
      });
      this.#worker = worker;
      worker.onmessage = (event: MessageEvent<FromWorker>) => this.#receive(worker, event.data);
      worker.onerror = (event) => {
        event.preventDefault();
        log(`${START_FAILURE_CODE} MCP server failed: ${event.message}`);
        this.#workerFailed(worker);
      };
    } catch (error) {
      log(`${START_FAILURE_CODE} MCP server failed to start: ${(error as Error).message}`);
      this.#worker = null;
      this.#markReady();
      return Promise.resolve();
    }
    const answered = new Promise<void>((resolve) => (this.#startAnswered = resolve));
    this.#unsubscribe.push(
      app.onTreeUpdate((update) => this.#post({ type: "tree", update })),
      app.tools.onChange(() =>
        this.#post({ type: "tools", tools: app.tools.list().map(toolInfo) })
      ),
    );
    this.#post({
      type: "start",
      socketPath: this.#socketPath,
      name: socketNameFor(this.#settings.title),
      tree: snapshotUpdate(app.tree),
      tools: app.tools.list().map(toolInfo),
    });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const gaveUp = new Promise<void>((resolve) => (timer = setTimeout(resolve, START_TIMEOUT_MS)));
    return Promise.race([answered, gaveUp]).finally(() => clearTimeout(timer));
  }

  #receive(worker: Worker, message: FromWorker): void {
    switch (message.type) {
      case "listening":
        this.#app.announceServer(message.path);
        this.#answerStart();
        this.#markReady();
        return;
      case "failed":
        log(`${START_FAILURE_CODE} MCP server failed to start: ${message.reason}`);
        this.#workerFailed(worker);
        return;
      case "log":
        log(message.line);
        return;
      case "request":
        this.#answer(message.id, message.call, message.deadline).then((result) =>
          this.#post({ type: "reply", id: message.id, result })
        );
        return;
      case "stopped":
        return;
    }
  }

  async #answer(id: number, call: UiCall, deadline: number): Promise<RequestResult> {
    if (Date.now() > deadline) {
      // The agent was already told the app did not answer: acting now would surprise it.
      return { ok: false, kind: "timeout", message: TIMEOUT_MESSAGE, app: false };
    }
    try {
      switch (call.kind) {
        case "act":
          // app.act() runs the frame, whose update listener posts the tree to the worker
          // before this answer is posted: the worker has applied the revision it answers with
          // when the reply arrives, so its receipt (changes up to that revision) is complete.
          return {
            ok: true,
            value: this.#calls.act(
              call.id,
              call.action,
              call.revision,
              "agent",
              call.confirm === true,
            ),
          };
        case "call_tool": {
          // The worker's deadline, so that both sides give up at the same time; each progress
          // report crosses to the worker, which passes it on to the agent that asked.
          const onProgress = (report: ToolProgress) => this.#post({ type: "progress", id, report });
          const text = await this.#calls.callTool(call.name, call.argumentsJson, {
            deadline,
            onProgress,
          });
          return { ok: true, value: String(text) };
        }
        case "inspect":
          return { ok: true, value: this.#calls.inspectParts({ sections: call.sections }) };
        case "screenshot":
          if (this.#access !== null && this.#granted && this.#screenshots) {
            // The compositor's picture: what the person sees, window frame and all.
            const revision = this.#app.tree.revision;
            const png = await this.#access.screenshot();
            return { ok: true, value: { png, revision, source: "compositor" } };
          }
          // The cells only: the worker draws and encodes them, off the UI thread.
          return { ok: true, value: appCells(this.#app) };
      }
    } catch (error) {
      // A refusal (a typed tool's own schema refusing the arguments among them) is not app text.
      const refusal = refusalOf(error);
      if (refusal !== null) return { ok: false, ...refusal, app: false };
      const message = error instanceof Error ? error.message : String(error);
      return { ok: false, kind: "app", message, app: call.kind === "call_tool" };
    }
  }

  /** Stops the running server (only if it is still `only`, when given) and ends its worker. */
  async #stopServer(only?: Worker): Promise<void> {
    const worker = this.#worker;
    if (only !== undefined && worker !== only) return; // stopped or replaced meanwhile
    for (const unsubscribe of this.#unsubscribe) unsubscribe();
    this.#unsubscribe = [];
    this.#worker = null;
    if (worker !== null) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const stopped = new Promise<void>((resolve) => {
        worker.onmessage = (event: MessageEvent<FromWorker>) => {
          if (event.data.type === "stopped") resolve();
        };
        timer = setTimeout(resolve, 2000); // a worker that does not answer is terminated anyway
      });
      worker.postMessage({ type: "stop" } satisfies ToWorker);
      await stopped;
      clearTimeout(timer);
      worker.terminate();
    }
    if (this.#socketPath !== null) removeQuietly(this.#socketPath);
    if (this.#app.serverSocket !== null) this.#app.announceServer(null);
  }

  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#access?.close();
    await this.#inTurn(() => this.#stopServer());
    this.#socketPath = null;
    globalThis.removeEventListener("unload", this.#cleanupOnExit);
    globalThis.removeEventListener("error", this.#cleanupOnExit);
    globalThis.removeEventListener("unhandledrejection", this.#cleanupOnExit);
    this.#markReady();
  }
}

/** Starts the agent side of `app`: asks for consent if needed, then serves MCP. */
export function startAgent(app: App, settings: AppSettings): Agent {
  const bridge = new AgentBridge(app, settings);
  bridge.begin();
  return bridge;
}
