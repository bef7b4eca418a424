/**
 * Keys and focus in a real terminal and through a real socket (tests/fixtures/keys_app.ts):
 * under tmux a resize lays the app out again by its `cx.windowSize()` (the preview beside the
 * files comes and goes), Ctrl+S runs the app's binding from inside a text field, the hint line
 * shows it, and `?` on a button (F1 in the field) shows the keys; an agent reads the bindings
 * in `inspect_snapshot` and presses them on the window with `press_key`.
 *
 * @module
 */

import assert from "node:assert/strict";
import {
  answerOf,
  callTool,
  childEnv,
  connect,
  makeRuntimeDir,
  nodeId,
  readTree,
  removeDir,
  REPO_ROOT,
  runtimeDir,
  SERVER_FLAGS,
  startApp,
} from "./_app_process.ts";
import { hasTmux, shellQuote, TmuxPane } from "./_tmux.ts";

const FIXTURE = "tests/fixtures/keys_app.ts";

Deno.test({
  name: "tmux: the layout follows a resize; Ctrl+S, the hint line and ? work in a terminal",
  ignore: !hasTmux(),
  async fn(t) {
    const directory = await makeRuntimeDir("crownui-keys-");
    const deno = [Deno.execPath(), "run", "--frozen", ...SERVER_FLAGS, FIXTURE];
    const command = `cd ${shellQuote(REPO_ROOT)} && ${deno.map(shellQuote).join(" ")}; sleep 600`;
    const pane = await TmuxPane.start(
      command,
      childEnv({ XDG_RUNTIME_DIR: directory, TMPDIR: directory }),
      { width: 120, height: 30 }, // room for the socket's long path and the keys
    );
    try {
      await t.step("the window's size is the pane's less the status line", async () => {
        const screen = await pane.waitForText("Window 120x29");
        assert.ok(screen.some((line) => line.startsWith("Files | Preview")), screen.join("\n"));
        await pane.waitFor(
          "the hint line with Ctrl+S",
          (lines) => /Ctrl\+S Save · .*F1 keys · Ctrl\+C quit\s*$/.test(lines[29] ?? ""),
        );
      });
      await t.step("narrower, the preview goes; wider again, it comes back", async () => {
        await pane.tmux("resize-window", "-t", "main", "-x", "50", "-y", "20");
        let screen = await pane.waitForText("Window 50x19");
        assert.ok(screen.some((line) => line.trimEnd() === "Files"), screen.join("\n"));
        assert.ok(!screen.some((line) => line.includes("Preview")), screen.join("\n"));
        await pane.tmux("resize-window", "-t", "main", "-x", "120", "-y", "30");
        screen = await pane.waitForText("Window 120x29");
        assert.ok(screen.some((line) => line.startsWith("Files | Preview")), screen.join("\n"));
      });
      await t.step("Ctrl+S saves from inside the text field, which keeps its text", async () => {
        await pane.type("milk");
        await pane.keys("C-s");
        await pane.waitForText("Saved 1 times");
        await pane.waitForText("[milk");
      });
      await t.step("? types in the field; F1 shows the keys; Escape closes them", async () => {
        await pane.type("?");
        await pane.waitForText("[milk?");
        await pane.keys("F1");
        const screen = await pane.waitForText("Show these keys");
        assert.ok(screen.some((line) => /Ctrl\+S +Save/.test(line)), screen.join("\n"));
        assert.ok(screen.some((line) => line.includes("Keys")), screen.join("\n"));
        await pane.keys("Escape");
        await pane.waitFor(
          "the keys closed",
          (lines) => !lines.some((l) => l.includes("Show these keys")),
        );
      });
      await t.step("? on a button shows the keys too", async () => {
        await pane.keys("Tab");
        await pane.waitFor(
          "? keys on the hint line",
          (lines) => /\? keys · q quit\s*$/.test(lines[29] ?? ""),
        );
        await pane.type("?");
        await pane.waitForText("Show these keys");
        await pane.keys("Escape");
        await pane.waitFor(
          "the keys closed",
          (lines) => !lines.some((l) => l.includes("Show these keys")),
        );
      });
    } finally {
      await pane.kill();
      await removeDir(directory);
    }
  },
});

Deno.test("an agent reads the keybindings in inspect_snapshot and presses them through a real socket", async () => {
  await using runtime = await runtimeDir();
  await using app = startApp(FIXTURE, { env: { XDG_RUNTIME_DIR: runtime.path } });
  await using client = await connect(await app.listening());
  const inspected = await callTool(client, "inspect_snapshot", { sections: ["keybinds"] });
  assert.equal(inspected.isError, false, inspected.text);
  assert.deepEqual(answerOf(inspected.text).keybinds, [
    { key: "Ctrl+S", description: "Save", applies: true },
  ]);
  const { tree, revision } = await readTree(client);
  assert.match(tree, /text "Window 80x24"/); // a headless app's size
  const window = nodeId(tree, "window", "Keys");
  const pressed = await callTool(client, "ui_act", {
    id: window,
    revision,
    action: { action: "press_key", keybind: "ctrl+s" },
  });
  assert.equal(pressed.isError, false, pressed.text);
  assert.match(pressed.text, /~ text "Saved 1 times"/);
  const help = await callTool(client, "ui_act", {
    id: window,
    revision: (await readTree(client)).revision,
    action: { action: "press_key", keybind: "F1" },
  });
  assert.match(help.text, /\+ dialog "Keys" #\d+ modal in #1/);
  assert.match(help.text, /text "Ctrl\+S +Save"/);
});
