import assert from "node:assert/strict";
import { HeadlessRenderer } from "../render/headless.ts";
import { render } from "../testing.ts";
import { clickAt, pressKey } from "../input/person.ts";
import { parseKeybind } from "../text/keybind.ts";
import { button, column, component, menu, menuItem, row, text } from "./mod.ts";

/** A menu above a line of text, and a button after it, in a 30×8 window. */
async function menuApp() {
  const chosen: string[] = [];
  const app = await render(
    component(() =>
      column(
        row(
          menu("File", menuItem("Open", () => chosen.push("open")), menuItem("Save", () => {})),
          button("Next", () => chosen.push("next")),
        ),
        text("Under the menu"),
        text("Second line"),
      )
    ),
    { width: 30, height: 8 },
  );
  const screen = () =>
    (app.app.renderer as HeadlessRenderer).screen().map((line) => line.trimEnd());
  return { app, chosen, screen };
}

Deno.test("a disclosure's popup is drawn over the content below its opener", async () => {
  const { app, screen } = await menuApp();
  assert.equal(screen()[1], "Under the menu");
  await app.act(app.get({ role: "menu" }).id, { action: "click" });
  const lines = screen();
  assert.match(lines[0]!, /^File ▴/);
  assert.match(lines[1]!, /^┌/, "the popup's frame starts on the row under the opener");
  assert.match(lines[2]!, /│ Open /);
  assert.match(lines[3]!, /│ Save /);
  // The content keeps its place: the popup covers it instead of pushing it down.
  const under = app.get({ role: "text", name: "Under the menu" });
  assert.equal(app.app.tree.get(under.id)!.bounds.y, 1);
  // The items are the menu's children in the tree, as before.
  assert.match(app.tree(), /menu "File" #\d+ focused expanded\n {2,}menu_item "Open"/);
});

Deno.test("a disclosure closes on Escape, on Tab away and after a choice, and gives focus back", async (t) => {
  const { app, chosen } = await menuApp();
  const menuId = app.get({ role: "menu" }).id;

  await t.step(
    "ArrowDown opens and focuses the first item; Escape closes, focus on the opener",
    async () => {
      await app.act(menuId, { action: "press_key", keybind: "ArrowDown" });
      assert.match(app.tree(), /menu_item "Open" #\d+ focused/);
      await app.act(app.get({ role: "menu_item", name: "Open" }).id, {
        action: "press_key",
        keybind: "Escape",
      });
      assert.deepEqual(app.query({ role: "menu_item" }), []);
      assert.match(app.tree(), /menu "File" #\d+ focused collapsed/);
    },
  );

  await t.step("End goes to the last item; Tab moves focus out and closes the popup", async () => {
    await app.act(menuId, { action: "press_key", keybind: "ArrowDown" });
    const open = app.get({ role: "menu_item", name: "Open" }).id;
    await app.act(open, { action: "press_key", keybind: "End" });
    assert.match(app.tree(), /menu_item "Save" #\d+ focused/);
    pressKey(app.app, parseKeybind("Tab"));
    await app.settle();
    assert.deepEqual(app.query({ role: "menu_item" }), [], "the popup closed");
    assert.notEqual(app.app.focused?.node?.id, menuId);
  });

  await t.step("a person's click on an item hits the popup, above the text under it", async () => {
    await app.act(menuId, { action: "click" });
    assert.ok(clickAt(app.app, 2, 2), "the click at Open's row hit something");
    await app.settle();
    assert.deepEqual(chosen, ["open"]);
    assert.deepEqual(app.query({ role: "menu_item" }), []);
    assert.match(app.tree(), /menu "File" #\d+ focused collapsed/);
  });
});
