/**
 * Boxes and text that fits in a real terminal (a tmux pane), at each colour depth: a rounded
 * border with a title, a paragraph wrapped inside it and a name cut with `…` show the same
 * characters everywhere; the border's orange follows the depth (24-bit, the 256 palette, the
 * 16 colours) and is gone with `NO_COLOR`, where the title stays bold.
 *
 * @module
 */

import assert from "node:assert/strict";
import { childEnv, makeRuntimeDir, removeDir, REPO_ROOT } from "./_app_process.ts";
import { hasTmux, shellQuote, TmuxPane } from "./_tmux.ts";

const ignore = !hasTmux();
/** The escape character, spelled out: a regular expression literal may not hold it. */
const ESC = "\u001b";

/** What the pane shows, plain and with its escape sequences, running the box app in `env`. */
async function boxesIn(env: string): Promise<{ plain: string[]; styled: string[] }> {
  const runtimeDir = await makeRuntimeDir("crownui-boxes-");
  const deno = [Deno.execPath(), "run", "--frozen", "--allow-env", "tests/fixtures/boxes_app.ts"];
  const command = `cd ${shellQuote(REPO_ROOT)} && env ${env} ${deno.map(shellQuote).join(" ")}`;
  // The children of tests get NO_COLOR=1; these set their colour variables themselves.
  const { NO_COLOR: _plain, ...base } = childEnv({ XDG_RUNTIME_DIR: runtimeDir });
  const pane = await TmuxPane.start(command, base, { width: 40, height: 8 });
  try {
    const plain = await pane.waitForText("Quarterly");
    const styled = (await pane.tmux("capture-pane", "-p", "-e", "-t", "main")).split("\n");
    return { plain, styled };
  } finally {
    await pane.kill();
    await removeDir(runtimeDir);
  }
}

/** The escape sequences just before `text` in `line` (since the previous printed character). */
function sgrBefore(line: string, text: string): string {
  const at = line.indexOf(text);
  assert.ok(at >= 0, `${JSON.stringify(text)} is not in ${JSON.stringify(line)}`);
  const before = line.slice(0, at);
  const match = new RegExp(`(?:${ESC}\\[[0-9;]*m)+$`).exec(before);
  return match?.[0] ?? "";
}

const SCREEN = [
  "╭─ Inbox ────────────────────╮",
  "│A paragraph that is long    │",
  "│enough to wrap over a few   │",
  "│lines of this pane.         │",
  "╰────────────────────────────╯",
  "Quarterly repor…",
];

Deno.test({
  name: "tmux: a titled rounded border, a wrapped paragraph and an ellipsis at every depth",
  ignore,
  async fn(t) {
    const depths = [
      [
        "24-bit with COLORTERM=truecolor",
        "TERM=xterm-256color COLORTERM=truecolor",
        /38;2;255;135;0/,
      ],
      ["the 256 palette with TERM=xterm-256color", "TERM=xterm-256color COLORTERM=", /38;5;208/],
      ["the 16 colours with TERM=xterm", "TERM=xterm COLORTERM=", new RegExp(`[\\[;]33[;m]`)],
    ] as const;
    for (const [name, env, colour] of depths) {
      await t.step(name, async () => {
        const { plain, styled } = await boxesIn(env);
        assert.deepEqual(plain.slice(0, 6).map((line) => line.trimEnd()), SCREEN);
        const corner = sgrBefore(styled[0]!, "╭");
        assert.match(corner, colour, JSON.stringify(corner));
        assert.match(sgrBefore(styled[0]!, " Inbox "), new RegExp(`[\\[;]1[;m]`), "a bold title");
        const text = sgrBefore(styled[1]!, "A paragraph");
        assert.doesNotMatch(text, /38;[25];|[\[;]33[;m]/, "the paragraph is not orange");
      });
    }
    await t.step("no colour with NO_COLOR, the title bold", async () => {
      const { plain, styled } = await boxesIn(
        "TERM=xterm-256color COLORTERM=truecolor NO_COLOR=1",
      );
      assert.deepEqual(plain.slice(0, 6).map((line) => line.trimEnd()), SCREEN);
      const all = styled.join("\n");
      assert.doesNotMatch(all, /[\[;](3[0-8]|9[0-7])[;m]|38;/, "no colour code at all");
      assert.match(sgrBefore(styled[0]!, " Inbox "), new RegExp(`[\\[;]1[;m]`), "a bold title");
    });
  },
});
