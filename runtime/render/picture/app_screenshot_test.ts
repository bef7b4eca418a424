/**
 * A screenshot of an app drawn by the terminal renderer (in an emulated terminal): its window
 * is the terminal less the status line, at 24-bit colour whatever the terminal's depth, and
 * its pixels are the ones the headless renderer's cells give.
 */

import assert from "node:assert/strict";
import { bind, button, column, component, text } from "../../ui/mod.ts";
import { render } from "../../testing.ts";
import { runInTerminal } from "../terminal/_test_xterm_terminal.ts";
import { appScreenshot, NO_CELLS_MESSAGE } from "./app_screenshot.ts";
import { App } from "../../app/app.ts";

const counter = () =>
  component((cx) => {
    const count = cx.signal(0);
    return column(
      button("+1", () => count.set(count.get() + 1)),
      text(bind(() => `Count: ${count.get()} ─┼─ 日本`)).style({ fg: "error" }),
    );
  });

Deno.test("a terminal app's screenshot: the app's rows, the pixels of its cells", async () => {
  const running = runInTerminal(counter(), { columns: 30, rows: 6, colourDepth: "16" });
  try {
    await running.terminal.flush();
    const shot = await appScreenshot(running.app);
    // Six rows of terminal, the last one the status line: five rows of app.
    assert.deepEqual([shot.columns, shot.rows, shot.width, shot.height], [30, 5, 240, 80]);
    assert.equal(shot.revision, running.app.tree.revision);
    await using headless = await render(counter(), { width: 30, height: 5, title: "Test App" });
    // The terminal renderer gives the first control focus on start; the harness does not.
    await headless.act(headless.get({ role: "button" }).id, { action: "focus" });
    const same = await headless.screenshot();
    let differing = 0;
    for (let y = 0; y < shot.height; y++) {
      for (let x = 0; x < shot.width; x++) if (shot.pixel(x, y) !== same.pixel(x, y)) differing++;
    }
    assert.equal(differing, 0);
  } finally {
    running.stop();
  }
});

Deno.test("a renderer that keeps no cells gives no screenshot, and says why", async () => {
  const app = new App(text("hi"), {
    title: "Bare",
    renderer: { kind: "bare", size: () => ({ width: 10, height: 2 }), render() {}, close() {} },
  });
  try {
    await assert.rejects(appScreenshot(app), new Error(NO_CELLS_MESSAGE));
  } finally {
    app.close();
  }
});
