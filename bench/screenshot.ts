/**
 * Screenshot figures (issue 20): how long `ui_screenshot` takes in the app when it draws the
 * cells — all of it (paint, pixels, PNG: what the harness and an embedder's host do on their
 * thread), and the part the app's own server asks of the UI thread (painting the cells; the
 * pixels and the PNG are made in its worker) — and how big the PNG is, for a full 80×24 window and a full
 * 200×60 one (the files example, every row of its list filled, and a note list of wide and
 * box-drawing text). Also the first screenshot of the process, which loads the glyphs.
 * Targets: 80×24 at most 50 ms and 150 KB; 200×60 at most 150 ms. Run with
 * `deno task bench:screenshot`; it prints figures and checks nothing.
 *
 * @module
 */

import { column, row, text } from "../runtime/mod.ts";
import { render } from "../runtime/testing.ts";
import { filesApp } from "../examples/files.ts";
import { notesApp } from "../examples/notes.ts";
import { formatMs, percentile } from "./_stats.ts";
import { appCells } from "../runtime/render/picture/app_screenshot.ts";

const RUNS = 30;

function busyText(width: number, height: number) {
  return column(
    ...Array.from(
      { length: height },
      (_, row) =>
        text(
          `${String(row).padStart(3)} │ ${"Näive 日本語 ─┼─ █▓▒░ ".repeat(Math.ceil(width / 20))}`
            .slice(0, width - 1),
        ),
    ),
  );
}

/** Every cell a W in two colours of its own: the most colours a window can show (RGB PNG). */
function ownColours(width: number, height: number) {
  const colour = (n: number) => `#${(n & 0xffffff).toString(16).padStart(6, "0")}` as `#${string}`;
  return column(
    ...Array.from({ length: height }, (_, r) =>
      row(
        ...Array.from({ length: width }, (_, c) => {
          const i = r * width + c;
          return text("W").style({ fg: colour((i * 2654435761) >>> 8), bg: colour(i * 3928771) });
        }),
      ).gap(0)),
  );
}

async function measure(name: string, app: Awaited<ReturnType<typeof render>>): Promise<void> {
  const times: number[] = [];
  const uiTimes: number[] = [];
  let bytes = 0;
  for (let run = 0; run < RUNS; run++) {
    const start = performance.now();
    const shot = await app.screenshot();
    times.push(performance.now() - start);
    bytes = shot.png.length;
    // What the app's own server asks of the UI thread: the cells alone (drawn in its worker).
    const cellsStart = performance.now();
    appCells(app.app);
    uiTimes.push(performance.now() - cellsStart);
  }
  const figure = (samples: number[], p: number) => formatMs(percentile(samples, p)).padStart(9);
  console.log(
    `${name.padEnd(26)} whole: p50 ${figure(times, 50)} p95 ${figure(times, 95)}  ` +
      `UI thread: p50 ${figure(uiTimes, 50)} p95 ${figure(uiTimes, 95)}  PNG ${
        (bytes / 1024).toFixed(1)
      } KB`,
  );
}

{
  await using first = await render(text("first"), { width: 80, height: 24 });
  const start = performance.now();
  await first.screenshot();
  console.log(`first screenshot (loads the glyphs)  ${formatMs(performance.now() - start)}`);
}

const notes = {
  notes: Array.from(
    { length: 30 },
    (_, i) => ({ title: `Note ${i}: call 日本 ─┼─`, done: i % 3 === 0 }),
  ),
  draft: "",
};
for (const [width, height] of [[80, 24], [200, 60]] as const) {
  {
    await using app = await render(notesApp({ initial: notes }), { width, height, title: "Notes" });
    await measure(`notes ${width}×${height}`, app);
  }
  {
    await using app = await render(filesApp(Deno.cwd()), { width, height, title: "Files" });
    await measure(`files ${width}×${height}`, app);
  }
  {
    await using app = await render(busyText(width, height), { width, height });
    await measure(`every cell written ${width}×${height}`, app);
  }
  {
    await using app = await render(ownColours(width, height), { width, height });
    await measure(`own colours ${width}×${height}`, app);
  }
}
