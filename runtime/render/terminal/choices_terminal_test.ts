import assert from "node:assert/strict";
import { column, component, radioGroup, select, toggleSwitch } from "../../ui/mod.ts";
import { runInTerminal } from "./_test_xterm_terminal.ts";

/** The gallery's choice widgets, the select disabled when `disabled` says so. */
function choices(disabled = false) {
  return component(() =>
    column(
      select({ label: "Colour", options: ["Red", "Green", "Blue"], value: "Red" })
        .disabled(disabled),
      radioGroup({ label: "Size", options: ["Small", "Medium", "Large"], value: "Small" }),
      toggleSwitch({ label: "Wi-Fi", value: false }),
    )
  );
}

Deno.test("TerminalRenderer: the mouse and keys choose in a select, a radio group and a switch", async (t) => {
  const running = runInTerminal(choices(), { columns: 40, rows: 10 });
  const { terminal } = running;
  try {
    await t.step(
      "a click on the box opens the popup under it, the chosen option in focus",
      async () => {
        const box = await terminal.find("[Red");
        terminal.click(box.x + 1, box.y);
        const lines = await terminal.lines();
        assert.ok(lines[box.y + 1]!.slice(box.x).startsWith("┌"), lines.join("\n"));
        const red = await terminal.find("✓ Red");
        // The focused option's whole line inside the frame shows focus (inverse), not its text alone.
        assert.notEqual((await terminal.cell(red.x - 1, red.y)).isInverse(), 0);
        assert.notEqual((await terminal.cell(red.x + 8, red.y)).isInverse(), 0);
        const green = (await terminal.cell(red.x + 2, red.y + 1)).isInverse();
        assert.equal(green, 0, "Green's line is not in focus");
        assert.match(running.line(`option "Red"`), /focused selected/);
      },
    );
    await t.step("ArrowDown and Enter choose the next option and close the popup", async () => {
      terminal.send("\x1b[B\r");
      assert.match(running.line(`combo_box "Colour"`), /value="Green" focused collapsed/);
      assert.ok((await terminal.lines()).some((line) => line.startsWith("Colour [Green  ▾]")));
    });
    await t.step("a click on an option chooses it", async () => {
      const box = await terminal.find("[Green");
      terminal.click(box.x + 1, box.y);
      const blue = await terminal.find("Blue ");
      terminal.click(blue.x, blue.y);
      assert.match(running.line(`combo_box "Colour"`), /value="Blue"/);
      assert.doesNotMatch(running.tree(), /option "/);
    });
    await t.step("a click on a radio button chooses it; the arrows move on", async () => {
      const large = await terminal.find("( ) Large");
      terminal.click(large.x + 1, large.y);
      assert.match(running.line(`radio_button "Large"`), /checked/);
      terminal.send("\x1b[A"); // ArrowUp
      assert.match(running.line(`radio_button "Medium"`), /checked/);
      assert.ok((await terminal.lines()).some((line) => line.startsWith("(•) Medium")));
    });
    await t.step("a click flips the switch", async () => {
      const wifi = await terminal.find("Wi-Fi [○ ]");
      terminal.click(wifi.x + 7, wifi.y);
      assert.match(running.line(`switch "Wi-Fi"`), /checked/);
      assert.ok((await terminal.lines()).some((line) => line.startsWith("Wi-Fi [ ●]")));
    });
  } finally {
    running.stop();
  }
});

Deno.test("TerminalRenderer: a disabled select looks disabled and a click does not open it", async () => {
  const running = runInTerminal(choices(true), { columns: 40, rows: 10 });
  const { terminal } = running;
  try {
    const box = await terminal.find("[Red");
    assert.equal((await terminal.cell(box.x + 1, box.y)).getFgColor(), 8, "disabled is grey");
    terminal.click(box.x + 1, box.y);
    assert.doesNotMatch(running.tree(), /option "/);
  } finally {
    running.stop();
  }
});
