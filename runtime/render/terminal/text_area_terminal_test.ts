/**
 * A text area in a terminal, driven by the bytes a terminal sends: keys, a bracketed paste
 * (with the `\r` line breaks terminals paste), a mouse click, the wheel; and what xterm then
 * shows.
 *
 * @module
 */

import assert from "node:assert/strict";
import { column, component, textArea, textField } from "../../ui/mod.ts";
import { runInTerminal } from "./_test_xterm_terminal.ts";

Deno.test("a text area in a terminal: keys, a bracketed paste, a click and the wheel", async (t) => {
  const running = runInTerminal(
    component((cx) => {
      const notes = cx.signal("", { name: "notes" });
      return column(
        textArea({ label: "Notes", value: notes, columns: 20, rows: 3 }),
        textField({ label: "Title", value: "" }),
      );
    }),
    { columns: 60, rows: 8 },
  );
  const { terminal } = running;
  try {
    await t.step(
      "it has focus first; typed keys and Enter (\\r) write lines; q types a q",
      async () => {
        assert.match(running.line("text_area"), /focused/);
        assert.match(
          (await terminal.lines()).at(-1)!,
          /Tab move · Enter new line · F1 keys · Ctrl\+C quit $/,
          "the status line says what Enter does here",
        );
        terminal.send("quick\rnote");
        assert.match(running.line("text_area"), /value="quick\\nnote"/);
      },
    );
    await t.step("a paste goes in whole, its \\r\\n and \\r line breaks as lines", async () => {
      terminal.send("\r\x1b[200~one\r\ntwo\rthree\x1b[201~");
      assert.match(running.line("text_area"), /value="quick\\nnote\\none\\ntwo\\nthree"/);
      const lines = await terminal.lines();
      assert.deepEqual(lines.slice(0, 4).map((line) => line.trimEnd()), [
        "Notes:",
        "one                 │",
        "two                 ┃",
        "three               ┃",
      ]);
    });
    await t.step("the wheel scrolls it; a click puts the cursor where it points", async () => {
      terminal.send("\x1b[<64;3;3M".repeat(2)); // two wheel steps up over the box
      const lines = await terminal.lines();
      assert.equal(lines[1]!.trimEnd(), "quick               ┃");
      terminal.click(2, 2); // row "note", cell 2
      terminal.send("-");
      assert.match(running.line("text_area"), /value="quick\\nno-te\\none\\ntwo\\nthree"/);
    });
    await t.step("Shift+ArrowUp selects; typing replaces the selection", () => {
      terminal.send("\x1b[1;2A"); // Shift+ArrowUp: from "no-|te" to "qui|ck", over "ck\\nno-"
      terminal.send("Z");
      assert.match(running.line("text_area"), /value="quiZte\\none\\ntwo\\nthree"/);
    });
    await t.step("a double click selects a word, shown inverse; typing replaces it", async () => {
      const two = await terminal.find("two");
      terminal.send("\x1b[<0;3;4M\x1b[<0;3;4m".repeat(2)); // twice at (2, 3): on "two"
      assert.deepEqual(two, { x: 0, y: 3 });
      assert.notEqual((await terminal.cell(0, 3)).isInverse(), 0, "t is selected");
      assert.notEqual((await terminal.cell(2, 3)).isInverse(), 0, "o is selected");
      assert.equal((await terminal.cell(3, 3)).isInverse(), 0, "after the word, nothing");
      terminal.send("2");
      assert.match(running.line("text_area"), /value="quiZte\\none\\n2\\nthree"/);
    });
    await t.step(
      "focused, the label is bold and the cursor inverse; unfocused, neither",
      async () => {
        assert.notEqual((await terminal.cell(0, 0)).isBold(), 0, "the label is a heading");
        const cursor = await terminal.find("2");
        assert.notEqual((await terminal.cell(cursor.x + 1, cursor.y)).isInverse(), 0, "the cursor");
        terminal.send("\t"); // on to the field
        assert.equal((await terminal.cell(0, 0)).isBold(), 0);
        assert.equal((await terminal.cell(cursor.x + 1, cursor.y)).isInverse(), 0);
      },
    );
    await t.step(
      "a press and a drag with the mouse focus it and select; typing replaces it",
      () => {
        // Press at the start of "one" (row 2), drag to after "2" (row 3), release.
        terminal.send("\x1b[<0;1;3M\x1b[<32;2;4M\x1b[<0;2;4m");
        assert.match(running.line("text_area"), /focused/);
        terminal.send("+");
        assert.match(running.line("text_area"), /value="quiZte\\n\+\\nthree"/);
      },
    );
  } finally {
    running.stop();
  }
});
