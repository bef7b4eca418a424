import assert from "node:assert/strict";
import { XtermTerminal } from "./_test_xterm_terminal.ts";
import { diffScreens, Screen, SHARED_PALETTE } from "./screen.ts";

/** The look of colours given as palette indexes (undefined: the default) and attributes. */
function look(style: { fg?: number; bg?: number; bold?: boolean; inverse?: boolean }): number {
  const attributes = (style.bold ? 1 : 0) | (style.inverse ? 32 : 0);
  const code = (index: number | undefined) => index === undefined ? 0 : index + 1;
  return SHARED_PALETTE.look(code(style.fg), code(style.bg), attributes);
}

const sgr = (id: number) => SHARED_PALETTE.sgr(id, "256");

Deno.test("Screen.write() puts graphemes in cells, wide ones in two", () => {
  const screen = new Screen(10, 2);
  assert.equal(screen.write(0, 0, "a漢b", 0), 4);
  assert.deepEqual(screen.chars.slice(0, 4), ["a", "漢", "", "b"]);
  assert.equal(screen.line(0), "a漢b      ");
});

Deno.test("Screen.write() clips to a rectangle, never splitting a wide character", () => {
  const screen = new Screen(10, 1);
  screen.write(0, 0, "ab漢cd", 0, { x: 0, y: 0, width: 3, height: 1 });
  assert.equal(screen.line(0), "ab        ", "the wide char that would straddle shows as a space");
  screen.clear();
  screen.write(0, 0, "漢字x", 0, { x: 1, y: 0, width: 9, height: 1 });
  assert.equal(screen.line(0), "  字x     ", "its left half clipped, the right half is a space");
  screen.clear();
  screen.write(0, 0, "hidden", 0, { x: 0, y: 1, width: 10, height: 1 });
  assert.equal(screen.line(0), " ".repeat(10));
});

Deno.test("Screen overwriting half of a wide character blanks the other half", () => {
  const screen = new Screen(6, 1);
  screen.write(0, 0, "漢字", 0);
  screen.write(1, 0, "x", 0);
  assert.deepEqual(screen.chars.slice(0, 4), [" ", "x", "字", ""]);
  screen.write(2, 0, "y", 0);
  assert.deepEqual(screen.chars.slice(0, 4), [" ", "x", "y", " "]);
});

Deno.test("Screen.fill() keeps the background when the style has none", () => {
  const screen = new Screen(4, 1);
  const blue = look({ bg: 4 });
  screen.fill({ x: 0, y: 0, width: 4, height: 1 }, blue);
  screen.write(0, 0, "ab", look({ bold: true }));
  assert.equal(screen.styles[0], look({ bold: true, bg: 4 }));
  assert.equal(screen.styles[3], blue);
});

Deno.test("Palette.sgr() writes attributes and 16 or 256 colors", () => {
  assert.equal(sgr(0), "\x1b[0m");
  assert.equal(sgr(look({ bold: true, inverse: true })), "\x1b[0;1;7m");
  assert.equal(sgr(look({ fg: 1, bg: 4 })), "\x1b[0;31;44m");
  assert.equal(sgr(look({ fg: 9, bg: 12 })), "\x1b[0;91;104m");
  assert.equal(sgr(look({ fg: 200, bg: 236 })), "\x1b[0;38;5;200;48;5;236m");
});

Deno.test("diffScreens() writes only the cells that changed", () => {
  const before = new Screen(20, 3);
  before.write(0, 0, "Count: 9", 0);
  before.write(0, 2, "same", 0);
  const after = new Screen(20, 3);
  after.write(0, 0, "Count: 10", 0);
  after.write(0, 2, "same", 0);
  assert.equal(diffScreens(before, after), "\x1b[1;8H\x1b[0m10");
  assert.equal(diffScreens(after, after), "");
});

Deno.test("diffScreens() keeps the cursor where it is between neighbouring cells", () => {
  const before = new Screen(10, 1);
  const after = new Screen(10, 1);
  after.write(2, 0, "ab", 0);
  after.write(6, 0, "c", look({ bold: true }));
  assert.equal(diffScreens(before, after), "\x1b[1;3H\x1b[0mab\x1b[1;7H\x1b[0;1mc\x1b[0m");
});

Deno.test("diffScreens() output drawn in a terminal gives the screen painted", async () => {
  const terminal = new XtermTerminal(12, 3);
  try {
    const screens = ["hello 漢字", "he漢o world", "x"].map((text) => {
      const screen = new Screen(12, 3);
      screen.write(0, 1, text, look({ fg: 2 }));
      return screen;
    });
    let shown: Screen | null = null;
    for (const screen of screens) {
      terminal.write(diffScreens(shown, screen));
      shown = screen;
      const lines = await terminal.lines();
      assert.equal(lines[1]!.trimEnd(), screen.line(1).trimEnd());
    }
  } finally {
    terminal.dispose();
  }
});

Deno.test("diffScreens() with no screen before clears, then writes what is not blank", () => {
  const after = new Screen(5, 2);
  after.write(1, 1, "x", 0);
  assert.equal(diffScreens(null, after), "\x1b[0m\x1b[H\x1b[2J\x1b[2;2H\x1b[0mx");
  assert.ok(diffScreens(new Screen(4, 2), after).includes("\x1b[2J"), "a new size redraws all");
});
