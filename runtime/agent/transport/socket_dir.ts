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

import { dirname, join, resolve } from "node:path";
import { readEnv } from "../../app/env.ts";

/** The environment variables the directory depends on. */
export interface SocketEnv {
  /** The user's runtime directory; when set and not empty, sockets go in its `crownui/`. */
  XDG_RUNTIME_DIR?: string | undefined;
  /** Where `crownui-<uid>/` goes without a runtime directory; `/tmp` when unset or empty. */
  TMPDIR?: string | undefined;
}

/** Reads the variables the socket directory depends on (unset when not permitted). */
export function socketEnv(): SocketEnv {
  const env: SocketEnv = {};
  for (const name of ["XDG_RUNTIME_DIR", "TMPDIR"] as const) {
    env[name] = readEnv(name);
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

/**
 * Why a socket directory or a socket file was refused. `path` is what was refused (the socket
 * directory or the socket file) and `reason` says why, so clients can report
 * `"<path>: <reason>"`; the message reads `socket directory <path> <reason>`.
 */
export class SocketDirectoryError extends Error {
  /** The socket directory or socket file that was refused. */
  readonly path: string;
  /** Why, e.g. `belongs to uid 65534, not to this user (uid 1000)`. */
  readonly reason: string;

  /**
   * Creates the error that refuses a socket directory or a socket file.
   *
   * @param path the socket directory or socket file refused
   * @param reason what is wrong with it
   * @param subject what `path` is, first in the message
   */
  constructor(
    path: string,
    reason: string,
    subject: "socket directory" | "socket file" = "socket directory",
  ) {
    super(`${subject} ${path} ${reason}`);
    this.name = "SocketDirectoryError";
    this.path = path;
    this.reason = reason;
  }
}

function octal(mode: number): string {
  return (mode & 0o7777).toString(8).padStart(4, "0");
}

function ownerReason(owner: number, uid: number): string {
  return `belongs to uid ${owner}, not to this user (uid ${uid})`;
}

/** `/a/b/c` → `/a/b`, `/a`, `/`. */
function ancestorsOf(path: string): string[] {
  const ancestors: string[] = [];
  for (let current = dirname(path);; current = dirname(current)) {
    ancestors.push(current);
    if (dirname(current) === current) return ancestors;
  }
}

/**
 * Checks every directory above the socket directory, as OpenSSH checks the path to a key
 * file: each must belong to root or to `uid`, and must not be writable by group or others
 * unless its sticky bit is set (as on `/tmp`). Otherwise whoever else may write there could
 * rename the socket directory away and put their own in its place. Both the path as given
 * and the path with symlinks resolved are checked. Throws SocketDirectoryError.
 */
function checkAncestors(directory: string, uid: number): void {
  const absolute = resolve(directory);
  const paths = ancestorsOf(absolute);
  try {
    const real = Deno.realPathSync(dirname(absolute));
    paths.push(real, ...ancestorsOf(real));
  } catch {
    // A missing parent: the lexical ancestors, checked below, say what is wrong.
  }
  for (const path of new Set(paths)) {
    let info: Deno.FileInfo;
    try {
      info = Deno.statSync(path);
    } catch (error) {
      const hint = error instanceof Deno.errors.PermissionDenied ? " (needs --allow-read)" : "";
      throw new SocketDirectoryError(
        directory,
        `is inside ${path}, which cannot be checked: ${(error as Error).message}${hint}`,
      );
    }
    if (info.uid !== null && info.uid !== 0 && info.uid !== uid) {
      throw new SocketDirectoryError(
        directory,
        `is inside ${path}, which belongs to uid ${info.uid}: neither root nor this user (uid ${uid})`,
      );
    }
    const mode = info.mode ?? 0;
    if ((mode & 0o022) !== 0 && (mode & 0o1000) === 0) {
      throw new SocketDirectoryError(
        directory,
        `is inside ${path}, which has mode ${
          octal(mode)
        }: writable by others without the sticky bit, so the socket directory could be replaced`,
      );
    }
  }
}

/**
 * Checks an existing socket directory: a real directory (not a symlink), owned by `uid`,
 * closed to group and others, and every directory above it owned by root or `uid` and not
 * writable by others unless sticky. The app checks this before it listens, and `crownmcp` and
 * `crowndev` before they read the directory or connect to anything in it.
 *
 * @throws SocketDirectoryError saying what is wrong; `Deno.errors.NotFound` when missing
 */
export function checkSocketDirectory(directory: string, uid: number): void {
  const info = Deno.lstatSync(directory);
  if (info.isSymlink) {
    throw new SocketDirectoryError(directory, "is a symlink; refusing to use it");
  }
  if (!info.isDirectory) throw new SocketDirectoryError(directory, "is not a directory");
  if (info.uid !== null && info.uid !== uid) {
    throw new SocketDirectoryError(directory, ownerReason(info.uid, uid));
  }
  const mode = (info.mode ?? 0) & 0o777;
  if ((mode & 0o077) !== 0) {
    throw new SocketDirectoryError(
      directory,
      `has mode ${octal(mode)}; it must be closed to group and others (0700)`,
    );
  }
  checkAncestors(directory, uid);
}

/**
 * Checks a socket file before a client connects to it: the file itself (lstat, so never a
 * symlink's target) must be a socket owned by `uid`. In a directory that passed
 * `checkSocketDirectory`, only `uid` (or root) can have put it there or replace it.
 *
 * @throws SocketDirectoryError saying what is wrong; `Deno.errors.NotFound` when gone
 */
export function checkSocketFile(path: string, uid: number): void {
  const info = Deno.lstatSync(path);
  if (info.isSymlink) throw new SocketDirectoryError(path, "is a symlink", "socket file");
  if (info.isSocket !== true) {
    throw new SocketDirectoryError(path, "is not a socket", "socket file");
  }
  if (info.uid !== null && info.uid !== uid) {
    throw new SocketDirectoryError(path, ownerReason(info.uid, uid), "socket file");
  }
}

/** Which file a path names: its device and inode. */
export interface FileIdentity {
  /** The device the file is on. */
  dev: number;
  /** The file's inode on that device. */
  ino: number;
}

/** The device and inode of `path` itself (not a symlink's target); null when it is gone. */
export function fileIdentity(path: string): FileIdentity | null {
  try {
    const info = Deno.lstatSync(path);
    return info.ino === null ? null : { dev: info.dev, ino: info.ino };
  } catch {
    return null;
  }
}

/**
 * Creates the socket directory with mode 0700, or checks an existing one, as
 * `checkSocketDirectory` does (the directories above it included). Throws
 * SocketDirectoryError saying what is wrong otherwise.
 */
export function prepareSocketDirectory(directory: string, uid: number): void {
  try {
    Deno.lstatSync(directory);
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
  }
  checkSocketDirectory(directory, uid);
}
