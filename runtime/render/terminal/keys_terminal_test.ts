/**
 * The hint line in an emulated terminal: the app's bindings that apply, before the runtime's
 * keys; none from behind an open dialog; a binding with `hint: false` left out; the keys it
 * cannot fit dropped, the help and quit keys kept.
 */

import assert from "node:assert/strict";
import { button, column, component, dialog, show, text } from "../../ui/mod.ts";
import { runInTerminal } from "./_test_xterm_terminal.ts";

function app() {
  return component((cx) => {
    const open = cx.signal(false);
    cx.keybind("Ctrl+S", "Save", () => {});
    cx.keybind("Ctrl+O", "Open", () => open.set(true));
    cx.keybind("Ctrl+Q", "Quit unsaved", () => {}, { hint: false });
    return column(
      button("OK", () => {}),
      show(open, () =>
        component((inner) => {
          inner.keybind("Ctrl+D", "Discard", () => open.set(false));
          return dialog("Unsaved", text("Discard the changes?")).onClose(() => open.set(false));
        })),
    );
  });
}

Deno.test("TerminalRenderer: the hint line shows the app's keys that apply", async (t) => {
  const running = runInTerminal(app(), { columns: 80, rows: 10 });
  const { terminal } = running;
  try {
    await t.step("the app's bindings first, then the runtime's", async () => {
      assert.equal(
        (await terminal.lines()).at(-1)!.trim(),
        "Ctrl+S Save · Ctrl+O Open · Tab move · Enter act · ? keys · q quit",
      );
    });
    await t.step("behind a dialog only the dialog's", async () => {
      terminal.send("\x0f"); // Ctrl+O
      assert.match(running.tree(), /dialog "Unsaved"/);
      assert.equal(
        (await terminal.lines()).at(-1)!.trim(),
        "Ctrl+D Discard · Tab move · Enter act · ? keys · q quit",
      );
      terminal.send("\x04"); // Ctrl+D
      assert.doesNotMatch(running.tree(), /dialog/);
    });
    await t.step("a narrow window keeps what fits, and always ? and q", async () => {
      terminal.resize(40, 10);
      running.app.frame();
      assert.equal(
        (await terminal.lines()).at(-1)!.trim(),
        "Ctrl+S Save · ? keys · q quit",
      );
      terminal.resize(20, 10);
      running.app.frame();
      assert.equal((await terminal.lines()).at(-1)!.trim(), "? keys · q quit");
    });
  } finally {
    running.stop();
  }
});

Deno.test("TerminalRenderer: an app that binds q gets it; q quits otherwise", async () => {
  let queued = 0;
  const running = runInTerminal(component((cx) => {
    const on = cx.signal(true);
    cx.keybind("Ctrl+T", "Toggle q", () => on.set(!on.get()));
    return column(
      button("OK", () => {}),
      show(on, () =>
        component((inner) => {
          inner.keybind("q", "Queue", () => queued++);
          return text("q queues");
        })),
    );
  }));
  let quit = false;
  running.app.quitRequested.then(() => (quit = true));
  try {
    running.terminal.send("q");
    await Promise.resolve();
    assert.equal(queued, 1);
    assert.equal(quit, false);
    assert.match((await running.terminal.lines()).at(-1)!, /q Queue · .*Ctrl\+C quit\s*$/);
    running.terminal.send("\x14"); // Ctrl+T: the binding of q goes
    running.terminal.send("q");
    await Promise.resolve();
    assert.equal(queued, 1);
    assert.equal(quit, true);
  } finally {
    running.stop();
  }
});
