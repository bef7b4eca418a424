/**
 * The app the end-to-end benchmarks drive: the benchmark list with `rows` rows and, when
 * `tick` is given, a clock text updated every `tick` ms so frames keep coming. With
 * `no-mcp` as the third argument the server stays off (to measure what it adds).
 *
 * `deno run <app flags> bench/_bench_app.ts <rows> [tick-ms] [no-mcp]`
 *
 * @module
 */

import { AppConfig, bind, column, component, run, text } from "../runtime/mod.ts";
import { listApp } from "./_list_app.ts";

const rows = Number(Deno.args[0] ?? 1000);
const tick = Number(Deno.args[1] ?? 0);
const mcp = Deno.args[2] !== "no-mcp";

const root = component((cx) => {
  const ticks = cx.signal(0, { name: "ticks" });
  if (tick > 0) {
    const timer = setInterval(() => ticks.set(ticks.get() + 1), tick);
    cx.onCleanup(() => clearInterval(timer));
  }
  return column(text(bind(() => `tick ${ticks.get()}`)), listApp(rows));
});

await run(root, new AppConfig(`Bench ${rows}`).mcp(mcp));
