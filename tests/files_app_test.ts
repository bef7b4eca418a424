/**
 * The file viewer example (examples/files.ts) driven as a person and an agent would: a
 * filter narrows the entries, the selected file's first lines show beside the list, Enter
 * opens a directory and Backspace goes up, and its tools list and open directories.
 *
 * @module
 */

import assert from "node:assert/strict";
import { render, type TestApp } from "../runtime/testing.ts";
import { filesApp, sizeText } from "../examples/files.ts";

async function withTree(body: (app: TestApp, root: string) => Promise<void>): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "crownui-files-" });
  try {
    await Deno.mkdir(`${root}/docs`);
    await Deno.writeTextFile(`${root}/docs/guide.md`, "# Guide\nSecond line\n");
    await Deno.writeTextFile(`${root}/notes.txt`, "first line\nsecond line\n");
    await Deno.writeFile(`${root}/image.bin`, new Uint8Array([0x89, 0, 1, 2]));
    for (let index = 0; index < 30; index++) {
      await Deno.writeTextFile(`${root}/file-${String(index).padStart(2, "0")}.txt`, `${index}`);
    }
    await using app = await render(filesApp(root), { width: 100, height: 24 });
    await waitFor(app, () => app.query({ role: "row", text: "notes.txt" }).length === 1);
    await body(app, root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

/** Settles frames until `test` holds: reading a directory or a file is asynchronous. */
async function waitFor(app: TestApp, test: () => boolean): Promise<void> {
  for (let round = 0; round < 200; round++) {
    await app.settle();
    if (test()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`never held; the tree:\n${app.tree()}`);
}

Deno.test("files: the filter narrows the entries, and the count says how many", async () => {
  await withTree(async (app) => {
    assert.match(app.tree(), /text "34 of 34 entries"/);
    const filter = app.get({ role: "text_field", name: "Filter" });
    await app.act(filter.id, { action: "type_text", text: "file-1" });
    assert.match(app.tree(), /text "10 of 34 entries"/);
    assert.deepEqual(
      app.query({ role: "row", within: app.get({ role: "table", name: "Entries" }).id })
        .map((m) => m.name?.split(",")[0]).slice(1, 4), // after the header row
      ["file-10.txt", "file-11.txt", "file-12.txt"],
    );
  });
});

Deno.test("files: the selected file's first lines show beside the list; binaries say so", async () => {
  await withTree(async (app) => {
    const entries = app.get({ role: "table", name: "Entries" }).id;
    await app.act(entries, { action: "select", option: "notes.txt" });
    await waitFor(app, () => app.query({ role: "text", name: "second line" }).length === 1);
    assert.ok(app.screen().find("first line"), app.screen().text);
    await app.act(entries, { action: "select", option: "image.bin" });
    await waitFor(app, () => app.query({ role: "list_item", text: "a binary file" }).length === 1);
    assert.match(app.get({ role: "row", state: "selected" }).name!, /^image\.bin, 4 B, \d{4}-/);
  });
});

Deno.test("files: Enter opens a directory, Backspace goes up, keyboard only", async () => {
  await withTree(async (app, root) => {
    await app.press("Tab"); // nothing had focus: the filter
    await app.press("Tab"); // and on into the table
    await app.type("d"); // type-ahead: docs/
    assert.equal(app.get({ state: "focused" }).role, "table");
    assert.match(app.get({ role: "row", state: "selected" }).name!, /^docs\/, , \d{4}-/);
    await app.press("Enter");
    await waitFor(app, () => app.query({ role: "row", text: "guide.md" }).length === 1);
    assert.match(app.tree(), new RegExp(`heading "Files — ${root}/docs"`));
    assert.equal(app.get({ state: "focused" }).role, "table", "the table keeps focus");
    await app.press("Backspace");
    await waitFor(app, () => app.query({ role: "row", text: "notes.txt" }).length === 1);
  });
});

Deno.test("files: the tools list entries and open a path; a bad path is refused", async () => {
  await withTree(async (app, root) => {
    const listed = JSON.parse(await app.callTool("list_entries"));
    assert.equal(listed.path, root);
    assert.ok(listed.entries.some((e: { name: string }) => e.name === "notes.txt"));
    const opened = JSON.parse(await app.callTool("open_path", { path: `${root}/docs` }));
    assert.deepEqual(opened, { path: `${root}/docs`, count: 2 });
    await assert.rejects(
      () => app.callTool("open_path", { path: `${root}/missing` }),
      /cannot open/,
    );
    assert.equal(sizeText(1536), "1.5 KB");
  });
});

Deno.test("files: the panes have titled borders, the preview's named by its file, and a footer of keys", async () => {
  await withTree(async (app) => {
    const entries = app.get({ role: "table", name: "Entries" }).id;
    await app.act(entries, { action: "select", option: "notes.txt" });
    await waitFor(app, () => app.query({ role: "text", name: "second line" }).length === 1);
    const screen = app.screen();
    const panes = screen.lines.find((line) => line.includes("╭─ Entries "))!;
    assert.ok(panes, screen.text);
    assert.match(panes, /^╭─ Entries ─+╮ ╭─ notes\.txt ─+╮$/);
    assert.equal(panes.indexOf("╮") + 1, 50, "the table's 48 cells and the frame");
    const footer = screen.lines.find((line) => line.startsWith("Tab "))!;
    assert.equal(
      footer,
      "Tab filter/table  ↑↓ PgUp PgDn move  Enter open  Backspace up  Ctrl+C quit",
    );
    const at = screen.find("Tab filter")!;
    assert.match(screen.styleAt(at.x, at.y), /bold/, "the keys stand out");
    assert.doesNotMatch(screen.styleAt(at.x + 4, at.y), /bold/);
    // Borders are for people: the panes are still the scroll views and lists they were.
    assert.doesNotMatch(app.tree(), /group|╭/);
  });
});
