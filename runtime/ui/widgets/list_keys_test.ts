import assert from "node:assert/strict";
import type { Signal } from "../../reactive/mod.ts";
import { render, type TestApp } from "../../testing.ts";
import { button, checkbox, column, component, list, row, scrollView, text } from "../mod.ts";

const NAMES = Array.from({ length: 40 }, (_, index) => `Row ${index}`);

/** A button, a list of 40 rows in a 10-row scroll view, and a button after it. */
async function longList(
  withControls = false,
): Promise<{ app: TestApp; chosen: Signal<unknown>; [Symbol.asyncDispose](): Promise<void> }> {
  let chosen: Signal<unknown> | undefined;
  const app = await render(
    component((cx) => {
      chosen = cx.signal<unknown>(null, { name: "chosen" });
      return column(
        button("Before", () => {}),
        scrollView(
          list(
            NAMES,
            (name) =>
              withControls
                ? row(checkbox("Done", false), text(name), button("Open", () => {}))
                : text(name),
          ).selection(chosen),
        ).height(10),
        button("After", () => {}),
      );
    }),
    { width: 40, height: 14 },
  );
  return { app, chosen: chosen!, [Symbol.asyncDispose]: () => app.close() };
}

const focusedName = (app: TestApp) => app.get({ state: "focused" }).name;
const shows = (app: TestApp, name: string) =>
  !app.get({ role: "list_item", name }).states.includes("offscreen");

Deno.test("the arrows keep the focused row in view on the key that moved it", async () => {
  await using test = await longList();
  const { app } = test;
  await app.act(app.get({ role: "list_item", name: "Row 9" }).id, { action: "focus" });
  assert.ok(shows(app, "Row 9") && !shows(app, "Row 10"));
  await app.act(app.get({ state: "focused" }).id, { action: "press_key", keybind: "ArrowDown" });
  assert.equal(focusedName(app), "Row 10");
  assert.ok(shows(app, "Row 10"), "the row focus moved to shows in the same frame");
  assert.ok(!shows(app, "Row 0"), "the view scrolled by one row");
});

Deno.test("PageDown, PageUp, Home, End and type-ahead move through a list", async () => {
  await using test = await longList();
  const { app, chosen } = test;
  const press = (keybind: string) =>
    app.act(app.get({ state: "focused" }).id, { action: "press_key", keybind });
  await app.act(app.get({ role: "list_item", name: "Row 0" }).id, { action: "click" });
  await press("PageDown");
  assert.equal(focusedName(app), "Row 9", "a page is the rows the view shows, less one");
  assert.ok(shows(app, "Row 9"));
  await press("End");
  assert.equal(focusedName(app), "Row 39");
  assert.ok(shows(app, "Row 39"));
  await press("PageUp");
  assert.equal(focusedName(app), "Row 30");
  await press("Home");
  assert.equal(focusedName(app), "Row 0");
  assert.equal(chosen.get(), "Row 0", "moving selects, and the app's selection follows");
  // Type-ahead: "R" goes to the next row starting with it; "Row 3" narrows within a second.
  for (const key of ["R", "o", "w", "Space", "3"]) await press(key);
  assert.equal(focusedName(app), "Row 3");
  await press("2");
  assert.equal(focusedName(app), "Row 32");
});

Deno.test("a list is one Tab stop; Tab visits the current row's controls, then leaves", async () => {
  await using test = await longList(true);
  const { app } = test;
  const tab = async () => {
    await app.act(app.get({ state: "focused" }).id, { action: "press_key", keybind: "Tab" });
    const focused = app.get({ state: "focused" });
    return `${focused.role} ${focused.name}`;
  };
  await app.act(app.get({ role: "button", name: "Before" }).id, { action: "focus" });
  assert.deepEqual(
    [await tab(), await tab(), await tab(), await tab()],
    ["list_item Row 0", "checkbox Done", "button Open", "button After"],
  );
  // Arrows from a row's own control move to the next row; Tab then enters at that row.
  await app.act(app.get({ role: "button", name: "Before" }).id, { action: "focus" });
  await tab();
  await app.act(app.get({ state: "focused" }).id, { action: "press_key", keybind: "ArrowDown" });
  await app.act(app.get({ role: "button", name: "After" }).id, { action: "focus" });
  await app.act(app.get({ role: "button", name: "After" }).id, {
    action: "press_key",
    keybind: "Shift+Tab",
  });
  assert.equal(app.get({ state: "focused" }).role, "button");
  assert.match(app.get({ state: "focused" }).path, /list_item "Row 1"/);
});

Deno.test("the selection is the app's: setting it selects the row, even after a filter", async () => {
  await using test = await longList();
  const { app, chosen } = test;
  chosen.set("Row 7");
  await app.settle();
  assert.deepEqual(app.query({ role: "list_item", state: "selected" }).map((m) => m.name), [
    "Row 7",
  ]);
  await app.act(app.get({ role: "list" }).id, { action: "select", option: "Row 33" });
  assert.equal(chosen.get(), "Row 33");
  assert.ok(shows(app, "Row 33"), "select by name brings the row into view");
  await assert.rejects(
    () => app.act(app.get({ role: "list" }).id, { action: "select", option: "Row 99" }),
    {
      message:
        'invalid arguments: no option named "Row 99" in this list; its options are "Row 0", "Row 1", "Row 2", "Row 3", "Row 4", "Row 5", "Row 6", "Row 7", "Row 8", "Row 9" and 30 more',
    },
  );
});
