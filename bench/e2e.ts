/**
 * End-to-end figures for the agent server, over real sockets to real app processes:
 *
 * - `ui_act` round trip over the socket (target: p50 under 0.3 ms), paced at the app's rate
 *   limit (20 a second) as an agent is, and in bursts of 20; with the machine's floor for
 *   the same hops (a socket echo and a Worker echo), to tell our cost from the machine's.
 * - `ui_tree` on 100, 1,000 and 10,000 rows: time and bytes (target: under 40 ms at 10,000).
 * - frame times while an agent reads the whole tree in a loop, against an idle agent
 *   (target: p99 within 10%).
 *
 * Run: `deno task bench:e2e`. Prints figures; asserts nothing.
 *
 * @module
 */

import { connectToApp } from "../runtime/agent/client.ts";
import type { Client } from "../runtime/agent/sdk.ts";
import { makeRuntimeDir, startApp } from "../tests/_app_process.ts";
import { socketFloor, workerFloor } from "./_floor.ts";
import { formatMs, summary } from "./_stats.ts";

const APP = new URL("./_bench_app.ts", import.meta.url).pathname;

function textOf(result: Awaited<ReturnType<Client["callTool"]>>): string {
  return (result.content as { type: string; text: string }[])[0]!.text;
}

async function withApp<T>(rows: number, tick: number, body: (client: Client) => Promise<T>) {
  const runtimeDir = await makeRuntimeDir();
  const app = startApp(APP, {
    env: { XDG_RUNTIME_DIR: runtimeDir },
    args: [String(rows), String(tick)],
  });
  try {
    const [, path] = await app.waitFor(/^MCP server listening (.+)$/, 60000);
    const client = await connectToApp(path!);
    try {
      return await body(client);
    } finally {
      await client.close();
    }
  } finally {
    app.kill();
    await app.exit();
    await Deno.remove(runtimeDir, { recursive: true });
  }
}

async function actRoundTrip(): Promise<void> {
  await withApp(100, 0, async (client) => {
    const query = JSON.parse(
      textOf(await client.callTool({ name: "ui_query", arguments: { role: "checkbox" } })),
    );
    let revision: number = query.untrusted_app_content.revision;
    const id: number = query.untrusted_app_content.nodes[0].id;
    const act = async () => {
      const start = performance.now();
      const result = await client.callTool({
        name: "ui_act",
        arguments: { id, revision, action: { action: "click" } },
      });
      const elapsed = performance.now() - start;
      if (result.isError) throw new Error(textOf(result));
      revision = JSON.parse(textOf(result)).revision;
      return elapsed;
    };
    // Paced as an agent under the rate limit: every thread is idle between calls.
    const paced: number[] = [];
    for (let i = 0; i < 120; i++) {
      paced.push(await act());
      await new Promise((resolve) => setTimeout(resolve, 55));
    }
    // Bursts of 20 back to back (the bucket's burst), one a second.
    const burst: number[] = [];
    for (let round = 0; round < 8; round++) {
      await new Promise((resolve) => setTimeout(resolve, 1050));
      for (let i = 0; i < 20; i++) {
        const elapsed = await act();
        if (round > 0) burst.push(elapsed);
      }
    }
    console.log(`ui_act round trip over the socket, paced at 20/s: ${summary(paced.slice(20))}`);
    console.log(`ui_act round trip over the socket, bursts of 20:  ${summary(burst)}`);
  });
  const socket = await socketFloor();
  const worker = await workerFloor();
  console.log(
    `  floor on this machine: Unix socket echo ${formatMs(socket.hot)} back to back, ${
      formatMs(socket.paced)
    } paced; Worker echo ${formatMs(worker.hot)} back to back, ${formatMs(worker.paced)} paced`,
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
    const frames = async () => {
      const result = await client.callTool({ name: "inspect_snapshot", arguments: {} });
      const snapshot = JSON.parse(textOf(result)).untrusted_app_content;
      return (snapshot.frames as { totalMs: number; changed: boolean }[])
        .filter((frame) => frame.changed)
        .map((frame) => frame.totalMs);
    };
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

await actRoundTrip();
await treeReads();
await framesUnderReads();
