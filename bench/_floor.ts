/**
 * The machine's floor for the hops a `ui_act` makes: a Unix-socket echo between two
 * processes and a Worker message echo, both back to back (hot) and paced like an agent
 * (each thread idle between messages). Printed next to the agent figures so a reader can
 * tell the server's own cost from the cost of waking threads on this machine.
 *
 * @module
 */

import * as net from "node:net";
import { median } from "./_stats.ts";

const ECHO_SERVER = `
import * as net from "node:net";
net.createServer((s) => s.on("data", (d) => s.write(d))).listen(Deno.args[0], () => console.log("ready"));
`;

async function measure(
  roundTrip: () => Promise<void>,
  pauseMs: number,
  count = 60,
): Promise<number> {
  for (let i = 0; i < 20; i++) await roundTrip(); // warm up
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await roundTrip();
    samples.push(performance.now() - start);
    if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
  return median(samples);
}

/** Median round trips over a Unix socket to another process: back to back and paced. */
export async function socketFloor(): Promise<{ hot: number; paced: number }> {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/echo.sock`;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["eval", ECHO_SERVER, path],
    stdout: "piped",
    stderr: "null",
  }).spawn();
  try {
    const reader = child.stdout.getReader();
    await reader.read(); // "ready"
    reader.releaseLock();
    const socket = net.createConnection(path);
    await new Promise((resolve) => socket.once("connect", resolve));
    const roundTrip = () =>
      new Promise<void>((resolve) => {
        socket.once("data", () => resolve());
        socket.write("x\n");
      });
    const hot = await measure(roundTrip, 0);
    const paced = await measure(roundTrip, 50);
    socket.destroy();
    return { hot, paced };
  } finally {
    child.kill();
    await child.status;
    await child.stdout.cancel().catch(() => {});
    await Deno.remove(dir, { recursive: true });
  }
}

/** Median round trips to a Worker and back: back to back and paced. */
export async function workerFloor(): Promise<{ hot: number; paced: number }> {
  const source = "self.onmessage = (event) => self.postMessage(event.data);";
  const url = `data:application/javascript,${encodeURIComponent(source)}`;
  const worker = new Worker(url, { type: "module" });
  const roundTrip = () =>
    new Promise<void>((resolve) => {
      worker.onmessage = () => resolve();
      worker.postMessage(1);
    });
  try {
    return { hot: await measure(roundTrip, 0), paced: await measure(roundTrip, 50) };
  } finally {
    worker.terminate();
  }
}
