/**
 * The Notes demo's file, with the demo running as a real process and driven over its socket:
 * a save keeps the file's mode (0600 for a new file) and follows a symlink to its target; a
 * second demo on the same file is refused, naming the first; a full disk shows in the window's
 * tree and in `add_note`'s answer and leaves no temporary file; quitting with changes not saved
 * prints them; kill -9 in the middle of saves leaves the file whole, with every note an answer
 * said was added.
 *
 * @module
 */

import { markedContent } from "./_marked.ts";
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  type AppProcess,
  callTool,
  connect,
  exists,
  nodeId,
  permissionBits,
  readTree,
  removeDir,
  runtimeDir,
  startApp,
  type ToolText,
} from "./_app_process.ts";
import {
  fillDisk,
  isRoot,
  mountTmpfs,
  notRunHere,
  runs,
  unmount,
  whyNoMount,
} from "./_disk_faults.ts";

const NOTES = "examples/notes.ts";

/** Starts the Notes demo headless on `file`, its socket under `runtime`; waits for the socket. */
async function startNotes(
  runtime: string,
  file: string,
): Promise<{ app: AppProcess; socket: string }> {
  const app = startApp(NOTES, { args: [file], env: { XDG_RUNTIME_DIR: runtime } });
  try {
    return { app, socket: await app.listening() };
  } catch (error) {
    await app.close();
    throw error;
  }
}

/** Ends the demo with SIGTERM and checks it exited cleanly. */
async function quit(app: AppProcess): Promise<void> {
  app.kill("SIGTERM");
  const status = await app.exit();
  assert.equal(status.code, 0, app.stderr);
}

/** The notes file's titles and done flags, read as JSON. */
function savedNotes(path: string): { title: string; done: boolean }[] {
  return (JSON.parse(Deno.readTextFileSync(path)) as { notes: { title: string; done: boolean }[] })
    .notes;
}

/** The message of an app tool's error, marked as untrusted app data. */
function toolError(result: ToolText): string {
  assert.equal(result.isError, true, result.text);
  return (markedContent(result.text) as { error: string }).error;
}

/** The names in `directory`, sorted. */
function namesIn(directory: string): string[] {
  return [...Deno.readDirSync(directory)].map((entry) => entry.name).sort();
}

Deno.test("Notes file: a save keeps the file's mode, and a new file is 0600", async () => {
  await using runtime = await runtimeDir("crownui-notes-file-");
  const data = join(runtime.path, "data");
  Deno.mkdirSync(data);
  const cases: [string, number | null, number][] = [
    ["private.json", 0o600, 0o600],
    ["shared.json", 0o640, 0o640],
    ["new.json", null, 0o600], // made by the first save; the umask alone would give 0644
  ];
  for (const [name, before, after] of cases) {
    const path = join(data, name);
    if (before !== null) {
      Deno.writeTextFileSync(path, `{"notes": [], "draft": ""}\n`);
      Deno.chmodSync(path, before);
    }
    const { app, socket } = await startNotes(runtime.path, path);
    await using client = await connect(socket);
    const added = await callTool(client, "add_note", { title: `In ${name}` });
    assert.equal(added.isError, false, added.text);
    assert.deepEqual(savedNotes(path), [{ title: `In ${name}`, done: false }]);
    assert.equal(permissionBits(path).toString(8), after.toString(8), name);
    await quit(app);
  }
  assert.deepEqual(namesIn(data), ["new.json", "private.json", "shared.json"], "no file left over");
});

Deno.test("Notes file: a symlink is followed, so its target gets the notes", async () => {
  await using runtime = await runtimeDir("crownui-notes-file-");
  const real = join(runtime.path, "real");
  Deno.mkdirSync(real);
  const target = join(real, "notes.json");
  Deno.writeTextFileSync(target, `{"notes": [{"title": "Kept", "done": true}], "draft": ""}\n`);
  Deno.chmodSync(target, 0o600);
  const link = join(runtime.path, "link.json");
  Deno.symlinkSync("real/notes.json", link);

  const { app, socket } = await startNotes(runtime.path, link);
  await using client = await connect(socket);
  assert.match((await readTree(client)).tree, /list_item "Kept"/, "loaded through the link");
  assert.ok(exists(`${target}.lock`), "the lock is beside the real file");
  const added = await callTool(client, "add_note", { title: "Through the link" });
  assert.equal(added.isError, false, added.text);

  assert.equal(Deno.lstatSync(link).isSymlink, true, "the link is still a link");
  assert.equal(Deno.readLinkSync(link), "real/notes.json");
  assert.deepEqual(savedNotes(target), [
    { title: "Kept", done: true },
    { title: "Through the link", done: false },
  ]);
  assert.equal(permissionBits(target), 0o600);
  await quit(app);
  assert.deepEqual(namesIn(real), ["notes.json"], "no temporary or lock file left");
});

Deno.test("Notes file: a second demo on the same file is refused, naming the first", async () => {
  await using runtime = await runtimeDir("crownui-notes-file-");
  const path = join(runtime.path, "notes.json");
  const other = join(runtime.path, "same-file.json");
  Deno.symlinkSync(path, other);

  const first = await startNotes(runtime.path, path);
  try {
    await using client = await connect(first.socket);
    assert.equal((await callTool(client, "add_note", { title: "First's note" })).isError, false);

    // By another name too: the lock is on the real file.
    for (const name of [path, other]) {
      await using second = startApp(NOTES, {
        args: [name],
        env: { XDG_RUNTIME_DIR: runtime.path },
      });
      const status = await second.exit();
      assert.equal(status.code, 1, second.stderr);
      assert.deepEqual(second.lines, [
        `Notes: cannot open ${path}: Notes (pid ${first.app.pid}) has it open; quit that one first, or use another file`,
      ]);
    }
    assert.deepEqual(savedNotes(path), [{ title: "First's note", done: false }]);
    assert.equal((await callTool(client, "add_note", { title: "Still mine" })).isError, false);
    assert.equal(savedNotes(path).length, 2, "the first one still saves");
  } finally {
    // Killed, not quit: the kernel drops its lock, so no stale lock keeps the file.
    first.app.kill("SIGKILL");
    await first.app.exit();
  }

  const third = await startNotes(runtime.path, path);
  await using client = await connect(third.socket);
  assert.match((await readTree(client)).tree, /list_item "First's note"[^]*list_item "Still mine"/);
  await quit(third.app);
});

/**
 * The full-disk steps: the demo saves into `data`, a change fails as `makeFault()` makes it
 * (`reason` is the system's message), then saves again once `mend()` undid it.
 */
async function saveFails(
  runtime: string,
  data: string,
  makeFault: () => Promise<void>,
  mend: () => Promise<void>,
  reason: RegExp,
): Promise<void> {
  const path = join(data, "notes.json");
  const { app, socket } = await startNotes(runtime, path);
  try {
    await using client = await connect(socket);
    assert.equal((await callTool(client, "add_note", { title: "Saved" })).isError, false);
    const before = Deno.readTextFileSync(path);
    await makeFault();
    try {
      const message = toolError(await callTool(client, "add_note", { title: "Not on disk" }));
      assert.match(message, /^the note was added but not saved: cannot write \S+notes\.json: /);
      assert.match(message, reason);
      assert.match(message, /; it stays in the app, and the next change saves again$/);

      const { tree, revision } = await readTree(client);
      assert.match(tree, /list_item "Not on disk"/, "the note is in the app");
      const shown = / text "(Not saved: cannot write [^"]*)" #\d+/.exec(tree);
      assert.ok(shown !== null, `the window says the save failed:\n${tree}`);
      assert.match(shown[1]!, reason);
      assert.equal(Deno.readTextFileSync(path), before, "the file is as it was");
      assert.deepEqual(
        namesIn(data).filter((name) => name.includes("saving")),
        [],
        "no temporary file left",
      );

      // A change through the UI fails the same way, and the line stays.
      const checkbox = nodeId(tree, "checkbox", "Done");
      const clicked = await callTool(client, "ui_act", {
        id: checkbox,
        revision,
        action: { action: "click" },
      });
      assert.equal(clicked.isError, false, clicked.text);
      assert.match((await readTree(client)).tree, / text "Not saved: /);
    } finally {
      await mend();
    }
    const retried = await callTool(client, "add_note", { title: "After" });
    assert.equal(retried.isError, false, retried.text);
    assert.doesNotMatch((await readTree(client)).tree, /Not saved/, "the line goes");
    assert.deepEqual(savedNotes(path).map((note) => note.title), ["Saved", "Not on disk", "After"]);
    await quit(app);
  } finally {
    await app.close();
  }
}

Deno.test("Notes file: a save that fails is shown in the tree and told to the agent", async (t) => {
  await using runtime = await runtimeDir("crownui-notes-file-");
  const data = join(runtime.path, "data");
  Deno.mkdirSync(data);
  let faultsMade = 0;

  const mounted = await mountTmpfs(data, "size=256k,mode=0700");
  if (!mounted) notRunHere("the full disk case of the notes file", whyNoMount());
  await t.step({
    name: "the disk is full",
    ignore: !mounted,
    fn: async () => {
      faultsMade++;
      let filler = "";
      await saveFails(
        runtime.path,
        data,
        () => Promise.resolve(void (filler = fillDisk(data))),
        () => Promise.resolve(Deno.removeSync(filler)),
        /No space left on device/,
      );
    },
  });
  if (mounted) await unmount(data);

  // Without a mount, root can still make the directory immutable (`chattr +i`).
  const immutable = isRoot() && await runs("chattr", ["+i", data]) &&
    await runs("chattr", ["-i", data]);
  if (isRoot() && !immutable) {
    notRunHere("the immutable directory case of the notes file", "chattr +i failed");
  }
  await t.step({
    name: "the directory is immutable (chattr +i)",
    ignore: !immutable,
    fn: async () => {
      faultsMade++;
      await saveFails(
        runtime.path,
        data,
        async () => assert.ok(await runs("chattr", ["+i", data])),
        async () => assert.ok(await runs("chattr", ["-i", data])),
        /Operation not permitted|Permission denied/,
      );
    },
  });

  await t.step({
    name: "the directory is not writable by the app's user",
    ignore: isRoot(), // root writes anyway; the steps above cover root
    fn: async () => {
      faultsMade++;
      await saveFails(
        runtime.path,
        data,
        () => Promise.resolve(Deno.chmodSync(data, 0o500)),
        () => Promise.resolve(Deno.chmodSync(data, 0o700)),
        /Permission denied/,
      );
    },
  });
  assert.ok(faultsMade > 0, "no disk fault could be made on this machine: see the warnings");
  await removeDir(data);
});

Deno.test("Notes file: quitting with changes not saved prints them rather than lose them", async () => {
  await using runtime = await runtimeDir("crownui-notes-file-");
  const data = join(runtime.path, "data");
  Deno.mkdirSync(data);
  // Root writes past the mode bits, but not into an immutable directory.
  const [lock, unlock] = isRoot()
    ? [() => runs("chattr", ["+i", data]), () => runs("chattr", ["-i", data])]
    : [
      () => Promise.resolve((Deno.chmodSync(data, 0o500), true)),
      () => Promise.resolve((Deno.chmodSync(data, 0o700), true)),
    ];
  const { app, socket } = await startNotes(runtime.path, join(data, "notes.json"));
  try {
    await using client = await connect(socket);
    assert.equal((await callTool(client, "add_note", { title: "Saved" })).isError, false);
    if (!await lock()) {
      notRunHere("quitting with changes not saved", "chattr +i failed");
      return;
    }
    try {
      toolError(await callTool(client, "add_note", { title: "Only in memory" }));
      app.kill("SIGTERM");
      const status = await app.exit();
      assert.equal(status.code, 1, app.stderr);
      const said = app.stderr.slice(app.stderr.indexOf("Notes: your last changes were not saved"));
      assert.match(said, /^Notes: your last changes were not saved: cannot write \S+notes\.json: /);
      const printed = JSON.parse(said.slice(said.indexOf("\n") + 1));
      assert.deepEqual(printed.notes.map((note: { title: string }) => note.title), [
        "Saved",
        "Only in memory",
      ]);
    } finally {
      assert.ok(await unlock());
    }
  } finally {
    await app.close();
  }
});

Deno.test("Notes file: kill -9 in the middle of saves leaves it whole, with every answered note", async () => {
  await using runtime = await runtimeDir("crownui-notes-file-");
  const path = join(runtime.path, "notes.json");
  const answered: string[] = [];
  for (let round = 0; round < 4; round++) {
    const { app, socket } = await startNotes(runtime.path, path);
    const client = await connect(socket);
    let stop = false;
    // Four callers at once, so saves are under way whenever the kill lands.
    const callers = Array.from({ length: 4 }, async (_, caller) => {
      for (let call = 0; !stop; call++) {
        const title = `round ${round} caller ${caller} call ${call}`;
        try {
          const result = await callTool(client, "add_note", { title });
          if (!result.isError) answered.push(title);
        } catch {
          return; // the app was killed
        }
      }
    });
    await new Promise((resolve) => setTimeout(resolve, 150 + 100 * round));
    app.kill("SIGKILL");
    stop = true;
    await app.exit();
    await Promise.all(callers);
    await client.close().catch(() => {});

    const titles = savedNotes(path).map((note) => note.title); // whole JSON, or this throws
    for (const title of answered) {
      assert.ok(titles.includes(title), `${title} was answered as added, but is not in the file`);
    }
  }
  assert.ok(answered.length > 0, "no add_note was answered before the kills");
  // The next start loads everything, and its first save clears what the kills left.
  const { app, socket } = await startNotes(runtime.path, path);
  await using client = await connect(socket);
  assert.equal((await callTool(client, "add_note", { title: "last" })).isError, false);
  await quit(app);
  assert.deepEqual(namesIn(runtime.path).filter((name) => name.startsWith("notes")), [
    "notes.json",
  ]);
});
