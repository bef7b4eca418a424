import assert from "node:assert/strict";
import { button, column, component, progressBar } from "../../mod.ts";
import type { HeadlessRenderer } from "../../render/headless.ts";
import { render } from "../../testing.ts";
import { ANIMATION_TICK_MS } from "../../app/animations.ts";

Deno.test("progressBar: the value reads as a percentage or a count, and fills the bar", async () => {
  await using app = await render(component((cx) => {
    const done = cx.signal(0, { name: "done" });
    return column(
      progressBar({ label: "Download", value: done }),
      progressBar({ label: "Files", value: done, max: 10, format: "count", cells: 10 }),
      button("+3", () => done.set(done.get() + 3)),
      button("Over", () => done.set(250)),
    );
  }));
  const bar = () => app.get({ role: "progress_bar", name: "Download" });
  const count = () => app.get({ role: "progress_bar", name: "Files" });
  assert.equal(bar().value, "0%");
  assert.equal(count().value, "0/10");
  assert.equal(app.screen().lines[0], `Download [${"░".repeat(20)}]   0%`);
  await app.act(app.get({ role: "button", name: "+3" }).id, { action: "click" });
  assert.equal(bar().value, "3%");
  assert.equal(count().value, "3/10");
  assert.equal(app.screen().lines[1], `Files [███${"░".repeat(7)}]  3/10`);
  // Past the end: the bar is full, and so is the value.
  await app.act(app.get({ role: "button", name: "Over" }).id, { action: "click" });
  assert.equal(bar().value, "100%");
  assert.equal(count().value, "10/10");
  assert.equal(app.screen().lines[0], `Download [${"█".repeat(20)}] 100%`);
  assert.match(app.tree(), /progress_bar "Download" #\d+ value="100%"\n/);
});

Deno.test("progressBar: a part-filled cell, and the theme's looks; a disabled bar is muted", async () => {
  await using app = await render(component(() =>
    column(
      progressBar({ label: "Half", value: 52.5 }),
      progressBar({ label: "Off", value: 50 }).disabled(),
    )
  ));
  assert.equal(app.screen().lines[0], `Half [██████████▌${"░".repeat(9)}]  52%`);
  const screen = app.screen();
  assert.notEqual(screen.styleAt(6, 0), screen.styleAt(20, 0), "filled and empty differ");
  assert.equal(screen.styleAt(5, 1), screen.styleAt(16, 1), "disabled: one muted look");
  assert.match(app.tree(), /progress_bar "Off" #\d+ value="50%" disabled/);
});

Deno.test("progressBar: null is busy, a block moves while shown, and stops with a value", async () => {
  await using app = await render(
    component((cx) => {
      const done = cx.signal<number | null>(null, { name: "done" });
      return column(
        progressBar({ label: "Copy", value: done, cells: 8 }),
        button("Known", () => done.set(25)),
      );
    }),
    { clock: "manual" },
  );
  assert.deepEqual(app.get({ role: "progress_bar" }).states, ["busy"]);
  assert.equal(app.get({ role: "progress_bar" }).value, undefined);
  assert.equal(app.screen().lines[0], "Copy [████░░░░]");
  await app.advance(ANIMATION_TICK_MS);
  assert.equal(app.screen().lines[0], "Copy [░████░░░]");
  await app.advance(ANIMATION_TICK_MS * 4);
  assert.equal(app.screen().lines[0], "Copy [░░░████░]", "back from the far end");
  await app.act(app.get({ role: "button", name: "Known" }).id, { action: "click" });
  assert.deepEqual(app.get({ role: "progress_bar" }).states, []);
  const renderer = app.app.renderer as HeadlessRenderer;
  const before = renderer.frames;
  await app.advance(2000);
  assert.equal(renderer.frames - before, 0, "no timer once the value is known");
});

Deno.test("progressBar: bad options are refused when made", () => {
  assert.throws(
    () => progressBar({ label: "A", value: 1, max: 0 }),
    /max must be a number above 0/,
  );
  assert.throws(
    () => progressBar({ label: "A", value: 1, format: "ratio" as never }),
    /format is "percent" or "count"/,
  );
  assert.throws(() => progressBar({ label: "A", value: 1, cells: 0 }), /cells must be/);
  assert.throws(() => progressBar({ label: "A" } as never), /takes \{ label, value/);
});
