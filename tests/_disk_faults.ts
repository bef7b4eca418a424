/**
 * Disk faults for tests: a small file system of the test's own (tmpfs, which needs root and
 * a container that allows mounting), an immutable directory (`chattr +i`, which needs only
 * CAP_LINUX_IMMUTABLE), and a loud note when this machine allows neither, so a reader of the
 * output never takes a step that did not run for a pass.
 *
 * @module
 */

import { getuid } from "../ffi/mod.ts";
import { readEnv } from "../runtime/app/env.ts";

/** Runs `command` with `args` quietly; true when it worked. */
export async function runs(command: string, args: string[]): Promise<boolean> {
  try {
    const output = await new Deno.Command(command, {
      args,
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).output();
    return output.success;
  } catch {
    return false;
  }
}

/** True when the tests run as root. */
export function isRoot(): boolean {
  return getuid() === 0;
}

/**
 * `CROWNUI_TEST_NO_MOUNT=1` makes the tests behave as where mounting is not allowed, to try
 * the ways they fall back on.
 */
export const MOUNT_OFF: boolean = readEnv("CROWNUI_TEST_NO_MOUNT") === "1";

/** Why a file system could not be mounted here, for `notRunHere()`. */
export function whyNoMount(): string {
  return isRoot()
    ? "mount is not allowed here (no CAP_SYS_ADMIN, or CROWNUI_TEST_NO_MOUNT=1)"
    : "mounting a file system needs root";
}

/**
 * Mounts a tmpfs with `options` (`size=1m,nr_inodes=64,mode=0700`) on `directory`; true when it
 * worked. Unmount it with `unmount()`.
 */
export async function mountTmpfs(directory: string, options: string): Promise<boolean> {
  return isRoot() && !MOUNT_OFF &&
    await runs("mount", ["-t", "tmpfs", "-o", options, "tmpfs", directory]);
}

/** Remounts `directory`'s file system with `options` (`remount,ro`); true when it worked. */
export function remount(directory: string, options: string): Promise<boolean> {
  return runs("mount", ["-o", options, directory]);
}

/** Unmounts what is mounted on `directory` (lazily, so an open file does not stop it). */
export async function unmount(directory: string): Promise<void> {
  await runs("umount", ["-l", directory]);
}

/** Fills the file system `directory` is on with one file, until a write fails; returns it. */
export function fillDisk(directory: string): string {
  const filler = `${directory}/filler`;
  using file = Deno.openSync(filler, { write: true, createNew: true });
  const block = new Uint8Array(64 * 1024);
  for (let written = 0;; written += block.length) {
    try {
      file.writeSync(block);
    } catch {
      break;
    }
    if (written > 1024 ** 3) throw new Error(`the file system of ${directory} never filled up`);
  }
  // A last few bytes: a write of a whole block can fail while a smaller one fits.
  for (;;) {
    try {
      if (file.writeSync(new Uint8Array(1)) === 0) break;
    } catch {
      break;
    }
  }
  return filler;
}

/**
 * Says loudly that a disk fault could not be made on this machine: the step is not run, and
 * a reader of the test output must not take its absence for a pass.
 */
export function notRunHere(what: string, why: string): void {
  console.warn(
    `\n${"!".repeat(78)}\n!! NOT RUN: ${what}\n!! ${why}\n${"!".repeat(78)}\n`,
  );
}
