/**
 * Which app crownmcp talks to, and the read-before-act rule that comes with it.
 *
 * `AppSelection` watches the socket directory: with exactly one app running and none
 * selected, that app is selected on its own, at start and whenever apps come and go. A socket
 * directory or socket file that fails the checks the app itself makes (`checkSocketDirectory`,
 * `checkSocketFile`) is never read from or connected to; it is kept under `refused` and
 * logged once while it lasts.
 *
 * Ids and revisions belong to one app, so every change of the selected app (on its own, by
 * `select_app`, even of the same app, or because the selected app exited) counts as a change,
 * and `ui_act` may go through only once a read was sent after the last one. When the selected
 * app exits, it is kept as `exited` until the first forwarded call after that has failed with
 * a message naming it.
 *
 * No app can hold crownmcp up. Connecting, the handshake and the first tool list share a
 * deadline of `CONNECT_DEADLINE_MS`; an app that misses it is not selected on its own, is
 * tried again until it answers (`unanswered.ts`), and `list_apps` shows what was seen. What
 * crownmcp answers itself waits for a first try to connect at most `SETTLE_MS`, and never
 * for a try again. The selected app's tools are kept with it (`app_tools.ts`), and whether
 * it still answers is watched (`liveness.ts`).
 *
 * @module
 */

import {
  type AppEntry,
  type AppScan,
  checkAppSocket,
  listApps,
  watchApps,
} from "../runtime/agent/clients/discovery.ts";
import type { CallToolResult } from "../runtime/agent/transport/sdk.ts";
import { AppLink, NoAnswerError, type RequestId } from "./app_link.ts";
import { AppNotifications } from "./app_notifications.ts";
import { AppTools } from "./app_tools.ts";
import { Liveness } from "./liveness.ts";
import { couldNotConnectMessage, exitedMessage, toolError } from "./messages.ts";
import type { Forwarded, ProxyOptions } from "./types.ts";
import { Unanswered } from "./unanswered.ts";

/** How long connecting to an app, its handshake and its first tool list may take, in ms. */
export const CONNECT_DEADLINE_MS = 5_000;

/**
 * How long crownmcp's own answers (`tools/list`, `list_apps`) wait for an app being
 * connected on its own, in milliseconds: long enough for a healthy app's first handshake
 * (about 0.1 s on a quiet machine: it loads its MCP code then), short enough that a stopped
 * or hung one costs little.
 */
export const SETTLE_MS = 750;

/** The app selected now: its entry, its link and what was forwarded to it. */
export interface Selection {
  /** The app as the socket directory named it. */
  entry: AppEntry;
  /** The connection to the app. */
  link: AppLink;
  /** Forwarded requests waiting for the app's answer, by the id they were sent with. */
  pending: Map<RequestId, Forwarded>;
  /** The app's tools as it last listed them. */
  tools: AppTools;
  /** Whether the app answers. */
  liveness: Liveness;
  /** Its notifications on their way to the agent. */
  notifications: AppNotifications;
}

/** What the proxy does when the selection changes. */
export interface SelectionHooks {
  /** A new selection is connected: attach the handlers of its link. */
  connected(selection: Selection): void;
  /** The tools and resources the agent sees changed. */
  listsChanged(): void;
  /** The selected app's tools changed (`Selection.tools` holds the new list). */
  toolsChanged(): void;
  /** The selected app stopped answering (`seen` says how that showed). */
  silent(selection: Selection, seen: string): void;
  /** A line from the app for the agent (a notification), to write while `selection` is current. */
  write(selection: Selection, line: Uint8Array): void;
}

/** The running apps, the one selected, and the read-before-act rule. */
export class AppSelection {
  /** The running apps, as last seen. */
  apps: AppEntry[] = [];
  /** The app selected now, if any. */
  current: Selection | null = null;
  /** Settles once connecting to an app selected on its own has ended. */
  connecting: Promise<void> | null = null;
  /** Whether `connecting` tries again an app that did not answer: then nothing waits for it. */
  #connectingAgain = false;
  /** Until when (`performance.now()`) crownmcp's own answers wait for `connecting`. */
  #settleBy = 0;
  /** Set when the selected app exited; the next forwarded call fails and clears it. */
  exited: AppEntry | null = null;
  /** Whether the socket directory has been read once. */
  scannedOnce = false;
  readonly #options: ProxyOptions;
  readonly #hooks: SelectionHooks;
  /** `"<path>: <reason>"` for what the last look at the socket directory refused. */
  #refused: string[] = [];
  /** The refusals already logged, so each is logged once while it lasts. */
  #loggedRefusals = new Set<string>();
  #stopWatching: (() => void) | null = null;
  /** Settles once the socket directory has been read the first time. */
  #firstScan: Promise<void> = Promise.resolve();
  #scanned: () => void = () => {};
  /** Apps that did not answer when last tried. */
  readonly #unanswered: Unanswered;
  /** Counts changes of the selected app; `ui_act` needs a read made since the last one. */
  #changes = 0;
  /** The value of `#changes` when the selected app was last read; -1 before any read. */
  #readAt = -1;

  /** Makes the selection; `watch()` starts watching the socket directory. */
  constructor(options: ProxyOptions, hooks: SelectionHooks) {
    this.#options = options;
    this.#hooks = hooks;
    this.#unanswered = new Unanswered(options.log, () => this.autoSelect());
  }

  /** What the last look at the socket directory refused, as `"<path>: <reason>"`. */
  get refused(): string[] {
    return this.#refused;
  }

  /**
   * What showed that `app` does not answer (`no answer to initialize within 5 s`), or
   * undefined when nothing did.
   */
  notAnswering(app: AppEntry): string | undefined {
    const current = this.current;
    if (current?.entry.app === app.app) return current.liveness.seen ?? undefined;
    return this.#unanswered.seen(app);
  }

  /** Counts changes of the selected app; a read is tagged with the count when it is sent. */
  get changes(): number {
    return this.#changes;
  }

  /** Whether `ui_act` may go through: a read was sent since the selected app last changed. */
  get mayAct(): boolean {
    return this.#readAt === this.#changes;
  }

  /** A read sent when the count was `change` succeeded. */
  read(change: number): void {
    this.#readAt = change;
  }

  /** Counts a change of the selected app, so that `ui_act` needs a new read. */
  changed(): void {
    this.#changes++;
  }

  /** From now on, `upstream()` waits until the first look at the directory (see `watch()`). */
  awaitFirstScan(): void {
    this.#firstScan = new Promise((resolve) => (this.#scanned = resolve));
  }

  /** Starts watching the socket directory. */
  watch(): void {
    this.#stopWatching = watchApps(this.#options.socketDir, this.#options.uid, (scan) => {
      this.#appsChanged(scan);
      this.scannedOnce = true;
      this.#scanned();
    });
  }

  /** Reads the socket directory now (`takeScan()` takes the answer in). */
  scanNow(): Promise<AppScan> {
    return listApps(this.#options.socketDir, this.#options.uid);
  }

  /** Takes in a look at the socket directory; logs each new refusal once. */
  takeScan(scan: AppScan): void {
    this.apps = scan.apps;
    this.#unanswered.prune(scan.apps);
    this.#refused = scan.refused;
    for (const refused of scan.refused) {
      if (!this.#loggedRefusals.has(refused)) this.#options.log(`refused ${refused}`);
    }
    this.#loggedRefusals = new Set(scan.refused);
  }

  #appsChanged(scan: AppScan): void {
    this.takeScan(scan);
    const apps = scan.apps;
    const selected = this.current?.entry;
    if (selected !== undefined && !apps.some((app) => app.app === selected.app)) {
      this.lost(selected);
      return;
    }
    this.autoSelect();
  }

  /**
   * Selects the one running app when there is exactly one and none is selected, unless it
   * did not answer lately: then it is tried again when its time comes.
   */
  autoSelect(): void {
    if (this.current !== null || this.connecting !== null || this.apps.length !== 1) return;
    const only = this.apps[0]!;
    if (this.#unanswered.waiting(only)) return;
    this.#connectingAgain = this.#unanswered.seen(only) !== undefined;
    this.#settleBy = performance.now() + SETTLE_MS;
    this.connecting = this.select(only)
      .catch((e) => {
        if (!(e instanceof NoAnswerError)) this.#options.log(couldNotConnectMessage(only.app, e));
      })
      .finally(() => (this.connecting = null));
  }

  /**
   * Waits until the first look at the directory is done and a first try to connect to an
   * app selected on its own has ended, or `SETTLE_MS` since that try began: what crownmcp
   * answers itself never waits longer on an app, nor on a try again.
   */
  async settled(): Promise<void> {
    await this.#firstScan;
    const connecting = this.connecting;
    const left = this.#settleBy - performance.now();
    if (connecting === null || this.#connectingAgain || left <= 0) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([connecting, new Promise((resolve) => (timer = setTimeout(resolve, left)))]);
    clearTimeout(timer);
  }

  /**
   * Connects to `entry` and selects it; an app that refuses, or does not answer within
   * `CONNECT_DEADLINE_MS`, leaves things as they were.
   */
  async select(entry: AppEntry): Promise<void> {
    if (this.current?.entry.app === entry.app) return;
    // Checked again right before connecting: the directory may have changed since it was read.
    checkAppSocket(entry, this.#options.uid);
    // Connect before letting the selected app go: an app that refuses leaves things as they were.
    let link: AppLink | undefined;
    let tools: AppTools;
    try {
      const deadline = performance.now() + CONNECT_DEADLINE_MS;
      link = await AppLink.connect(entry.socket, {
        token: this.#options.token,
        name: "crownmcp",
        version: this.#options.version,
        timeoutMs: CONNECT_DEADLINE_MS,
      });
      tools = await AppTools.fetch(link, Math.max(1, deadline - performance.now()));
    } catch (error) {
      link?.close();
      if (error instanceof NoAnswerError) this.#unanswered.add(entry, error.message);
      throw error;
    }
    this.#unanswered.answered(entry);
    this.#logDropped(entry, [], tools.dropped);
    this.drop();
    const selection: Selection = {
      entry,
      link,
      pending: new Map(),
      tools,
      liveness: new Liveness(link, {
        oldestPending: () => oldestSent(selection.pending),
        silent: (seen) => {
          this.#options.log(`${entry.app} is not answering: ${seen}`);
          this.#hooks.silent(selection, seen);
        },
        answering: () => this.#options.log(`${entry.app} answers again`),
      }),
      notifications: new AppNotifications({
        write: (line) => this.#hooks.write(selection, line),
        toolsChanged: () => this.toolsChanged(selection),
      }),
    };
    this.current = selection;
    this.#hooks.connected(selection);
    this.#changes++;
    this.#options.log(`selected ${entry.app} (${entry.socket})`);
    this.#hooks.listsChanged();
  }

  /** The app said its tools changed: the agent is told once crownmcp has the new list. */
  async toolsChanged(selection: Selection): Promise<void> {
    const before = selection.tools.dropped;
    const changed = await selection.tools.changed(selection.link);
    if (this.current !== selection) return;
    this.#logDropped(selection.entry, before, selection.tools.dropped);
    if (changed) this.#hooks.toolsChanged();
  }

  /** Says on standard error which of `app`'s tools are dropped now that were not `before`. */
  #logDropped(app: AppEntry, before: readonly string[], now: readonly string[]): void {
    for (const drop of now) {
      if (!before.includes(drop)) this.#options.log(`${app.app}: dropped the tool ${drop}`);
    }
  }

  /** Lets the selected app go, if any. */
  drop(): void {
    const selection = this.current;
    this.current = null;
    selection?.liveness.stop();
    selection?.notifications.clear();
    selection?.link.close();
  }

  /** The selected app `entry` exited: it is let go, and another may be selected on its own. */
  lost(entry: AppEntry): void {
    if (this.current?.entry.app !== entry.app) return;
    this.#options.log(`the selected app ${entry.app} exited`);
    this.exited = entry;
    this.#changes++;
    this.drop();
    this.apps = this.apps.filter((app) => app.app !== entry.app);
    this.#hooks.listsChanged();
    this.autoSelect();
  }

  /**
   * The app to forward to, once the first look and a first try to connect have settled (a
   * try again of an app that did not answer is not waited for).
   */
  async upstream(): Promise<Selection | null> {
    await this.#firstScan;
    if (this.connecting !== null && !this.#connectingAgain) await this.connecting;
    return this.current;
  }

  /** The one failed call after the selected app exited; clears the mark. */
  async exitedError(exited: AppEntry): Promise<CallToolResult> {
    this.exited = null;
    await this.upstream(); // an app being selected on its own is named in the message
    return toolError(exitedMessage(exited, this.current?.entry));
  }

  /** Stops watching and lets the selected app go. */
  stop(): void {
    this.#stopWatching?.();
    this.#unanswered.stop();
    this.drop();
  }
}

/** When the oldest of `pending` was sent, or null when none waits. */
function oldestSent(pending: Map<RequestId, Forwarded>): number | null {
  let oldest: number | null = null;
  for (const entry of pending.values()) {
    if (oldest === null || entry.sentAt < oldest) oldest = entry.sentAt;
  }
  return oldest;
}
