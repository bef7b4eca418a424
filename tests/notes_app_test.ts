import assert from "node:assert/strict";
import { render, type TestApp } from "../runtime/testing.ts";
import { DurableFile } from "../runtime/mod.ts";
import { loadNotesFile, notesApp, type NotesFile, saveNotesFile } from "../examples/notes.ts";

const TWO_NOTES: NotesFile = {
  notes: [{ title: "Buy milk", done: false }, { title: "Walk the dog", done: true }],
  draft: "Half typed",
};

function line(app: TestApp, text: string): string {
  return app.tree().split("\n").find((entry) => entry.includes(text))?.trim() ?? "";
}

async function act(
  app: TestApp,
  query: Parameters<TestApp["get"]>[0],
  action: Parameters<TestApp["act"]>[1],
  options: Parameters<TestApp["act"]>[3] = {},
) {
  return await app.act(app.get(query).id, action, app.revision, options);
}

Deno.test("Notes app: its tree shows every part, loaded from a file's contents", async () => {
  await using app = await render(notesApp({ initial: TWO_NOTES }), {
    title: "Notes",
    width: 100,
    height: 30,
  });
  assert.equal(
    app.tree(),
    [
      `window "Notes" #1`,
      ` text_field "Title" #2 value="Half typed"`,
      ` button "Add" #3`,
      ` menu "Menu" #4 collapsed`,
      ` text "2 notes, 1 done" #5`,
      ` scroll_view "Notes" #6`,
      `  list #7`,
      `   list_item "Buy milk" #8`,
      `    checkbox "Done" #9`,
      `    button "Delete" #11 destructive`,
      `   list_item "Walk the dog" #12`,
      `    checkbox "Done" #13 checked`,
      `    button "Delete" #15 destructive`,
      ``,
    ].join("\n"),
  );
  assert.deepEqual(app.tools().map((tool) => [tool.name, tool.isDestructive]), [
    ["note_count", false],
    ["add_note", false],
    ["delete_note", true],
  ]);
});

Deno.test("Notes app: the person's way and the agent's tools change the same notes", async (t) => {
  await using app = await render(notesApp(), { title: "Notes", width: 100, height: 30 });
  await t.step("type a title, press Enter: the note is added and the field cleared", async () => {
    await act(app, { name: "Title" }, { action: "type_text", text: "Buy milk" });
    await act(app, { name: "Title" }, { action: "press_key", keybind: "Enter" });
    assert.match(app.tree(), /list_item "Buy milk"/);
    assert.match(line(app, `text_field "Title"`), /^text_field "Title" #2 focused$/);
  });
  await t.step(
    "the Add button adds what the field holds; an empty title adds nothing",
    async () => {
      await act(app, { name: "Add" }, { action: "click" });
      assert.equal(line(app, "done"), `text "1 note, 0 done" #5`);
      await act(app, { name: "Title" }, { action: "type_text", text: "Call mum" });
      await act(app, { name: "Add" }, { action: "click" });
      assert.match(line(app, "done"), /"2 notes, 0 done"/);
    },
  );
  await t.step("note_count, add_note and delete_note", async () => {
    assert.equal(await app.callTool("note_count"), `{"count":2,"done":0}`);
    assert.equal(
      await app.callTool("add_note", { title: "  From an agent " }),
      `{"count":3,"done":0}`,
    );
    assert.match(app.tree(), /list_item "From an agent"/);
    await assert.rejects(() => app.callTool("add_note", { title: "   " }), /needs a title/);
    assert.equal(
      await app.callTool("delete_note", { title: "Buy milk" }),
      `{"count":2,"done":0}`,
    );
    await assert.rejects(
      () => app.callTool("delete_note", { title: "Nope" }),
      /no note titled "Nope"/,
    );
  });
  await t.step("Done and Delete on a row; the count follows", async () => {
    const [firstDone] = app.query({ role: "checkbox", name: "Done" });
    await app.act(firstDone!.id, { action: "click" }, app.revision);
    assert.equal(await app.callTool("note_count"), `{"count":2,"done":1}`);
    const [firstDelete] = app.query({ role: "button", name: "Delete" });
    const refused = /: the button #\d+ deletes or overwrites the user's data: .*"confirm": true$/;
    await assert.rejects(app.act(firstDelete!.id, { action: "click" }, app.revision), refused);
    assert.match(line(app, "done"), /"2 notes, 1 done"/);
    await app.act(firstDelete!.id, { action: "click" }, app.revision, { confirm: true });
    assert.match(line(app, "done"), /"1 note, 0 done"/);
    assert.doesNotMatch(app.tree(), /Call mum/);
  });
  await t.step("the menu's Delete done notes removes the done ones", async () => {
    await app.act(app.get({ role: "checkbox" }).id, { action: "click" }, app.revision);
    await act(app, { role: "menu" }, { action: "click" });
    assert.match(
      line(app, "Delete done notes"),
      /^menu_item "Delete done notes" #\d+ destructive$/,
    );
    await assert.rejects(
      act(app, { name: "Delete done notes" }, { action: "click" }),
      /: the menu_item #\d+ deletes or overwrites the user's data/,
    );
    await assert.rejects(
      act(app, { name: "Delete done notes" }, { action: "press_key", keybind: "Enter" }),
      /"confirm": true$/,
    );
    assert.match(line(app, ' done"'), /"1 note, 1 done"/);
    await act(app, { name: "Delete done notes" }, { action: "click" }, { confirm: true });
    assert.match(line(app, "done"), /"0 notes, 0 done"/);
  });
});

Deno.test("Notes app: the settings dialog, its secure field and its own tools", async (t) => {
  await using app = await render(notesApp({ initial: TWO_NOTES }), {
    title: "Notes",
    width: 100,
    height: 30,
  });
  await t.step("opened from the menu, it registers its tools", async () => {
    await act(app, { role: "menu" }, { action: "click" });
    await act(app, { name: "Settings" }, { action: "click" });
    assert.match(app.tree(), /dialog "Settings"/);
    assert.match(line(app, `text_field "Sync password"`), /secure/);
    assert.match(line(app, `button "Sync"`), /disabled/);
    assert.deepEqual(app.tools().map((tool) => tool.name).slice(3), [
      "sync_status",
      "close_settings",
    ]);
    assert.equal(
      await app.callTool("sync_status"),
      `{"passwordSet":false,"lastSync":"Not synced yet"}`,
    );
  });
  await t.step("an agent may not type the password; the person may, and Sync wakes", async () => {
    const password = app.get({ name: "Sync password" });
    await assert.rejects(
      () => app.act(password.id, { action: "type_text", text: "x" }, app.revision),
      /holds a secret/,
    );
    await app.userAct(password.id, { action: "type_text", text: "correct horse" });
    assert.doesNotMatch(line(app, `button "Sync"`), /disabled/);
    assert.doesNotMatch(JSON.stringify(app.snapshot()), /correct horse/);
    await act(app, { name: "Sync" }, { action: "click" });
    assert.match(app.tree(), /text "Synced 2 notes at \d\d:\d\d:\d\d"/);
  });
  await t.step("close_settings closes it, and its tools go with it", async () => {
    assert.equal(await app.callTool("close_settings"), `{"closed":true}`);
    assert.doesNotMatch(app.tree(), /dialog/);
    assert.deepEqual(app.tools().map((tool) => tool.name), [
      "note_count",
      "add_note",
      "delete_note",
    ]);
  });
  await t.step("Escape closes it too", async () => {
    await act(app, { role: "menu" }, { action: "click" });
    await act(app, { name: "Settings" }, { action: "click" });
    await act(app, { role: "dialog" }, { action: "press_key", keybind: "Escape" });
    assert.doesNotMatch(app.tree(), /dialog/);
  });
});

Deno.test("Notes app: every change is saved, and a saved file loads back", async () => {
  const directory = await Deno.makeTempDir({ prefix: "crownui-notes-test-" });
  try {
    using file = DurableFile.open(`${directory}/notes.json`, { app: "Notes" });
    assert.deepEqual(loadNotesFile(file), { notes: [], draft: "" }, "a missing file is empty");
    let saves = 0;
    const save = (state: NotesFile) => {
      saves++;
      saveNotesFile(file, state);
    };
    const first = await render(notesApp({ save }), { title: "Notes" });
    assert.equal(saves, 0, "nothing is written before anything changes");
    await first.callTool("add_note", { title: "Keep me" });
    assert.equal(saves, 1, "a tool's change is saved before it answers");
    await first.app.act(first.get({ role: "checkbox" }).id, { action: "click" });
    await first.userAct(first.get({ name: "Title" }).id, {
      action: "type_text",
      text: "Unfinished",
    });
    await first.close();
    assert.deepEqual(loadNotesFile(file), {
      notes: [{ title: "Keep me", done: true }],
      draft: "Unfinished",
    });

    const second = await render(notesApp({ initial: loadNotesFile(file) }), { title: "Notes" });
    assert.match(second.tree(), /list_item "Keep me" #\d+\n\s+checkbox "Done" #\d+ checked\n/);
    assert.match(line(second, `text_field "Title"`), /value="Unfinished"/);
    await second.close();

    Deno.writeTextFileSync(file.path, `{"notes": "not a list"}`);
    assert.throws(() => loadNotesFile(file), /expected \{"notes"/);
    Deno.writeTextFileSync(file.path, `not json`);
    assert.throws(() => loadNotesFile(file), SyntaxError);
  } finally {
    await Deno.remove(directory, { recursive: true });
  }
});

Deno.test("Notes app: a save that fails shows in the window and in the tool's answer", async (t) => {
  let failing = "No space left on device (os error 28)";
  const saved: NotesFile[] = [];
  const save = (state: NotesFile) => {
    if (failing !== "") throw new Error(`cannot write notes.json: ${failing}`);
    saved.push(state);
  };
  await using app = await render(notesApp({ save }), { title: "Notes", width: 100, height: 30 });
  await t.step("add_note says the note was added but not saved", async () => {
    await assert.rejects(
      () => app.callTool("add_note", { title: "Buy milk" }),
      /^Error: the note was added but not saved: cannot write notes\.json: No space left on device \(os error 28\); it stays in the app, and the next change saves again$/,
    );
    assert.match(app.tree(), /list_item "Buy milk"/, "the note is in the app");
    assert.match(
      app.tree(),
      / text "Not saved: cannot write notes\.json: No space left on device \(os error 28\)" #\d+\n/,
    );
  });
  await t.step("a change through the UI that fails shows the same line", async () => {
    failing = "Read-only file system (os error 30)";
    await app.act(app.get({ role: "checkbox" }).id, { action: "click" });
    assert.match(app.tree(), /text "Not saved: cannot write notes\.json: Read-only file system/);
  });
  await t.step("once a save works the line goes, and everything is saved", async () => {
    failing = "";
    await app.userAct(app.get({ name: "Title" }).id, { action: "type_text", text: "x" });
    assert.doesNotMatch(app.tree(), /Not saved/);
    assert.deepEqual(saved.at(-1), { notes: [{ title: "Buy milk", done: true }], draft: "x" });
    assert.equal(await app.callTool("add_note", { title: "Walk the dog" }), `{"count":2,"done":1}`);
  });
});

Deno.test("Notes app: the count in colour, a blank title refused in the error colour", async () => {
  await using app = await render(notesApp({ initial: { ...TWO_NOTES, draft: "" } }), {
    title: "Notes",
    width: 100,
    height: 30,
  });
  let screen = app.screen();
  const count = screen.find("2 notes, 1 done")!;
  assert.ok(count, screen.text);
  // The numbers are bold in the dark theme's accent (6) and success (2) colours.
  assert.equal(screen.styleAt(count.x, count.y), "fg=6 bold");
  assert.equal(screen.styleAt(count.x + "2 notes, ".length, count.y), "fg=2 bold");
  assert.equal(screen.styleAt(count.x + 2, count.y), "default");

  await act(app, { name: "Add" }, { action: "click" });
  screen = app.screen();
  const problem = screen.find("Not added: a note needs a title")!;
  assert.ok(problem, screen.text);
  // The dark theme's error colour is the terminal's red, 1.
  assert.equal(screen.styleAt(problem.x, problem.y), "fg=1");
  assert.notEqual(screen.styleAt(problem.x, problem.y), screen.styleAt(count.x + 2, count.y));
  assert.match(line(app, `text_field "Title"`), /invalid/);
  assert.match(line(app, `text_field "Title"`), /a note needs a title/);
  assert.match(line(app, "done"), /"2 notes, 1 done"/, "nothing was added");

  await act(app, { name: "Title" }, { action: "type_text", text: "Call mum" });
  assert.doesNotMatch(app.tree(), /Not added/, "typing a title clears it");
  assert.doesNotMatch(line(app, `text_field "Title"`), /invalid/);
});
