/**
 * The `ui_act` round trip as the benchmarks measure it, shared by `bench/e2e.ts` and
 * `bench/crownmcp.ts`: paced at the app's rate limit (20 a second, as an agent is), and in
 * warm bursts of 20 back to back (one burst a second, the first dropped). The client is
 * either connected to the app's socket or to `crownmcp`, launched as agents launch it.
 *
 * @module
 */

import { readResultText } from "../runtime/agent/session/untrusted.ts";
import { Client } from "../runtime/agent/transport/sdk.ts";
import { nodeId, readTree } from "../tests/_app_process.ts";
import { crownmcpTransport } from "../tests/_crownmcp.ts";
import { median, summary } from "./_stats.ts";

const PACED_CALLS = 120;
const PACED_WARMUP = 20;
const PACE_MS = 50; // 20 a second: the rate limit
const BURSTS = 8;
const BURST_SIZE = 20;
/** The bucket refills 20 tokens a second: a burst after this long is never refused. */
export const BURST_GAP_MS = 1050;

/** Waits `ms` milliseconds. */
export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));

function textOf(result: Awaited<ReturnType<Client["callTool"]>>): string {
  return (result.content as { type: string; text: string }[])[0]!.text;
}

/** Launches crownmcp for the apps in `runtimeDir` and connects the SDK client to it. */
export async function launchCrownmcp(
  runtimeDir: string,
): Promise<{ client: Client; initialized: number }> {
  const start = performance.now();
  const client = new Client({ name: "crownui-bench", version: "0.1.0" });
  await client.connect(crownmcpTransport({ XDG_RUNTIME_DIR: runtimeDir }));
  return { client, initialized: performance.now() - start };
}

/** Waits until `client` (crownmcp) lists the app's tools: it has selected the app. */
export async function untilAppSelected(client: Client): Promise<void> {
  while (!(await client.listTools()).tools.some((tool) => tool.name === "ui_act")) {
    await sleep(5);
  }
}

/** Round trips in milliseconds: paced at 20 a second, and in bursts of 20. */
export interface ActSamples {
  paced: number[];
  burst: number[];
}

/**
 * Times `call`, paced at 20 a second (every thread idle between calls, as with an agent)
 * and in warm bursts of 20 back to back; the first calls of each kind are dropped.
 */
export async function pacedAndBursts(call: () => Promise<void>): Promise<ActSamples> {
  const timed = async () => {
    const start = performance.now();
    await call();
    return performance.now() - start;
  };
  const paced: number[] = [];
  const begin = performance.now();
  for (let i = 0; i < PACED_CALLS; i++) {
    await sleep(Math.max(0, begin + i * PACE_MS - performance.now()));
    const elapsed = await timed();
    if (i >= PACED_WARMUP) paced.push(elapsed);
  }
  const burst: number[] = [];
  for (let round = 0; round < BURSTS; round++) {
    await sleep(BURST_GAP_MS);
    for (let i = 0; i < BURST_SIZE; i++) {
      const elapsed = await timed();
      if (round > 0) burst.push(elapsed);
    }
  }
  return { paced, burst };
}

/**
 * Times each of `calls` as `pacedAndBursts()` does, taking turns call by call so that every
 * call meets the same machine (on a loaded machine a slow second falls on all of them
 * alike): paced calls go round the list one a tick; a burst is 20 calls back to back going
 * round the list, one burst a second (the app's rate limit is per app, so a burst stays at
 * 20 calls), as many bursts as give each call the samples `pacedAndBursts()` gives one. The
 * first paced calls and the first burst are dropped.
 */
export async function pacedAndBurstsInTurns(
  calls: readonly (() => Promise<void>)[],
): Promise<ActSamples[]> {
  const samples = calls.map((): ActSamples => ({ paced: [], burst: [] }));
  const timed = async (call: () => Promise<void>) => {
    const start = performance.now();
    await call();
    return performance.now() - start;
  };
  const begin = performance.now();
  for (let i = 0; i < PACED_CALLS * calls.length; i++) {
    await sleep(Math.max(0, begin + i * PACE_MS - performance.now()));
    const turn = i % calls.length;
    const elapsed = await timed(calls[turn]!);
    if (i >= PACED_WARMUP * calls.length) samples[turn]!.paced.push(elapsed);
  }
  for (let round = 0; round <= BURSTS * calls.length; round++) {
    await sleep(BURST_GAP_MS);
    for (let i = 0; i < BURST_SIZE; i++) {
      const turn = i % calls.length;
      const elapsed = await timed(calls[turn]!);
      if (round > 0) samples[turn]!.burst.push(elapsed);
    }
  }
  return samples;
}

/**
 * `ui_act` clicks on the first node `role "name"` over the app's socket (`direct`) and
 * through crownmcp (`proxied`), in turns (`pacedAndBurstsInTurns()`). Both act on one app:
 * each click uses the revision the last click of either returned.
 */
export async function compareActRoundTrips(
  direct: Client,
  proxied: Client,
  target: { role: string; name: string },
): Promise<{ direct: ActSamples; proxied: ActSamples }> {
  await readTree(proxied); // crownmcp acts only once the selected app has been read
  const tree = await readTree(direct);
  const id = nodeId(tree.tree, target.role, target.name);
  let revision = tree.revision;
  const click = (client: Client) => async () => {
    const result = await client.callTool({
      name: "ui_act",
      arguments: { id, revision, action: { action: "click" } },
    });
    if (result.isError) throw new Error(textOf(result));
    revision = readResultText(textOf(result)).revision!;
  };
  const [overSocket, throughCrownmcp] = await pacedAndBurstsInTurns([
    click(direct),
    click(proxied),
  ]);
  return { direct: overSocket!, proxied: throughCrownmcp! };
}

/** Prints how many times the socket's p50 crownmcp's p50 is, paced and in bursts. */
export function printActRatio(direct: ActSamples, proxied: ActSamples): void {
  const ratio = (of: number[], to: number[]) => (median(of) / median(to)).toFixed(2);
  console.log(
    `ui_act p50 through crownmcp / over the socket: paced ${
      ratio(proxied.paced, direct.paced)
    }×, bursts ${ratio(proxied.burst, direct.burst)}× (target: at most 1.5×)`,
  );
}

/** Measures `ui_act` clicks on the first node `role "name"` through `client`. */
export async function actRoundTrips(
  client: Client,
  target: { role: string; name: string },
): Promise<ActSamples> {
  const tree = await readTree(client);
  const id = nodeId(tree.tree, target.role, target.name);
  let revision = tree.revision;
  return await pacedAndBursts(async () => {
    const result = await client.callTool({
      name: "ui_act",
      arguments: { id, revision, action: { action: "click" } },
    });
    if (result.isError) throw new Error(textOf(result));
    revision = readResultText(textOf(result)).revision!;
  });
}

/** Prints the two lines of `pacedAndBursts()`'s figures under `label`. */
export function printActs(label: string, samples: ActSamples): void {
  console.log(`${label}, paced at 20/s: ${summary(samples.paced)}`);
  console.log(`${label}, bursts of 20:  ${summary(samples.burst)}`);
}
