/**
 * Errors through a real socket (tests/fixtures/errors_app.ts): the receipt of the `ui_act`
 * whose handler threw shows the status message that says what failed, marked as app data; a
 * keybinding pressed with `press_key` on the window does the same; a binding that threw shows
 * `⚠ error`, `invalid` and the failure, in the receipt and the tree.
 *
 * @module
 */

import assert from "node:assert/strict";
import { UNTRUSTED_MARKER } from "../runtime/agent/session/untrusted.ts";
import { callTool, connect, nodeId, readTree, runtimeDir, startApp } from "./_app_process.ts";

Deno.test("an agent's action that failed says so in its receipt, through a real socket", async () => {
  await using runtime = await runtimeDir();
  await using app = startApp("tests/fixtures/errors_app.ts", {
    env: { XDG_RUNTIME_DIR: runtime.path },
  });
  await using client = await connect(await app.listening());
  const act = async (id: number, action: unknown) => {
    const { revision } = await readTree(client);
    const answer = await callTool(client, "ui_act", { id, revision, action });
    assert.equal(answer.isError, false, answer.text);
    assert.ok(answer.text.startsWith(`${UNTRUSTED_MARKER} r`), answer.text);
    return answer.text;
  };
  const { tree } = await readTree(client);

  const saved = await act(nodeId(tree, "button", "Save"), { action: "click" });
  assert.match(
    saved,
    /\n\+ status "The click handler failed: the disk is full" #\d+ value="error" in #1\n/,
  );

  const pressed = await act(nodeId(tree, "window", "Errors"), {
    action: "press_key",
    keybind: "Ctrl+S",
  });
  assert.match(pressed, /status "The Ctrl\+S keybinding \(Save\) failed: the disk is full"/);

  const counted = await act(nodeId(tree, "button", "+1"), { action: "click" });
  assert.match(
    counted,
    /\n~ text "⚠ error" #\d+ description="a label binding failed: an odd count has no total" invalid\n/,
  );
  assert.match(counted, /\+ status "A label binding failed: an odd count has no total"/);
  const after = (await readTree(client)).tree;
  assert.doesNotMatch(after, /Total 0/, "no stale value");
});
