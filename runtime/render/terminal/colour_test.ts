import assert from "node:assert/strict";
import { colourCode, colourSgr, detectColourDepth, nearest16, nearest256 } from "./colour.ts";

Deno.test("detectColourDepth() reads COLORTERM, TERM, NO_COLOR and FORCE_COLOR", () => {
  assert.equal(detectColourDepth({ COLORTERM: "truecolor", TERM: "xterm" }), "truecolor");
  assert.equal(detectColourDepth({ COLORTERM: "24bit" }), "truecolor");
  assert.equal(detectColourDepth({ TERM: "xterm-256color" }), "256");
  assert.equal(detectColourDepth({ TERM: "screen-256color" }), "256");
  assert.equal(detectColourDepth({ TERM: "xterm" }), "16");
  assert.equal(detectColourDepth({ TERM: "dumb" }), "none");
  assert.equal(detectColourDepth({}), "16");
  // NO_COLOR wins, even over FORCE_COLOR; an empty NO_COLOR is not set.
  assert.equal(detectColourDepth({ NO_COLOR: "1", COLORTERM: "truecolor" }), "none");
  assert.equal(detectColourDepth({ NO_COLOR: "1", FORCE_COLOR: "3" }), "none");
  assert.equal(detectColourDepth({ NO_COLOR: "", TERM: "xterm-256color" }), "256");
  // Without a terminal there is no colour, unless FORCE_COLOR asks for it.
  assert.equal(detectColourDepth({ TERM: "xterm-256color" }, false), "none");
  assert.equal(detectColourDepth({ FORCE_COLOR: "1" }, false), "16");
  assert.equal(detectColourDepth({ FORCE_COLOR: "2" }, false), "256");
  assert.equal(detectColourDepth({ FORCE_COLOR: "3" }, false), "truecolor");
  assert.equal(detectColourDepth({ FORCE_COLOR: "true", TERM: "dumb" }, false), "16");
  assert.equal(detectColourDepth({ FORCE_COLOR: "0", COLORTERM: "truecolor" }), "none");
});

Deno.test("colourSgr() brings a colour down to the terminal's depth", () => {
  const orange = colourCode("#ff8700");
  assert.equal(colourSgr(orange, "truecolor", false), "38;2;255;135;0");
  assert.equal(colourSgr(orange, "256", false), "38;5;208");
  assert.equal(colourSgr(orange, "16", false), "33"); // yellow is the nearest of the 16
  assert.equal(colourSgr(orange, "none", false), "");
  assert.equal(colourSgr(colourCode(236), "16", true), "40"); // a dark grey: black
  assert.equal(colourSgr(colourCode(236), "256", true), "48;5;236");
  assert.equal(colourSgr(colourCode("bright_blue"), "16", false), "94");
  assert.equal(colourSgr(colourCode("red"), "truecolor", true), "41");
  assert.equal(colourSgr(colourCode("default"), "truecolor", false), "");
  assert.equal(nearest256(0x000000), 16);
  assert.equal(nearest16(0xffffff), 15);
});
