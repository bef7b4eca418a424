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
 * @module
 */

import {
  type AppEntry,
  type AppScan,
  checkAppSocket,
  listApps,
  watchApps,
} from "../runtime/agent/discovery.ts";
import type { CallToolResult } from "../runtime/agent/sdk.ts";
import { AppLink, type RequestId } from "./app_link.ts";
import { FORWARD_TIMEOUT_MS, type Forwarded } from "./forwarding.ts";
import { couldNotConnectMessage, exitedMessage, toolError } from "./messages.ts";
import type { ProxyOptions } from "./proxy.ts";

/** The app selected now: its entry, its link and what was forwarded to it. */
export interface Selection {
  /** The app as the socket directory named it. */
  entry: AppEntry;
  /** The connection to the app. */
  link: AppLink;
  /** Forwarded requests waiting for the app's answer, by the id they were sent with. */
  pending: Map<RequestId, Forwarded>;
}

/** What the proxy does when the selection changes. */
export interface SelectionHooks {
  /** A new selection is connected: attach the handlers of its link. */
  connected(selection: Selection): void;
  /** The tools and resources the agent sees changed. */
  listsChanged(): void;
}

/** The running apps, the one selected, and the read-before-act rule. */
export class AppSelection {
  /** The running apps, as last seen. */
  apps: AppEntry[] = [];
  /** The app selected now, if any. */
  current: Selection | null = null;
  /** Settles once connecting to an app selected on its own has ended. */
  connecting: Promise<void> | null = null;
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
  /** Counts changes of the selected app; `ui_act` needs a read made since the last one. */
  #changes = 0;
  /** The value of `#changes` when the selected app was last read; -1 before any read. */
  #readAt = -1;

  /** Makes the selection; `watch()` starts watching the socket directory. */
  constructor(options: ProxyOptions, hooks: SelectionHooks) {
    this.#options = options;
    this.#hooks = hooks;
  }

  /** What the last look at the socket directory refused, as `"<path>: <reason>"`. */
  get refused(): string[] {
    return this.#refused;
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

  /** Selects the one running app when there is exactly one and none is selected. */
  autoSelect(): void {
    if (this.current !== null || this.connecting !== null || this.apps.length !== 1) return;
    const only = this.apps[0]!;
    this.connecting = this.select(only)
      .catch((e) => this.#options.log(couldNotConnectMessage(only.app, e)))
      .finally(() => (this.connecting = null));
  }

  /** Connects to `entry` and selects it; an app that refuses leaves things as they were. */
  async select(entry: AppEntry): Promise<void> {
    if (this.current?.entry.app === entry.app) return;
    // Checked again right before connecting: the directory may have changed since it was read.
    checkAppSocket(entry, this.#options.uid);
    // Connect before letting the selected app go: an app that refuses leaves things as they were.
    const link = await AppLink.connect(entry.socket, {
      token: this.#options.token,
      name: "crownmcp",
      version: this.#options.version,
      timeoutMs: FORWARD_TIMEOUT_MS,
    });
    this.drop();
    const selection: Selection = { entry, link, pending: new Map() };
    this.current = selection;
    this.#hooks.connected(selection);
    this.#changes++;
    this.#options.log(`selected ${entry.app} (${entry.socket})`);
    this.#hooks.listsChanged();
  }

  /** Lets the selected app go, if any. */
  drop(): void {
    const selection = this.current;
    this.current = null;
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

  /** The app to forward to, once the first look and any connecting have settled. */
  async upstream(): Promise<Selection | null> {
    await this.#firstScan;
    if (this.connecting !== null) await this.connecting;
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
    this.drop();
  }
}
