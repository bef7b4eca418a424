/**
 * What the kernel says about a running process, from `/proc/<pid>/…`: its resident memory,
 * the CPU time it has used, and how many file descriptors it holds. Deno 2.9 lets a program
 * read `/proc` only with `--allow-all`, so the files are read through `cat` and `ls`
 * (`--allow-run`), which the test and benchmark tasks already grant. Linux only.
 *
 * @module
 */

import { withTimeout } from "../_app_process.ts";

const PROC_TIMEOUT_MS = 10_000;

async function runText(command: string, args: string[]): Promise<string> {
  const output = await withTimeout(
    new Deno.Command(command, { args, stdin: "null", stdout: "piped", stderr: "piped" }).output(),
    PROC_TIMEOUT_MS,
    `${command} ${args.join(" ")}`,
  );
  if (!output.success) {
    throw new Error(
      `${command} ${args.join(" ")} failed: ${new TextDecoder().decode(output.stderr).trim()}`,
    );
  }
  return new TextDecoder().decode(output.stdout);
}

/** The resident set size of process `pid` (VmRSS), in bytes. */
export async function residentBytes(pid: number): Promise<number> {
  const status = await runText("cat", [`/proc/${pid}/status`]);
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(status);
  if (match === null) throw new Error(`no VmRSS line in /proc/${pid}/status`);
  return Number(match[1]) * 1024;
}

let ticksPerSecond: number | undefined;

/** The kernel's clock ticks per second, which `/proc/<pid>/stat` counts CPU time in. */
async function clockTicks(): Promise<number> {
  ticksPerSecond ??= Number((await runText("getconf", ["CLK_TCK"])).trim()) || 100;
  return ticksPerSecond;
}

/** The CPU time process `pid` has used so far (user plus system, utime + stime), in seconds. */
export async function cpuSeconds(pid: number): Promise<number> {
  const stat = await runText("cat", [`/proc/${pid}/stat`]);
  // The command name (field 2) is in parentheses and may hold spaces: count after it.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return (utime + stime) / await clockTicks();
}

/** How many file descriptors process `pid` holds open. */
export async function openDescriptors(pid: number): Promise<number> {
  const listing = await runText("ls", [`/proc/${pid}/fd`]);
  return listing.split("\n").filter((line) => line !== "").length;
}

/** Bytes as MiB with one decimal. */
export function formatMiB(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}
