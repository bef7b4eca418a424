import assert from "node:assert/strict";
import {
  bind,
  button,
  column,
  component,
  list,
  scrollView,
  show,
  spinner,
  tab,
  tabs,
  text,
} from "../../mod.ts";
import type { HeadlessRenderer } from "../../render/headless.ts";
import { render, type TestApp } from "../../testing.ts";
import { ANIMATION_TICK_MS } from "../../app/animations.ts";
import { SPINNER_FRAMES } from "./spinner.ts";

/** The frames the app drew while the manual clock moved `ms` on. */
async function framesOver(app: TestApp, ms: number): Promise<number> {
  const renderer = app.app.renderer as HeadlessRenderer;
  const before = renderer.frames;
  await app.advance(ms);
  return renderer.frames - before;
}

Deno.test("spinner: a busy progress_bar with no value, turning one dot a tick", async () => {
  await using app = await render(component(() => spinner({ label: "Syncing" })), {
    clock: "manual",
  });
  assert.match(app.tree(), /^ progress_bar "Syncing" #\d+ busy$/m);
  assert.equal(app.get({ role: "progress_bar" }).value, undefined);
  const seen: string[] = [];
  for (let tick = 0; tick < 3; tick++) {
    seen.push(app.screen().lines[0]!);
    await app.advance(ANIMATION_TICK_MS);
  }
  assert.deepEqual(seen, SPINNER_FRAMES.slice(0, 3).map((dot) => `${dot} Syncing`));
  // About 12 frames a second while it shows, and no more.
  const frames = await framesOver(app, 2000);
  assert.ok(frames >= 20 && frames <= 26, `${frames} frames in 2 s`);
});

Deno.test("spinner: no timer wakes the app while it is scrolled away, in another tab or gone", async (t) => {
  await t.step("scrolled out of its scroll view", async () => {
    await using app = await render(
      component(() =>
        scrollView(column(
          list(Array.from({ length: 30 }, (_, i) => `Row ${i}`), (item) => text(item)),
          spinner({ label: "Syncing" }),
        )).height(5)
      ),
      { clock: "manual" },
    );
    assert.equal(await framesOver(app, 2000), 0);
    // Scrolled into view, it turns again.
    await app.act(app.get({ role: "scroll_view" }).id, {
      action: "scroll",
      delta: { x: 0, y: 100 },
    });
    assert.ok(await framesOver(app, 2000) >= 20);
  });
  await t.step("in a tab that is not chosen, and after it unmounts", async () => {
    await using app = await render(
      component((cx) => {
        const on = cx.signal(true, { name: "on" });
        return column(
          tabs({
            tabs: [
              tab("Plain", () => text("Nothing spins")),
              tab("Busy", () => spinner({ label: "Syncing" })),
            ],
          }),
          show(on, () => spinner({ label: "Other" })),
          button("Hide", () => on.set(false)),
          text(bind(() => on.get() ? "shown" : "hidden")),
        );
      }),
      { clock: "manual" },
    );
    assert.ok(await framesOver(app, 400) >= 4, "Other spins");
    await app.act(app.get({ role: "button", name: "Hide" }).id, { action: "click" });
    assert.equal(await framesOver(app, 2000), 0, "nothing spins in view");
    await app.act(app.get({ role: "tab_list" }).id, { action: "select", option: "Busy" });
    assert.ok(await framesOver(app, 400) >= 4, "the chosen tab's spinner spins");
    await app.act(app.get({ role: "tab_list" }).id, { action: "select", option: "Plain" });
    assert.equal(await framesOver(app, 2000), 0, "unmounted with its tab");
  });
});

Deno.test("spinner: busy bound to false stops it and clears the state; disabled is muted", async () => {
  await using app = await render(
    component((cx) => {
      const busy = cx.signal(true, { name: "busy" });
      return column(
        spinner({ label: "Syncing", busy }),
        spinner({ label: "Idle" }).disabled(),
        button("Done", () => busy.set(false)),
      );
    }),
    { clock: "manual" },
  );
  assert.match(app.tree(), /progress_bar "Idle" #\d+ disabled busy/);
  assert.match(app.screen().styleAt(0, 1), /fg=/);
  await app.act(app.get({ role: "button", name: "Done" }).id, { action: "click" });
  assert.match(app.tree(), /progress_bar "Syncing" #\d+\n/);
  assert.equal(app.screen().lines[0], "· Syncing");
});
