/**
 * Frame time of the terminal renderer on a 10,000-row list while scrolling (and on 100
 * rows, the baseline), in a 100 by 30 terminal whose output is counted, not shown. Rows
 * are a checkbox, a text and a button, as in the runtime benchmarks, inside a scroll view.
 *
 * - a person's wheel step: parse the mouse report, hit-test, scroll, relayout, paint the
 *   rows in view, diff, write;
 * - an agent's `scroll` action by one row, through `App.act`;
 * - a full redraw (after a resize).
 *
 * Before the benchmarks it prints the phases of a scroll frame and the bytes it writes.
 *
 * Run: `deno task bench`, or `deno bench --frozen bench/terminal_bench.ts` for this file.
 *
 * @module
 */

import { App } from "../runtime/app/app.ts";
import type { TerminalIo } from "../runtime/render/terminal/terminal_io.ts";
import { TerminalRenderer } from "../runtime/render/terminal/terminal_renderer.ts";
import {
  bind,
  button,
  checkbox,
  column,
  component,
  list,
  row,
  scrollView,
  text,
} from "../runtime/mod.ts";

/** A terminal that only counts what is written to it. */
class CountingTerminal implements TerminalIo {
  bytes = 0;
  #input: ((bytes: Uint8Array) => void) | null = null;
  #resize: (() => void) | null = null;
  write(text: string): void {
    this.bytes += text.length;
  }
  writeError(): void {}
  size() {
    return { columns: 100, rows: 30 };
  }
  setRaw(): void {}
  readInput(onBytes: (bytes: Uint8Array) => void) {
    this.#input = onBytes;
    return () => (this.#input = null);
  }
  onResize(listener: () => void) {
    this.#resize = listener;
    return () => (this.#resize = null);
  }
  onJobControl() {
    return () => {};
  }
  stopProcess(): void {}
  send(bytes: Uint8Array): void {
    this.#input?.(bytes);
  }
  resized(): void {
    this.#resize?.();
  }
}

/** A scroll view of `count` rows, each a checkbox, a text and a button, under a count. */
function scrollingList(count: number) {
  return component((cx) => {
    const rows = cx.signal(Array.from({ length: count }, (_, index) => index), { name: "rows" });
    const clicks = cx.signal(0, { name: "clicks" });
    return column(
      text(bind(() => `${clicks.get()} clicks`)),
      scrollView(list(rows, (index) =>
        row(
          checkbox("Done", false),
          text(`Row ${index}`).width(20),
          button("Delete", () => clicks.set(clicks.get() + 1)),
        ))),
    );
  });
}

const encoder = new TextEncoder();
const WHEEL_DOWN = encoder.encode("\x1b[<65;10;10M");
const WHEEL_UP = encoder.encode("\x1b[<64;10;10M");

/** The app running in a counting terminal, scrolled to the middle of its list. */
function running(count: number) {
  const terminal = new CountingTerminal();
  const renderer = new TerminalRenderer({ io: terminal, captureLog: false });
  const app = new App(scrollingList(count), { title: "Bench", renderer });
  renderer.start(app);
  app.frame();
  const view = app.tree.root.children.find((node) => node.role === "scroll_view")!;
  const middle = Math.floor((count - view.bounds.height) / 2);
  app.act(view.id, { action: "scroll", delta: { x: 0, y: middle } });
  // Back and forth around the middle (30 rows each way), so that every step moves the list.
  let steps = 0;
  const wheel = () => renderer.feed(steps++ % 20 < 10 ? WHEEL_DOWN : WHEEL_UP);
  const agentScroll = () => {
    const dy = steps++ % 60 < 30 ? 1 : -1;
    app.act(view.id, { action: "scroll", delta: { x: 0, y: dy } });
  };
  const redraw = () => {
    terminal.resized();
    app.frame();
  };
  return { app, terminal, wheel, agentScroll, redraw };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const apps = new Map([100, 10_000].map((count) => [count, running(count)]));

// The phases of a scroll frame, as the app records them, and the bytes one frame writes.
for (const [count, { app, terminal, wheel }] of apps) {
  for (let warm = 0; warm < 200; warm++) wheel();
  const bytesBefore = terminal.bytes;
  const steps = 100;
  for (let step = 0; step < steps; step++) wheel();
  const frames = app.frames.slice(-steps);
  const field = (name: "layoutMs" | "renderMs" | "totalMs") =>
    median(frames.map((frame) => frame[name])).toFixed(3);
  console.log(
    `${count} rows, a wheel step of 3 rows: frame median ${field("totalMs")} ms ` +
      `(layout ${field("layoutMs")} ms, render ${field("renderMs")} ms), ` +
      `${Math.round((terminal.bytes - bytesBefore) / steps)} bytes written`,
  );
}

for (const [count, { wheel, agentScroll, redraw }] of apps) {
  const options = (group: string) => ({ group, baseline: count === 100 });
  Deno.bench(
    `a wheel step (3 rows) to its frame on screen, ${count} rows`,
    options("wheel"),
    wheel,
  );
  Deno.bench(
    `an agent's scroll by one row to its frame on screen, ${count} rows`,
    options("agent scroll"),
    agentScroll,
  );
  Deno.bench(`a full redraw after a resize, ${count} rows`, options("redraw"), redraw);
}
