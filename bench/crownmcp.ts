/**
 * Figures for `crownmcp`, launched as agents launch it (the `crownmcp` task's command, over
 * stdio, with the SDK client) against a real counter app:
 *
 * - start-up: from launching crownmcp to the first `tools/list` answer that has the app's
 *   tools (median of several launches; the part until `initialize` answered beside it);
 * - `ui_act` round trip through crownmcp, p50 and p99: paced at the app's rate limit
 *   (20 a second, as an agent), and in warm bursts of 20 back to back (one a second, the
 *   first burst dropped). The same over the app's socket directly, to show what the extra
 *   hop costs.
 *
 * Run: `deno task bench:crownmcp`. Prints figures; asserts nothing.
 *
 * @module
 */

import { connectToApp } from "../runtime/agent/client.ts";
import { Client } from "../runtime/agent/sdk.ts";
import { makeRuntimeDir, nodeId, readTree, removeDir, startApp } from "../tests/_app_process.ts";
import { crownmcpTransport } from "../tests/_crownmcp.ts";
import { median, summary } from "./_stats.ts";

const LAUNCHES = 7;
const PACED_CALLS = 120;
const PACED_WARMUP = 20;
const PACE_MS = 50; // 20 a second: the rate limit
const BURSTS = 8;
const BURST_SIZE = 20;
const BURST_GAP_MS = 1050; // the bucket refills 20 tokens a second

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function textOf(result: Awaited<ReturnType<Client["callTool"]>>): string {
  return (result.content as { type: string; text: string }[])[0]!.text;
}

/** Launches crownmcp and connects the SDK client to it. */
async function launch(runtimeDir: string): Promise<{ client: Client; initialized: number }> {
  const start = performance.now();
  const client = new Client({ name: "crownmcp-bench", version: "0.1.0" });
  await client.connect(crownmcpTransport({ XDG_RUNTIME_DIR: runtimeDir }));
  return { client, initialized: performance.now() - start };
}

async function startUp(runtimeDir: string): Promise<void> {
  const total: number[] = [];
  const initialize: number[] = [];
  for (let i = 0; i < LAUNCHES; i++) {
    const start = performance.now();
    const { client, initialized } = await launch(runtimeDir);
    try {
      // Until the app's tools are listed (the first answer has them when the app was up).
      while (!(await client.listTools()).tools.some((tool) => tool.name === "ui_act")) {
        await sleep(5);
      }
      total.push(performance.now() - start);
      initialize.push(initialized);
    } finally {
      await client.close();
    }
  }
  console.log(
    `crownmcp launch to the first tools/list with the app's tools: median ${
      median(total).toFixed(0)
    } ms (initialize answered after ${median(initialize).toFixed(0)} ms), n=${LAUNCHES}`,
  );
}

/** Measures ui_act on the counter's +1 button, paced and in bursts, through `client`. */
async function actRoundTrips(client: Client, label: string): Promise<void> {
  const tree = await readTree(client);
  const id = nodeId(tree.tree, "button", "+1");
  let revision = tree.revision;
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
  const paced: number[] = [];
  const begin = performance.now();
  for (let i = 0; i < PACED_CALLS; i++) {
    await sleep(Math.max(0, begin + i * PACE_MS - performance.now()));
    const elapsed = await act();
    if (i >= PACED_WARMUP) paced.push(elapsed);
  }
  const burst: number[] = [];
  for (let round = 0; round < BURSTS; round++) {
    await sleep(BURST_GAP_MS);
    for (let i = 0; i < BURST_SIZE; i++) {
      const elapsed = await act();
      if (round > 0) burst.push(elapsed);
    }
  }
  console.log(`ui_act ${label}, paced at 20/s:     ${summary(paced)}`);
  console.log(`ui_act ${label}, bursts of 20:      ${summary(burst)}`);
}

const runtimeDir = await makeRuntimeDir("crownmcp-bench-");
const app = startApp("examples/counter.ts", { env: { XDG_RUNTIME_DIR: runtimeDir } });
try {
  const socket = await app.listening();
  await startUp(runtimeDir);

  const { client } = await launch(runtimeDir);
  try {
    await actRoundTrips(client, "through crownmcp");
  } finally {
    await client.close();
  }
  await sleep(BURST_GAP_MS);
  const direct = await connectToApp(socket);
  try {
    await actRoundTrips(direct, "over the socket ");
  } finally {
    await direct.close();
  }
} finally {
  await app.close();
  await removeDir(runtimeDir);
}
