/**
 * `crowndev` end to end: the real command, run as a child process with the flags of the
 * `crowndev` task in deno.json, against real apps running as `deno run` children (the counter
 * example, the process fixture under several titles, the token fixture).
 *
 * Every scene gets a fresh runtime directory; every child runs with a cleared environment (only
 * `PATH`, `HOME`, `DENO_DIR` and what the step sets), so the runner's `XDG_RUNTIME_DIR`,
 * `TMPDIR`, `NO_COLOR` or `CROWNMCP_TOKEN` never leak in. Standard output and error are pipes,
 * so no run may print an escape sequence. Apps and crowndev processes are always ended and
 * directories removed; waits are bounded; no test asserts durations.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { decode } from "npm:fast-png@8.0.0";
import denoJson from "../deno.json" with { type: "json" };
import { getuid } from "../ffi/mod.ts";
import { exists, runtimeDir, startApp } from "./_app_process.ts";
import {
  assertFails,
  assertOk,
  crowndev,
  crowndevOutput,
  ESCAPE,
  inScene,
  literal,
  onTerminal,
  whichScript,
} from "./_crowndev_process.ts";

const COUNTER = "examples/counter.ts";
const PROCESS_APP = "tests/fixtures/process_app.ts";
const TOKEN_APP = "tests/fixtures/token_app.ts";
const CHANGES_APP = "tests/fixtures/changes_app.ts";
const TREE_VIEWS_APP = "tests/fixtures/tree_views_app.ts";
const MODAL_OFFSCREEN_APP = "tests/fixtures/modal_offscreen_app.ts";

/** The id on the line of `tree` that shows `role "name"`. */
function idOf(tree: string, role: string, name?: string): number {
  const named = name === undefined ? "" : ` ${literal(JSON.stringify(name))}`;
  const match = new RegExp(`^ *${role}${named} #(\\d+)`, "m").exec(tree);
  assert.ok(match, `no ${role} ${name ?? ""} in:\n${tree}`);
  return Number(match[1]);
}

/** The count the counter's tree text shows. */
function shownCount(tree: string): number {
  const match = /text "Count: (\d+)"/.exec(tree);
  assert.ok(match, `no count in the tree:\n${tree}`);
  return Number(match[1]);
}

Deno.test("crowndev without a running app", async (t) => {
  await inScene(async (scene) => {
    await t.step("--help, -h and help print the overview on stdout", async () => {
      const runs = await Promise.all([scene.run("--help"), scene.run("-h"), scene.run("help")]);
      for (const run of runs) {
        assertOk(run);
        for (const part of ["Usage: crowndev", "--socket-dir", "--json", "Exit codes:"]) {
          assert.ok(run.stdout.includes(part), `no ${part} in:\n${run.stdout}`);
        }
        for (
          const command of [
            "apps",
            "tree [app]",
            "inspect [app]",
            "act",
            "wait [app]",
            "watch [app]",
            "screenshot [app] -o FILE",
          ]
        ) {
          assert.ok(run.stdout.includes(`  ${command}`), `no ${command} in:\n${run.stdout}`);
        }
      }
      assert.equal(runs[1]!.stdout, runs[0]!.stdout);
      assert.equal(runs[2]!.stdout, runs[0]!.stdout);
    });

    await t.step("help act and act --help print the syntax and the exit codes", async () => {
      const [help, flag] = await Promise.all([
        scene.run("help", "act"),
        scene.run("act", "--help"),
      ]);
      assertOk(help);
      assert.equal(flag.stdout, help.stdout);
      assert.match(help.stdout, /^Usage: crowndev act \[app\] <query> <action>/);
      for (
        const part of [
          "role=..,name=..,text=..,within=#N,state=.. or #N",
          "crowndev act notes '#12' click",
          "type_text=hello",
          "press_key=Ctrl+A",
          "scroll=0,120",
          "drag=40,300",
          "crowndev act counter 'role=button,name=+1' click",
          "  4  the query matched no node",
        ]
      ) {
        assert.ok(help.stdout.includes(part), `no ${part} in:\n${help.stdout}`);
      }
    });

    await t.step("help <command> prints that command's usage", async () => {
      for (const command of ["apps", "tree", "inspect", "wait", "watch", "screenshot"]) {
        const run = await scene.run("help", command);
        assertOk(run);
        assert.match(run.stdout, new RegExp(`^Usage: crowndev ${command}`));
      }
    });

    await t.step("--version and -V print the version from deno.json", async () => {
      for (const flag of ["--version", "-V"]) {
        const run = await scene.run(flag);
        assertOk(run);
        assert.equal(run.stdout, `crowndev ${denoJson.version}\n`);
      }
    });

    await t.step("no command prints the overview on stderr and exits 2", async () => {
      const run = await scene.run();
      assert.equal(run.code, 2);
      assert.equal(run.stdout, "");
      assert.match(run.stderr, /Usage: crowndev/);
    });

    await t.step("usage errors exit 2 with the reason on stderr", async () => {
      const cases: [string[], RegExp][] = [
        [["frobnicate"], /unknown command "frobnicate"; commands: apps, tree/],
        [["help", "frobnicate"], /unknown command "frobnicate"/],
        [["--colour", "apps"], /--colour/],
        [["apps", "--socket-dir"], /--socket-dir/],
        [["act", "counter", "colour=red", "click"], /invalid query part "colour=red"/],
        [["act", "counter", "role=btn", "click"], /unknown role "btn"/],
        [["act", "counter", "", "click"], /the query is empty/],
        [["act", "counter", "role=button", "tap"], /unknown action "tap"/],
        [["act", "counter", "role=button", "scroll=1"], /scroll takes two numbers x,y/],
        [["act", "counter", "role=button", "type_text"], /type_text needs an argument/],
        [["act", "counter", "role=button", "{oops"], /the action is not valid JSON/],
        [["apps", "extra"], /wrong number of arguments for apps/],
        [["tree", "a", "b"], /wrong number of arguments for tree/],
        [["inspect", "a", "b"], /wrong number of arguments for inspect/],
        [["watch", "a", "b"], /wrong number of arguments for watch/],
        [["act", "role=button"], /wrong number of arguments for act/],
        [["act", "a", "role=button", "click", "d"], /wrong number of arguments for act/],
        [["act", "counter", "#x", "click"], /an id must be a node id such as #12, got "#x"/],
        [["act", "counter", "state=on", "click"], /unknown state "on": states are enabled/],
        [["act", "counter", "within=Row", "click"], /within must be a node id such as #12/],
        [["tree", "--depth", "one"], /--depth takes a whole number of at least 0, got "one"/],
        [["tree", "--root", "x"], /--root must be a node id/],
        [["tree", "--from", "-3"], /--from/],
        [["tree", "--since", "1.5"], /--since takes a whole number of at least 0/],
        [["tree", "--max-bytes", "0"], /--max-bytes takes a whole number from 1 to 3500000/],
        [["tree", "--since", "3", "--depth", "1"], /--since takes only --max-bytes beside it/],
        [["tree", "--since", "3", "--max-bytes", "100"], /--max-bytes .* from 256 to 3500000/],
        [["tree", "--visible=yes"], /--visible/],
        [["wait"], /wrong number of arguments for wait/],
        [["wait", "a", "#1", "c"], /wrong number of arguments for wait/],
        [["wait", "#1", "--timeout", "30001"], /--timeout takes a whole number from 0 to 30000/],
        [["wait", "#1", "--state", "on"], /unknown state "on"/],
        [["wait", "#1,state=modal", "--state", "enabled"], /the state is given twice/],
        [["act", "#1", "click", "--gone"], /--gone works only with crowndev wait/],
        [["wait", "#1", "--depth", "1"], /--depth works only with crowndev tree/],
        [["screenshot"], /crowndev screenshot needs -o FILE.png/],
        [["screenshot", "-o", "x.png", "--scale", "4"], /--scale takes a whole number from 1 to 3/],
        [["tree", "-o", "x.png"], /--output works only with crowndev screenshot/],
        [["screenshot", "a", "b", "-o", "x.png"], /wrong number of arguments for screenshot/],
      ];
      const runs = await Promise.all(cases.map(([args]) => scene.run(...args)));
      runs.forEach((run, index) => {
        const [args, message] = cases[index]!;
        assertFails(run, 2, message);
        assert.ok(run.stderr.includes("crowndev --help"), `no hint for ${args}: ${run.stderr}`);
      });
    });

    await t.step("apps says that none is running, and exits 0", async () => {
      const [text, json] = await Promise.all([scene.run("apps"), scene.run("apps", "--json")]);
      assertOk(text);
      assert.equal(text.stdout, `no CrownUI app is running (looked in ${scene.socketDir})\n`);
      assertOk(json);
      assert.deepEqual(JSON.parse(json.stdout), { apps: [] });
    });

    await t.step("every command that needs an app exits 3", async () => {
      const cases: [string[], RegExp][] = [
        [["tree"], /no CrownUI app is running \(looked in .*crownui\)/],
        [["inspect"], /no CrownUI app is running/],
        [["watch"], /no CrownUI app is running/],
        [["act", "role=button", "click"], /no CrownUI app is running/],
        [["wait", "#1"], /no CrownUI app is running/],
        [["tree", "counter"], /no running app matches "counter" \(none is running\)/],
        [["act", "counter", "role=button", "click"], /no running app matches "counter"/],
      ];
      const runs = await Promise.all(cases.map(([args]) => scene.run(...args)));
      runs.forEach((run, index) => assertFails(run, 3, cases[index]![1]));
    });
  });
});

Deno.test("crowndev drives the counter example", async (t) => {
  await inScene(async (scene) => {
    const counter = await scene.start(COUNTER);
    const pid = counter.process.pid;
    assert.equal(counter.app, `counter-${pid}`);

    await t.step("apps lists the counter with its pid and socket", async () => {
      const run = await scene.run("apps");
      assertOk(run);
      const lines = run.stdout.trimEnd().split("\n");
      assert.equal(lines.length, 2, run.stdout);
      assert.match(lines[0]!, /^APP\s+PID\s+SOCKET$/);
      assert.deepEqual(lines[1]!.split(/\s+/), [counter.app, String(pid), counter.socket]);
    });

    await t.step("apps --json gives app, name, pid and socket", async () => {
      const run = await scene.run("apps", "--json");
      assertOk(run);
      assert.deepEqual(JSON.parse(run.stdout), {
        apps: [{ app: counter.app, name: "counter", pid, socket: counter.socket }],
      });
    });

    await t.step("tree prints the tree text, with or without the app's name", async () => {
      const expected = `window "Counter" #1\n button "+1" #2\n text "Count: 0" #3\n`;
      for (const args of [["tree"], ["tree", "counter"], ["tree", counter.app]]) {
        const run = await scene.run(...args);
        assertOk(run);
        assert.equal(run.stdout, expected, `crowndev ${args.join(" ")}`);
      }
    });

    await t.step("tree --json gives the revision and the tree text", async () => {
      const run = await scene.run("--json", "tree", "counter");
      assertOk(run);
      const answer = JSON.parse(run.stdout);
      assert.deepEqual(Object.keys(answer).sort(), ["revision", "tree"]);
      assert.equal(typeof answer.revision, "number");
      assert.match(answer.tree, /^window "Counter" #1\n button "\+1" #2\n/);
    });

    await t.step("inspect prints the snapshot as JSON", async () => {
      const run = await scene.run("inspect", "counter");
      assertOk(run);
      const snapshot = JSON.parse(run.stdout);
      for (const key of ["revision", "tree", "layout", "signals", "frames", "keybinds"]) {
        assert.ok(key in snapshot, `no ${key} in the snapshot: ${run.stdout.slice(0, 500)}`);
      }
      assert.equal(snapshot.tree.role, "window");
      assert.equal(snapshot.tree.name, "Counter");
      assert.ok(run.stdout.includes(`"count"`), "the snapshot shows the count signal");
    });

    await t.step("screenshot -o writes the app's PNG and says what it is", async () => {
      const dir = await Deno.makeTempDir({ prefix: "crowndev-shot-" });
      try {
        const file = join(dir, "counter.png");
        const [text, json, piped] = await Promise.all([
          scene.run("screenshot", "-o", file),
          scene.run("screenshot", counter.app, "--output", `${file}.2`, "--scale", "2", "--json"),
          crowndevOutput({ XDG_RUNTIME_DIR: scene.runtimeDir }, ["screenshot", "-o", "-"]),
        ]);
        assertOk(text);
        assert.match(
          text.stdout,
          /^wrote .*counter\.png: \d+×\d+ pixels, [\d.]+ KB, revision \d+\n$/,
        );
        const png = decode(await Deno.readFile(file));
        const [, width, height] = /: (\d+)×(\d+) pixels/.exec(text.stdout)!;
        assert.deepEqual([png.width, png.height], [Number(width), Number(height)]);
        assert.equal(png.width % 8, 0);
        assertOk(json);
        const summary = JSON.parse(json.stdout);
        assert.equal(summary.source, "cells");
        assert.equal(summary.scale, 2);
        assert.deepEqual([summary.width, summary.height], [png.width * 2, png.height * 2]);
        assert.equal(summary.bytes, (await Deno.stat(`${file}.2`)).size);
        // -o -: the PNG on stdout, the summary on stderr.
        const stderr = new TextDecoder().decode(piped.stderr);
        assert.equal(piped.code, 0, stderr);
        assert.equal(decode(piped.stdout).width, png.width);
        assert.match(stderr, /wrote standard output: /);
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    });

    await t.step("act clicks +1, and tree shows the count went up", async () => {
      const act = await scene.run("act", "counter", "role=button,name=+1", "click");
      assertOk(act);
      // The ok line, then the receipt's change text (issue 12: act prints what changed).
      assert.match(
        act.stdout,
        /^ok: click on #2 button "\+1"; revision (\d+) → (\d+)\n/,
      );
      assert.match(act.stdout, /\n~ text "Count: 1" #3\n/);
      const [, before, after] = /revision (\d+) → (\d+)/.exec(act.stdout)!;
      assert.ok(Number(after) > Number(before), act.stdout);
      const tree = await scene.run("tree", "counter");
      assertOk(tree);
      assert.ok(tree.stdout.includes(`text "Count: 1"`), tree.stdout);
    });

    await t.step("act takes the app from the only one running, and a name-pid", async () => {
      assertOk(await scene.run("act", "name=+1", "click"));
      assertOk(await scene.run("act", counter.app, "role=button", "click"));
      assert.equal(shownCount((await scene.run("tree")).stdout), 3);
    });

    await t.step("act --json gives the result and the node acted on", async () => {
      const run = await scene.run("act", "--json", "counter", "role=button", "click");
      assertOk(run);
      const answer = JSON.parse(run.stdout);
      assert.equal(answer.ok, true);
      assert.equal(typeof answer.revision, "number");
      // ui_query's matches carry states (and a value when there is one) since issue 12.
      assert.deepEqual(answer.node, {
        id: 2,
        role: "button",
        name: "+1",
        path: `button "+1"`,
        states: ["focused"],
      });
      assert.match(answer.changes, /^~ text "Count: 4" #3$/m);
      assert.equal(shownCount((await scene.run("tree")).stdout), 4);
    });

    await t.step("act sends a raw action object as it is", async () => {
      assertOk(await scene.run("act", "counter", "role=button", `{"action":"click"}`));
      assert.equal(shownCount((await scene.run("tree")).stdout), 5);
    });

    await t.step("act sends every other action in the form the app takes", async () => {
      for (const action of ["focus", "hover", "press_key=Tab"]) {
        const run = await scene.run("act", "counter", "role=button", action);
        assertOk(run);
        assert.match(run.stdout, new RegExp(`^ok: ${action.split("=")[0]} on #2 `));
      }
      // The app checks an action's shape before its target, so a refusal about the target
      // shows that it took the delta and the point crowndev sent.
      const scroll = await scene.run("act", "counter", "role=button", "scroll=0,120");
      assertFails(scroll, 1, /^crowndev: invalid arguments: scroll works on a scroll_view/);
      const drag = await scene.run("act", "counter", "role=button", "drag=40,300");
      assertFails(
        drag,
        1,
        /^crowndev: invalid arguments: drag works on slider and text_area nodes/,
      );
      const before = shownCount((await scene.run("tree")).stdout);
      assertOk(await scene.run("act", "counter", "role=button", "double_click"));
      assert.ok(shownCount((await scene.run("tree")).stdout) > before);
    });

    await t.step("a query that matches no node exits 4", async () => {
      const run = await scene.run("act", "counter", "role=checkbox,name=Done", "click");
      assertFails(
        run,
        4,
        new RegExp(`no node in ${counter.app} matches \\{"role":"checkbox","name":"Done"\\}`),
      );
    });

    await t.step("a query that matches several nodes exits 5 and lists them", async () => {
      const run = await scene.run("act", "counter", "text=Count", "click");
      assertFails(run, 5, new RegExp(`2 nodes in ${counter.app} match \\{"text":"Count"\\}`));
      assert.ok(run.stderr.includes(`  #1 window "Counter"  window "Counter"\n`), run.stderr);
      assert.match(
        run.stderr,
        /\n {2}#3 text "Count: \d+" {2}text "Count: \d+"\n$/,
      );
    });

    await t.step("a tool error exits 1 with the app's message", async () => {
      const run = await scene.run("act", "counter", "role=button", "type_text=hello");
      assertFails(
        run,
        1,
        /^crowndev: invalid arguments: type_text works on nodes that take typed text/,
      );
    });

    await t.step("an unknown app name exits 3 and lists the running ones", async () => {
      for (const name of ["notes", `counter-${pid + 1}`]) {
        const run = await scene.run("tree", name);
        assertFails(
          run,
          3,
          new RegExp(`no running app matches "${name}" \\(running: ${counter.app}\\)`),
        );
      }
    });

    await t.step("--socket-dir reads sockets from the directory given", async () => {
      await using elsewhere = await runtimeDir("crowndev-elsewhere-");
      const env = { XDG_RUNTIME_DIR: elsewhere.path };
      assertFails(await crowndev(env, "tree"), 3, /no CrownUI app is running/);
      const run = await crowndev(env, "--socket-dir", scene.socketDir, "tree", "counter");
      assertOk(run);
      assert.match(run.stdout, /^window "Counter" #1\n/);
    });

    await t.step("watch prints the tree again after an act from another process", async () => {
      const watch = scene.spawn("watch", "counter");
      await watch.waitForOutput(/text "Count: \d+"/);
      const before = shownCount(watch.stdout);
      assert.match(watch.stdout, new RegExp(`^── ${counter.app} revision \\d+ ──\n`));
      assertOk(await scene.run("act", "counter", "role=button,name=+1", "click"));
      await watch.waitForOutput(new RegExp(`text "Count: ${before + 1}"`));
      // One print per changed tree: the click may land in one frame or two, never in none.
      const revisions = [...watch.stdout.matchAll(/── counter-\d+ revision (\d+) ──/g)]
        .map((match) => Number(match[1]));
      assert.ok(revisions.length >= 2, watch.stdout);
      assert.ok(revisions.every((revision, i) => i === 0 || revision > revisions[i - 1]!));
      watch.kill("SIGINT");
      const run = await watch.finish();
      assertOk(run);
    });

    await t.step("watch --json prints one JSON tree a line", async () => {
      const watch = scene.spawn("watch", "--json");
      await watch.waitForOutput(/\n/);
      const first = JSON.parse(watch.stdout.split("\n")[0]!);
      assertOk(await scene.run("act", "role=button", "click"));
      await watch.waitForOutput(new RegExp(`Count: ${shownCount(first.tree) + 1}\\b`));
      watch.kill("SIGINT");
      const run = await watch.finish();
      assertOk(run);
      const lines = run.stdout.trimEnd().split("\n").map((line) => JSON.parse(line));
      assert.ok(lines.length >= 2, run.stdout);
      const last = lines.at(-1);
      assert.ok(last.revision > first.revision);
      assert.equal(shownCount(last.tree), shownCount(first.tree) + 1);
    });

    await t.step("watch ends with exit 0 when its output is closed (watch | head)", async () => {
      const watch = scene.spawn("watch", "counter");
      await watch.waitForOutput(/text "Count: \d+"/);
      await watch.stopReading();
      assertOk(await scene.run("act", "counter", "role=button", "click"));
      const run = await watch.finish();
      assertOk(run);
    });

    await t.step("NO_COLOR, or output that is not a terminal, gets no colour", async () => {
      // Every run checks its pipes for escape sequences; this one with NO_COLOR as well.
      const run = await scene.runWith({ NO_COLOR: "1" }, "tree");
      assertOk(run);
      assert.ok(!run.stdout.includes(ESCAPE));
    });

    const script = await whichScript();
    await t.step({
      name: "on a terminal, tree is coloured unless NO_COLOR is set",
      ignore: script === null,
      fn: async () => {
        const coloured = await onTerminal(script!, scene, {}, ["tree", "counter"]);
        assert.ok(coloured.includes(`${ESCAPE}[36mbutton${ESCAPE}[39m "+1"`), coloured);
        const plain = await onTerminal(script!, scene, { NO_COLOR: "1" }, ["tree", "counter"]);
        assert.ok(!plain.includes(ESCAPE), JSON.stringify(plain));
        assert.match(plain, /button "\+1" #2/);
      },
    });
  });
});

Deno.test("crowndev reads views of the tree and what changed", async (t) => {
  await inScene(async (scene) => {
    const [views, changes, offscreen] = await Promise.all([
      scene.start(TREE_VIEWS_APP, ["--rows", "7"]),
      scene.start(CHANGES_APP),
      scene.start(MODAL_OFFSCREEN_APP),
    ]);
    const full = await scene.run("tree", views.app);
    assertOk(full);
    const list = idOf(full.stdout, "list");
    const rows = full.stdout.split("\n").filter((line) => /^ *list_item /.test(line))
      .map((line) => line.trim());
    assert.equal(rows.length, 7, full.stdout);

    await t.step("--depth cuts below the level given, with no line for the cut", async () => {
      const run = await scene.run("tree", views.app, "--depth", "1");
      assertOk(run);
      const lines = run.stdout.trimEnd().split("\n");
      assert.match(lines[0]!, /^window "Tree Views" #1$/);
      assert.ok(lines.slice(1).every((line) => /^ [a-z]/.test(line)), run.stdout);
      assert.ok(lines.includes(` list #${list}`), run.stdout);
      assertOk(await scene.run("tree", views.app, "--depth", "0"));
      assert.equal((await scene.run("tree", views.app, "--depth", "0")).stdout, lines[0] + "\n");
    });

    await t.step("--root shows one subtree, --from skips its first children", async () => {
      const run = await scene.run("tree", views.app, "--root", `#${list}`, "--depth", "1");
      assertOk(run);
      assert.equal(
        run.stdout,
        [`list #${list}`, ...rows.map((row) => ` ${row}`)].join("\n") + "\n",
      );
      const from = await scene.run(
        "tree",
        views.app,
        "--root",
        `${list}`,
        "--depth",
        "1",
        "--from",
        "5",
      );
      assertOk(from);
      assert.equal(from.stdout, [`list #${list}`, ` ${rows[5]}`, ` ${rows[6]}`].join("\n") + "\n");
    });

    await t.step("--max-bytes cuts with a line naming the arguments, and they fit", async () => {
      const budget = 110; // room for a row and the cut line, which now repeats the budget
      const first = await scene.run(
        "tree",
        views.app,
        "--root",
        `${list}`,
        "--depth",
        "1",
        "--max-bytes",
        `${budget}`,
      );
      assertOk(first);
      assert.ok(new TextEncoder().encode(first.stdout).length <= budget + 1, first.stdout);
      const cut = /^ … (\d+) more items?: ui_tree (\{.*\})$/m.exec(first.stdout);
      assert.ok(cut, `no cut line in:\n${first.stdout}`);
      const args = JSON.parse(cut[2]!);
      // The caller's budget repeats in the cut line (issue 12 review, point 3).
      assert.deepEqual(Object.keys(args).sort(), ["depth", "from", "max_bytes", "root"]);
      assert.equal(args.max_bytes, budget);
      assert.equal(args.root, list);
      assert.equal(args.depth, 1);
      const rest = await scene.run(
        "tree",
        views.app,
        "--root",
        `${args.root}`,
        "--depth",
        `${args.depth}`,
        "--from",
        `${args.from}`,
      );
      assertOk(rest);
      const shown = [first.stdout, rest.stdout].flatMap((text) =>
        text.split("\n").filter((line) => line.startsWith(" list_item ")).map((line) => line.trim())
      );
      assert.deepEqual(shown, rows, "the two pages list every row once, in order");
      assert.equal(Number(cut[1]), rows.length - args.from);
    });

    await t.step("--visible leaves out what is scrolled out of view", async () => {
      const whole = await scene.run("tree", offscreen.app);
      const visible = await scene.run("tree", offscreen.app, "--visible");
      assertOk(whole);
      assertOk(visible);
      const list = /^ *list #\d+ offscreen=#(\d+)\.\.#\d+$/m.exec(whole.stdout);
      assert.ok(list !== null, whole.stdout);
      assert.match(whole.stdout, new RegExp(`list_item "Row 8" #${list[1]}\n`));
      assert.match(visible.stdout, /list_item "Row 7" #\d+\n/);
      assert.match(visible.stdout, /list #\d+ offscreen=/, "the list says what is left out");
      assert.doesNotMatch(visible.stdout, /"Row 8"/);
    });

    await t.step("--since prints the change text, --json with the revisions", async () => {
      const before = JSON.parse((await scene.run("--json", "tree", changes.app)).stdout).revision;
      assertOk(await scene.run("act", changes.app, "role=button,name=Settings", "click"));
      const run = await scene.run("tree", changes.app, "--since", `${before}`);
      assertOk(run);
      assert.match(run.stdout, /^\+ dialog "Settings" #\d+ modal in #1\n/);
      assert.match(run.stdout, /^ +text "Theme: dark" #\d+$/m);
      assert.match(run.stdout, /^ +button "Close" #\d+/m);
      const json = await scene.run("--json", "tree", changes.app, "--since", `${before}`);
      assertOk(json);
      const answer = JSON.parse(json.stdout);
      assert.deepEqual(Object.keys(answer).sort(), ["changes", "revision", "since"]);
      assert.equal(answer.since, before);
      assert.equal(answer.changes, run.stdout);
      const none = await scene.run("tree", changes.app, "--since", `${answer.revision}`);
      assertOk(none);
      assert.equal(none.stdout, "", "nothing changed: nothing printed");
    });

    await t.step("--since a revision the app no longer keeps prints the whole tree", async () => {
      const [run, tree] = await Promise.all([
        scene.run("tree", changes.app, "--since", "0"),
        scene.run("tree", changes.app),
      ]);
      assertOk(run);
      assert.equal(run.stdout, tree.stdout);
      const json = JSON.parse(
        (await scene.run("--json", "tree", changes.app, "--since", "0")).stdout,
      );
      assert.deepEqual(Object.keys(json).sort(), ["revision", "tree"]);
    });

    await t.step("the app's refusals of a view exit 1 with its message", async () => {
      const future = await scene.run("tree", changes.app, "--since", "999999");
      assertFails(
        future,
        1,
        /^crowndev: invalid arguments: since 999999 is after the current revision/,
      );
      const missing = await scene.run("tree", changes.app, "--root", "999999");
      assertFails(missing, 1, /^crowndev: no node with id 999999/);
    });

    await t.step("app text in views, changes and waits is shown escaped", async () => {
      const runs = await Promise.all([
        scene.run("tree", views.app, "--depth", "1"),
        scene.run("tree", views.app, "--since", "0"),
        scene.run("wait", views.app, "#2"),
        scene.run("--json", "wait", views.app, "#2"),
      ]);
      for (const run of runs) {
        assertOk(run);
        assert.doesNotMatch(run.stdout, RAW_C1_OR_BIDI, JSON.stringify(run));
        assert.ok(run.stdout.includes("Invoice\\u202etxt.exe"), run.stdout);
      }
      assert.match(runs[2]!.stdout, /^#2 text "Invoice\\u202etxt\.exe.* end"\n$/);
    });
  });
});

Deno.test("crowndev waits, and acts by id with a receipt", async (t) => {
  await inScene(async (scene) => {
    const app = (await scene.start(CHANGES_APP)).app;
    const tree = (await scene.run("tree")).stdout;
    const download = idOf(tree, "button", "Download");
    const locked = idOf(tree, "button", "Locked");
    const prepare = idOf(tree, "button", "Prepare");

    await t.step("act prints the receipt: the nodes a dialog brought", async () => {
      const run = await scene.run("act", "role=button,name=Settings", "click");
      assertOk(run);
      const lines = run.stdout.trimEnd().split("\n");
      assert.match(
        lines[0]!,
        /^ok: click on #\d+ button "Settings"; revision \d+ → \d+$/,
      );
      assert.ok(lines.some((line) => /^\+ dialog "Settings" #\d+ modal in #1$/.test(line)));
      assert.ok(lines.some((line) => /^ +text "Theme: dark" #\d+$/.test(line)), run.stdout);
      assert.ok(lines.some((line) => /^ +button "Close" #\d+/.test(line)), run.stdout);
    });

    await t.step("a wait that already holds answers at once with the nodes", async () => {
      const run = await scene.run("wait", app, "role=dialog");
      assertOk(run);
      assert.match(run.stdout, /^#\d+ dialog "Settings" modal\n$/);
      const json = await scene.run("--json", "wait", "role=dialog,state=modal");
      assertOk(json);
      const answer = JSON.parse(json.stdout);
      assert.equal(typeof answer.revision, "number");
      assert.deepEqual(
        answer.nodes.map((
          node: { role: string; name: string; states: string[] },
        ) => [node.role, node.name, node.states]),
        [["dialog", "Settings", ["modal"]]],
      );
    });

    await t.step("act '#id' acts on that node; the receipt shows the dialog removed", async () => {
      const now = (await scene.run("tree")).stdout;
      const dialog = idOf(now, "dialog", "Settings");
      const close = idOf(now, "button", "Close");
      const run = await scene.run("act", app, `#${close}`, "click");
      assertOk(run);
      assert.match(
        run.stdout,
        new RegExp(
          `^ok: click on #${close} dialog "Settings" > button "Close"; `,
        ),
      );
      assert.match(run.stdout, new RegExp(`^- #${dialog}$`, "m"));
      const json = JSON.parse(
        (await scene.run("--json", "act", `#${prepare}`, "hover")).stdout,
      );
      assert.equal(json.node.id, prepare);
      assert.equal(typeof json.changes, "string", "--json gives the change text unwrapped");
      assert.match(json.changes, new RegExp(`^~ button "Prepare" #${prepare} hovered$`, "m"));
      const focused = JSON.parse((await scene.run("--json", "act", `#${prepare}`, "focus")).stdout);
      assert.equal(focused.changes, undefined, "the focus the action gave its node is no change");
    });

    await t.step("wait --gone exits 0 at once when nothing matches", async () => {
      const run = await scene.run("wait", "role=dialog", "--gone");
      assertOk(run);
      assert.equal(run.stdout, "");
    });

    await t.step("wait --gone waits until the node goes", async () => {
      assertOk(await scene.run("act", "name=Settings", "click"));
      const waiting = scene.spawn(
        "wait",
        app,
        "role=dialog,name=Settings",
        "--gone",
        "--timeout",
        "30000",
      );
      assertOk(await scene.run("act", "role=button,name=Close", "click"));
      const run = await waiting.finish();
      assertOk(run);
      assert.equal(run.stdout, "");
    });

    await t.step("wait '#id' --state enabled answers when a timer enables the button", async () => {
      const waiting = scene.spawn(
        "wait",
        `#${download}`,
        "--state",
        "enabled",
        "--timeout",
        "30000",
      );
      assertOk(await scene.run("act", "name=Prepare", "click"));
      const run = await waiting.finish();
      assertOk(run);
      assert.equal(run.stdout, `#${download} button "Download"\n`);
    });

    await t.step("a timeout exits 1 with the app's message on stderr", async () => {
      const run = await scene.run("wait", `#${locked}`, "--state", "enabled", "--timeout", "200");
      assert.equal(run.code, 1, JSON.stringify(run));
      assert.equal(run.stdout, "");
      assert.equal(run.stderr, `crowndev: timed out after 200 ms: #${locked} is still disabled\n`);
      const gone = await scene.run("wait", "name=Locked", "--gone", "--timeout", "0");
      assert.equal(gone.code, 1, JSON.stringify(gone));
      assert.equal(gone.stderr, `crowndev: timed out after 0 ms: #${locked} still matches\n`);
    });

    await t.step("act '#id' on a node that does not match, or does not exist", async () => {
      const refused = await scene.run("act", `#${locked},state=enabled`, "click");
      assertFails(
        refused,
        4,
        new RegExp(`no node in ${app} matches \\{"id":${locked},"state":"enabled"\\}`),
      );
      const missing = await scene.run("act", "#999999", "click");
      assertFails(missing, 1, /^crowndev: no node with id 999999; read ui_tree again/);
      const disabled = await scene.run("act", `#${locked}`, "click");
      assertFails(disabled, 1, /^crowndev: the node is disabled/);
    });

    await t.step("within=#id and state= narrow act's query", async () => {
      const several = await scene.run("act", "role=button,state=disabled", "click");
      assertFails(several, 1, /^crowndev: the node is disabled/);
      assertFails(
        await scene.run("act", "role=button,within=#1,state=enabled", "click"),
        5,
        /\d+ nodes in .* match \{"role":"button","within":1,"state":"enabled"\}/,
      );
    });
  });
});

Deno.test("crowndev with several apps", async (t) => {
  await inScene(async (scene) => {
    const [counter, first, second, other] = await Promise.all([
      scene.start(COUNTER),
      scene.start(PROCESS_APP),
      scene.start(PROCESS_APP),
      scene.start(PROCESS_APP, ["--title", "Second Window"]),
    ]);
    const all = [counter, first, second, other].map((app) => app.app).sort();
    assert.match(other.app, /^second-window-\d+$/);

    await t.step("apps lists every app, sorted", async () => {
      const run = await scene.run("apps");
      assertOk(run);
      const rows = run.stdout.trimEnd().split("\n").slice(1).map((row) => row.split(/\s+/)[0]);
      assert.deepEqual(rows, all);
      const json = JSON.parse((await scene.run("apps", "--json")).stdout);
      assert.deepEqual(json.apps.map((app: { app: string }) => app.app), all);
    });

    await t.step("a command without an app exits 5 and lists the apps", async () => {
      const listing = new RegExp(`several apps are running: ${literal(all.join(", "))}; name one`);
      assertFails(await scene.run("tree"), 5, listing);
      assertFails(await scene.run("act", "role=button", "click"), 5, listing);
      assertFails(await scene.run("watch"), 5, listing);
    });

    await t.step("a name that two apps share exits 5 and lists their name-pids", async () => {
      const run = await scene.run("tree", "process-app");
      const both = [first.app, second.app].sort().join(", ");
      assertFails(
        run,
        5,
        new RegExp(`"process-app" matches several apps: ${literal(both)}; use the name-pid`),
      );
    });

    await t.step("a name-pid, or a name only one app has, picks the app", async () => {
      for (
        const [wanted, window] of [
          [first.app, "Process App"],
          [second.app, "Process App"],
          ["second-window", "Second Window"],
          ["counter", "Counter"],
        ]
      ) {
        const run = await scene.run("tree", wanted!);
        assertOk(run);
        assert.ok(run.stdout.startsWith(`window "${window}" #1\n`), run.stdout);
      }
    });

    await t.step("act on one of two same-named apps changes only that one", async () => {
      assertOk(await scene.run("act", second.app, "role=button,name=+1", "click"));
      assert.equal(shownCount((await scene.run("tree", second.app)).stdout), 1);
      assert.equal(shownCount((await scene.run("tree", first.app)).stdout), 0);
    });

    await t.step(
      "press_key or type_text on a secure field exits 1 with the app's message",
      async () => {
        for (const action of ["press_key=a", "type_text=hunter2"]) {
          const run = await scene.run("act", first.app, "role=text_field,name=Password", action);
          assertFails(run, 1, /^crowndev: the node holds a secret/);
        }
      },
    );

    await t.step("several matching nodes are listed with ids, roles, names and paths", async () => {
      const run = await scene.run("act", other.app, "role=text", "click");
      assertFails(run, 5, new RegExp(`2 nodes in ${other.app} match \\{"role":"text"\\}`));
      const listed = run.stderr.trimEnd().split("\n").slice(1);
      assert.deepEqual(listed, [
        `  #2 text "Second Window"  text "Second Window"`,
        `  #4 text "Count: 0"  text "Count: 0"`,
      ]);
    });

    await t.step("watch ends with exit 3 when the app exits", async () => {
      const watch = scene.spawn("watch", other.app);
      await watch.waitForOutput(/text "Count: 0"/);
      other.process.kill("SIGTERM");
      const run = await watch.finish();
      assert.equal(run.code, 3, JSON.stringify(run));
      assert.equal(run.stderr, `crowndev: ${other.app} exited\n`);
      await other.process.exit();
    });

    await t.step("after an app exits, its name no longer counts", async () => {
      const run = await scene.run("tree", "second-window");
      assertFails(run, 3, /no running app matches "second-window" \(running: counter-/);
    });
  });
});

Deno.test("crowndev apps removes the socket of an app that died", async () => {
  await inScene(async (scene) => {
    const dead = await scene.start(PROCESS_APP, ["--title", "Doomed"]);
    dead.process.kill("SIGKILL");
    await dead.process.exit();
    assert.ok(exists(dead.socket), "SIGKILL leaves the socket behind");
    const run = await scene.run("apps");
    assertOk(run);
    assert.equal(run.stdout, `no CrownUI app is running (looked in ${scene.socketDir})\n`);
    assert.ok(!exists(dead.socket), "apps removed the stale socket");
  });
});

Deno.test("crowndev sends CROWNMCP_TOKEN to an app that wants a token", async (t) => {
  await inScene(async (scene) => {
    const token = "crowndev-test-token";
    const app = await scene.start(TOKEN_APP, ["--token", token]);
    const withToken = { CROWNMCP_TOKEN: token };

    await t.step("with the token, tree and act work", async () => {
      const tree = await scene.runWith(withToken, "tree", "token-app");
      assertOk(tree);
      assert.match(tree.stdout, /^window "Token App" #1\n/);
      assert.match(tree.stdout, /text_field "Title" #\d+\n/);
      const act = await scene.runWith(
        withToken,
        "act",
        "token-app",
        "role=text_field,name=Title",
        "type_text=milk and eggs, ",
      );
      assertOk(act);
      const after = await scene.runWith(withToken, "tree");
      assert.match(after.stdout, /text_field "Title" #\d+ value="milk and eggs, " focused\n/);
    });

    await t.step("act on a disabled node exits 1 with the app's message", async () => {
      const run = await scene.runWith(withToken, "act", "token-app", "name=Locked", "click");
      assertFails(run, 1, /^crowndev: the node is disabled/);
    });

    await t.step(
      "without the token, or with a wrong one, the app cannot be reached (6)",
      async () => {
        const message = new RegExp(`cannot talk to ${app.app} at ${literal(app.socket)}`);
        assertFails(await scene.run("tree", "token-app"), 6, message);
        assertFails(await scene.runWith({ CROWNMCP_TOKEN: "wrong" }, "tree"), 6, message);
      },
    );
  });
});

Deno.test("crowndev without XDG_RUNTIME_DIR looks where apps listen: TMPDIR/crownui-<uid>", async () => {
  await using tmp = await runtimeDir("crowndev-tmpdir-");
  await using app = startApp(COUNTER, { env: { TMPDIR: tmp.path } });
  const socket = await app.listening();
  assert.equal(socket, join(tmp.path, `crownui-${getuid()}`, `counter-${app.pid}.sock`));
  const run = await crowndev({ TMPDIR: tmp.path }, "tree");
  assertOk(run);
  assert.match(run.stdout, /^window "Counter" #1\n/);
});

/** A code point a terminal acts on or reorders by: a C1 control or a bidi control. */
const RAW_C1_OR_BIDI = /[\u0080-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

Deno.test("crowndev prints no raw C1 or bidi control from an app's names", async (t) => {
  await inScene(async (scene) => {
    // The window title, and so the tree's and the snapshot's names, hold every kind; the
    // socket file's name cannot (the app makes it of letters and digits), so a second name
    // for the same socket is planted, as a peer with write access to the directory could.
    const title = "Evil\u202eexe.txt\u2066\u061c\u200f\u009b2J\u0085\u0090x\u009c";
    const app = await scene.start(PROCESS_APP, ["--title", title]);
    const pid = app.app.slice(app.app.lastIndexOf("-") + 1);
    const planted = `plant\u202e\u009b31m\u2067\u0080-${pid}`;
    Deno.linkSync(app.socket, join(scene.socketDir, `${planted}.sock`));

    await t.step(
      "apps, tree, inspect and their errors hold none, but show each escaped",
      async () => {
        const runs = await Promise.all([
          scene.run("apps"),
          scene.run("apps", "--json"),
          scene.run("tree", app.app),
          scene.run("tree", app.app, "--json"),
          scene.run("tree", planted),
          scene.run("inspect", app.app),
          scene.run("tree"), // two apps: exit 5 with both names on stderr
          scene.run("act", app.app, "role=button,name=nothing", "click"), // exit 4, the name
        ]);
        for (const run of runs) {
          assert.doesNotMatch(run.stdout + run.stderr, RAW_C1_OR_BIDI, JSON.stringify(run));
        }
        const [apps, appsJson, tree, treeJson, plantedTree, inspect, several] = runs;
        assertOk(apps!);
        assert.ok(apps!.stdout.includes("plant\\u202e\\u009b31m\\u2067\\u0080-"), apps!.stdout);
        assert.ok(
          JSON.parse(appsJson!.stdout).apps.some((entry: { app: string }) => entry.app === planted),
          "apps --json gives the planted name itself, escaped as JSON",
        );
        for (const run of [tree!, plantedTree!]) {
          assertOk(run);
          assert.ok(run.stdout.includes("\\u202e"), run.stdout);
          assert.ok(run.stdout.includes("\\u009b"), run.stdout);
        }
        assert.ok(JSON.parse(treeJson!.stdout).tree.includes("Evil"));
        assertOk(inspect!);
        assert.ok(JSON.stringify(JSON.parse(inspect!.stdout)).includes(title));
        assert.equal(several!.code, 5, JSON.stringify(several));
        assert.ok(several!.stderr.includes("plant\\u202e"), several!.stderr);
      },
    );
  });
});
