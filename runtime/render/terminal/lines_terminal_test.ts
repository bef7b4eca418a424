import assert from "node:assert/strict";
import { column, component, table, treeView } from "../../ui/mod.ts";
import { runInTerminal } from "./_test_xterm_terminal.ts";

type File = { name: string; size: number };

/** A table of 200 files above a tree of folders, in an xterm 40 columns wide. */
function tableAndTree() {
  const files: File[] = Array.from({ length: 200 }, (_, index) => ({
    name: `file-${index}.txt`,
    size: index * 3,
  }));
  return component(() =>
    column(
      table({
        label: "Files",
        columns: [
          { header: "Name", cell: (file: File) => file.name, grow: 1 },
          { header: "Size", cell: (file: File) => file.size, width: 6, align: "right" },
        ],
        rows: files,
        key: (file) => file.name,
      }).height(6),
      treeView({
        label: "Folders",
        items: ["src", "docs"],
        children: (folder) => [`${folder}-a`, `${folder}-b`],
        hasChildren: (folder) => !folder.includes("-"),
      }).height(5),
    )
  );
}

Deno.test("TerminalRenderer: the mouse and keys move through a table and a tree", async (t) => {
  const running = runInTerminal(tableAndTree(), { columns: 40, rows: 14 });
  const { terminal } = running;
  try {
    await t.step("a click selects a row, shaded across the row; keys move and scroll", async () => {
      const row = await terminal.find("file-2.txt");
      terminal.click(row.x + 1, row.y);
      assert.match(running.line(`row "file-2.txt, 6"`), /selected/);
      assert.match(running.line(`table "Files"`), /focused/);
      // The whole row is shaded, past its text too.
      const shaded = (await terminal.cell(row.x + 12, row.y)).getBgColor();
      assert.notEqual(shaded, (await terminal.cell(row.x + 12, row.y + 1)).getBgColor());
      terminal.send("\x1b[6~"); // PageDown: four rows a page in five
      assert.match(running.line(`row "file-6.txt, 18"`), /selected/);
      assert.ok((await terminal.lines()).some((line) => line.startsWith("file-6.txt")));
      terminal.send("\x1b[F"); // End
      assert.ok((await terminal.lines()).some((line) => line.startsWith("file-199.txt")));
    });
    await t.step("a click on a header sorts, and the header says which way", async () => {
      const size = await terminal.find("Size");
      terminal.click(size.x + 1, size.y);
      assert.match(running.line(`column_header "Size"`), /sorted_ascending/);
      terminal.click(size.x + 1, size.y);
      assert.match(running.line(`column_header "Size"`), /sorted_descending/);
      assert.ok((await terminal.lines()).some((line) => line.includes("Size ▼")));
    });
    await t.step(
      "a click on a tree's ▸ expands it; Left on a child goes to its parent",
      async () => {
        const src = await terminal.find("▸ src");
        terminal.click(src.x, src.y);
        assert.match(running.line(`tree_item "src"`), /selected expanded/);
        assert.ok((await terminal.lines()).some((line) => line.startsWith("    src-a")));
        terminal.send("\x1b[B"); // ArrowDown to src-a
        assert.match(running.line(`tree_item "src-a"`), /selected/);
        terminal.send("\x1b[D"); // ArrowLeft: to src
        assert.match(running.line(`tree_item "src"`), /selected/);
        terminal.send("\x1b[D"); // ArrowLeft again: collapses it
        assert.match(running.line(`tree_item "src"`), /collapsed/);
        assert.ok((await terminal.lines()).some((line) => line.startsWith("▸ src")));
      },
    );
  } finally {
    running.stop();
  }
});

Deno.test("TerminalRenderer: a disabled table looks disabled and a click selects nothing", async () => {
  const running = runInTerminal(
    component(() =>
      table({
        label: "Files",
        columns: [{ header: "Name", cell: (name: string) => name }],
        rows: ["a.txt", "b.txt"],
      }).disabled()
    ),
    { columns: 40, rows: 6 },
  );
  const { terminal } = running;
  try {
    const row = await terminal.find("b.txt");
    assert.equal((await terminal.cell(row.x, row.y)).getFgColor(), 8, "disabled is grey");
    terminal.click(row.x, row.y);
    assert.doesNotMatch(running.tree(), /selected/);
  } finally {
    running.stop();
  }
});
