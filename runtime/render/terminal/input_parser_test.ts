import assert from "node:assert/strict";
import { formatKeybind } from "../../text/keybind.ts";
import { type InputEvent, InputParser } from "./input_parser.ts";

/** The events as short text: keys by their canonical keybind, the rest tagged. */
function describe(events: InputEvent[]): string[] {
  return events.map((event) => {
    switch (event.type) {
      case "key":
        return formatKeybind(event.keybind);
      case "text":
        return `text:${event.text}`;
      case "paste":
        return `paste:${event.text}`;
      case "mouse": {
        const mods = `${event.ctrl ? "C" : ""}${event.alt ? "A" : ""}${event.shift ? "S" : ""}`;
        const wheel = event.action === "wheel" ? ` ${event.deltaX},${event.deltaY}` : "";
        return `mouse:${event.action} ${event.button} ${event.x},${event.y}${wheel}${
          mods ? " " + mods : ""
        }`;
      }
    }
  });
}

function parse(input: string): string[] {
  const parser = new InputParser();
  return describe([...parser.feed(input), ...parser.flush()]);
}

Deno.test("InputParser reads named keys in the forms terminals send", () => {
  const cases: [string, string][] = [
    ["\x1b[A", "ArrowUp"],
    ["\x1b[B", "ArrowDown"],
    ["\x1b[C", "ArrowRight"],
    ["\x1b[D", "ArrowLeft"],
    ["\x1bOA", "ArrowUp"],
    ["\x1b[H", "Home"],
    ["\x1b[F", "End"],
    ["\x1bOH", "Home"],
    ["\x1b[1~", "Home"],
    ["\x1b[4~", "End"],
    ["\x1b[2~", "Insert"],
    ["\x1b[3~", "Delete"],
    ["\x1b[5~", "PageUp"],
    ["\x1b[6~", "PageDown"],
    ["\x1bOP", "F1"],
    ["\x1bOS", "F4"],
    ["\x1b[15~", "F5"],
    ["\x1b[24~", "F12"],
    ["\x1b[Z", "Shift+Tab"],
    ["\r", "Enter"],
    ["\t", "Tab"],
    ["\x7f", "Backspace"],
    ["\x1b", "Escape"],
  ];
  for (const [input, expected] of cases) {
    assert.deepEqual(parse(input), [expected], JSON.stringify(input));
  }
});

Deno.test("InputParser reads modifiers on keys", () => {
  const cases: [string, string][] = [
    ["\x1b[1;5C", "Ctrl+ArrowRight"],
    ["\x1b[1;2D", "Shift+ArrowLeft"],
    ["\x1b[1;3A", "Alt+ArrowUp"],
    ["\x1b[1;6H", "Ctrl+Shift+Home"],
    ["\x1b[3;5~", "Ctrl+Delete"],
    ["\x1b[15;2~", "Shift+F5"],
    ["\x01", "Ctrl+A"],
    ["\x03", "Ctrl+C"],
    ["\x1a", "Ctrl+Z"],
    ["\x00", "Ctrl+Space"],
    ["\x1bb", "Alt+B"],
    ["\x1b\x7f", "Alt+Backspace"],
    ["\x1b ", "Alt+Space"],
  ];
  for (const [input, expected] of cases) {
    assert.deepEqual(parse(input), [expected], JSON.stringify(input));
  }
});

Deno.test("InputParser groups typed characters into text, split by keys", () => {
  assert.deepEqual(parse("héllo 漢字👍🏽"), ["text:héllo 漢字👍🏽"]);
  assert.deepEqual(parse("ab\rcd\x1b[Ae"), ["text:ab", "Enter", "text:cd", "ArrowUp", "text:e"]);
});

Deno.test("InputParser keeps an unfinished sequence or character for the next chunk", () => {
  const parser = new InputParser();
  assert.deepEqual(describe(parser.feed("\x1b[")), []);
  assert.ok(parser.waiting);
  assert.deepEqual(describe(parser.feed("1;5")), []);
  assert.deepEqual(describe(parser.feed("A")), ["Ctrl+ArrowUp"]);
  assert.ok(!parser.waiting);
  const bytes = new TextEncoder().encode("字");
  assert.deepEqual(describe(parser.feed(bytes.subarray(0, 2))), []);
  assert.deepEqual(describe(parser.feed(bytes.subarray(2))), ["text:字"]);
});

Deno.test("InputParser holds a lone Escape until the terminal pauses", () => {
  const parser = new InputParser();
  assert.deepEqual(describe(parser.feed("\x1b")), []);
  assert.ok(parser.waiting);
  assert.deepEqual(describe(parser.flush()), ["Escape"]);
  assert.ok(!parser.waiting);
  assert.deepEqual(describe(parser.feed("\x1b\x1b[A")), ["Escape", "ArrowUp"]);
});

Deno.test("InputParser reads Escape then Ctrl+C as two keys, in one read or two", () => {
  const parser = new InputParser();
  assert.deepEqual(describe(parser.feed("\x1b\x03")), ["Escape", "Ctrl+C"]);
  assert.deepEqual(describe(parser.feed("\x1b")), []);
  assert.deepEqual(describe(parser.feed("\x03")), ["Escape", "Ctrl+C"]);
  // Other control keys after Escape still mean Alt held.
  assert.deepEqual(describe(parser.feed("\x1b\x01")), ["Ctrl+Alt+A"]);
});

Deno.test("InputParser reads bracketed paste whole, across chunks, controls and all", () => {
  const parser = new InputParser();
  assert.deepEqual(describe(parser.feed("\x1b[200~line one\r\nq\x1b")), []);
  assert.ok(parser.waiting);
  assert.deepEqual(describe(parser.feed("[A\x1b[201")), []);
  assert.deepEqual(describe(parser.feed("~x")), ["paste:line one\r\nq\x1b[A", "text:x"]);
});

Deno.test("InputParser reads SGR mouse reports", () => {
  assert.deepEqual(parse("\x1b[<0;10;5M\x1b[<0;10;5m"), [
    "mouse:press 0 9,4",
    "mouse:release 0 9,4",
  ]);
  assert.deepEqual(parse("\x1b[<2;1;1M"), ["mouse:press 2 0,0"]);
  assert.deepEqual(parse("\x1b[<32;3;4M"), ["mouse:drag 0 2,3"]);
  assert.deepEqual(parse("\x1b[<35;3;4M"), ["mouse:move -1 2,3"]);
  assert.deepEqual(parse("\x1b[<64;3;4M\x1b[<65;3;4M"), [
    "mouse:wheel -1 2,3 0,-1",
    "mouse:wheel -1 2,3 0,1",
  ]);
  assert.deepEqual(parse("\x1b[<16;1;1M"), ["mouse:press 0 0,0 C"]);
  assert.deepEqual(parse("\x1b[<4;1;1M"), ["mouse:press 0 0,0 S"]);
});

Deno.test("InputParser ignores reports that are not input and drops broken sequences", () => {
  assert.deepEqual(parse("\x1b[I\x1b[O\x1b[?1;2c"), []); // focus in/out, a device answer
  assert.deepEqual(parse("\x1b[99~"), []); // an unknown key number
  assert.deepEqual(parse("\x1b[<1;1M"), []); // a mouse report with a number missing
});
