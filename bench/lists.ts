/**
 * List figures (issue 18): filtering a 5,000-row list down to about 1,000 rows and back, each
 * as one frame, in a scroll view of an 80×24 window. Prints the median of several runs; run
 * with `deno task bench:lists`. Targets: each frame ≤ 30 ms.
 *
 * @module
 */

import {
  bind,
  button,
  checkbox,
  column,
  component,
  list,
  row,
  scrollView,
  type Signal,
  text,
  textField,
} from "../runtime/mod.ts";
import { render } from "../runtime/testing.ts";
import { median } from "./_stats.ts";

interface Entry {
  id: number;
  title: string;
}

const ROWS = 5000;
const RUNS = 7;

const all: Entry[] = Array.from({ length: ROWS }, (_, id) => ({ id, title: `File ${id}.txt` }));
let filter: Signal<string> | undefined;
await using app = await render(
  component((cx) => {
    const typed = (filter = cx.signal("", { name: "filter" }));
    const shown = cx.memo(() => all.filter((entry) => entry.title.includes(typed.get())));
    return column(
      textField({ label: "Filter", value: typed }),
      text(bind(() => `${shown.get().length} files`)),
      scrollView(
        list(
          shown,
          (entry) => row(checkbox("Done", false), text(entry.title), button("Open", () => {})),
          (e) => e.id,
        ),
      ),
    );
  }),
  { width: 80, height: 24 },
);

function timed(value: string): number {
  filter!.set(value);
  const start = performance.now();
  app.app.frame();
  return performance.now() - start;
}

const narrow: number[] = [];
const wide: number[] = [];
for (let run = 0; run < RUNS; run++) {
  narrow.push(timed("e 1")); // "File 1…": 1, 10–19, 100–199, 1000–1999
  wide.push(timed(""));
}
const kept = all.filter((entry) => entry.title.includes("e 1")).length;
console.log(`filter ${ROWS} rows to ${kept}: median ${median(narrow).toFixed(1)} ms a frame`);
console.log(`and back to ${ROWS}:        median ${median(wide).toFixed(1)} ms a frame`);
