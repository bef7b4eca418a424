/**
 * The Notes app in a real terminal (a tmux pane): a person types and clicks, an agent acts
 * from another process over the app's socket, and everyone sees the same screen; on every
 * way out (q, Ctrl+C, SIGTERM, SIGQUIT, SIGHUP, an uncaught error) the terminal is given back
 * and the socket removed; Ctrl+Z and SIGTSTP suspend the app to the shell, and `fg` brings
 * it back whole.
 *
 * @module
 */

import assert from "node:assert/strict";
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
} from "./_app_process.ts";
import { hasTmux, SCREEN_TIMEOUT_MS, shellQuote, TmuxPane } from "./_tmux.ts";

const ignore = !hasTmux();

/** The shell command that runs `script` with `args` from the repository's root. */
function denoCommand(script: string, args: string[] = []): string {
  const deno = [Deno.execPath(), "run", "--frozen", ...SERVER_FLAGS, script, ...args];
  return `cd ${shellQuote(REPO_ROOT)} && ${deno.map(shellQuote).join(" ")}`;
}

/** The shell command that runs `script` and then says how it exited, keeping the pane. */
function appCommand(script: string, args: string[] = []): string {
  return `${denoCommand(script, args)}; echo "EXIT $?"; sleep 600`;
}

/** Runs `body` with a runtime directory and a tmux pane running `script`; always cleans up. */
async function withApp(
  script: string,
  args: string[],
  body: (pane: TmuxPane, runtimeDir: string) => Promise<void>,
): Promise<void> {
  const runtimeDir = await makeRuntimeDir("crownui-tmux-");
  const pane = await TmuxPane.start(
    appCommand(script, args),
    // The socket and the log file both land in the directory removed after the test.
    childEnv({ XDG_RUNTIME_DIR: runtimeDir, TMPDIR: runtimeDir }),
    { width: 100, height: 30 },
  );
  try {
    await body(pane, runtimeDir);
  } finally {
    await pane.kill();
    await removeDir(runtimeDir);
  }
}

/** Waits for the app's socket to appear under the runtime directory; returns its path. */
async function socketOf(runtimeDir: string): Promise<string> {
  const deadline = performance.now() + SCREEN_TIMEOUT_MS;
  while (performance.now() < deadline) {
    const [socket] = exists(runtimeDir) ? socketsUnder(runtimeDir) : [];
    if (socket !== undefined) return socket;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no socket appeared under ${runtimeDir}`);
}

/** Waits until the app has exited and the terminal is back to its normal screen. */
async function waitForExit(pane: TmuxPane): Promise<string[]> {
  const screen = await pane.waitFor(
    "the app to exit",
    (lines) => lines.some((line) => line.startsWith("EXIT ")),
  );
  assert.equal(await pane.display("#{alternate_on}"), "0", "the alternate screen is off");
  assert.equal(await pane.display("#{mouse_any_flag}"), "0", "mouse reporting is off");
  assert.equal(await pane.display("#{cursor_flag}"), "1", "the cursor shows");
  return screen;
}

Deno.test({
  name: "tmux: a person and an agent use the Notes app at the same time",
  ignore,
  async fn(t) {
    await withApp("examples/notes.ts", [], async (pane, runtimeDir) => {
      await t.step(
        "it starts in the alternate screen with the socket on the status line",
        async () => {
          const screen = await pane.waitForText("0 notes, 0 done");
          assert.equal(await pane.display("#{alternate_on}"), "1");
          assert.equal(await pane.display("#{pane_title}"), "Notes");
          const socket = await socketOf(runtimeDir);
          const shown = await pane.waitForText(`MCP ${socket}`);
          assert.ok(shown[29]!.includes(`MCP ${socket}`), `the bottom row:\n${screen.join("\n")}`);
          // Whole: loading the agent code never erases part of it (Deno may clear a line of
          // standard error while it loads modules). The row is drawn in reverse video from its
          // first cell; an erased row keeps plain cells where no later frame wrote.
          const styled = (await pane.tmux("capture-pane", "-p", "-e", "-t", "main")).split("\n");
          const reverse = new RegExp(String.raw`^\u001b\[[0-9;]*7[0-9;]*m `);
          assert.match(styled[29]!, reverse, JSON.stringify(styled[29]));
        },
      );

      await t.step("type a title and press Enter: the note shows", async () => {
        await pane.type("Buy milk");
        await pane.keys("Enter");
        await pane.waitForText("[ ] Done Buy milk");
        await pane.waitForText("1 note, 0 done");
      });

      await t.step("click its checkbox with the mouse: it is done", async () => {
        const at = await pane.find("[ ] Done Buy milk");
        await pane.click(at.x + 1, at.y);
        await pane.waitForText("[x] Done Buy milk");
        await pane.waitForText("1 note, 1 done");
      });

      await t.step("a resize of the window lays the app out again", async () => {
        await pane.tmux("resize-window", "-t", "main", "-x", "72", "-y", "20");
        await pane.waitFor(
          "the status line on the new last row",
          (screen) => (screen[19] ?? "").includes("MCP "),
        );
        await pane.tmux("resize-window", "-t", "main", "-x", "100", "-y", "30");
        await pane.waitFor(
          "the status line back on row 30",
          (screen) => (screen[29] ?? "").includes("MCP "),
        );
        await pane.waitForText("[x] Done Buy milk");
      });

      await t.step("an agent in another process acts, and the screen changes", async () => {
        const client = await connect(await socketOf(runtimeDir));
        try {
          const added = await callTool(client, "add_note", { title: "From an agent" });
          assert.equal(added.isError, false, added.text);
          await pane.waitForText("[ ] Done From an agent");
          await pane.waitForText("2 notes, 1 done");

          const { revision, tree } = await readTree(client);
          assert.match(tree, /checkbox "Done" #\d+ .*checked/, "the agent sees the person's click");
          const rows = tree.split("\n").filter((line) => line.includes(`button "Delete"`));
          const firstDelete = Number(/#(\d+)/.exec(rows[0]!)![1]);
          const clicked = await callTool(client, "ui_act", {
            id: firstDelete,
            revision,
            action: { action: "click" },
            confirm: true,
          });
          assert.equal(clicked.isError, false, clicked.text);
          await pane.waitFor(
            "Buy milk to go",
            (screen) => !screen.some((line) => line.includes("Buy milk")),
          );
          await pane.waitForText("1 note, 0 done");

          const title = nodeId((await readTree(client)).tree, "text_field", "Title");
          const typed = await callTool(client, "ui_act", {
            id: title,
            revision: (await readTree(client)).revision,
            action: { action: "type_text", text: "typed by the agent" },
          });
          assert.equal(typed.isError, false, typed.text);
          await pane.waitForText("[typed by the agent");
        } finally {
          await withTimeout(client.close(), SCREEN_TIMEOUT_MS, "the client to close");
        }
      });

      await t.step("Tab away from the field and press q: the terminal is restored", async () => {
        const socket = await socketOf(runtimeDir);
        await pane.keys("Tab");
        await pane.type("q");
        const screen = await waitForExit(pane);
        assert.ok(screen.some((line) => line.includes("EXIT 0")), screen.join("\n"));
        assert.ok(!exists(socket), "the socket file is gone");
        const logLine = screen.find((line) => line.includes("log written to"));
        assert.ok(logLine !== undefined, `the log's path is shown on exit:\n${screen.join("\n")}`);
        assert.ok(screen.some((line) => line.includes(`MCP server was listening at ${socket}`)));
        const logPath = /log written to (\S+)/.exec(logLine)![1]!;
        assert.match(Deno.readTextFileSync(logPath), /MCP server listening/);
        Deno.removeSync(logPath);
      });
    });
  },
});

Deno.test({
  name: "tmux: Ctrl+C quits from a text field, and the notes file keeps what was typed",
  ignore,
  async fn() {
    const directory = await Deno.makeTempDir({ prefix: "crownui-tmux-notes-" });
    const file = `${directory}/notes.json`;
    try {
      await withApp("examples/notes.ts", [file], async (pane, runtimeDir) => {
        await pane.waitForText("0 notes, 0 done");
        await pane.type("Saved note");
        await pane.keys("Enter");
        await pane.waitForText("[ ] Done Saved note");
        await pane.type("half typed");
        await pane.waitForText("[half typed");
        const socket = await socketOf(runtimeDir);
        await pane.keys("C-c");
        await waitForExit(pane);
        assert.ok(!exists(socket), "the socket file is gone");
      });
      assert.deepEqual(JSON.parse(Deno.readTextFileSync(file)), {
        notes: [{ title: "Saved note", done: false }],
        draft: "half typed",
      });
      await withApp("examples/notes.ts", [file], async (pane) => {
        await pane.waitForText("[ ] Done Saved note");
        await pane.waitForText("[half typed");
      });
    } finally {
      await removeDir(directory);
    }
  },
});

for (const signal of ["SIGTERM", "SIGQUIT", "SIGHUP"] as const) {
  Deno.test({
    name: `tmux: ${signal} restores the terminal and removes the socket`,
    ignore,
    async fn() {
      await withApp("examples/notes.ts", [], async (pane, runtimeDir) => {
        await pane.waitForText("0 notes, 0 done");
        const socket = await socketOf(runtimeDir);
        Deno.kill(pidOf(socket), signal);
        const screen = await waitForExit(pane);
        assert.ok(screen.some((line) => line.includes("EXIT 0")), screen.join("\n"));
        assert.ok(!exists(socket), "the socket file is gone");
      });
    },
  });
}

/** The pid in an app's socket name (`notes-4242.sock`). */
function pidOf(socket: string): number {
  return Number(/-(\d+)\.sock$/.exec(socket)![1]);
}

Deno.test({
  name: "tmux: Ctrl+Z and SIGTSTP suspend to the shell; fg brings every cell back",
  ignore,
  async fn(t) {
    const runtimeDir = await makeRuntimeDir("crownui-tmux-");
    // An interactive shell with job control, as a person has; the app is one of its jobs.
    const pane = await TmuxPane.start(
      "PS1='shell$ ' exec bash --norc --noprofile -i",
      childEnv({ XDG_RUNTIME_DIR: runtimeDir, TMPDIR: runtimeDir }),
      { width: 100, height: 30 },
    );
    try {
      await pane.waitForText("shell$");
      // Only the app: a list (`app; echo`) would go on to its next command when the app stops.
      await pane.type(denoCommand("examples/notes.ts"));
      await pane.keys("Enter");
      await pane.waitForText("0 notes, 0 done");
      const socket = await socketOf(runtimeDir);
      await pane.type("Buy milk");
      await pane.keys("Enter");
      await pane.waitForText("[ ] Done Buy milk");
      await pane.type("half typed");
      await pane.waitForText(`MCP ${socket}`);
      const before = await pane.waitForText("[half typed");
      let stops = 0; // the "Stopped" lines the shell has shown

      for (
        const [how, suspend] of [
          ["Ctrl+Z", () => pane.keys("C-z")],
          ["kill -TSTP", () => Promise.resolve(Deno.kill(pidOf(socket), "SIGTSTP"))],
        ] as const
      ) {
        await t.step(
          `${how}: the shell's prompt on the normal screen; fg: the app whole`,
          async () => {
            await suspend();
            // The shell's screen keeps the earlier rounds: wait for one more "Stopped", then
            // for the prompt on the last line.
            await pane.waitFor(
              "the shell to say the job stopped, and its prompt",
              (screen) => {
                const shown = screen.filter((line) => line.trim() !== "");
                return shown.filter((line) => line.includes("Stopped")).length > stops &&
                  shown.at(-1) === "shell$";
              },
            );
            stops++;
            assert.equal(await pane.display("#{alternate_on}"), "0", "the alternate screen is off");
            assert.equal(await pane.display("#{mouse_any_flag}"), "0", "mouse reporting is off");
            assert.equal(await pane.display("#{cursor_flag}"), "1", "the cursor shows");
            assert.ok(exists(socket), "the app is stopped, not gone");

            await pane.type("fg");
            await pane.keys("Enter");
            const after = await pane.waitFor(
              "every cell of the app back",
              (screen) => screen.join("\n") === before.join("\n"),
            );
            assert.deepEqual(after, before);
            assert.equal(await pane.display("#{alternate_on}"), "1");
            assert.equal(await pane.display("#{mouse_any_flag}"), "1", "mouse reporting is on");
          },
        );
      }

      await t.step("after fg the keys and the mouse reach the app again", async () => {
        await pane.keys("Enter");
        await pane.waitForText("[ ] Done half typed");
        const at = await pane.find("[ ] Done Buy milk");
        await pane.click(at.x + 1, at.y);
        await pane.waitForText("[x] Done Buy milk");
        await pane.keys("C-c");
        // Typed only once the shell prompts again: a line typed while the app is still on
        // its way out (the terminal already cooked, its read of standard input still
        // pending) goes to the app, and the shell never sees it.
        await pane.waitFor("the app to end and the shell's prompt", (screen) => {
          const shown = screen.filter((line) => line.trim() !== "");
          const log = shown.findLastIndex((line) => line.includes("log written to"));
          return log !== -1 && log < shown.length - 1 && shown.at(-1) === "shell$";
        });
        await pane.type(`echo "EXIT $?"`);
        await pane.keys("Enter");
        const screen = await waitForExit(pane);
        assert.ok(screen.some((line) => line.includes("EXIT 0")), screen.join("\n"));
        assert.ok(!exists(socket), "the socket file is gone");
      });
    } finally {
      await pane.kill();
      await removeDir(runtimeDir);
    }
  },
});

Deno.test({
  name: "tmux: an uncaught error in app code restores the terminal and removes the socket",
  ignore,
  async fn() {
    await withApp("tests/fixtures/terminal_crash_app.ts", [], async (pane, runtimeDir) => {
      await pane.waitForText("Press Enter to crash");
      const socket = await socketOf(runtimeDir);
      await pane.keys("Enter");
      const screen = await waitForExit(pane);
      const text = screen.join("\n");
      assert.match(text, /a bug in app code/, "the error is shown on the normal screen");
      assert.match(text, /EXIT 1/);
      assert.ok(!exists(socket), "the socket file is gone");
    });
  },
});
