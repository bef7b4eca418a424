/**
 * Floods an app's MCP server the ways issue 11 found, and prints what each costs the app and
 * a bystander: the app's resident memory (before, and at its peak while the flood lasts) and
 * how long another client's app tool call (`count`, answered on the UI thread) takes meanwhile.
 *
 * - same id: 5,000 pipelined `ui_tree` calls that all carry id 1;
 * - cancel: 5,000 `ui_tree` calls, each followed by its `notifications/cancelled`;
 * - distinct (the yardstick): 5,000 `ui_tree` calls with ids of their own, as an honest
 *   client that pipelines would send them;
 * - foreign: 100 connections from another uid (nobody, through `setpriv`; needs root), each
 *   sending a 4 MiB line; also counts the app's log lines about them.
 *
 * The target is `tests/reliability/fixtures/flood_app.ts` with 1,000 rows (110 KiB of tree).
 *
 * `deno run --frozen --allow-read --allow-write --allow-env --allow-run --allow-ffi --allow-net bench/flood.ts [same-id|cancel|distinct|foreign ...]`
 *
 * @module
 */

import { dirname } from "node:path";
import { connectToApp } from "../runtime/agent/clients/client.ts";
import type { Client } from "../runtime/agent/transport/sdk.ts";
import { makeRuntimeDir, removeDir, startApp } from "../tests/_app_process.ts";
import { formatMiB, residentBytes } from "../tests/reliability/_proc.ts";
import { formatMs, median } from "./_stats.ts";

const APP = "tests/reliability/fixtures/flood_app.ts";
const REQUESTS = 5000;
const FOREIGN_CONNECTIONS = 100;
const LINE_BYTES = 4 * 1024 * 1024;
/** How long the bystander keeps calling once the flood has started. */
const WINDOW_MS = 6000;

const encoder = new TextEncoder();

function treeCall(id: number): string {
  return `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"ui_tree","arguments":{}}}\n`;
}

function cancel(id: number): string {
  return `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":${id},"reason":"flood"}}\n`;
}

const INITIALIZE =
  `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"flood","version":"0"}}}\n` +
  `{"jsonrpc":"2.0","method":"notifications/initialized"}\n`;

/** Connects, initializes, writes `flood`, and reads (and drops) everything that comes back. */
async function sameUserFlood(socket: string, flood: string): Promise<() => void> {
  const connection = await Deno.connect({ transport: "unix", path: socket });
  const buffer = new Uint8Array(1 << 20);
  let open = true;
  (async () => {
    try {
      while (open && (await connection.read(buffer)) !== null) {
        // Drop it: the attacker reads only so that the app's write-side limit is not the story.
      }
    } catch {
      // Closed by the app or by us.
    }
  })();
  await connection.write(encoder.encode(INITIALIZE));
  await connection.write(encoder.encode(flood));
  return () => {
    open = false;
    try {
      connection.close();
    } catch {
      // Closed already.
    }
  };
}

/** Starts the foreign flood as nobody; it prints what it wrote when it ends. */
function foreignFlood(socket: string, home: string): () => void {
  const directory = dirname(socket);
  Deno.chmodSync(dirname(directory), 0o711);
  Deno.chmodSync(directory, 0o711);
  Deno.chmodSync(socket, 0o666);
  const script = `
    const line = new Uint8Array(${LINE_BYTES} + 1).fill(120);
    line[${LINE_BYTES}] = 10;
    let written = 0;
    await Promise.all(Array.from({ length: ${FOREIGN_CONNECTIONS} }, async () => {
      try {
        const connection = await Deno.connect({ transport: "unix", path: Deno.args[0] });
        try {
          for (let at = 0; at < line.length;) {
            const wrote = await connection.write(line.subarray(at));
            at += wrote;
            written += wrote;
          }
          await new Promise((resolve) => setTimeout(resolve, 3000));
        } finally {
          connection.close();
        }
      } catch {
        // Refused: the app closed the connection.
      }
    }));
    console.log(JSON.stringify({ written }));
  `;
  const child = new Deno.Command("setpriv", {
    args: [
      "--reuid=65534",
      "--regid=65534",
      "--clear-groups",
      Deno.execPath(),
      "eval",
      "--quiet",
      "-A",
      script,
      socket,
    ],
    env: { DENO_DIR: home, HOME: home },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  child.output().then((output) => {
    const text = new TextDecoder().decode(output.stdout).trim();
    console.log(`  the foreign client wrote: ${text || new TextDecoder().decode(output.stderr)}`);
  });
  return () => {};
}

async function scenario(name: string): Promise<void> {
  const runtimeDir = await makeRuntimeDir("crownui-flood-");
  const home = await Deno.makeTempDir({ prefix: "crownui-flood-nobody-" });
  Deno.chmodSync(home, 0o777);
  const app = startApp(APP, { env: { XDG_RUNTIME_DIR: runtimeDir } });
  let bystander: Client | undefined;
  try {
    const socket = await app.listening();
    bystander = await connectToApp(socket);
    for (let i = 0; i < 5; i++) await bystander.callTool({ name: "count", arguments: {} });
    await new Promise((resolve) => setTimeout(resolve, 500));
    const before = await residentBytes(app.pid);
    let peak = before;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        peak = Math.max(peak, await residentBytes(app.pid).catch(() => 0));
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    const logBefore = app.lines.length;
    let stop: () => void;
    if (name === "same-id") {
      stop = await sameUserFlood(socket, treeCall(1).repeat(REQUESTS));
    } else if (name === "distinct") {
      let flood = "";
      for (let id = 1; id <= REQUESTS; id++) flood += treeCall(id);
      stop = await sameUserFlood(socket, flood);
    } else if (name === "cancel") {
      let flood = "";
      for (let id = 1; id <= REQUESTS; id++) flood += treeCall(id) + cancel(id);
      stop = await sameUserFlood(socket, flood);
    } else {
      stop = foreignFlood(socket, home);
    }
    const latencies: number[] = [];
    const start = performance.now();
    while (performance.now() - start < WINDOW_MS) {
      const began = performance.now();
      await bystander.callTool({ name: "count", arguments: {} }, undefined, { timeout: 60_000 });
      latencies.push(performance.now() - began);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    sampling = false;
    await sampler;
    stop();
    const logged = app.lines.slice(logBefore);
    console.log(
      `${name.padEnd(8)}: RSS ${formatMiB(before)} before, peak ${formatMiB(peak)} (+${
        formatMiB(peak - before)
      }); bystander's app tool call: p50 ${formatMs(median(latencies))}, max ${
        formatMs(Math.max(...latencies))
      }, n=${latencies.length}; app log lines during the flood: ${logged.length}`,
    );
    if (name === "foreign") {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const lines = app.lines.slice(logBefore);
      console.log(`  app log lines after the foreign client ended: ${lines.length}`);
      for (const line of lines.slice(0, 8)) console.log(`    ${line.slice(0, 160)}`);
    }
  } finally {
    await bystander?.close().catch(() => {});
    await app.close();
    await removeDir(runtimeDir);
    await Deno.remove(home, { recursive: true }).catch(() => {});
  }
}

const chosen = Deno.args.length > 0 ? Deno.args : ["same-id", "cancel", "distinct", "foreign"];
for (const name of chosen) await scenario(name);
