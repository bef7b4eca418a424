/**
 * Secrets against real processes: a token saved in a declared secret (`cx.secret`) whose
 * only field sits in a dialog never opened is hunted for in everything an agent can read;
 * a person types into the secure field in a real terminal (tmux) while an agent watches the
 * frame timings; a `.secure()` field bound to a plain signal must fail when it mounts; and
 * texts that show the token through a concatenation, a template string, a memo or a plain
 * signal an effect copied it into are refused while the app keeps running.
 *
 * @module
 */

import { markedContent } from "../_marked.ts";
import assert from "node:assert/strict";
import type { Client } from "../../runtime/agent/transport/sdk.ts";
import {
  callTool,
  childEnv,
  connect,
  exists,
  makeRuntimeDir,
  nodeId,
  readTree,
  removeDir,
  REPO_ROOT,
  SERVER_FLAGS,
  socketsUnder,
  withTimeout,
} from "../_app_process.ts";
import { hasTmux, SCREEN_TIMEOUT_MS, shellQuote, TmuxPane } from "../_tmux.ts";
import { SAVED_TOKEN, TOKEN_SIGNAL } from "./fixtures/secret_app.ts";
import { pause, type Scene, until, withScene } from "./_shared.ts";

const SECRET_APP = "tests/reliability/fixtures/secret_app.ts";

/** The forms of `secret` that must appear nowhere: whole, base64, hex, and any 8 characters. */
function secretForms(secret: string): string[] {
  const hex = Array.from(new TextEncoder().encode(secret), (byte) => byte.toString(16))
    .join("");
  const forms = [secret, btoa(secret), hex];
  for (let at = 0; at + 8 <= secret.length; at++) forms.push(secret.slice(at, at + 8));
  return forms;
}

/** Fails when any form of `secret` is in `text`; names the form's start only. */
function assertNoSecret(text: string, secret: string, where: string): void {
  for (const form of secretForms(secret)) {
    assert.ok(!text.includes(form), `${where} holds the secret (a form starting ${form[0]}…)`);
  }
}

/** What an agent reads of the app: the tools and resources named in the issue, and more. */
async function readEverything(client: Client): Promise<Record<string, string>> {
  const texts: Record<string, string> = {};
  for (const tool of ["ui_tree", "inspect_snapshot", "ui_query"]) {
    const result = await client.callTool({ name: tool, arguments: {} });
    texts[tool] = JSON.stringify(result);
  }
  for (const uri of ["ui://tree", "ui://tree.json", "inspect://snapshot"]) {
    texts[uri] = JSON.stringify(await client.readResource({ uri }));
  }
  return texts;
}

/** The inspect snapshot as `inspect_snapshot` gives it, unwrapped. */
async function snapshotOf(client: Client): Promise<{
  signals: { name: string | null; secret: boolean; value?: unknown }[];
  frames: { revision: number; at: number }[];
}> {
  const { text, isError } = await callTool(client, "inspect_snapshot");
  assert.equal(isError, false, text);
  return markedContent(text) as Awaited<ReturnType<typeof snapshotOf>>;
}

/** Clicks Settings as an agent and waits for the dialog's secure field. */
async function openSettings(client: Client): Promise<void> {
  const { tree, revision } = await readTree(client);
  const clicked = await callTool(client, "ui_act", {
    id: nodeId(tree, "button", "Settings"),
    revision,
    action: { action: "click" },
  });
  assert.equal(clicked.isError, false, clicked.text);
}

async function startSecretApp(scene: Scene, args: string[] = []) {
  const app = await scene.app(SECRET_APP, { args });
  return { app, client: await scene.client(app.socket) };
}

Deno.test("secrets: a declared secret whose dialog was never opened leaves no trace", async (t) => {
  await withScene(async (scene) => {
    const { app, client } = await startSecretApp(scene);

    await t.step("inspection lists the token's signal as secret, without a value", async () => {
      const { signals } = await snapshotOf(client);
      const token = signals.find((signal) => signal.name === TOKEN_SIGNAL);
      assert.ok(token !== undefined, JSON.stringify(signals));
      assert.equal(token.secret, true);
      assert.equal("value" in token, false);
      // Ordinary signals still show their values: the snapshot is not simply empty.
      assert.ok(signals.some((signal) => signal.name === "syncs" && signal.value === 0));
    });

    await t.step("no tool or resource holds the token in any form", async () => {
      const texts = await readEverything(client);
      assert.ok(texts["ui_tree"]!.includes("Settings"), "the reads are real");
      for (const [where, text] of Object.entries(texts)) assertNoSecret(text, SAVED_TOKEN, where);
      const agent = await scene.crownmcp();
      for (const tool of ["ui_tree", "inspect_snapshot"]) {
        assertNoSecret((await agent.call(tool)).text, SAVED_TOKEN, `crownmcp ${tool}`);
      }
    });

    await t.step("once the dialog opens, the field is secure and Sync may use it", async () => {
      await openSettings(client);
      await until(
        async () => (await readTree(client)).tree.includes(`text_field "Sync token"`),
        "the dialog's field to show",
      );
      const { tree } = await readTree(client);
      assert.match(tree, /text_field "Sync token" #\d+ .*secure/);
      assert.doesNotMatch(tree, /button "Sync" #\d+ .*disabled/, "Sync read the secret");
      for (const [where, text] of Object.entries(await readEverything(client))) {
        assertNoSecret(text, SAVED_TOKEN, `${where} after the dialog opened`);
      }
    });

    await t.step("the app's own log holds no form of it", async () => {
      await client.close();
      app.process.kill("SIGTERM");
      await app.process.exit();
      assertNoSecret(app.process.stderr, SAVED_TOKEN, "the app's standard error");
    });
  });
});

Deno.test("secrets: a .secure() field bound to an undeclared signal fails at mount", async () => {
  await withScene(async (scene) => {
    const { app, client } = await startSecretApp(scene, ["--undeclared"]);
    await openSettings(client);
    await app.process.waitFor(/TypeError: a \.secure\(\) field's value/);
    const line = app.process.lines.find((text) => text.includes("TypeError: a .secure()"));
    assert.match(
      line!,
      /: TypeError: a \.secure\(\) field's value must be a declared secret: declare signal "sync token" with cx\.secret\(initial\) or cx\.signal\(initial, \{ secret: true \}\)$/,
    );
    const { tree } = await readTree(client);
    assert.doesNotMatch(tree, /Sync token/, "the field did not mount");
    assertNoSecret(app.process.stderr, SAVED_TOKEN, "the app's standard error");
  });
});

/** Clicks the button named `name` as an agent, on the tree as it is now. */
async function clickButton(client: Client, name: string): Promise<void> {
  const { tree, revision } = await readTree(client);
  const clicked = await callTool(client, "ui_act", {
    id: nodeId(tree, "button", name),
    revision,
    action: { action: "click" },
  });
  assert.equal(clicked.isError, false, clicked.text);
}

Deno.test("secrets: a secret copied or built into plain texts is refused, the app runs on", async () => {
  await withScene(async (scene) => {
    const { app, client } = await startSecretApp(scene, ["--derived"]);
    const refusals = () =>
      app.process.lines.filter((line) =>
        line.includes("TypeError: a secret's value would be shown by a property that is not secure")
      );

    await clickButton(client, "Copy"); // an effect copies the token into a plain signal
    await app.process.waitFor(/reads signal "token copy", which is secret-derived/);
    await clickButton(client, "Leak"); // a concatenation, a template string, a memo
    await until(() => refusals().length >= 2, "the Leak panel's refusal");
    assert.match(
      refusals().at(-1)!,
      /: TypeError: a secret's value would be shown by a property that is not secure: a label binding reads secret signal "sync token"; show it only in a \.secure\(\) field, /,
    );

    const { tree } = await readTree(client);
    assert.match(tree, /text "Copy: " #\d+/, "the copy's text kept what it showed");
    assert.doesNotMatch(tree, /Token: |Send /, "the Leak panel did not mount");
    const texts = await readEverything(client);
    for (const [where, text] of Object.entries(texts)) assertNoSecret(text, SAVED_TOKEN, where);
    const agent = await scene.crownmcp();
    for (const tool of ["ui_tree", "inspect_snapshot", "ui_query"]) {
      assertNoSecret((await agent.call(tool)).text, SAVED_TOKEN, `crownmcp ${tool}`);
    }
    const copy = (await snapshotOf(client)).signals.find((s) => s.name === "token copy");
    assert.deepEqual([copy?.secret, "value" in copy!], [true, false], JSON.stringify(copy));

    await openSettings(client); // the app still works, and its secure field too
    await until(
      async () => (await readTree(client)).tree.includes(`text_field "Sync token"`),
      "the dialog's field to show",
    );
    await client.close();
    app.process.kill("SIGTERM");
    await app.process.exit();
    assertNoSecret(app.process.stderr, SAVED_TOKEN, "the app's standard error");
  });
});

/** The shell command that runs the fixture in the pane. */
function paneCommand(): string {
  const deno = [Deno.execPath(), "run", "--frozen", ...SERVER_FLAGS, SECRET_APP];
  return `cd ${shellQuote(REPO_ROOT)} && ${deno.map(shellQuote).join(" ")}; sleep 600`;
}

/** Waits for the app's socket under the runtime directory; returns its path. */
async function socketUnder(runtimeDir: string): Promise<string> {
  let socket: string | undefined;
  await until(() => {
    [socket] = exists(runtimeDir) ? socketsUnder(runtimeDir) : [];
    return socket !== undefined;
  }, `a socket under ${runtimeDir}`);
  return socket!;
}

/** How many dots the secure field shows on screen. */
function dotsShown(screen: string[]): number {
  const row = screen.find((line) => line.includes("Sync token")) ?? "";
  return [...row].filter((character) => character === "•").length;
}

Deno.test({
  name: "secrets: a person's keys into the secure field add no frame an agent could time",
  ignore: !hasTmux(),
  async fn() {
    const runtimeDir = await makeRuntimeDir("crownui-secrets-");
    const pane = await TmuxPane.start(
      paneCommand(),
      childEnv({ XDG_RUNTIME_DIR: runtimeDir, TMPDIR: runtimeDir }),
      { width: 100, height: 30 },
    );
    let client: Client | undefined;
    try {
      const socket = await socketUnder(runtimeDir);
      const agent = await connect(socket);
      client = agent;
      const settings = await pane.find("Settings");
      await pane.click(settings.x + 1, settings.y); // the person opens the dialog
      await pane.waitFor("the saved token's dots", (s) => dotsShown(s) === SAVED_TOKEN.length);
      const focused = /text_field "Sync token" #\d+ focused secure/;
      await until(async () => focused.test((await readTree(agent)).tree), "the field's focus");
      const before = await snapshotOf(agent);

      const typed = "k3y-STROKES";
      for (const character of typed) {
        await pane.type(character); // one key at a time, as a person types
        await pause(20);
      }
      await pane.waitFor(
        "a dot for every key",
        (screen) => dotsShown(screen) === SAVED_TOKEN.length + typed.length,
      );
      const after = await snapshotOf(agent);
      assert.deepEqual(after.frames, before.frames, "typing added frames with their times");
      const texts = Object.values(await readEverything(agent)).join("\n");
      assertNoSecret(texts, SAVED_TOKEN + typed, "what an agent reads after the typing");
    } finally {
      if (client !== undefined) {
        await withTimeout(client.close(), SCREEN_TIMEOUT_MS, "the client to close");
      }
      await pane.kill();
      await removeDir(runtimeDir);
    }
  },
});
