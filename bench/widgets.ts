/**
 * Table and tree view figures (issue 18), through the harness in an 80×24 window: a table of
 * 100,000 rows (mount to its first frame, one PageDown frame, a sort by a header click, the
 * heap the app holds), and a tree view of 10,000 items expanding one with 1,000 children.
 * Prints each figure beside its target; run with `deno task bench:widgets`. Medians of a few
 * runs, as wall-clock time and as the CPU time the process spent (on a machine other work keeps
 * busy the wall-clock time grows, the CPU time much less); the load average is printed last.
 * The heap figure needs `--v8-flags=--expose-gc` (the task passes it).
 *
 * @module
 */

import { component, table, treeView } from "../runtime/mod.ts";
import type { HeadlessRenderer } from "../runtime/render/headless.ts";
import { render } from "../runtime/testing.ts";
import { cpuUsage } from "node:process";
import { median } from "./_stats.ts";

interface File {
  name: string;
  size: number;
  modified: string;
}

const ROWS = 100_000;
const RUNS = 5;

const files: File[] = Array.from({ length: ROWS }, (_, index) => ({
  name: `file-${(index * 7919) % ROWS}.txt`,
  size: (index * 104729) % 1_000_000,
  modified: `2026-${String((index % 12) + 1).padStart(2, "0")}-${
    String((index % 28) + 1).padStart(2, "0")
  }`,
}));

const filesTable = () =>
  component(() =>
    table({
      label: "Files",
      columns: [
        { header: "Name", cell: (file: File) => file.name, grow: 1 },
        { header: "Size", cell: (file: File) => file.size, width: 9, align: "right" },
        { header: "Modified", cell: (file: File) => file.modified },
      ],
      rows: files,
      key: (file) => file.name,
    })
  );

const gc = (globalThis as { gc?: () => void }).gc;
function heapNow(): number {
  gc?.();
  gc?.();
  return Deno.memoryUsage().heapUsed;
}

/** A wall-clock and a CPU time, in milliseconds. */
interface Took {
  wall: number;
  cpu: number;
}

/** Runs `fn` and says how long it took, on the wall clock and in CPU time. */
async function took(fn: () => unknown): Promise<Took> {
  const cpu = cpuUsage();
  const start = performance.now();
  await fn();
  const wall = performance.now() - start;
  const used = cpuUsage(cpu);
  return { wall, cpu: (used.user + used.system) / 1000 };
}

/** Prints a figure: the medians of `samples` beside the target, judged on the wall clock. */
function report(what: string, samples: Took[], target: number): void {
  const wall = median(samples.map((sample) => sample.wall));
  const cpu = median(samples.map((sample) => sample.cpu));
  const ok = wall <= target ? "ok" : cpu <= target ? "over on the wall clock" : "OVER";
  console.log(
    `${what.padEnd(48)} ${wall.toFixed(1).padStart(7)} ms (CPU ${
      cpu.toFixed(1).padStart(6)
    } ms)  target ≤ ${target} ms: ${ok}`,
  );
}

const before = heapNow();
{
  await using app = await render(filesTable(), { width: 80, height: 24 });
  const held = heapNow() - before;
  const tableId = app.get({ role: "table" }).id;
  await app.act(tableId, { action: "focus" });
  await app.press("ArrowDown");
  const frames: Took[] = [];
  const painted: Took[] = [];
  const renderer = app.app.renderer as HeadlessRenderer;
  for (let run = 0; run < 50; run++) {
    painted.push(
      await took(() => {
        app.app.act(tableId, { action: "press_key", keybind: "PageDown" });
        renderer.paint(); // what a terminal renderer does within its frame
      }),
    );
    const frame = app.app.frames.at(-1)!.totalMs;
    frames.push({ wall: frame, cpu: frame });
  }
  report("one PageDown frame (the frame loop's own time)", frames, 5);
  report("one PageDown, the key to its painted screen", painted, 5);
  const header = app.get({ role: "column_header", name: "Name" }).id;
  const sorts: Took[] = [];
  for (let run = 0; run < RUNS; run++) {
    sorts.push(await took(() => app.app.act(header, { action: "click" })));
  }
  report("a sort by the text column (click to frame)", sorts, 150);
  const size = app.get({ role: "column_header", name: "Size" }).id;
  const numeric: Took[] = [];
  for (let run = 0; run < RUNS; run++) {
    numeric.push(await took(() => app.app.act(size, { action: "click" })));
  }
  report("a sort by the number column (click to frame)", numeric, 150);
  if (gc === undefined) console.log("heap: run with --v8-flags=--expose-gc (the task does)");
  else {
    const mb = held / 1e6;
    console.log(
      `${"heap the table's app holds".padEnd(48)} ${mb.toFixed(1).padStart(7)} MB` +
        `  target ≤ 150 MB: ${mb <= 150 ? "ok" : "OVER"}`,
    );
  }
}

// Mount: render() to the first frame, the app closed after each run.
const mounts: Took[] = [];
for (let run = 0; run < RUNS; run++) {
  let app: Awaited<ReturnType<typeof render>> | undefined;
  mounts.push(await took(async () => app = await render(filesTable(), { width: 80, height: 24 })));
  await app!.close();
}
report(`table of ${ROWS.toLocaleString("en")} rows: mount`, mounts, 300);

// The tree view: 10,000 folders, one of them with 1,000 children, expanded by ArrowRight.
interface Folder {
  name: string;
  children?: Folder[];
}
const folders: Folder[] = Array.from({ length: 10_000 }, (_, index) =>
  index === 3
    ? {
      name: `folder-${index}`,
      children: Array.from({ length: 1000 }, (_, child) => ({ name: `child-${child}` })),
    }
    : { name: `folder-${index}`, children: [] });
const expands: Took[] = [];
for (let run = 0; run < RUNS; run++) {
  await using app = await render(
    component(() =>
      treeView({
        label: "Folders",
        items: folders,
        name: (folder: Folder) => folder.name,
        children: (folder) => folder.children ?? null,
      })
    ),
    { width: 80, height: 24 },
  );
  const item = app.get({ role: "tree_item", name: "folder-3" }).id;
  expands.push(
    await took(() => {
      app.app.act(item, { action: "press_key", keybind: "ArrowRight" });
      (app.app.renderer as HeadlessRenderer).paint();
    }),
  );
}
report("tree of 10,000 items: expand one with 1,000", expands, 20);
console.log(`load average while measured: ${Deno.loadavg().map((n) => n.toFixed(1)).join(" ")}`);
