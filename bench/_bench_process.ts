/**
 * The benchmark app (`bench/_bench_app.ts`) as a real process, and the resident memory its
 * agent server adds to it, shared by `bench/e2e.ts` and `bench/weight.ts`. Linux only: the
 * memory is VmRSS from `/proc/<pid>/status`.
 *
 * @module
 */

import { connectToApp } from "../runtime/agent/clients/client.ts";
import { type AppProcess, makeRuntimeDir, removeDir, startApp } from "../tests/_app_process.ts";
import { residentBytes } from "../tests/reliability/_proc.ts";
import { sleep } from "./_act.ts";
import { median } from "./_stats.ts";

const APP = new URL("./_bench_app.ts", import.meta.url).pathname;
/** How long an app is left alone after start-up before it is measured. */
export const SETTLE_MS = 3000;

/** Runs the bench app with `rows` rows (server on unless `mcp` is false) during `body`. */
export async function withBenchApp<T>(
  rows: number,
  options: { tick?: number; mcp?: boolean },
  body: (app: AppProcess, runtimeDir: string) => Promise<T>,
): Promise<T> {
  const runtimeDir = await makeRuntimeDir();
  const mcp = options.mcp ?? true;
  const app = startApp(APP, {
    env: { XDG_RUNTIME_DIR: runtimeDir },
    args: [String(rows), String(options.tick ?? 0), ...(mcp ? [] : ["no-mcp"])],
  });
  try {
    await app.waitFor(mcp ? /^MCP server listening / : /running headless/, 60000);
    return await body(app, runtimeDir);
  } finally {
    await app.close();
    await removeDir(runtimeDir);
  }
}

/** The median of a few RSS readings of `pid`, taken after it has been left alone a while. */
export async function settledRss(pid: number): Promise<number> {
  await sleep(SETTLE_MS);
  const readings: number[] = [];
  for (let i = 0; i < 5; i++) {
    readings.push(await residentBytes(pid));
    await sleep(200);
  }
  return median(readings);
}

/** Settled resident memory of the bench app, in bytes: medians over the rounds. */
export interface ServerMemory {
  /** With `mcp(false)`. */
  without: number;
  /** With `mcp(true)`, nobody connected. */
  withServer: number;
  /** With `mcp(true)`, after an agent read the whole tree once and went. */
  afterRead: number;
}

/**
 * Measures the bench app with `rows` rows with the server off and on, `rounds` times each,
 * a fresh process each time, and returns the medians.
 */
export async function serverMemory(rows: number, rounds: number): Promise<ServerMemory> {
  const off: number[] = [];
  const on: number[] = [];
  const afterRead: number[] = [];
  for (let round = 0; round < rounds; round++) {
    off.push(await withBenchApp(rows, { mcp: false }, (app) => settledRss(app.pid)));
    await withBenchApp(rows, { mcp: true }, async (app) => {
      on.push(await settledRss(app.pid));
      const client = await connectToApp(await app.listening());
      await client.callTool({ name: "ui_tree", arguments: {} });
      await client.close();
      afterRead.push(await settledRss(app.pid));
    });
  }
  return { without: median(off), withServer: median(on), afterRead: median(afterRead) };
}
