/**
 * Where apps listen: the socket directory, the socket file's name, and the checks that make
 * the directory safe before an app listens in it. Servers, `crownmcp` and `crowndev` resolve
 * the directory the same way.
 *
 * - `$XDG_RUNTIME_DIR/crownui/` when `XDG_RUNTIME_DIR` is set and not empty;
 * - `${TMPDIR:-/tmp}/crownui-<uid>/` otherwise.
 *
 * @module
 */

import { dirname, join } from "node:path";

/** The environment variables the directory depends on. */
export interface SocketEnv {
  /** The user's runtime directory; when set and not empty, sockets go in its `crownui/`. */
  XDG_RUNTIME_DIR?: string | undefined;
  /** Where `crownui-<uid>/` goes without a runtime directory; `/tmp` when unset or empty. */
  TMPDIR?: string | undefined;
}

function permitted(name: string): boolean {
  return Deno.permissions.querySync({ name: "env", variable: name }).state === "granted";
}

/** Reads the variables the socket directory depends on (unset when not permitted). */
export function socketEnv(): SocketEnv {
  const env: SocketEnv = {};
  for (const name of ["XDG_RUNTIME_DIR", "TMPDIR"] as const) {
    if (permitted(name)) env[name] = Deno.env.get(name);
  }
  return env;
}

/** The directory apps of user `uid` listen in. */
export function socketDirectory(uid: number, env: SocketEnv = socketEnv()): string {
  const runtimeDir = env.XDG_RUNTIME_DIR;
  if (runtimeDir !== undefined && runtimeDir !== "") return join(runtimeDir, "crownui");
  const tmp = env.TMPDIR !== undefined && env.TMPDIR !== "" ? env.TMPDIR : "/tmp";
  return join(tmp, `crownui-${uid}`);
}

/**
 * The app name in a socket file's name: the title in lower case with every character that is
 * not a letter or digit (Unicode ones count) replaced by `-`. "My Notes" → "my-notes".
 */
export function socketNameFor(title: string): string {
  return Array.from(title.toLowerCase(), (char) => /[\p{L}\p{N}]/u.test(char) ? char : "-")
    .join("");
}

/** The socket file of an app: `<dir>/<name>-<pid>.sock`. */
export function socketPathFor(directory: string, title: string, pid: number): string {
  return join(directory, `${socketNameFor(title)}-${pid}.sock`);
}

/** What a socket file's name says about its app. */
export interface SocketFileName {
  /** `notes-4242` */
  app: string;
  /** `notes` */
  name: string;
  /** The app's process id: `4242`. */
  pid: number;
}

/** Parses `<name>-<pid>.sock`; null for any other file name. */
export function parseSocketFileName(fileName: string): SocketFileName | null {
  const match = /^(.+)-(\d+)\.sock$/u.exec(fileName);
  if (match === null) return null;
  const pid = Number(match[2]);
  if (!Number.isSafeInteger(pid) || pid <= 0) return null;
  return { app: `${match[1]}-${pid}`, name: match[1]!, pid };
}

/** Why a socket directory was refused. */
export class SocketDirectoryError extends Error {
  /**
   * Creates the error that refuses a directory.
   *
   * @param message what is wrong with the directory
   */
  constructor(message: string) {
    super(message);
    this.name = "SocketDirectoryError";
  }
}

/**
 * Creates the socket directory with mode 0700, or checks an existing one: it must be a real
 * directory (not a symlink), owned by `uid`, and closed to group and others. Throws
 * SocketDirectoryError saying what is wrong otherwise.
 */
export function prepareSocketDirectory(directory: string, uid: number): void {
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(directory);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    // The directory itself without `recursive`, which would accept a symlink put there since
    // the check above, and the chmod below would then follow it to whatever it points at.
    Deno.mkdirSync(dirname(directory), { recursive: true, mode: 0o700 });
    try {
      Deno.mkdirSync(directory, { mode: 0o700 });
      Deno.chmodSync(directory, 0o700); // the umask may have taken bits away; never added
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
      // Made by someone else meanwhile: checked below like any existing one.
    }
    info = Deno.lstatSync(directory);
  }
  if (info.isSymlink) {
    throw new SocketDirectoryError(
      `socket directory ${directory} is a symlink; refusing to use it`,
    );
  }
  if (!info.isDirectory) {
    throw new SocketDirectoryError(`socket directory ${directory} is not a directory`);
  }
  if (info.uid !== null && info.uid !== uid) {
    throw new SocketDirectoryError(
      `socket directory ${directory} belongs to uid ${info.uid}, not to this user (uid ${uid})`,
    );
  }
  const mode = (info.mode ?? 0) & 0o777;
  if ((mode & 0o077) !== 0) {
    throw new SocketDirectoryError(
      `socket directory ${directory} has mode ${
        mode.toString(8).padStart(4, "0")
      }; it must be closed to group and others (0700)`,
    );
  }
}
