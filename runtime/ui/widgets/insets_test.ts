// Widgets that lay out and paint their own content (a table, a tree view, a text area) and a
// list show it inside their own border and padding: content, node bounds, clicks and pages.
import assert from "node:assert/strict";
import { clickAt, draggableAt, dragTo } from "../../input/person.ts";
import { absoluteBounds } from "../../semantics/mod.ts";
import { render, type TestApp } from "../../testing.ts";
import {
  button,
  column,
  component,
  list,
  scrollView,
  select,
  slider,
  table,
  text,
  textArea,
  treeView,
} from "../mod.ts";
import type { WidgetView } from "../widget_view.ts";

type File = { name: string; size: number };
const files: File[] = Array.from({ length: 40 }, (_, index) => ({
  name: `file-${index}.txt`,
  size: index,
}));

/** `view` with a rounded border, or with padding 1 on every side. */
function framed<V extends WidgetView>(view: V, frame: "border" | "padding"): V {
  return (frame === "border" ? view.border("rounded") : view.padding(1)) as V;
}

/** The window bounds of the node `id`. */
function boundsOf(app: TestApp, id: number) {
  return absoluteBounds(app.app.tree.get(id)!);
}

/** True when `inner` lies inside `outer` shrunk by one cell on every side. */
function insideFrame(
  inner: { x: number; y: number; width: number; height: number },
  outer: { x: number; y: number; width: number; height: number },
): boolean {
  return inner.x >= outer.x + 1 && inner.y >= outer.y + 1 &&
    inner.x + inner.width <= outer.x + outer.width - 1 &&
    inner.y + inner.height <= outer.y + outer.height - 1;
}

for (const frame of ["border", "padding"] as const) {
  const edge = frame === "border" ? "│" : " ";
  /** A line of the screen with `content` inside the frame (the screen drops trailing spaces). */
  const framedLine = (content: string) => `${edge}${content}${edge}`.trimEnd();
  /** The right edge as the screen shows it: the border's line, or nothing for padding. */
  const right = frame === "border" ? "│" : "";

  Deno.test(`a table with ${frame}: header and rows inside it, clicks, bounds and pages too`, async () => {
    await using app = await render(
      component(() =>
        column(
          framed(
            table({
              label: "Files",
              columns: [
                { header: "Name", cell: (file: File) => file.name, grow: 1 },
                { header: "Size", cell: (file: File) => file.size, width: 4, align: "right" },
              ],
              rows: files,
              key: (file) => file.name,
            }),
            frame,
          ).width(30).grow(),
        )
      ),
      { width: 30, height: 10 },
    );
    const lines = app.screen().lines;
    if (frame === "border") assert.equal(lines[0], "╭────────────────────────────╮");
    assert.equal(lines[1], framedLine(`${"Name".padEnd(23)}Size `));
    assert.equal(lines[2], framedLine(`${"file-0.txt".padEnd(23)}   0┃`));
    const outer = boundsOf(app, app.get({ role: "table" }).id);
    assert.deepEqual(outer, { x: 0, y: 0, width: 30, height: 10 });
    const first = boundsOf(app, app.get({ role: "row", text: "file-0.txt" }).id);
    assert.deepEqual(
      first,
      { x: 1, y: 2, width: 27, height: 1 },
      "the scroll bar has the last column",
    );
    assert.ok(insideFrame(first, outer));
    const header = app.get({ role: "column_header", name: "Size" });
    assert.ok(insideFrame(boundsOf(app, header.id), outer));
    const cell = boundsOf(app, app.get({ role: "cell", text: "file-3.txt" }).id);
    assert.deepEqual(cell, { x: 1, y: 5, width: 22, height: 1 });
    // A click on a row's cell hits that row; one on the header sorts; one on the frame, none.
    assert.ok(clickAt(app.app, cell.x, cell.y));
    await app.settle();
    assert.equal(app.get({ role: "row", state: "selected" }).name, "file-3.txt, 3");
    assert.ok(clickAt(app.app, 0, 5));
    await app.settle();
    assert.equal(app.get({ role: "row", state: "selected" }).name, "file-3.txt, 3");
    const size = app.screen().find("Size")!;
    assert.ok(clickAt(app.app, size.x, size.y));
    await app.settle();
    assert.ok(app.get({ role: "column_header", name: "Size" }).states.includes("sorted_ascending"));
    // Seven rows show inside the frame: a page moves six.
    await app.act(app.get({ role: "row", text: "file-0.txt" }).id, { action: "click" });
    await app.press("PageDown");
    assert.equal(app.get({ role: "row", state: "selected" }).name, "file-6.txt, 6");
    await app.press("PageDown");
    assert.equal(app.get({ role: "row", state: "selected" }).name, "file-12.txt, 12");
    assert.match(app.screen().lines[8]!, new RegExp(`^${edge}file-12\\.txt +12[│┃]${right}$`));
    if (frame === "border") assert.equal(app.screen().lines[9], "╰────────────────────────────╯");
  });

  Deno.test(`a tree view with ${frame}: items inside it, clicks and bounds too`, async () => {
    type Folder = { name: string; folders?: Folder[] };
    const folders: Folder[] = [{ name: "home", folders: [{ name: "anna" }] }, { name: "etc" }];
    await using app = await render(
      component(() =>
        column(
          framed(
            treeView({
              label: "Folders",
              items: folders,
              name: (folder: Folder) => folder.name,
              children: (folder) => folder.folders ?? null,
              hasChildren: (folder) => folder.folders !== undefined,
            }),
            frame,
          ).height(6),
          text("after"),
        )
      ),
      { width: 20, height: 8 },
    );
    const lines = app.screen().lines;
    assert.equal(lines[1], framedLine("▸ home"));
    assert.equal(lines[2], framedLine("  etc "));
    const home = app.get({ role: "tree_item", name: "home" });
    assert.deepEqual(boundsOf(app, home.id), { x: 1, y: 1, width: 6, height: 1 });
    assert.ok(clickAt(app.app, 1, 1), "on home's ▸");
    await app.settle();
    assert.ok(app.get({ role: "tree_item", name: "home" }).states.includes("expanded"));
    assert.deepEqual(app.screen().lines.slice(1, 4), [
      framedLine("▾ home  "),
      framedLine("    anna"),
      framedLine("  etc   "),
    ]);
    const outer = boundsOf(app, app.get({ role: "tree" }).id);
    for (const name of ["home", "anna", "etc"]) {
      const item = app.get({ role: "tree_item", name });
      assert.ok(insideFrame(boundsOf(app, item.id), outer), `${name} inside the frame`);
    }
    assert.deepEqual(boundsOf(app, app.get({ role: "tree_item", name: "anna" }).id).y, 2);
    assert.ok(clickAt(app.app, 4, 3), "on etc");
    await app.settle();
    assert.equal(app.get({ role: "tree_item", state: "selected" }).name, "etc");
  });

  Deno.test(`a list with ${frame} shows its rows inside it; in a framed scroll view a page is what shows`, async () => {
    const names = Array.from({ length: 40 }, (_, index) => `Row ${index}`);
    await using app = await render(
      component(() =>
        column(
          framed(list(names.slice(0, 3), (name) => text(name)), frame),
          framed(scrollView(list(names, (name) => text(name))).height(10), frame),
        )
      ),
      { width: 20, height: 16 },
    );
    const lines = app.screen().lines;
    assert.equal(lines[1], framedLine("Row 0"));
    assert.equal(lines[3], framedLine("Row 2"));
    assert.match(lines[6]!, new RegExp(`^${edge}Row 0 *${right}$`));
    // Eight rows show inside the frame: a page moves seven.
    await app.act(app.query({ role: "list_item", name: "Row 0" })[1]!.id, { action: "click" });
    await app.press("PageDown");
    assert.equal(app.get({ state: "focused" }).name, "Row 7");
    await app.press("PageDown");
    assert.equal(app.get({ state: "focused" }).name, "Row 14");
  });

  Deno.test(`a text area with ${frame}: label and text inside it, clicks and pages too`, async () => {
    const text10 = Array.from({ length: 10 }, (_, index) => `line ${index}`).join("\n");
    await using app = await render(
      component(() =>
        column(framed(textArea({ label: "Notes", value: text10, columns: 12, rows: 3 }), frame))
      ),
      { width: 30, height: 8 },
    );
    const lines = app.screen().lines;
    assert.equal(lines[1], framedLine("Notes:       "));
    assert.match(lines[2]!, new RegExp(`^${edge}line 0 +[│┃]${right}$`));
    assert.ok(clickAt(app.app, 3, 3), "on line 1, cell 2");
    await app.settle();
    await app.type("_");
    assert.match(app.get({ role: "text_area" }).value!, /^line 0\nli_ne 1\n/);
    // Three rows show: PageDown moves three, the cursor at its column.
    await app.press("PageDown");
    await app.type("!");
    assert.match(app.get({ role: "text_area" }).value!, /\nlin!e 4\n/);
  });

  Deno.test(`a slider with ${frame} follows a drag on its track; a select's popup opens under its box`, async () => {
    await using app = await render(
      component(() =>
        column(
          framed(slider({ label: "Volume", value: 0, min: 0, max: 19 }), frame),
          framed(select({ label: "Colour", options: ["Red", "Green"], value: "Red" }), frame),
        )
      ),
      { width: 40, height: 12 },
    );
    const lines = app.screen().lines;
    assert.equal(lines[1], framedLine("Volume [●───────────────────] 0"));
    // The track starts after the edge and "Volume [": its cell 0 is column 9, cell 1 value 1.
    const volume = draggableAt(app.app, 10, 1)!;
    assert.ok(volume !== null && dragTo(app.app, volume, 10, 1));
    await app.settle();
    assert.equal(app.get({ role: "slider" }).value, "1");
    assert.ok(dragTo(app.app, volume, 28, 1));
    await app.settle();
    assert.equal(app.get({ role: "slider" }).value, "19");
    assert.equal(lines[4], framedLine("Colour [Red    ▾]"));
    await app.act(app.get({ role: "combo_box" }).id, { action: "press_key", keybind: "Enter" });
    // Under the box ([Red ...] at column 8, after the edge and "Colour "), past the frame.
    assert.equal(app.screen().lines[6], "        ┌──────────┐");
  });

  Deno.test(`a scroll view with ${frame}: PageDown scrolls by the rows inside it, less one`, async () => {
    const rows = Array.from({ length: 40 }, (_, index) => text(`Row ${index}`));
    await using app = await render(
      component(() =>
        column(framed(scrollView(column(button("Top", () => {}), ...rows)), frame).height(10))
      ),
      { width: 20, height: 12 },
    );
    assert.equal(app.screen().lines[1], framedLine("[ Top ]"));
    await app.act(app.get({ role: "button", name: "Top" }).id, { action: "focus" });
    await app.press("PageDown"); // eight rows show inside: a page is seven
    assert.equal(app.screen().lines[1], framedLine("Row 6  "));
  });
}
