/**
 * A styled word in a real terminal (a tmux pane), at each colour depth the environment asks
 * for: 24-bit with `COLORTERM=truecolor`, the 256 palette with a `TERM` ending in `256color`,
 * the 16 colours with a plain `TERM`, and none with `NO_COLOR` (its bold stays).
 *
 * @module
 */

import assert from "node:assert/strict";
import { childEnv, makeRuntimeDir, removeDir, REPO_ROOT } from "./_app_process.ts";
import { hasTmux, shellQuote, TmuxPane } from "./_tmux.ts";

const ignore = !hasTmux();
/** The escape character, spelled out: a regular expression literal may not hold it. */
const ESC = "\u001b";

/** The escape sequence tmux shows just before `word` in the first row of the app. */
async function sgrBefore(env: string, word: string): Promise<string> {
  const runtimeDir = await makeRuntimeDir("crownui-colours-");
  const deno = [Deno.execPath(), "run", "--frozen", "--allow-env", "tests/fixtures/styled_app.ts"];
  const command = `cd ${shellQuote(REPO_ROOT)} && env ${env} ${deno.map(shellQuote).join(" ")}`;
  // The children of tests get NO_COLOR=1; these set their colour variables themselves.
  const { NO_COLOR: _plain, ...base } = childEnv({ XDG_RUNTIME_DIR: runtimeDir });
  const pane = await TmuxPane.start(command, base, {
    width: 40,
    height: 5,
  });
  try {
    await pane.waitForText("Status: failed now");
    const styled = (await pane.tmux("capture-pane", "-p", "-e", "-t", "main")).split("\n")[0]!;
    const at = styled.indexOf(word);
    assert.ok(at > 0, JSON.stringify(styled));
    const before = styled.slice(0, at);
    return before.slice(before.lastIndexOf("Status: ") + "Status: ".length);
  } finally {
    await pane.kill();
    await removeDir(runtimeDir);
  }
}

Deno.test({
  name: "tmux: a styled word's SGR codes follow the terminal's colour depth",
  ignore,
  async fn(t) {
    await t.step("24-bit with COLORTERM=truecolor", async () => {
      const sgr = await sgrBefore("TERM=xterm-256color COLORTERM=truecolor", "failed");
      assert.match(sgr, /38;2;255;135;0/, JSON.stringify(sgr));
      assert.match(sgr, new RegExp(`${ESC}\\[1m|;1[;m]|\\[1;`), "bold");
    });
    await t.step("the 256 palette with TERM=xterm-256color", async () => {
      const sgr = await sgrBefore("TERM=xterm-256color COLORTERM=", "failed");
      assert.match(sgr, /38;5;208/, JSON.stringify(sgr));
      assert.doesNotMatch(sgr, /38;2;/);
    });
    await t.step("the 16 colours with TERM=xterm", async () => {
      const sgr = await sgrBefore("TERM=xterm COLORTERM=", "failed");
      assert.match(sgr, new RegExp(`${ESC}\\[[0-9;]*33[;m]`), JSON.stringify(sgr));
      assert.doesNotMatch(sgr, /38;[25];/);
    });
    await t.step("no colour with NO_COLOR, the bold kept", async () => {
      const sgr = await sgrBefore("TERM=xterm-256color COLORTERM=truecolor NO_COLOR=1", "failed");
      assert.doesNotMatch(sgr, /3[0-8][;m]|38;|9[0-7][;m]/, JSON.stringify(sgr));
      assert.match(sgr, new RegExp(`${ESC}\\[[0-9;]*1m|${ESC}\\[1;`), JSON.stringify(sgr));
    });
  },
});
