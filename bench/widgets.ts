/**
 * Table and tree view figures (issue 18), through the harness in an 80×24 window: a table of
 * 100,000 rows (mount to its first frame, one PageDown frame, a sort by a header click, the
 * heap the app holds), and a tree view of 10,000 items expanding one with 1,000 children.
 * Prints each figure beside its target; run with `deno task bench:widgets`. Medians of a few
 * runs; the heap figure needs `--v8-flags=--expose-gc` (the task passes it).
 *
 * @module
 */

import { component, table, treeView } from "../runtime/mod.ts";
import type { HeadlessRenderer } from "../runtime/render/headless.ts";
import { render } from "../runtime/testing.ts";
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

const lines: string[] = [];
function report(what: string, value: number, unit: string, target: number): void {
  const ok = value <= target ? "ok" : "OVER";
  lines.push(
    `${what.padEnd(46)} ${
      value.toFixed(1).padStart(8)
    } ${unit}  (target ≤ ${target} ${unit}) ${ok}`,
  );
  console.log(lines.at(-1));
}

// Mount: render() to the first frame, the app closed after each run.
const mounts: number[] = [];
for (let run = 0; run < RUNS; run++) {
  const start = performance.now();
  const app = await render(filesTable(), { width: 80, height: 24 });
  mounts.push(performance.now() - start);
  await app.close();
}
report(`table of ${ROWS.toLocaleString("en")} rows: mount`, median(mounts), "ms", 300);

const before = heapNow();
{
  await using app = await render(filesTable(), { width: 80, height: 24 });
  const held = heapNow() - before;
  const tableId = app.get({ role: "table" }).id;
  await app.act(tableId, { action: "focus" });
  await app.press("ArrowDown");
  const pages: number[] = [];
  const painted: number[] = [];
  const renderer = app.app.renderer as HeadlessRenderer;
  for (let run = 0; run < 50; run++) {
    const start = performance.now();
    app.app.act(tableId, { action: "press_key", keybind: "PageDown" });
    pages.push(app.app.frames.at(-1)!.totalMs);
    renderer.paint(); // what a terminal renderer does within its frame
    painted.push(performance.now() - start);
  }
  report("one PageDown frame", median(pages), "ms", 5);
  report("one PageDown, the key to its painted screen", median(painted), "ms", 5);
  const header = app.get({ role: "column_header", name: "Name" }).id;
  const sorts: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const start = performance.now();
    app.app.act(header, { action: "click" });
    sorts.push(performance.now() - start);
  }
  report("a sort (a header click to its frame)", median(sorts), "ms", 150);
  if (gc !== undefined) report("heap the app holds", held / 1e6, "MB", 150);
  else console.log("heap: run with --v8-flags=--expose-gc (deno task bench:widgets does)");
}

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
const expands: number[] = [];
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
  const start = performance.now();
  app.app.act(item, { action: "press_key", keybind: "ArrowRight" });
  (app.app.renderer as HeadlessRenderer).paint();
  expands.push(performance.now() - start);
}
report("tree view of 10,000 items: expand one with 1,000", median(expands), "ms", 20);
console.log(`load average while measured: ${Deno.loadavg().map((n) => n.toFixed(1)).join(" ")}`);
