import assert from "node:assert/strict";
import { App } from "../../app/app.ts";
import { button, column, component, text, textField } from "../../ui/mod.ts";
import { XtermTerminal } from "./_test_xterm_terminal.ts";
import { TerminalRenderer } from "./terminal_renderer.ts";

/** A code point a terminal acts on or reorders by: a C1 control or a bidi control. */
const RAW_C1_OR_BIDI = /[\u0080-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

Deno.test("TerminalRenderer paints no raw C1 or bidi control of app text", async () => {
  // Each such control is a grapheme of its own that takes no cell: painting skips it, so
  // the screen shows the text around it and the layout's widths hold.
  const hostile = "ab\u009b2J\u202ecd\u2066\u061c\u200e\u0085ef";
  const terminal = new XtermTerminal(40, 6);
  const renderer = new TerminalRenderer({ io: terminal, captureLog: false });
  const root = component(() =>
    column(text(hostile), button(hostile, () => {}), textField({ label: hostile, value: hostile }))
  );
  const app = new App(root, { title: "Paint Test", renderer });
  try {
    renderer.start(app);
    app.frame();
    const screen = (await terminal.lines()).join("\n");
    assert.doesNotMatch(terminal.output, RAW_C1_OR_BIDI, JSON.stringify(terminal.output));
    assert.match(screen, /^ab2Jcdef$/m, screen);
    assert.match(screen, /^\[ ab2Jcdef \]$/m, screen);
  } finally {
    app.close();
    terminal.dispose();
  }
});
