/**
 * Finding running apps: the `<name>-<pid>.sock` files in the socket directory. A socket
 * whose app is gone (its listener refuses connections) is stale and is removed. `watchApps`
 * reports the set of apps whenever it may have changed.
 *
 * @module
 */

import * as net from "node:net";
import { dirname, join } from "node:path";
import {
  checkSocketDirectory,
  checkSocketFile,
  parseSocketFileName,
  socketDirectory,
  SocketDirectoryError,
  socketEnv,
} from "../transport/socket_dir.ts";

/** One running app, as `list_apps` shows it. */
export interface AppEntry {
  /** `notes-4242`: name and pid, unique among running apps. */
  app: string;
  /** `notes`: the socket name made from the window title. */
  name: string;
  /** The app's process id. */
  pid: number;
  /** The path of its socket file. */
  socket: string;
}

/** Whether something listens on the socket: true, false (refused or gone), checked quickly. */
export function socketAlive(path: string, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.createConnection(path);
    const timer = setTimeout(() => finish(true), timeoutMs); // slow, but something is there
    const finish = (alive: boolean) => {
      clearTimeout(timer);
      socket.removeAllListeners();
      socket.on("error", () => {});
      socket.destroy();
      resolve(alive);
    };
    socket.once("connect", () => finish(true));
    socket.once("error", (error: NodeJS.ErrnoException) => {
      // ECONNREFUSED: nobody listens any more. ENOENT: gone. EACCES and the like: alive but
      // not ours to judge, so keep it.
      finish(!(error.code === "ECONNREFUSED" || error.code === "ENOENT"));
    });
  });
}

/** What a look at the socket directory found. */
export interface AppScan {
  /** The running apps whose directory and socket file passed the checks. */
  apps: AppEntry[];
  /**
   * `"<path>: <reason>"` for a socket directory or a socket file that failed the checks:
   * nothing was read from or connected to it.
   */
  refused: string[];
}

function refusal(error: SocketDirectoryError): string {
  return `${error.path}: ${error.reason}`;
}

/**
 * Checks, right before connecting, that an app's socket is still one `uid` can trust: its
 * directory and the directories above it as `checkSocketDirectory` checks them, then the
 * socket file itself. Throws SocketDirectoryError (or NotFound) otherwise.
 */
export function checkAppSocket(app: AppEntry, uid: number): void {
  checkSocketDirectory(dirname(app.socket), uid);
  checkSocketFile(app.socket, uid);
}

/**
 * Lists the apps in `directory`, removing stale sockets. A missing directory means none.
 * The directory is checked first (`checkSocketDirectory`, as the app checks it before it
 * listens): one that fails is not read at all. Each socket file is checked
 * (`checkSocketFile`) before anything connects to it. What fails goes to `refused`.
 */
export async function listApps(directory: string, uid: number): Promise<AppScan> {
  try {
    checkSocketDirectory(directory, uid);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { apps: [], refused: [] };
    if (error instanceof SocketDirectoryError) return { apps: [], refused: [refusal(error)] };
    throw error;
  }
  const entries: AppEntry[] = [];
  const refused: string[] = [];
  let names: string[];
  try {
    names = [...Deno.readDirSync(directory)].filter((e) => !e.isDirectory).map((e) => e.name);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { apps: [], refused: [] };
    throw error;
  }
  await Promise.all(names.map(async (fileName) => {
    const parsed = parseSocketFileName(fileName);
    if (parsed === null) return;
    const socket = join(directory, fileName);
    try {
      checkSocketFile(socket, uid);
    } catch (error) {
      if (error instanceof SocketDirectoryError) refused.push(refusal(error));
      return; // or gone meanwhile
    }
    if (await socketAlive(socket)) {
      entries.push({ app: parsed.app, name: parsed.name, pid: parsed.pid, socket });
      return;
    }
    try {
      Deno.removeSync(socket);
    } catch {
      // Someone else removed it first.
    }
  }));
  return {
    apps: entries.sort((a, b) => a.app.localeCompare(b.app)),
    refused: refused.sort(),
  };
}

/** How apps are matched by what an agent or a developer typed. */
export type AppMatch =
  | { kind: "one"; app: AppEntry }
  | { kind: "none" }
  | { kind: "several"; apps: AppEntry[] };

/** Finds the app a name (`notes`) or a name-pid (`notes-4242`) means. */
export function matchApp(apps: readonly AppEntry[], wanted: string): AppMatch {
  const exact = apps.find((app) => app.app === wanted);
  if (exact !== undefined) return { kind: "one", app: exact };
  const named = apps.filter((app) => app.name === wanted);
  if (named.length === 1) return { kind: "one", app: named[0]! };
  if (named.length > 1) return { kind: "several", apps: named };
  return { kind: "none" };
}

/**
 * Calls `onChange` with what `listApps` finds now, and again whenever that changes (a socket
 * appears or goes, a refusal comes or goes). Until the directory exists it is looked for once
 * a second. Returns a function that stops watching.
 */
export function watchApps(
  directory: string,
  uid: number,
  onChange: (scan: AppScan) => void,
  options: { pollMs?: number } = {},
): () => void {
  let stopped = false;
  let watcher: Deno.FsWatcher | null = null;
  let pending: ReturnType<typeof setTimeout> | undefined;
  let last = "";
  const scan = async () => {
    if (stopped) return;
    const scan = await listApps(directory, uid).catch((): AppScan => ({ apps: [], refused: [] }));
    const key = JSON.stringify([scan.apps.map((app) => app.app), scan.refused]);
    if (stopped || key === last) return;
    last = key;
    onChange(scan);
  };
  const scheduleScan = () => {
    if (pending !== undefined) return;
    pending = setTimeout(() => {
      pending = undefined;
      scan();
    }, 20); // a burst of events (create, chmod) makes one scan
  };
  const watch = async () => {
    while (!stopped) {
      try {
        watcher = Deno.watchFs(directory, { recursive: false });
      } catch {
        await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 1000));
        continue;
      }
      scheduleScan();
      try {
        for await (const _event of watcher) scheduleScan();
      } catch {
        // The directory went away; look for it again.
      }
      watcher = null;
    }
  };
  last = "\u0000"; // differs from any listing, so the first scan always reports
  scan();
  watch();
  return () => {
    stopped = true;
    if (pending !== undefined) clearTimeout(pending);
    try {
      watcher?.close();
    } catch {
      // Closed already.
    }
  };
}

/**
 * The user a client (`crownmcp`, `crowndev`) runs as: the uid that must own the socket
 * directory and the sockets it trusts. It comes from `Deno.uid()` (`--allow-sys=uid`).
 */
export function clientUid(): number {
  let uid: number | null = null;
  try {
    uid = Deno.uid();
  } catch (error) {
    throw new Error(
      "checking the socket directory needs the user id: run with --allow-sys=uid",
      { cause: error },
    );
  }
  if (uid === null) throw new Error("cannot tell the user id on this system");
  return uid;
}

/**
 * The socket directory for a client (`crownmcp`, `crowndev`) running as `uid`, resolved as
 * apps resolve it.
 */
export function clientSocketDirectory(uid: number): string {
  return socketDirectory(uid, socketEnv());
}
