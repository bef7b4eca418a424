import assert from "node:assert/strict";
import { clickAt, hoverAt, wheelAt } from "../../input/person.ts";
import { button, column, component, table, text } from "../mod.ts";
import type { Signal } from "../../reactive/mod.ts";
import { render } from "../../testing.ts";
import { columnWidths } from "./table.ts";

type File = { name: string; size: number; modified: string };

const files = (count: number): File[] =>
  Array.from({ length: count }, (_, index) => ({
    name: `file-${index}.txt`,
    size: index * 7,
    modified: `2026-01-${String((index % 28) + 1).padStart(2, "0")}`,
  }));

const filesTable = (rows: File[] | Signal<File[]>, selection?: Signal<unknown>) => {
  const view = table({
    label: "Files",
    columns: [
      { header: "Name", cell: (file: File) => file.name, grow: 1 },
      { header: "Size", cell: (file: File) => file.size, width: 6, align: "right" },
      { header: "Modified", cell: (file: File) => file.modified },
    ],
    rows,
    key: (file) => file.name,
  });
  return selection === undefined ? view : view.selection(selection);
};

Deno.test("table: a header row of column headers, rows in view with cells, the rest named alone", async () => {
  await using app = await render(component(() => filesTable(files(100))), {
    width: 40,
    height: 6,
  });
  const tree = app.tree();
  assert.match(tree, /^ table "Files" #\d+ offscreen=#\d+\.\.#\d+$/m);
  assert.match(tree, /^ {2}row #\d+\n {3}column_header "Name" #\d+\n {3}column_header "Size"/m);
  assert.match(tree, /^ {2}row "file-0.txt, 0, 2026-01-01" #\d+\n {3}cell "file-0.txt" #\d+/m);
  // Six lines: the header and five rows; the other 95 rows have no cells.
  assert.equal(app.query({ role: "cell", limit: 1000 }).length, 5 * 3);
  assert.equal(app.query({ role: "row", limit: 1000 }).length, 101);
  assert.match(tree, /^ {2}row "file-99.txt, 693, 2026-01-16" #\d+$/m);
  // Queries see every row, in view or not; the ones out of view say so.
  const far = app.get({ role: "row", text: "file-77.txt" });
  assert.deepEqual(far.states, ["offscreen"]);
  assert.equal(app.screen().lines[0], "Name          Size Modified");
  assert.equal(app.screen().lines[1], "file-0.txt       0 2026-01-01┃", "with the scroll bar");
  // The visible view leaves the rows out of view out.
  const visible = app.tree({ visible: true });
  assert.doesNotMatch(visible, /file-77/);
  assert.match(visible, /file-3\.txt/);
});

Deno.test("table: one Tab stop; arrows, PageDown, End and Home move the selection and the view", async () => {
  await using app = await render(
    component(() => column(text("Files"), filesTable(files(100)))),
    { width: 40, height: 8 },
  );
  await app.press("Tab");
  assert.equal(app.get({ state: "focused" }).role, "table");
  await app.press("ArrowDown");
  assert.equal(app.get({ role: "row", state: "selected" }).name, "file-0.txt, 0, 2026-01-01");
  await app.press("PageDown"); // six rows show: a page moves five
  assert.match(app.get({ role: "row", state: "selected" }).name!, /^file-5\.txt/);
  await app.press("PageDown");
  assert.match(app.get({ role: "row", state: "selected" }).name!, /^file-10\.txt/);
  assert.match(app.screen().lines.at(-1)!, /^file-10\.txt {5}70 2026-01-11[│┃]$/);
  await app.press("End");
  assert.match(app.get({ role: "row", state: "selected" }).name!, /^file-99\.txt/);
  assert.match(app.screen().text, /file-99\.txt/);
  assert.deepEqual(app.get({ role: "row", text: "file-99.txt" }).states, ["selected"]);
  await app.press("Home");
  assert.match(app.get({ role: "row", state: "selected" }).name!, /^file-0\.txt/);
  // Type-ahead on the first column.
  await app.type("file-4");
  assert.match(app.get({ role: "row", state: "selected" }).name!, /^file-4\.txt/);
  // Tab leaves the table in one step.
  await app.press("Tab");
  assert.equal(app.get({ state: "focused" }).role, "table", "the only stop: Tab comes back");
});

Deno.test("table: ArrowUp from the first row reaches the headers, Enter sorts, the header says which way", async () => {
  await using app = await render(component(() => filesTable(files(12))), {
    width: 40,
    height: 8,
  });
  await app.press("Tab");
  await app.press("ArrowDown");
  await app.press("ArrowUp");
  assert.equal(app.get({ state: "focused" }).name, "Name");
  await app.press("ArrowRight");
  assert.equal(app.get({ state: "focused" }).name, "Size");
  await app.press("Enter");
  const size = () => app.get({ role: "column_header", name: "Size" }).states;
  assert.ok(size().includes("sorted_ascending"));
  await app.press("Enter");
  assert.ok(size().includes("sorted_descending"));
  assert.ok(!size().includes("sorted_ascending"));
  assert.match(app.query({ role: "row", text: ".txt" })[0]!.name!, /^file-11\.txt, 77/);
  assert.match(app.screen().lines[0]!, /Size ▼/);
  await app.press("ArrowDown");
  assert.equal(app.get({ state: "focused" }).role, "table");
  // By name, text ignoring case: file-0, file-1, file-10, file-11, file-2 ...
  await app.act(app.get({ role: "column_header", name: "Name" }).id, { action: "click" });
  const names = app.query({ role: "row", text: ".txt" }).map((row) => row.name!.split(",")[0]);
  assert.deepEqual(names.slice(0, 5), [
    "file-0.txt",
    "file-1.txt",
    "file-10.txt",
    "file-11.txt",
    "file-2.txt",
  ]);
  assert.equal(
    app.get({ role: "column_header", name: "Size" }).states.includes("sorted_descending"),
    false,
  );
});

Deno.test("table: a click selects the row under it, a header click sorts, the pointer shows hover", async () => {
  await using app = await render(component(() => filesTable(files(30))), {
    width: 40,
    height: 8,
  });
  assert.ok(clickAt(app.app, 3, 3));
  await app.settle();
  assert.match(app.get({ role: "row", state: "selected" }).name!, /^file-2\.txt/);
  assert.equal(app.get({ state: "focused" }).role, "table");
  hoverAt(app.app, 3, 5);
  await app.settle();
  assert.match(app.get({ role: "row", state: "hovered" }).name!, /^file-4\.txt/);
  assert.match(app.screen().styleAt(0, 5), /underline/, "the hovered row shows hover");
  const size = app.screen().find("Size")!;
  assert.ok(clickAt(app.app, size.x + 1, size.y));
  await app.settle();
  assert.ok(app.get({ role: "column_header", name: "Size" }).states.includes("sorted_ascending"));
  // The wheel scrolls the view, not the selection.
  assert.ok(wheelAt(app.app, 3, 3, 0, 10));
  await app.settle();
  assert.match(app.screen().lines[1]!, /^file-10\.txt/);
  assert.match(app.get({ role: "row", state: "selected" }).name!, /^file-2\.txt/);
});

Deno.test("table: agents find any row, select it by name or first cell, click one out of view", async () => {
  let selected: Signal<unknown> | undefined;
  await using app = await render(
    component((cx) => {
      selected = cx.signal<unknown>(null);
      return filesTable(files(1000), selected);
    }),
    { width: 40, height: 8 },
  );
  const tableId = app.get({ role: "table" }).id;
  assert.equal(app.query({ role: "row", text: "file-7" }).length, 111);
  await app.act(tableId, { action: "select", option: "file-500.txt" });
  assert.equal(selected!.get(), "file-500.txt");
  assert.match(app.screen().text, /file-500\.txt/, "scrolled into view");
  await app.act(tableId, { action: "select", option: "file-20.txt, 140, 2026-01-21" });
  assert.equal(selected!.get(), "file-20.txt");
  const far = app.get({ role: "row", text: "file-900.txt" });
  assert.ok(far.states.includes("offscreen"));
  await app.act(far.id, { action: "click" });
  assert.equal(selected!.get(), "file-900.txt");
  assert.deepEqual(app.get({ id: far.id }).states, ["selected"]);
  const cell = app.get({ role: "cell", name: "file-900.txt" });
  await app.act(cell.id, { action: "click" });
  assert.equal(app.get({ role: "row", state: "selected" }).id, far.id);
  await assert.rejects(
    app.act(tableId, { action: "select", option: "nope.txt" }),
    /no option named "nope.txt" in this table; its options are "file-0.txt, 0, 2026-01-01", .* and 990 more/,
  );
  // The app sets the selection: that row is selected and shown.
  selected!.set("file-3.txt");
  await app.settle();
  assert.match(app.get({ role: "row", state: "selected" }).name!, /^file-3\.txt/);
  assert.match(app.screen().text, /file-3\.txt/);
});

Deno.test("table: rows keep their node across changes; gone rows go, new ones come", async () => {
  let rows: Signal<File[]> | undefined;
  await using app = await render(
    component((cx) => {
      rows = cx.signal(files(5));
      return filesTable(rows);
    }),
    { width: 40, height: 10 },
  );
  const kept = app.get({ role: "row", text: "file-3.txt" }).id;
  rows!.set([...files(5).slice(2), { name: "new.txt", size: 1, modified: "2026-02-01" }]);
  await app.settle();
  assert.equal(app.get({ role: "row", text: "file-3.txt" }).id, kept);
  assert.equal(app.query({ role: "row", text: "file-0.txt" }).length, 0);
  assert.equal(app.get({ role: "row", text: "new.txt" }).name, "new.txt, 1, 2026-02-01");
  assert.equal(app.get({ role: "cell", name: "new.txt" }).role, "cell");
  assert.equal(app.query({ role: "cell", limit: 100 }).length, 4 * 3);
});

Deno.test("table: a cell too narrow ends in …; growing columns take the spare width", async () => {
  await using app = await render(
    component(() =>
      table({
        label: "Files",
        columns: [
          { header: "Name", cell: (file: File) => file.name, width: 8 },
          { header: "Where", cell: () => "here", grow: 1 },
        ],
        rows: [{ name: "a-very-long-name.txt", size: 0, modified: "" }],
      }).width(30)
    ),
    { width: 40, height: 4 },
  );
  assert.equal(app.screen().lines[1], "a-very-… here");
  assert.equal(app.screen().lines[0], "Name     Where");
  assert.equal(app.get({ role: "cell", name: "here" }).role, "cell");
  assert.deepEqual(columnWidths([8, 7], ["fixed", "auto"], [0, 1], 30), [8, 21]);
  assert.deepEqual(columnWidths([10, 10, 10], ["auto", "auto", "fixed"], [1, 0, 0], 20), [
    1,
    7,
    10,
  ]);
});

Deno.test("table: disabled, it refuses actions and paints disabled", async () => {
  await using app = await render(
    component(() => filesTable(files(3)).disabled()),
    { width: 40, height: 5 },
  );
  const row = app.get({ role: "row", text: "file-1.txt" });
  await assert.rejects(app.act(row.id, { action: "click" }), /disabled/);
  await assert.rejects(
    app.act(app.get({ role: "table" }).id, { action: "select", option: "file-1.txt" }),
    /disabled/,
  );
  assert.match(app.screen().styleAt(0, 1), /dim|fg=/);
});

Deno.test("table: a page down in 100,000 rows changes the rows that came and went, not all", async () => {
  await using app = await render(component(() => filesTable(files(100_000))), {
    width: 40,
    height: 12,
  });
  assert.equal(app.query({ role: "cell", limit: 1000 }).length, 11 * 3);
  const changed: number[] = [];
  const stop = app.app.onTreeUpdate((update) => changed.push(update.nodes.length));
  await app.press("Tab");
  await app.press("ArrowDown");
  changed.length = 0;
  for (let page = 0; page < 20; page++) await app.press("PageDown");
  stop();
  // Each page: ten rows leave (their cells go) and ten come (rows, cells), the selection moves.
  assert.ok(Math.max(...changed) < 100, `nodes changed a page: ${changed.join(", ")}`);
  assert.match(app.get({ role: "row", state: "selected" }).name!, /^file-200\.txt/);
  const header = app.get({ role: "column_header", name: "Size" }).id;
  const sorted: number[] = [];
  const again = app.app.onTreeUpdate((update) => sorted.push(update.nodes.length));
  await app.act(header, { action: "click" });
  await app.act(header, { action: "click" });
  again();
  assert.ok(Math.max(...sorted) < 200, `nodes changed by a sort: ${sorted.join(", ")}`);
  assert.match(app.query({ role: "row", text: ".txt", limit: 1 })[0]!.name!, /^file-99999\.txt/);
});

Deno.test("table: the selected row shows focus while the table has it, selection when not", async () => {
  await using app = await render(
    component(() => column(filesTable(files(5)).height(4), button("Below", () => {}))),
    { width: 40, height: 10 },
  );
  const tableId = app.get({ role: "table" }).id;
  await app.act(tableId, { action: "select", option: "file-1.txt" });
  const focused = app.screen().styleAt(0, 2);
  const plain = app.screen().styleAt(0, 3);
  await app.act(app.get({ role: "button", name: "Below" }).id, { action: "focus" });
  const selected = app.screen().styleAt(0, 2);
  assert.notEqual(focused, plain, "the focused table's selected row is shaded");
  assert.notEqual(selected, plain, "the selected row stays shaded without focus");
  assert.notEqual(selected, focused, "and shows that the table has no focus");
});

Deno.test("table: rows with a repeated key each keep a row as the rows change", async () => {
  let rows: Signal<string[]> | undefined;
  await using app = await render(
    component((cx) => {
      rows = cx.signal(["a", "a", "b"]);
      return table({ label: "Letters", columns: [{ header: "L", cell: (l: string) => l }], rows });
    }),
    { width: 20, height: 8 },
  );
  const names = () => app.query({ role: "row", text: "" }).map((row) => row.name);
  assert.deepEqual(names(), ["a", "a", "b"]);
  rows!.set(["a", "a", "c", "c"]);
  await app.settle();
  assert.deepEqual(names(), ["a", "a", "c", "c"]);
  rows!.set(["c"]);
  await app.settle();
  assert.deepEqual(names(), ["c"]);
});
