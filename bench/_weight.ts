/**
 * The runtime's weight, measured through the public API and the test harness
 * (`render()` from `runtime/testing.ts`) on the benchmark list (rows of a checkbox, a text
 * and a button): heap bytes per semantic node after a full GC, the time to build rows, the
 * tree text's time and bytes per row, and click-to-frame on a large list against a small
 * one. Shared by `bench/weight.ts` (prints the figures) and `bench/_check.ts` (fails CI on
 * the ones that do not depend on the machine's speed).
 *
 * The heap figures need `--v8-flags=--expose-gc`.
 *
 * @module
 */

import { render, type RenderOptions, type TestApp } from "../runtime/testing.ts";
import { listApp } from "./_list_app.ts";
import { median } from "./_stats.ts";

/** Semantic nodes per benchmark row: the list item, its checkbox, its text and its button. */
export const NODES_PER_ROW = 4;

/** A window tall enough that every row of `rows` is on screen (nothing marked offscreen). */
export function allOnScreen(rows: number): RenderOptions {
  return { height: rows + 10 };
}

/** V8's `gc()`, or an error naming the flag that exposes it. */
function fullGc(): () => void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) {
    throw new Error("heap figures need a full GC: run with --v8-flags=--expose-gc");
  }
  return gc;
}

/** The heap in use after a full GC, in bytes. */
function heapAfterGc(): number {
  const gc = fullGc();
  // Twice: the first collection can leave garbage that finalizers and weak references
  // release only for the next one.
  gc();
  gc();
  return Deno.memoryUsage().heapUsed;
}

/** The heap an app holds, per semantic node. */
export interface HeapFigure {
  /** Semantic nodes in the app's tree. */
  nodes: number;
  /** Heap bytes the built app holds, after a full GC before and after building it. */
  bytes: number;
  /** `bytes / nodes`. */
  perNode: number;
}

/** Builds `rows` rows and returns the heap the app holds, after a full GC, per node. */
export async function heapPerNode(rows: number): Promise<HeapFigure> {
  const before = heapAfterGc();
  const app = await render(listApp(rows));
  const after = heapAfterGc();
  const nodes = app.app.tree.size;
  await app.close();
  const bytes = after - before;
  return { nodes, bytes, perNode: bytes / nodes };
}

/** The median time to render `rows` rows (the first frame included), over `runs` runs. */
export async function buildMs(rows: number, runs: number): Promise<number> {
  const samples: number[] = [];
  for (let run = 0; run < runs; run++) {
    const start = performance.now();
    const app = await render(listApp(rows));
    samples.push(performance.now() - start);
    await app.close();
  }
  return median(samples);
}

/** The tree text of an app: its size and how long it takes to write. */
export interface TreeTextFigure {
  /** Semantic nodes in the app's tree. */
  nodes: number;
  /** Bytes of the tree text (UTF-8). */
  bytes: number;
  /** Bytes per benchmark row. */
  bytesPerRow: number;
  /** The median time to write it, over the runs asked for (0 when none were). */
  ms: number;
}

/** The tree text (`TestApp.tree()`) of `rows` rows in a window of `options`, timed `runs` times. */
export async function treeText(
  rows: number,
  options: RenderOptions = {},
  runs = 0,
): Promise<TreeTextFigure> {
  const app = await render(listApp(rows), options);
  try {
    const bytes = new TextEncoder().encode(app.tree()).length;
    const samples: number[] = [];
    for (let run = 0; run < runs; run++) {
      const start = performance.now();
      app.tree();
      samples.push(performance.now() - start);
    }
    return {
      nodes: app.app.tree.size,
      bytes,
      bytesPerRow: bytes / rows,
      ms: runs > 0 ? median(samples) : 0,
    };
  } finally {
    await app.close();
  }
}

/** Click-to-frame on a large list against a small one, measured in turns in one run. */
export interface ClickFigure {
  /** The median time of a click to its frame on the small list, in milliseconds. */
  smallMs: number;
  /** The same on the large list. */
  largeMs: number;
  /** `largeMs / smallMs`. */
  ratio: number;
}

/** The middle row's checkbox of `app`, so that a click toggles a row well inside the list. */
function middleCheckbox(app: TestApp): number {
  const boxes = app.query({ role: "checkbox", name: "Done" });
  return boxes[Math.floor(boxes.length / 2)]!.id;
}

/**
 * Clicks the middle checkbox of a `smallRows` list and of a `largeRows` list in turns,
 * `clicks` times each after `warmup` clicks that are not counted, each click awaited
 * through the frame it causes (`TestApp.act()`). Taking turns makes the machine's noise
 * (other processes, CPU frequency) fall on both alike, so the ratio holds on a busy machine.
 */
export async function clickToFrame(
  smallRows: number,
  largeRows: number,
  clicks: number,
  warmup = 20,
  styled = false,
): Promise<ClickFigure> {
  const small = await render(listApp(smallRows, styled));
  const large = await render(listApp(largeRows, styled));
  try {
    const targets = [
      { app: small, id: middleCheckbox(small), samples: [] as number[] },
      { app: large, id: middleCheckbox(large), samples: [] as number[] },
    ];
    for (let turn = 0; turn < warmup + clicks; turn++) {
      for (const target of targets) {
        const start = performance.now();
        await target.app.act(target.id, { action: "click" });
        const elapsed = performance.now() - start;
        if (turn >= warmup) target.samples.push(elapsed);
      }
    }
    const smallMs = median(targets[0]!.samples);
    const largeMs = median(targets[1]!.samples);
    return { smallMs, largeMs, ratio: largeMs / smallMs };
  } finally {
    await small.close();
    await large.close();
  }
}
