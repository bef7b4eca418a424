/**
 * `DurableFile`: a file an app keeps the person's data in, owned by one process at a time.
 *
 * - Opening it takes a lock (`flock` on a lock file beside it, through `Deno.FsFile.tryLock`),
 *   so a second app on the same file is refused with an error that names the first. The kernel
 *   drops the lock when its process ends, however it ends (kill -9 included), so a lock is
 *   never stale and no pid is guessed at.
 * - A write never leaves half a file: the bytes go to a temporary file beside the real target
 *   (a symlink is followed, so the target keeps getting the data), which gets the target's
 *   mode (0600 for a new file), is flushed to the disk (fsync), then renamed over the target.
 *   A failed write (a full disk, say) throws and leaves no temporary file behind.
 *
 * @module
 */

import { basename, dirname, join, resolve } from "node:path";

/** Who holds a file's lock, as its lock file says. */
export interface LockHolder {
  /** The holder's process id. */
  pid: number;
  /** The holder's name, as it gave it to `DurableFile.open()`. */
  app: string;
}

/** Thrown by `DurableFile.open()` when another process holds the file. */
export class FileInUseError extends Error {
  /** The file asked for, its symlinks followed. */
  readonly path: string;
  /** The process that holds it, when its lock file says (null when it does not yet). */
  readonly holder: LockHolder | null;

  /** Makes the error for `path`, held by `holder`. */
  constructor(path: string, holder: LockHolder | null) {
    const who = holder === null ? "another process" : `${holder.app} (pid ${holder.pid})`;
    super(
      `cannot open ${path}: ${who} has it open; quit that one first, or use another file`,
    );
    this.name = "FileInUseError";
    this.path = path;
    this.holder = holder;
  }
}

/** What `DurableFile.open()` takes. */
export interface DurableFileOptions {
  /** The name a second opener is told (`Notes`); the main module's file name by default. */
  app?: string;
}

/** How many symlinks a path may go through before it is taken for a loop. */
const MAX_LINKS = 40;
/** How often opening retries when the lock file was replaced between open and lock. */
const LOCK_ATTEMPTS = 5;

const encoder = new TextEncoder();

/**
 * A file holding an app's state: locked for one process, written whole and durably.
 *
 * @example Keep a list in a file, and refuse a second opener
 * ```ts
 * import assert from "node:assert/strict";
 * import { DurableFile, FileInUseError } from "@crownui/runtime";
 *
 * const directory = Deno.makeTempDirSync();
 * using file = DurableFile.open(`${directory}/todo.json`, { app: "Todo" });
 * assert.equal(file.readText(), null); // no file yet
 * file.write(JSON.stringify(["Buy milk"]));
 * assert.deepEqual(JSON.parse(file.readText()!), ["Buy milk"]);
 * assert.equal(Deno.statSync(file.path).mode! & 0o777, 0o600); // a new file is private
 *
 * assert.throws(
 *   () => DurableFile.open(`${directory}/todo.json`),
 *   (error) => error instanceof FileInUseError && /Todo \(pid \d+\) has it open/.test(error.message),
 * );
 * Deno.removeSync(directory, { recursive: true });
 * ```
 */
export class DurableFile implements Disposable {
  /** The file written: the path given, its symlinks followed. */
  readonly path: string;
  /** The lock file beside it, removed again by `close()`. */
  readonly lockPath: string;
  #lock: Deno.FsFile | null;

  private constructor(path: string, lockPath: string, lock: Deno.FsFile) {
    this.path = path;
    this.lockPath = lockPath;
    this.#lock = lock;
  }

  /**
   * Opens `path` for this process: follows its symlinks to the real file (which need not
   * exist yet) and takes the lock beside it. Throws `FileInUseError` naming the holder when
   * another process has it open, and an error saying why when the lock cannot be made.
   */
  static open(path: string, options: DurableFileOptions = {}): DurableFile {
    const target = realTarget(path);
    const lockPath = `${target}.lock`;
    const app = options.app ?? basename(new URL(Deno.mainModule).pathname);
    for (let attempt = 0; attempt < LOCK_ATTEMPTS; attempt++) {
      let lock: Deno.FsFile;
      try {
        lock = Deno.openSync(lockPath, { read: true, write: true, create: true, mode: 0o600 });
      } catch (error) {
        throw new Error(`cannot open ${target}: its lock ${lockPath}: ${messageOf(error)}`, {
          cause: error,
        });
      }
      if (!lock.tryLockSync(true)) {
        lock.close();
        throw new FileInUseError(target, readHolder(lockPath));
      }
      // The holder before may have removed the lock file between our open and our lock: a
      // lock on a file no longer at the path locks nothing, so open it again.
      if (!sameFile(lock, lockPath)) {
        lock.close();
        continue;
      }
      lock.truncateSync(0);
      writeAll(lock, encoder.encode(JSON.stringify({ pid: Deno.pid, app }) + "\n"));
      return new DurableFile(target, lockPath, lock);
    }
    throw new Error(`cannot open ${target}: its lock ${lockPath} kept being replaced`);
  }

  /** The file's text, or null when there is no file yet. */
  readText(): string | null {
    try {
      return Deno.readTextFileSync(this.path);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return null;
      throw error;
    }
  }

  /**
   * Replaces the file's contents with `data`, whole: a reader sees the old contents or the
   * new, never a mix, even if the process or the machine stops half way. Throws
   * `cannot write <path>: <why>` when it fails, and leaves the file as it was.
   */
  write(data: string | Uint8Array): void {
    if (this.#lock === null) throw new Error(`cannot write ${this.path}: it was closed`);
    const bytes = typeof data === "string" ? encoder.encode(data) : data;
    const temporary = `${this.path}.saving`;
    const mode = modeOf(this.path);
    // A leftover of a process killed mid-write, or anything put there: we hold the lock, so
    // no one else writes this name, and a new file (O_EXCL) never follows a symlink.
    removeQuietly(temporary);
    let file: Deno.FsFile | null = null;
    try {
      file = Deno.openSync(temporary, { write: true, createNew: true, mode: 0o600 });
      if (Deno.build.os !== "windows") Deno.chmodSync(temporary, mode);
      writeAll(file, bytes);
      file.syncSync();
      file.close();
      file = null;
      Deno.renameSync(temporary, this.path);
    } catch (error) {
      try {
        file?.close();
      } catch {
        // Closed already.
      }
      removeQuietly(temporary);
      throw new Error(`cannot write ${this.path}: ${messageOf(error)}`, { cause: error });
    }
    syncDirectory(dirname(this.path));
  }

  /** Gives the file up: removes the lock file and releases the lock. Safe to call twice. */
  close(): void {
    const lock = this.#lock;
    if (lock === null) return;
    this.#lock = null;
    // Removed while still held, so no one can lock the old file and think it theirs.
    if (sameFile(lock, this.lockPath)) removeQuietly(this.lockPath);
    lock.close();
  }

  /** Closes the file at the end of a `using` scope. */
  [Symbol.dispose](): void {
    this.close();
  }
}

/** The real file `path` names: symlinks followed, even to a file that does not exist yet. */
function realTarget(path: string): string {
  let current = resolve(path);
  for (let links = 0; links <= MAX_LINKS; links++) {
    let info: Deno.FileInfo;
    try {
      info = Deno.lstatSync(current);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw openError(path, error);
      try {
        return join(Deno.realPathSync(dirname(current)), basename(current));
      } catch (inner) {
        throw openError(path, inner);
      }
    }
    if (!info.isSymlink) return Deno.realPathSync(current);
    current = resolve(dirname(current), Deno.readLinkSync(current));
  }
  throw new Error(`cannot open ${path}: more than ${MAX_LINKS} symbolic links (a loop?)`);
}

function openError(path: string, error: unknown): Error {
  return new Error(`cannot open ${path}: ${messageOf(error)}`, { cause: error });
}

/** The permission bits a new version of `path` gets: the file's own, or 0600 for a new one. */
function modeOf(path: string): number {
  try {
    return (Deno.statSync(path).mode ?? 0o600) & 0o7777;
  } catch {
    return 0o600;
  }
}

/** Who the lock file says holds it, or null when it says nothing readable. */
function readHolder(lockPath: string): LockHolder | null {
  try {
    const holder = JSON.parse(Deno.readTextFileSync(lockPath)) as Partial<LockHolder>;
    if (typeof holder.pid === "number" && typeof holder.app === "string") {
      return { pid: holder.pid, app: holder.app };
    }
  } catch {
    // Being written, or not ours.
  }
  return null;
}

/** True when the open `file` is the one at `path` now. */
function sameFile(file: Deno.FsFile, path: string): boolean {
  try {
    const open = file.statSync();
    const named = Deno.lstatSync(path);
    return open.ino === named.ino && open.dev === named.dev;
  } catch {
    return false;
  }
}

function writeAll(file: Deno.FsFile, bytes: Uint8Array): void {
  for (let offset = 0; offset < bytes.length;) offset += file.writeSync(bytes.subarray(offset));
}

/** Flushes a directory, so a rename in it survives a power cut; best effort. */
function syncDirectory(directory: string): void {
  try {
    using handle = Deno.openSync(directory, { read: true });
    handle.syncSync();
  } catch {
    // Not every system opens directories; the rename is done either way.
  }
}

function removeQuietly(path: string): void {
  try {
    Deno.removeSync(path);
  } catch {
    // Not there.
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
