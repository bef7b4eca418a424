/**
 * Runtime core benchmarks on a list of rows (each a checkbox, a text and a button):
 * building it, its tree text, a query, and one click through to its frame, at 100 and
 * 10,000 rows. Targets (issue 2): tree text of ~30,000 nodes under 30 ms; a click-to-frame
 * under 2 ms, and on 10,000 rows no more than 1.5 times the time on 100.
 *
 * Run: `deno task bench`
 *
 * @module
 */

import { render } from "../runtime/testing.ts";
import { listApp } from "./_list_app.ts";

for (const size of [100, 10_000]) {
  Deno.bench(
    `build a list of ${size} rows`,
    { group: `build`, n: size > 1000 ? 10 : 100 },
    async () => {
      const app = await render(listApp(size));
      await app.close();
    },
  );
}

for (const size of [100, 10_000]) {
  const app = await render(listApp(size));
  Deno.bench(`tree text, ${size} rows (${app.app.tree.size} nodes)`, { group: "tree text" }, () => {
    app.tree();
  });
  Deno.bench(`query text="Row 4242", ${size} rows`, { group: "query" }, () => {
    app.query({ text: "Row 4242" });
  });
  Deno.bench(`query role=button name=Delete, ${size} rows`, { group: "query all" }, () => {
    app.query({ role: "button", name: "Delete" });
  });
  const boxes = app.query({ role: "checkbox" });
  const middle = boxes[Math.floor(boxes.length / 2)]!.id;
  Deno.bench(`click a checkbox to its frame, ${size} rows`, {
    group: "click",
    baseline: size === 100,
  }, () => {
    app.app.act(middle, { action: "click" });
  });
  const deletes = app.query({ role: "button", name: "Delete" });
  const deleteId = deletes[Math.floor(deletes.length / 2)]!.id;
  Deno.bench(`click a button that changes a text, ${size} rows`, {
    group: "click text",
    baseline: size === 100,
  }, () => {
    app.app.act(deleteId, { action: "click" });
  });
}
