import assert from "node:assert/strict";
import { render } from "../testing.ts";
import { column, component, list, row, scrollView, show, text } from "../ui/mod.ts";
import type { Element } from "../ui/element.ts";
import { layoutEntries } from "../semantics/mod.ts";
import { childrenIn, intersectRects, isEmptyRect } from "./visible.ts";

function names(elements: Element[]): string[] {
  return elements.map((element) => String(element.state.visual ?? element.kind));
}

Deno.test("intersectRects() and isEmptyRect()", () => {
  const overlap = intersectRects({ x: 0, y: 0, width: 4, height: 4 }, {
    x: 2,
    y: 3,
    width: 5,
    height: 5,
  });
  assert.deepEqual(overlap, { x: 2, y: 3, width: 2, height: 1 });
  assert.ok(
    isEmptyRect(
      intersectRects({ x: 0, y: 0, width: 1, height: 1 }, { x: 1, y: 0, width: 1, height: 1 }),
    ),
  );
});

Deno.test("childrenIn() finds the children overlapping an area, in order", async () => {
  const app = await render(
    component(() => column(text("a"), text("b"), text("c"), row(text("d"), text("e")))),
  );
  const columnElement = app.app.root.children[0]!;
  assert.deepEqual(names(childrenIn(columnElement, { x: 0, y: 1, width: 10, height: 2 })), [
    "b",
    "c",
  ]);
  const rowElement = columnElement.children[3]!;
  assert.deepEqual(names(childrenIn(rowElement, { x: 2, y: 0, width: 1, height: 1 })), ["e"]);
  assert.deepEqual(childrenIn(columnElement, { x: 0, y: 0, width: 0, height: 5 }), []);
  await app.close();
});

Deno.test("childrenIn() searches a long list, skipping children without size", async () => {
  const rows = Array.from({ length: 10_000 }, (_, index) => index);
  const app = await render(
    component(() =>
      scrollView(
        list(rows, (index) =>
          index % 7 === 3 ? show(false, () => text("never")) : text(`Row ${index}`)),
      )
    ),
    { height: 24 },
  );
  const listElement = app.app.root.children[0]!.children[0]!;
  // Rows whose content is hidden take no room: row n is at y = n minus the hidden ones before.
  const found = childrenIn(listElement, { x: 0, y: 5000, width: 80, height: 3 });
  const shown = found.map((item) => names(item.children)[0]);
  assert.equal(found.length, 3);
  for (const element of found) {
    assert.ok(element.box.y >= 5000 && element.box.y < 5003, `row at ${element.box.y}`);
  }
  assert.ok(shown.every((name) => name !== "never"));
  assert.deepEqual(childrenIn(listElement, { x: 0, y: 1e6, width: 80, height: 3 }), []);
  await app.close();
});

Deno.test("place() moves a scrolled list as one box: its rows keep theirs", async () => {
  const rows = Array.from({ length: 1000 }, (_, index) => index);
  const app = await render(
    component(() => scrollView(list(rows, (index) => text(`Row ${index}`)))),
    {
      height: 10,
    },
  );
  const view = app.app.root.children[0]!;
  const listElement = view.children[0]!;
  const row500 = listElement.children[500]!;
  const boxBefore = row500.box;
  view.behavior.scroll!(0, 495);
  app.app.frame();
  assert.equal(listElement.box.y, -495);
  assert.equal(row500.box, boxBefore, "the row's box was not placed again");
  const entry = layoutEntries(app.app.tree.root).find((e) => e.id === row500.node!.id)!;
  assert.deepEqual([entry.x, entry.y], [0, 5], "its window position follows the list");
  await app.close();
});
