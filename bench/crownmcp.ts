/**
 * Figures for `crownmcp`, launched as agents launch it (the `crownmcp` task's command, over
 * stdio, with the SDK client) against a real counter app:
 *
 * - start-up: from launching crownmcp to the first `tools/list` answer that has the app's
 *   tools (median of several launches; the part until `initialize` answered beside it);
 * - `ui_act` round trip through crownmcp, p50 and p99: paced at the app's rate limit
 *   (20 a second, as an agent), and in warm bursts of 20 back to back (one a second, the
 *   first burst dropped). The same over the app's socket directly, to show what the extra
 *   hop costs: the two take turns (tick by tick, and call by call within each burst) so that
 *   a loaded machine weighs on both alike, and the ratio of their medians is printed (target:
 *   at most 1.5×).
 *
 * Run: `deno task bench:crownmcp`. Prints figures; asserts nothing.
 *
 * @module
 */

import { connectToApp } from "../runtime/agent/clients/client.ts";
import { makeRuntimeDir, removeDir, startApp } from "../tests/_app_process.ts";
import {
  BURST_GAP_MS,
  compareActRoundTrips,
  launchCrownmcp,
  printActRatio,
  printActs,
  sleep,
  untilAppSelected,
} from "./_act.ts";
import { median } from "./_stats.ts";

const LAUNCHES = 7;
const COUNTER_PLUS_ONE = { role: "button", name: "+1" };

async function startUp(runtimeDir: string): Promise<void> {
  const total: number[] = [];
  const initialize: number[] = [];
  for (let i = 0; i < LAUNCHES; i++) {
    const start = performance.now();
    const { client, initialized } = await launchCrownmcp(runtimeDir);
    try {
      // Until the app's tools are listed (the first answer has them when the app was up).
      await untilAppSelected(client);
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

const runtimeDir = await makeRuntimeDir("crownmcp-bench-");
const app = startApp("examples/counter.ts", { env: { XDG_RUNTIME_DIR: runtimeDir } });
try {
  const socket = await app.listening();
  await startUp(runtimeDir);

  const { client } = await launchCrownmcp(runtimeDir);
  const direct = await connectToApp(socket);
  try {
    await untilAppSelected(client);
    await sleep(BURST_GAP_MS);
    const acts = await compareActRoundTrips(direct, client, COUNTER_PLUS_ONE);
    printActs("ui_act through crownmcp", acts.proxied);
    printActs("ui_act over the socket ", acts.direct);
    printActRatio(acts.direct, acts.proxied);
  } finally {
    await client.close();
    await direct.close();
  }
} finally {
  await app.close();
  await removeDir(runtimeDir);
}
