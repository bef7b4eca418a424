import assert from "node:assert/strict";
import type { Signal } from "../reactive/mod.ts";
import { render } from "../testing.ts";
import { AppTool, bind, column, component, dialog, show, text, View } from "./mod.ts";
import { button } from "./widgets/mod.ts";

/** An app whose "Toggle" button shows and hides a component that registers a tool. */
async function renderToggle(initiallyOpen = false) {
  const events: string[] = [];
  let open: Signal<boolean> | undefined;
  const root = component((cx) => {
    open = cx.signal(initiallyOpen);
    return column(
      button("Toggle", () => open!.set(!open!.get())),
      show(open, () =>
        component((panel) => {
          events.push("mount");
          panel.onCleanup(() => events.push("cleanup"));
          panel.registerTool(
            new AppTool("panel_tool", "Only while the panel is open", `{"type":"object"}`, () =>
              "{}"),
          );
          return column(
            text("Panel"),
            button("Inside", () =>
              events.push("inside")),
          );
        })),
      text("After"),
    );
  });
  const app = await render(root);
  const toggle = app.get({ name: "Toggle" }).id;
  return { app, events, toggle, open: () => open! };
}

Deno.test("show() mounting and unmounting", async (t) => {
  await t.step("show() mounts nothing while false", async () => {
    const { app, events } = await renderToggle();
    assert.equal(app.query({ name: "Panel" }).length, 0);
    assert.deepEqual(app.tools(), []);
    assert.deepEqual(events, []);
    await app.close();
  });

  await t.step("show() mounts the view in place, with its tool, when it turns true", async () => {
    const { app, events, toggle } = await renderToggle();
    const revision = app.revision;
    assert.equal(await app.act(toggle, { action: "click" }), revision + 1);
    assert.equal(
      app.tree(),
      [
        `window "Test" #1`,
        ` button "Toggle" #2 focused`,
        ` text "Panel" #4`,
        ` button "Inside" #5`,
        ` text "After" #3`,
        ``,
      ].join("\n"),
    );
    assert.deepEqual(app.tools().map((tool) => tool.name), ["panel_tool"]);
    assert.deepEqual(events, ["mount"]);
    await app.close();
  });

  await t.step(
    "show() unmounts when it turns false: cleanups run, the tool goes, ids go",
    async () => {
      const { app, events, toggle } = await renderToggle(true);
      const inside = app.get({ name: "Inside" }).id;
      await app.act(toggle, { action: "click" });
      assert.deepEqual(events, ["mount", "cleanup"]);
      assert.deepEqual(app.tools(), []);
      assert.equal(app.query({ name: "Panel" }).length, 0);
      await assert.rejects(() => app.act(inside, { action: "click" }), {
        message: `no node with id ${inside}; read ui_tree again`,
      });
      await app.close();
    },
  );

  await t.step("show() mounts afresh each time: a new setup, new ids", async () => {
    const { app, events, toggle } = await renderToggle(true);
    const first = app.get({ name: "Panel" }).id;
    await app.act(toggle, { action: "click" });
    await app.act(toggle, { action: "click" });
    const second = app.get({ name: "Panel" }).id;
    assert.ok(second > first, `the remounted text has a new id (${second} after ${first})`);
    assert.deepEqual(events, ["mount", "cleanup", "mount"]);
    assert.deepEqual(app.tools().map((tool) => tool.name), ["panel_tool"]);
    await app.close();
  });

  await t.step("show() keeps the view mounted while the condition stays true", async () => {
    let mounts = 0;
    const root = component((cx) => {
      const count = cx.signal(1);
      return column(
        button("+1", () => count.set(count.get() + 1)),
        show(bind(() => count.get() > 0), () => {
          mounts++;
          return text("positive");
        }),
      );
    });
    await using app = await render(root);
    const { id } = app.get({ name: "positive" });
    const plus = app.get({ name: "+1" }).id;
    await app.act(plus, { action: "focus" });
    const revision = app.revision;
    assert.equal(await app.act(plus, { action: "click" }), revision, "nothing changed");
    assert.equal(app.get({ name: "positive" }).id, id);
    assert.equal(mounts, 1);
  });

  await t.step("show() follows a binding", async () => {
    const root = component((cx) => {
      const count = cx.signal(0);
      return column(
        button("+1", () => count.set(count.get() + 1)),
        show(bind(() => count.get() % 2 === 1), () => text("odd")),
      );
    });
    await using app = await render(root);
    const plus = app.get({ name: "+1" }).id;
    await app.act(plus, { action: "click" });
    assert.equal(app.query({ name: "odd" }).length, 1);
    await app.act(plus, { action: "click" });
    assert.equal(app.query({ name: "odd" }).length, 0);
  });

  await t.step("show() drops focus held inside what it unmounts", async () => {
    const { app, open } = await renderToggle(true);
    const inside = app.get({ name: "Inside" }).id;
    await app.act(inside, { action: "hover" });
    await app.act(inside, { action: "focus" });
    assert.equal(app.app.focused?.node?.id, inside);
    open().set(false);
    await app.settle();
    assert.equal(app.app.focused, null);
    open().set(true);
    await app.settle();
    assert.doesNotMatch(app.tree(), /focused|hovered/, "the new panel starts without them");
    await app.close();
  });

  await t.step("show() unmounting a dialog takes it off the overlays", async () => {
    let open: Signal<boolean> | undefined;
    const root = component((cx) => {
      open = cx.signal(true);
      return show(open, () => dialog("Box", text("inside")));
    });
    await using app = await render(root);
    assert.equal(app.app.overlays.length, 1);
    open!.set(false);
    await app.settle();
    assert.equal(app.app.overlays.length, 0);
    assert.equal(app.query({ role: "dialog" }).length, 0);
  });

  await t.step("show() refuses a render argument that is not a function", () => {
    assert.throws(() => show(true, text("x") as unknown as () => View), {
      name: "TypeError",
      message: "show() takes a condition and a function () => view",
    });
  });
});
