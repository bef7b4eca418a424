import assert from "node:assert/strict";
import { notesApp } from "../../../examples/notes.ts";
import { runInTerminal, type XtermTerminal } from "./_test_xterm_terminal.ts";

/** What the screen shows (a written space and a blank cell look the same). */
async function shown(terminal: XtermTerminal): Promise<string[]> {
  return (await terminal.lines()).map((line) => line.trimEnd());
}

/** The terminal's modes that the renderer owns while it draws. */
async function modes(terminal: XtermTerminal) {
  await terminal.flush();
  const { modes } = terminal.term;
  return {
    screen: terminal.term.buffer.active.type,
    raw: terminal.raw,
    mouse: modes.mouseTrackingMode,
    paste: modes.bracketedPasteMode,
    // xterm keeps the cursor's visibility in its core only; the last ?25 sequence says it.
    cursorShown:
      terminal.output.lastIndexOf("\x1b[?25h") > terminal.output.lastIndexOf("\x1b[?25l"),
    synchronized: modes.synchronizedOutputMode,
  };
}

const OWNED = {
  screen: "alternate",
  raw: true,
  mouse: "any",
  paste: true,
  cursorShown: false,
  synchronized: false,
};
const GIVEN_BACK = {
  screen: "normal",
  raw: false,
  mouse: "none",
  paste: false,
  cursorShown: true,
  synchronized: false,
};

for (
  const [how, suspend] of [
    ["Ctrl+Z", (terminal: XtermTerminal) => terminal.send("\x1a")],
    ["SIGTSTP", (terminal: XtermTerminal) => terminal.signal("stop")],
  ] as const
) {
  Deno.test(`TerminalRenderer: ${how} gives the terminal back and stops; SIGCONT draws every cell`, async () => {
    const running = runInTerminal(notesApp(), { columns: 60, rows: 12 });
    const { terminal, app } = running;
    try {
      terminal.send("Buy milk\r");
      app.frame();
      const before = await shown(terminal);
      assert.ok(before.some((line) => line.includes("[ ] Done Buy milk")), before.join("\n"));
      assert.deepEqual(await modes(terminal), OWNED);

      suspend(terminal);
      assert.equal(terminal.stops, 1, "the process stopped itself");
      assert.deepEqual(await modes(terminal), GIVEN_BACK);
      // While the shell has the terminal, nothing is drawn over it.
      terminal.term.write("\x1b[2J$ jobs\r\n");
      const written = terminal.output.length;
      app.requestFrame();
      app.frame();
      assert.equal(terminal.output.length, written, "no frame while suspended");
      suspend(terminal);
      assert.equal(terminal.stops, 1, "a second stop while suspended stops nothing");

      // Something (the shell's fg) cleared the alternate screen meanwhile: every cell comes back.
      terminal.term.write("\x1b[?1049h\x1b[2J\x1b[?1049l");
      terminal.signal("continue");
      app.frame();
      assert.deepEqual(await modes(terminal), OWNED);
      assert.deepEqual(await shown(terminal), before);

      terminal.send("x");
      app.frame();
      assert.match(running.line(`text_field "Title"`), /value="x"/, "input goes to the app again");
    } finally {
      running.stop();
    }
  });
}

Deno.test("TerminalRenderer: SIGCONT without a suspend (kill -STOP, kill -CONT) redraws everything", async () => {
  const running = runInTerminal(notesApp(), { columns: 60, rows: 12 });
  const { terminal, app } = running;
  try {
    const before = await shown(terminal);
    terminal.term.write("\x1b[2J");
    terminal.signal("continue");
    app.frame();
    assert.equal(terminal.stops, 0);
    assert.deepEqual(await modes(terminal), OWNED);
    assert.deepEqual(await shown(terminal), before);
  } finally {
    running.stop();
  }
});

Deno.test("TerminalRenderer: quitting while suspended leaves the terminal as the shell has it", async () => {
  const running = runInTerminal(notesApp(), { columns: 60, rows: 12 });
  const { terminal } = running;
  try {
    terminal.send("\x1a");
    const written = terminal.output.length;
    running.app.close();
    assert.equal(terminal.output.length, written, "the modes are off already: nothing to write");
    assert.deepEqual(await modes(terminal), GIVEN_BACK);
  } finally {
    running.stop();
  }
});
