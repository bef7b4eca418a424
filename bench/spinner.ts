/**
 * Spinner figure (issue 18): an app whose spinner is off screen is never woken. Three apps
 * run headless on the real clock for 2 s each, and the frames each drew are counted: one
 * with a spinner in view (about 25 frames: a tick each 80 ms), one whose spinner is
 * scrolled out of its scroll view, and one whose spinner is in a tab not chosen (both 0:
 * no timer runs). Run with `deno task bench:spinner`; it prints, it asserts nothing.
 *
 * @module
 */

import {
  column,
  component,
  list,
  scrollView,
  spinner,
  tab,
  tabs,
  text,
  type View,
} from "../runtime/mod.ts";
import type { HeadlessRenderer } from "../runtime/render/headless.ts";
import { render } from "../runtime/testing.ts";

const WINDOW_MS = 2000;

/** The frames `root` draws in `WINDOW_MS` of real time, after its first frames settle. */
async function framesOver(root: View): Promise<number> {
  await using app = await render(root, { width: 80, height: 24 });
  await app.settle();
  const renderer = app.app.renderer as HeadlessRenderer;
  const before = renderer.frames;
  await new Promise((resolve) => setTimeout(resolve, WINDOW_MS));
  return renderer.frames - before;
}

const shown = component(() => column(text("Working"), spinner({ label: "Syncing" })));
const scrolledAway = component(() =>
  scrollView(column(
    list(Array.from({ length: 200 }, (_, index) => `Row ${index}`), (item) => text(item)),
    spinner({ label: "Syncing" }),
  )).height(10)
);
const otherTab = component(() =>
  tabs({
    tabs: [
      tab("General", () => text("Nothing spins here")),
      tab("Sync", () => spinner({ label: "Syncing" })),
    ],
  })
);

const results = [
  ["a spinner on screen", await framesOver(shown)],
  ["a spinner scrolled out of view", await framesOver(scrolledAway)],
  ["a spinner in a tab not chosen", await framesOver(otherTab)],
] as const;
console.log(`frames drawn in ${WINDOW_MS / 1000} s of real time (a tick is 80 ms):`);
for (const [what, frames] of results) console.log(`  ${what.padEnd(32)} ${frames}`);
