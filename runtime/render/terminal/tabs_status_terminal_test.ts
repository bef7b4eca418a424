import assert from "node:assert/strict";
import { button, column, component, progressBar, spinner, tab, tabs, text } from "../../ui/mod.ts";
import { runInTerminal } from "./_test_xterm_terminal.ts";

/** Tabs, a progress bar, a spinner and a button that shows a status message. */
function app() {
  return component((cx) =>
    column(
      tabs({
        label: "Settings",
        tabs: [
          tab("General", () => text("General panel")),
          tab("Advanced", () => text("Advanced panel")),
        ],
      }),
      progressBar({ label: "Download", value: 40, cells: 10 }),
      spinner({ label: "Syncing" }),
      button("Notify", () => cx.notify("Saved 3 notes", { kind: "error" })),
    )
  );
}

Deno.test("TerminalRenderer: the mouse and keys choose tabs; focus shows", async () => {
  const running = runInTerminal(app(), { columns: 40, rows: 10 });
  const { terminal } = running;
  try {
    // Focus starts on the first Tab stop: the chosen tab, drawn inverse.
    const general = await terminal.find("[General]");
    assert.notEqual((await terminal.cell(general.x + 1, general.y)).isInverse(), 0);
    const advanced = await terminal.find(" Advanced");
    terminal.click(advanced.x + 2, advanced.y);
    assert.match(running.line(`tab "Advanced"`), /focused selected/);
    assert.ok((await terminal.lines()).some((line) => line.includes("Advanced panel")));
    terminal.send("\x1b[C"); // ArrowRight wraps round to General
    assert.match(running.line(`tab_panel`), /"General"/);
    terminal.send("\x1b[F"); // End
    assert.match(running.line(`tab "Advanced"`), /selected/);
    assert.ok((await terminal.lines()).some((line) => line.includes(" General  [Advanced]")));
    assert.ok(
      (await terminal.lines()).some((line) => line.startsWith("Download [████░░░░░░]  40%")),
    );
  } finally {
    running.stop();
  }
});

Deno.test("TerminalRenderer: a status message shows above the status line; the spinner turns", async () => {
  const running = runInTerminal(app(), { columns: 40, rows: 10 });
  const { terminal } = running;
  try {
    const dot = async () => (await terminal.find("Syncing")).x;
    const at = await terminal.find("Syncing");
    const first = (await terminal.lines())[at.y]!;
    // It turns on the real clock, a dot each 80 ms: wait (bounded) for the next one.
    for (let waited = 0; (await terminal.lines())[at.y] === first; waited += 20) {
      assert.ok(waited < 5000, "the spinner never turned");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.equal(await dot(), at.x);
    const notify = await terminal.find("[ Notify ]");
    terminal.click(notify.x + 2, notify.y);
    const lines = await terminal.lines();
    // Row 9 is the renderer's own status line; the message is the app's last row, 8.
    assert.equal(lines[8]!.trimEnd(), " ✗ Saved 3 notes");
    const cell = await terminal.cell(1, 8);
    assert.notEqual(cell.isInverse(), 0);
    assert.equal(cell.getFgColor(), 1, "the theme's error colour");
    assert.match(running.tree(), /status "Saved 3 notes" #\d+ value="error"/);
  } finally {
    running.stop();
  }
});
