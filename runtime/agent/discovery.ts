/**
 * Finding running apps: the `<name>-<pid>.sock` files in the socket directory. A socket
 * whose app is gone (its listener refuses connections) is stale and is removed. `watchApps`
 * reports the set of apps whenever it may have changed.
 *
 * @module
 */

import * as net from "node:net";
import { join } from "node:path";
import { parseSocketFileName, socketDirectory, socketEnv } from "./socket_dir.ts";

/** One running app, as `list_apps` shows it. */
export interface AppEntry {
  /** `notes-4242`: name and pid, unique among running apps. */
  app: string;
  /** `notes`: the socket name made from the window title. */
  name: string;
  pid: number;
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

/** Lists the apps in `directory`, removing stale sockets. A missing directory means none. */
export async function listApps(directory: string): Promise<AppEntry[]> {
  const entries: AppEntry[] = [];
  let names: string[];
  try {
    names = [...Deno.readDirSync(directory)].filter((e) => !e.isDirectory).map((e) => e.name);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw error;
  }
  await Promise.all(names.map(async (fileName) => {
    const parsed = parseSocketFileName(fileName);
    if (parsed === null) return;
    const socket = join(directory, fileName);
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
  return entries.sort((a, b) => a.app.localeCompare(b.app));
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
 * Calls `onChange` with the apps now, and again whenever the directory changes (a socket
 * appears or goes). Until the directory exists it is looked for once a second. Returns a
 * function that stops watching.
 */
export function watchApps(
  directory: string,
  onChange: (apps: AppEntry[]) => void,
  options: { pollMs?: number } = {},
): () => void {
  let stopped = false;
  let watcher: Deno.FsWatcher | null = null;
  let pending: ReturnType<typeof setTimeout> | undefined;
  let last = "";
  const scan = async () => {
    if (stopped) return;
    const apps = await listApps(directory).catch(() => []);
    const key = apps.map((app) => app.app).join("\n");
    if (stopped || key === last) return;
    last = key;
    onChange(apps);
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
 * The socket directory for a client (`crownmcp`, `crowndev`), resolved as apps resolve it.
 * The uid is needed only when `XDG_RUNTIME_DIR` is unset; it comes from `Deno.uid()`
 * (`--allow-sys=uid`).
 */
export function clientSocketDirectory(): string {
  const env = socketEnv();
  if (env.XDG_RUNTIME_DIR !== undefined && env.XDG_RUNTIME_DIR !== "") {
    return socketDirectory(0, env);
  }
  let uid: number | null = null;
  try {
    uid = Deno.uid();
  } catch (error) {
    throw new Error(
      "XDG_RUNTIME_DIR is not set, and finding the socket directory needs the user id: run with --allow-sys=uid, or pass --socket-dir",
      { cause: error },
    );
  }
  if (uid === null) throw new Error("cannot tell the user id on this system: pass --socket-dir");
  return socketDirectory(uid, env);
}
