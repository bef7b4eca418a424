import assert from "node:assert/strict";
import { log } from "../../app/log.ts";
import { TerminalLog } from "./terminal_log.ts";

/** A code point a terminal acts on or reorders by: C0 but tab, DEL, C1, or a bidi control. */
// deno-lint-ignore no-control-regex
const RAW_CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

Deno.test("TerminalLog shows controls in app and peer text as \\uXXXX", async (t) => {
  const hostile = "peer said \u009b2J\u202eexe.txt\u2066\u061c\u200f\u0085\x1b]2;title\x07\r";
  const terminalLog = new TerminalLog("Log Test", () => {});
  terminalLog.start();
  let farewell: string[];
  try {
    log(`MCP connection failed: ${hostile}`);
    console.log("app says", hostile);
  } finally {
    farewell = terminalLog.stop("Log \u202eTest\u009b");
  }

  await t.step("the log file holds no raw control, and each shows escaped", async () => {
    assert.ok(terminalLog.path !== null, "a log file was written");
    const text = await Deno.readTextFile(terminalLog.path);
    await Deno.remove(terminalLog.path);
    const lines = text.trimEnd().split("\n");
    assert.equal(lines.length, 2, text);
    for (const line of lines) {
      assert.doesNotMatch(line, RAW_CONTROL, JSON.stringify(line));
      assert.ok(
        line.endsWith(
          "peer said \\u009b2J\\u202eexe.txt\\u2066\\u061c\\u200f\\u0085\\u001b]2;title\\u0007\\u000d",
        ),
        line,
      );
    }
  });

  await t.step("the last line and the lines printed on exit hold none either", () => {
    assert.doesNotMatch(terminalLog.lastLine ?? "", RAW_CONTROL);
    assert.ok(farewell.length > 0);
    for (const line of farewell) assert.doesNotMatch(line, RAW_CONTROL, JSON.stringify(line));
    assert.match(farewell.join("\n"), /^Log \\u202eTest\\u009b: log written to /m);
  });
});
