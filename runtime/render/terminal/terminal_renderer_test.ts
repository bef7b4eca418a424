import assert from "node:assert/strict";
import { log } from "../../app/log.ts";
import { bind, button, column, component, text, textField } from "../../ui/mod.ts";
import { everyWidget, longList, runRendererConformance } from "../_test_conformance.ts";
import { notesApp } from "../../../examples/notes.ts";
import { runInTerminal, XtermTerminal } from "./_test_xterm_terminal.ts";
import { TerminalRenderer } from "./terminal_renderer.ts";

runRendererConformance("TerminalRenderer", ({ width, height }) => {
  const terminal = new XtermTerminal(width, height + 1); // one more row: the status line
  const renderer = new TerminalRenderer({ io: terminal, captureLog: false });
  return {
    renderer,
    attach: (app) => renderer.start(app),
    screen: () => terminal.lines(),
    dispose: () => terminal.dispose(),
  };
});

const counter = () =>
  component((cx) => {
    const count = cx.signal(0);
    return column(
      button("+1", () => count.set(count.get() + 1)),
      text(bind(() => `Count: ${count.get()}`)),
    );
  });

Deno.test("TerminalRenderer takes the terminal over and gives it back", async (t) => {
  const running = runInTerminal(counter());
  const { terminal, app } = running;
  await t.step(
    "start: alternate screen, raw input, mouse, paste, hidden cursor, title",
    async () => {
      await terminal.flush();
      assert.equal(terminal.term.buffer.active.type, "alternate");
      assert.equal(terminal.raw, true);
      assert.equal(terminal.term.modes.mouseTrackingMode, "any");
      assert.equal(terminal.term.modes.bracketedPasteMode, true);
      assert.ok(terminal.output.includes("\x1b[?25l"), "the cursor is hidden");
      assert.ok(terminal.output.includes("\x1b[?1006h"), "mouse reports use SGR encoding");
      assert.equal(terminal.title, "Test App");
      assert.ok(terminal.reading);
    },
  );
  await t.step("close: every mode off, the normal screen back", async () => {
    app.close();
    await terminal.flush();
    assert.equal(terminal.term.buffer.active.type, "normal");
    assert.equal(terminal.raw, false);
    assert.equal(terminal.term.modes.mouseTrackingMode, "none");
    assert.equal(terminal.term.modes.bracketedPasteMode, false);
    assert.ok(terminal.output.endsWith("\x1b[?1049l\x1b[23;0t"), "leaves the alternate screen");
    assert.ok(terminal.output.includes("\x1b[?25h"), "the cursor shows again");
    assert.ok(!terminal.reading, "input is no longer read");
  });
  terminal.dispose();
});

Deno.test("TerminalRenderer gives the terminal back when app code fails or exits", async (t) => {
  for (const type of ["error", "unhandledrejection", "unload"]) {
    await t.step(`on an unhandled ${type} event`, async () => {
      const running = runInTerminal(counter());
      const event = type === "error"
        ? new ErrorEvent("error", { error: new Error("boom"), cancelable: true })
        : type === "unhandledrejection"
        ? new PromiseRejectionEvent("unhandledrejection", {
          promise: Promise.resolve(),
          reason: "boom",
          cancelable: true,
        })
        : new Event("unload");
      globalThis.dispatchEvent(event);
      await running.terminal.flush();
      assert.equal(running.terminal.term.buffer.active.type, "normal");
      assert.equal(running.terminal.raw, false);
      running.stop();
    });
  }
  await t.step("but not for an error the app handled itself", async () => {
    const running = runInTerminal(counter());
    const event = new ErrorEvent("error", { error: new Error("handled"), cancelable: true });
    event.preventDefault();
    globalThis.dispatchEvent(event);
    await running.terminal.flush();
    assert.equal(running.terminal.term.buffer.active.type, "alternate");
    running.stop();
  });
});

Deno.test("TerminalRenderer draws only what changed, and shows focus", async (t) => {
  const running = runInTerminal(counter());
  const { terminal, app } = running;
  try {
    await t.step("the first frame shows the app and the focus on its first button", async () => {
      const lines = await terminal.lines();
      assert.equal(lines[0], "[ +1 ]");
      assert.equal(lines[1], "Count: 0");
      assert.ok((await terminal.cell(0, 0)).isInverse(), "the focused button is inverse");
      assert.match(running.line("+1"), /focused/);
    });
    await t.step("a click rewrites the changed cell, not the screen", async () => {
      const before = terminal.output.length;
      terminal.click(2, 0);
      const written = terminal.output.slice(before);
      assert.equal((await terminal.lines())[1], "Count: 1");
      assert.ok(written.length < 40, `a one-digit change wrote ${JSON.stringify(written)}`);
      assert.ok(written.startsWith("\x1b[?2026h") && written.endsWith("\x1b[?2026l"));
    });
    await t.step("a frame that changes nothing writes nothing", () => {
      const before = terminal.output.length;
      app.requestFrame();
      app.frame();
      assert.equal(terminal.output.length, before);
    });
  } finally {
    running.stop();
  }
});

Deno.test("TerminalRenderer: a person's keys act as press_key and type_text do", async (t) => {
  const running = runInTerminal(notesApp(), { columns: 100, rows: 24 });
  const { terminal } = running;
  try {
    await t.step("the title field has focus at start; typing fills it", async () => {
      assert.match(running.line(`text_field "Title"`), /focused/);
      terminal.send("Buy milk");
      assert.match(running.line(`text_field "Title"`), /value="Buy milk" focused/);
      assert.ok((await terminal.lines()).some((line) => line.includes("[Buy milk")));
    });
    await t.step("the status line recalls the keys: in a field, Ctrl+C quits", async () => {
      assert.match(
        (await terminal.lines()).at(-1)!,
        /Tab move · Enter act · F1 keys · Ctrl\+C quit $/,
      );
    });
    await t.step("q types a q in a text field rather than quitting", () => {
      terminal.send("q");
      assert.match(running.line(`text_field "Title"`), /value="Buy milkq"/);
      terminal.send("\x7f"); // Backspace
      assert.match(running.line(`text_field "Title"`), /value="Buy milk"/);
    });
    await t.step("Enter adds the note, which shows on screen", async () => {
      terminal.send("\r");
      assert.match(running.tree(), /list_item "Buy milk"/);
      const lines = await terminal.lines();
      assert.ok(
        lines.some((line) => /\[ \] Done Buy milk +\[ Delete \]/.test(line)),
        lines.join("\n"),
      );
      assert.ok(lines.some((line) => line.includes("1 note, 0 done")));
    });
    await t.step("a paste goes into the field whole", () => {
      terminal.send("\x1b[200~Walk\tthe dog\x1b[201~");
      assert.match(running.line(`text_field "Title"`), /value="Walkthe dog"/);
      terminal.send("\x15"); // Ctrl+U: delete to the start
      assert.match(running.line(`text_field "Title"`), /^text_field "Title" #\d+ focused$/);
    });
    await t.step("Tab and Shift+Tab move focus; Space clicks a button", async () => {
      terminal.send("\t");
      assert.match(running.line(`button "Add"`), /focused/);
      assert.match((await terminal.lines()).at(-1)!, /Tab move · Enter act · \? keys · q quit $/);
      terminal.send("\x1b[Z");
      assert.match(running.line(`text_field "Title"`), /focused/);
      terminal.send("\t\t\t\t"); // Add, Menu, the note's row, its checkbox
      assert.match(running.line(`checkbox "Done"`), /focused/);
      terminal.send(" ");
      assert.match(running.line(`checkbox "Done"`), /checked/);
    });
    await t.step("Escape, held until the terminal pauses, closes the settings dialog", async () => {
      terminal.send("\x1b[Z\x1b[Z"); // back to Menu, past the note's row
      terminal.send("\r"); // open it
      terminal.send("\t\r"); // Settings
      assert.match(running.tree(), /dialog "Settings"/);
      terminal.send("\x1b");
      assert.match(running.tree(), /dialog "Settings"/, "a lone Escape waits");
      running.renderer.flushInput();
      assert.doesNotMatch(running.tree(), /dialog/);
      assert.ok(!(await terminal.lines()).some((line) => line.includes("Settings")));
    });
    await t.step("q quits where no text field has focus", () => {
      let quit = false;
      running.app.quitRequested.then(() => (quit = true));
      terminal.send("\t"); // from nothing focused to the title field
      terminal.send("\t"); // Add
      terminal.send("q");
      return Promise.resolve().then(() => assert.equal(quit, true));
    });
  } finally {
    running.stop();
  }
});

Deno.test("TerminalRenderer: Ctrl+C quits even in a text field", async () => {
  const running = runInTerminal(notesApp());
  try {
    assert.match(running.line(`text_field "Title"`), /focused/);
    running.terminal.send("\x03");
    await running.app.quitRequested; // settles: the app was asked to quit
  } finally {
    running.stop();
  }
});

Deno.test("TerminalRenderer: Ctrl+C quits right after Escape, sent in one read", async () => {
  const running = runInTerminal(notesApp());
  try {
    running.terminal.send("\x1b\x03");
    await running.app.quitRequested; // settles: the app was asked to quit
  } finally {
    running.stop();
  }
});

Deno.test("TerminalRenderer: the mouse clicks, scrolls and hovers as agents' actions do", async (t) => {
  const running = runInTerminal(longList(10_000), { columns: 40, rows: 12 });
  const { terminal } = running;
  try {
    await t.step("a click on a checkbox toggles it", async () => {
      const at = await terminal.find("[ ] Done");
      terminal.click(at.x + 1, at.y);
      assert.match(running.tree(), /checkbox "Done" #\d+ focused checked/);
      assert.ok((await terminal.lines())[at.y]!.startsWith("[x] Done"));
    });
    await t.step("the wheel scrolls the list under the pointer, three rows a step", async () => {
      terminal.send("\x1b[<65;5;5M\x1b[<65;5;5M"); // two steps down
      const lines = await terminal.lines();
      assert.ok(lines[1]!.includes("Row 6"), lines.join("\n"));
      terminal.send("\x1b[<64;5;5M"); // one up
      assert.ok((await terminal.lines())[1]!.includes("Row 3"));
    });
    await t.step("the pointer hovers what a click there would act on", async () => {
      const at = await terminal.find("Row 5");
      terminal.send(`\x1b[<35;${at.x - 4};${at.y + 1}M`); // motion, no button, over "[ ] Done"
      assert.match(running.tree(), /checkbox "Done" #\d+ hovered/);
      terminal.send(`\x1b[<35;${at.x + 2};${at.y + 1}M`); // over "Row 5": its row is clickable
      assert.match(running.tree(), /list_item "Row \d+" #\d+ hovered/);
      const revision = running.app.tree.revision;
      terminal.send(`\x1b[<35;${at.x + 3};${at.y + 1}M`); // further along the same row
      assert.equal(running.app.tree.revision, revision, "moving within it changes nothing");
      terminal.send(`\x1b[<35;2;1M`); // over the heading text: nothing to click
      assert.doesNotMatch(running.tree(), /hovered/);
    });
    await t.step("a click on the status line or past the content does nothing", () => {
      const before = running.tree();
      terminal.click(1, 11);
      terminal.click(39, 0);
      assert.equal(running.tree(), before);
    });
  } finally {
    running.stop();
  }
});

Deno.test("TerminalRenderer: the mouse drags a slider and clicks what a dialog leaves", async () => {
  const running = runInTerminal(everyWidget(), { columns: 60, rows: 16 });
  const { terminal } = running;
  try {
    const at = await terminal.find("Level [");
    const trackStart = at.x + "Level [".length;
    terminal.send(`\x1b[<0;${trackStart + 1};${at.y + 1}M`); // press at the start of the track
    assert.match(running.line(`slider "Level"`), /value="0"/);
    terminal.send(`\x1b[<32;${trackStart + 20};${at.y + 1}M`); // drag to the end
    assert.match(running.line(`slider "Level"`), /value="100"/);
    terminal.send(`\x1b[<0;${trackStart + 20};${at.y + 1}m`);

    const open = await terminal.find("[ Open ]");
    terminal.click(open.x + 2, open.y);
    assert.match(running.tree(), /dialog "Dialog"/);
    // The dialog is modal: a click outside it does nothing.
    const checkbox = running.line(`checkbox "Check"`);
    terminal.click(0, 1);
    terminal.click(14, 1);
    assert.equal(running.line(`checkbox "Check"`), checkbox);
    const close = await terminal.find("[ Close ]");
    terminal.click(close.x + 2, close.y);
    assert.doesNotMatch(running.tree(), /dialog/);
  } finally {
    running.stop();
  }
});

Deno.test("TerminalRenderer: secure fields show dots; disabled widgets look disabled", async () => {
  const root = component((cx) => {
    const secret = cx.secret("", { name: "secret" });
    return column(
      textField({ label: "Password", value: secret }).secure(),
      button("Go", () => {}).disabled(bind(() => secret.get() === "")),
    );
  });
  const running = runInTerminal(root, { columns: 50, rows: 6 });
  const { terminal } = running;
  try {
    const go = await terminal.find("[ Go ]");
    assert.equal((await terminal.cell(go.x, go.y)).getFgColor(), 8, "disabled is grey");
    running.terminal.send("hunter2");
    const lines = await terminal.lines();
    assert.ok(lines[0]!.includes("[•••••••"), lines[0]);
    assert.ok(!terminal.output.includes("hunter2"), "the password never reaches the screen");
    assert.notEqual((await terminal.cell(go.x, go.y)).getFgColor(), 8, "enabled now");
  } finally {
    running.stop();
  }
});

Deno.test("TerminalRenderer: a long title scrolls sideways to keep the cursor in view", async () => {
  const root = component(() => textField({ label: "T", value: "", columns: 10 }));
  const running = runInTerminal(root, { columns: 30, rows: 4 });
  try {
    running.terminal.send("abcdefghijklmnop");
    const line = (await running.terminal.lines())[0]!;
    assert.equal(line, "T: [hijklmnop ]");
    running.terminal.send("\x1b[H"); // Home
    assert.equal((await running.terminal.lines())[0], "T: [abcdefghij]");
  } finally {
    running.stop();
  }
});

Deno.test("TerminalRenderer: a resize lays the app out again and redraws it", async () => {
  const running = runInTerminal(longList(100), { columns: 40, rows: 10 });
  const { terminal, app } = running;
  try {
    terminal.resize(50, 20);
    app.frame();
    assert.deepEqual(running.renderer.size(), { width: 50, height: 19 });
    assert.equal(app.root.layout.height, 19);
    const lines = await terminal.lines();
    assert.ok(lines[18]!.includes("Row 17"), lines.join("\n"));
    assert.ok(lines[19]!.trim() === "" || lines[19]!.startsWith(" "), "the status line is last");
  } finally {
    running.stop();
  }
});

Deno.test("TerminalRenderer: log lines go to a file and the socket to the status line", async (t) => {
  const running = runInTerminal(counter(), { columns: 80, rows: 6, captureLog: true });
  const { terminal, app } = running;
  let logPath = "";
  try {
    await t.step("a log line never reaches the screen", async () => {
      // The agent bridge tells the app where its server listens; the status line shows it.
      app.announceServer("/tmp/example/counter-1.sock");
      log("something the app wanted to say");
      console.log("a console line", { from: "app code" });
      app.frame();
      const lines = await terminal.lines();
      assert.ok(!lines.some((line) => line.includes("something the app")), lines.join("\n"));
      assert.ok(lines[5]!.includes("MCP /tmp/example/counter-1.sock"), lines[5]);
      assert.ok(!lines.some((line) => line.includes("a console line")), lines.join("\n"));
      assert.ok(lines[5]!.includes("log: 2 in"), lines[5]);
    });
    await t.step("on exit the person is told where the log is and was the socket", () => {
      app.close();
      const farewell = running.renderer.farewell.join("\n");
      assert.match(farewell, /MCP server was listening at \/tmp\/example\/counter-1\.sock/);
      logPath = /log written to (\S+) \(3 lines\)/.exec(farewell)![1]!;
      assert.equal(terminal.errors, farewell + "\n");
      const content = Deno.readTextFileSync(logPath);
      assert.match(content, /MCP server listening/);
      assert.match(content, /something the app wanted to say/);
      assert.match(content, /a console line \{ from: "app code" \}/);
    });
  } finally {
    running.stop();
    if (logPath !== "") Deno.removeSync(logPath);
  }
});

Deno.test("TerminalRenderer: without colors focus and state still show", async () => {
  const running = runInTerminal(counter(), { colourDepth: "none" });
  try {
    const cell = await running.terminal.cell(0, 0);
    assert.ok(cell.isInverse());
    assert.ok(!running.terminal.output.includes("38;5;"), "no 256-color codes");
  } finally {
    running.stop();
  }
});
