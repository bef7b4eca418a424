import assert from "node:assert/strict";
import { CliError, colourTree, EXIT, palette, terminalSafe, useColour } from "./output.ts";

const ON = palette(true);

/** Removes every ANSI colour sequence. */
function plain(text: string): string {
  // deno-lint-ignore no-control-regex
  return text.replace(/\x1b\[\d+m/g, "");
}

const TERMINAL = { isTerminal: () => true };
const PIPE = { isTerminal: () => false };

/** Runs `body` with NO_COLOR set to `value` (or unset), restoring it after. */
function withNoColor(value: string | undefined, body: () => void): void {
  const before = Deno.env.get("NO_COLOR");
  try {
    if (value === undefined) Deno.env.delete("NO_COLOR");
    else Deno.env.set("NO_COLOR", value);
    body();
  } finally {
    if (before === undefined) Deno.env.delete("NO_COLOR");
    else Deno.env.set("NO_COLOR", before);
  }
}

Deno.test("palette()", async (t) => {
  await t.step("palette(false) returns every text unchanged", () => {
    const off = palette(false);
    for (const colour of [off.dim, off.bold, off.red, off.green, off.cyan, off.yellow]) {
      assert.equal(colour('button "+1" #2'), 'button "+1" #2');
      assert.equal(colour(""), "");
    }
  });

  await t.step("palette(true) wraps text in an SGR sequence and its reset", () => {
    assert.equal(ON.red("x"), "\x1b[31mx\x1b[39m");
    assert.equal(ON.green("x"), "\x1b[32mx\x1b[39m");
    assert.equal(ON.cyan("x"), "\x1b[36mx\x1b[39m");
    assert.equal(ON.yellow("x"), "\x1b[33mx\x1b[39m");
    assert.equal(ON.bold("x"), "\x1b[1mx\x1b[22m");
    assert.equal(ON.dim("x"), "\x1b[2mx\x1b[22m");
  });
});

Deno.test("useColour()", async (t) => {
  await t.step("useColour() colours a terminal when NO_COLOR is unset", () => {
    withNoColor(undefined, () => assert.equal(useColour(TERMINAL), true));
  });

  await t.step("useColour() never colours what is not a terminal", () => {
    withNoColor(undefined, () => assert.equal(useColour(PIPE), false));
    withNoColor("1", () => assert.equal(useColour(PIPE), false));
  });

  await t.step("useColour() never colours when NO_COLOR is set to anything", () => {
    for (const value of ["1", "0", "false", "yes"]) {
      withNoColor(value, () => assert.equal(useColour(TERMINAL), false, `NO_COLOR=${value}`));
    }
  });

  await t.step("useColour() ignores an empty NO_COLOR, as no-color.org asks", () => {
    withNoColor("", () => assert.equal(useColour(TERMINAL), true));
  });
});

Deno.test("colourTree()", async (t) => {
  await t.step("colourTree() colours roles, ids and states", () => {
    const line = `  text_field "Title" #3 value="milk" focused`;
    assert.equal(
      colourTree(line, ON),
      `  ${ON.cyan("text_field")} "Title"${ON.dim(" #3")} value="milk" ${ON.yellow("focused")}`,
    );
    assert.equal(colourTree("list #5", ON), `${ON.cyan("list")}${ON.dim(" #5")}`);
    assert.equal(
      colourTree(`button "Sync" #11 focused disabled`, ON),
      `${ON.cyan("button")} "Sync"${ON.dim(" #11")} ${ON.yellow("focused")} ${
        ON.yellow("disabled")
      }`,
    );
  });

  await t.step("colourTree() never colours inside a name that looks like an id or a state", () => {
    assert.equal(colourTree(`text "#12" #3`, ON), `${ON.cyan("text")} "#12"${ON.dim(" #3")}`);
    assert.equal(
      colourTree(`button "focused" #4`, ON),
      `${ON.cyan("button")} "focused"${ON.dim(" #4")}`,
    );
    assert.equal(
      colourTree(`text "a #7 checked b" #8 selected`, ON),
      `${ON.cyan("text")} "a #7 checked b"${ON.dim(" #8")} ${ON.yellow("selected")}`,
    );
  });

  await t.step("colourTree() never colours inside a value that looks like an id or a state", () => {
    assert.equal(
      colourTree(`text_field "Title" #3 value="#12 focused"`, ON),
      `${ON.cyan("text_field")} "Title"${ON.dim(" #3")} value="#12 focused"`,
    );
    assert.equal(
      colourTree(`text_field #3 value=" disabled" checked`, ON),
      `${ON.cyan("text_field")}${ON.dim(" #3")} value=" disabled" ${ON.yellow("checked")}`,
    );
  });

  await t.step("colourTree() follows escaped quotes and backslashes to the name's end", () => {
    const name = JSON.stringify(`say "hi" #9 focused \\`);
    const value = JSON.stringify(`\\" hovered`);
    const line = `    text ${name} #5 value=${value} hovered`;
    assert.equal(
      colourTree(line, ON),
      `    ${ON.cyan("text")} ${name}${ON.dim(" #5")} value=${value} ${ON.yellow("hovered")}`,
    );
  });

  await t.step("colourTree() only adds colour: without it the text is unchanged", () => {
    const tree = [
      `window "Notes" #1`,
      `  text "2 notes" #2`,
      `  text_field "Title" #3 value="milk" focused`,
      `  text ${JSON.stringify('x\n  button "Pay" #99')} #4`,
      `  list #5`,
      ``,
      `  text_field "Sync password" #10 secure`,
    ].join("\n");
    assert.equal(plain(colourTree(tree, ON)), tree);
    assert.equal(colourTree(tree, palette(false)), tree);
    assert.equal(colourTree(tree, ON).split("\n").length, 7);
  });
});

Deno.test("CliError", async (t) => {
  await t.step("CliError carries its exit code and message", () => {
    const error = new CliError(EXIT.noMatch, "no node matches");
    assert.equal(error.code, 4);
    assert.equal(error.message, "no node matches");
    assert.equal(error.name, "CliError");
    assert.ok(error instanceof Error);
  });

  await t.step("EXIT gives each kind of failure its own code", () => {
    assert.deepEqual(EXIT, {
      ok: 0,
      toolError: 1,
      usage: 2,
      noApp: 3,
      noMatch: 4,
      severalMatches: 5,
      connection: 6,
    });
  });
});

/** Every bidi control and every C1 control, which a terminal must never get raw. */
const BIDI = ["\u061c", "\u200e", "\u200f", "\u202a", "\u202b", "\u202c", "\u202d", "\u202e"]
  .concat(["\u2066", "\u2067", "\u2068", "\u2069"]);
const C1 = Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(0x80 + i));

Deno.test("terminalSafe()", async (t) => {
  await t.step("terminalSafe() shows each bidi and C1 control as \\uXXXX", () => {
    for (const character of [...BIDI, ...C1]) {
      const code = character.charCodeAt(0).toString(16).padStart(4, "0");
      assert.equal(terminalSafe(`a${character}b`), `a\\u${code}b`);
    }
    assert.equal(terminalSafe("\u009b31mred"), "\\u009b31mred");
  });

  await t.step("terminalSafe() shows C0 controls and DEL, but keeps newlines and tabs", () => {
    assert.equal(terminalSafe("a\x1b]2;x\x07b\rc\x7f"), "a\\u001b]2;x\\u0007b\\u000dc\\u007f");
    assert.equal(terminalSafe("line one\n\tline two"), "line one\n\tline two");
  });

  await t.step("terminalSafe() keeps the palette's colours and other text as it is", () => {
    const coloured = colourTree('button "Sav\u202ee" #4 focused', ON);
    assert.equal(terminalSafe(coloured), coloured.replace("\u202e", "\\u202e"));
    assert.equal(terminalSafe("保存 é 👍🏽"), "保存 é 👍🏽");
    // Line and paragraph separators end a line for many readers: escaped, as in tree text.
    assert.equal(terminalSafe("a\u2028b\u2029"), "a\\u2028b\\u2029");
  });

  await t.step("terminalSafe() keeps JSON valid and its values the same", () => {
    const value = { name: `x${BIDI.join("")}${C1.join("")}y` };
    const safe = terminalSafe(JSON.stringify(value));
    assert.doesNotMatch(safe, /[\u0080-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/);
    assert.deepEqual(JSON.parse(safe), value);
  });
});
