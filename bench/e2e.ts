/**
 * End-to-end figures for the agent server, over real sockets to real app processes:
 *
 * - `ui_act` round trip over the socket (target: p50 under 0.3 ms) and through `crownmcp`
 *   (target: p50 under 1 ms), paced at the app's rate limit (20 a second) as an agent is,
 *   and in bursts of 20. Beside it the ladder that explains it: an MCP `ping`, a tool the
 *   worker answers alone (`ui_query`), the frames the clicks caused on the UI thread, and
 *   the machine's floor for the same hops (a socket echo and a Worker echo).
 * - `ui_tree` on 100, 1,000 and 10,000 rows: time and bytes (target: under 40 ms at 10,000).
 * - frame times while an agent reads the whole tree in a loop, against an idle agent
 *   (target: p99 within 10%).
 * - the memory the server adds to an app: resident memory (VmRSS) with `mcp(true)` minus
 *   without, once start-up has settled, and after an agent has read the tree once.
 * - the idle CPU of an app with the server on (and off, for comparison): user plus system
 *   time over 10 seconds with nobody connected.
 *
 * Run: `deno task bench:e2e`. Prints figures; asserts nothing. Linux only (it reads
 * `/proc/<pid>/status` and `/proc/<pid>/stat`).
 *
 * @module
 */

import { readAnswer } from "../runtime/agent/session/untrusted.ts";
import { connectToApp } from "../runtime/agent/clients/client.ts";
import type { Client } from "../runtime/agent/transport/sdk.ts";
import { cpuSeconds, formatMiB } from "../tests/reliability/_proc.ts";
import {
  actRoundTrips,
  BURST_GAP_MS,
  launchCrownmcp,
  pacedAndBursts,
  printActs,
  sleep,
  untilAppSelected,
} from "./_act.ts";
import { serverMemory, SETTLE_MS, withBenchApp } from "./_bench_process.ts";
import { socketFloor, workerFloor } from "./_floor.ts";
import { formatMs, summary } from "./_stats.ts";

const FIRST_CHECKBOX = { role: "checkbox", name: "Done" };
/** How long idle CPU is measured over. */
const CPU_WINDOW_MS = 10_000;

function textOf(result: Awaited<ReturnType<Client["callTool"]>>): string {
  return (result.content as { type: string; text: string }[])[0]!.text;
}

/** Runs `body` with an MCP client connected to a bench app with `rows` rows. */
function withApp<T>(
  rows: number,
  tick: number,
  body: (client: Client, runtimeDir: string) => Promise<T>,
): Promise<T> {
  return withBenchApp(rows, { tick }, async (app, runtimeDir) => {
    const client = await connectToApp(await app.listening());
    try {
      return await body(client, runtimeDir);
    } finally {
      await client.close();
    }
  });
}

/** The frame times of the app's recent frames that changed the tree, from its snapshot. */
async function recentFrameTimes(client: Client): Promise<number[]> {
  const result = await client.callTool({ name: "inspect_snapshot", arguments: {} });
  const snapshot = readAnswer(textOf(result));
  return (snapshot.frames as { totalMs: number; changed: boolean }[])
    .filter((frame) => frame.changed)
    .map((frame) => frame.totalMs);
}

async function actRoundTrip(): Promise<void> {
  await withApp(100, 0, async (client, runtimeDir) => {
    // The ladder: the MCP round trip alone (ping), a tool answered by the worker alone
    // (ui_query), then ui_act, which also crosses to the UI thread and runs a frame.
    printActs(
      "ping over the socket     ",
      await pacedAndBursts(async () => void await client.ping()),
    );
    printActs(
      "ui_query over the socket ",
      await pacedAndBursts(async () =>
        void await client.callTool({ name: "ui_query", arguments: { role: "window" } })
      ),
    );
    await sleep(BURST_GAP_MS);
    printActs("ui_act over the socket   ", await actRoundTrips(client, FIRST_CHECKBOX));
    console.log(
      `  the frames those clicks caused, on the UI thread: ${
        summary(await recentFrameTimes(client))
      }`,
    );
    await sleep(BURST_GAP_MS);
    const { client: agent } = await launchCrownmcp(runtimeDir);
    try {
      await untilAppSelected(agent);
      printActs("ui_act through crownmcp  ", await actRoundTrips(agent, FIRST_CHECKBOX));
    } finally {
      await agent.close();
    }
  });
  const socket = await socketFloor();
  const worker = await workerFloor();
  console.log(
    `  floor on this machine: Unix socket echo ${formatMs(socket.hot)} back to back, ${
      formatMs(socket.paced)
    } paced; Worker echo ${formatMs(worker.hot)} back to back, ${formatMs(worker.paced)} paced`,
  );
  // A paced echo wakes two idle threads. One agent's ui_act wakes four, one after the other
  // (the app's worker, its UI thread, the worker again, the client), even in a burst: the
  // UI thread has nothing to do between two actions. Through crownmcp, two more.
  const wake = (socket.paced + worker.paced) / 4;
  console.log(
    `  waking an idle thread costs about ${formatMs(wake)} here: ui_act cannot beat ~${
      formatMs(4 * wake)
    } over the socket, ~${formatMs(6 * wake)} through crownmcp`,
  );
}

async function treeReads(): Promise<void> {
  for (const rows of [100, 1000, 10000]) {
    await withApp(rows, 0, async (client) => {
      const samples: number[] = [];
      let bytes = 0;
      for (let i = 0; i < 30; i++) {
        const start = performance.now();
        const result = await client.callTool({ name: "ui_tree", arguments: {} });
        samples.push(performance.now() - start);
        bytes = textOf(result).length;
      }
      console.log(
        `ui_tree, ${rows} rows: ${summary(samples.slice(5))}, ${(bytes / 1024).toFixed(0)} KiB`,
      );
    });
  }
}

async function framesUnderReads(): Promise<void> {
  await withApp(10000, 16, async (client) => {
    const frames = () => recentFrameTimes(client);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const idle = await frames();
    let reading = true;
    let reads = 0;
    const reader = (async () => {
      while (reading) {
        await client.callTool({ name: "ui_tree", arguments: {} });
        reads++;
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const busy = await frames();
    reading = false;
    await reader;
    console.log(`frame time, 10,000 rows, idle agent:    ${summary(idle)}`);
    console.log(
      `frame time, 10,000 rows, agent reading: ${summary(busy)} (${reads} full-tree reads)`,
    );
  });
}

async function memoryAdded(): Promise<void> {
  for (const rows of [100, 10000]) {
    const { without, withServer, afterRead } = await serverMemory(rows, 3);
    console.log(
      `memory the server adds, ${rows} rows: +${formatMiB(withServer - without)} idle, +${
        formatMiB(afterRead - without)
      } after an agent read the tree (RSS ${formatMiB(without)} without the server; medians of 3)`,
    );
  }
}

/** The CPU time `pid` uses over `CPU_WINDOW_MS` once settled, in milliseconds. */
async function idleCpuMs(pid: number): Promise<number> {
  await sleep(SETTLE_MS);
  const before = await cpuSeconds(pid);
  await sleep(CPU_WINDOW_MS);
  const after = await cpuSeconds(pid);
  return (after - before) * 1000;
}

async function idleCpu(): Promise<void> {
  const rows = 1000;
  const seconds = CPU_WINDOW_MS / 1000;
  const on = await withBenchApp(rows, { mcp: true }, (app) => idleCpuMs(app.pid));
  const off = await withBenchApp(rows, { mcp: false }, (app) => idleCpuMs(app.pid));
  const percent = (ms: number) => `${(ms / (seconds * 10)).toFixed(2)}%`;
  console.log(
    `idle CPU, ${rows} rows, nobody connected, over ${seconds} s: ${on.toFixed(0)} ms (${
      percent(on)
    } of a core) with the server, ${off.toFixed(0)} ms (${percent(off)}) without; ` +
      `the kernel counts in ticks of 10 ms`,
  );
}

await actRoundTrip();
await treeReads();
await framesUnderReads();
await memoryAdded();
await idleCpu();
