import assert from "node:assert/strict";
import type { HeadlessRenderer } from "../../render/headless.ts";
import type { Signal } from "../../reactive/mod.ts";
import { render, type TestApp } from "../../testing.ts";
import { clickAt, pressKey } from "../../input/person.ts";
import { parseKeybind } from "../../text/keybind.ts";
import { button, column, component, radioGroup } from "../mod.ts";

/** The gallery's radio group, "Size" with Small, Medium and Large, between two buttons. */
async function sizeApp(options: { value?: string; disabled?: boolean } = {}) {
  let size!: Signal<string>;
  const changes: string[] = [];
  const app = await render(
    component((cx) => {
      size = cx.signal(options.value ?? "Small", { name: "size" });
      return column(
        button("Before", () => {}),
        radioGroup({
          label: "Size",
          options: ["Small", "Medium", "Large"],
          value: size,
          onChange: (value) => changes.push(value),
        }).disabled(options.disabled ?? false),
        button("After", () => {}),
      );
    }),
    { width: 30, height: 8 },
  );
  const screen = () =>
    (app.app.renderer as HeadlessRenderer).screen().map((line) => line.trimEnd());
  return { app, size, changes, screen, [Symbol.asyncDispose]: () => app.close() };
}

async function press(app: TestApp, keybind: string): Promise<void> {
  pressKey(app.app, parseKeybind(keybind));
  await app.settle();
}

const focused = (app: TestApp) => {
  const node = app.get({ state: "focused" });
  return `${node.role} ${node.name}`;
};
const checked = (app: TestApp) =>
  app.query({ role: "radio_button", state: "checked" }).map((node) => node.name);

Deno.test("a radio group shows its label and a line per option; the tree says which is checked", async () => {
  await using test = await sizeApp();
  const { app, screen } = test;
  assert.deepEqual(screen().slice(1, 5), ["Size", "(•) Small", "( ) Medium", "( ) Large"]);
  assert.match(
    app.tree(),
    /\n radio_group "Size" #\d+\n {2}radio_button "Small" #\d+ checked\n {2}radio_button "Medium" #\d+\n {2}radio_button "Large" #\d+\n/,
  );
});

Deno.test("a radio group is one Tab stop that enters at the chosen option", async () => {
  await using test = await sizeApp({ value: "Medium" });
  const { app } = test;
  await app.act(app.get({ role: "button", name: "Before" }).id, { action: "focus" });
  await press(app, "Tab");
  assert.equal(focused(app), "radio_button Medium");
  await press(app, "Tab");
  assert.equal(focused(app), "button After", "one Tab leaves the group");
  await press(app, "Shift+Tab");
  assert.equal(focused(app), "radio_button Medium", "Shift+Tab comes back to the chosen one");
  await press(app, "Shift+Tab");
  assert.equal(focused(app), "button Before");
});

Deno.test("with nothing chosen, Tab enters at the first option and Space chooses it", async () => {
  await using test = await sizeApp({ value: "" });
  const { app, size } = test;
  assert.deepEqual(checked(app), []);
  await app.act(app.get({ role: "button", name: "Before" }).id, { action: "focus" });
  await press(app, "Tab");
  assert.equal(focused(app), "radio_button Small");
  await press(app, "Space");
  assert.equal(size.get(), "Small");
  assert.deepEqual(checked(app), ["Small"]);
});

Deno.test("the arrows move and choose, wrapping; Home and End go to the ends", async () => {
  await using test = await sizeApp();
  const { app, size, changes, screen } = test;
  await app.act(app.get({ role: "radio_button", name: "Small" }).id, { action: "focus" });
  await press(app, "ArrowDown");
  assert.equal(focused(app), "radio_button Medium");
  assert.equal(size.get(), "Medium");
  assert.deepEqual(screen().slice(2, 5), ["( ) Small", "(•) Medium", "( ) Large"]);
  await press(app, "ArrowRight");
  assert.equal(size.get(), "Large");
  await press(app, "ArrowDown");
  assert.equal(size.get(), "Small", "past the last, the first");
  await press(app, "ArrowUp");
  assert.equal(size.get(), "Large", "before the first, the last");
  await press(app, "Home");
  assert.equal(focused(app), "radio_button Small");
  await press(app, "End");
  await press(app, "ArrowLeft");
  assert.equal(focused(app), "radio_button Medium");
  assert.deepEqual(checked(app), ["Medium"]);
  assert.deepEqual(changes, ["Medium", "Large", "Small", "Large", "Small", "Large", "Medium"]);
});

Deno.test("a person's click on an option chooses and focuses it", async () => {
  await using test = await sizeApp();
  const { app, size } = test;
  assert.ok(clickAt(app.app, 4, 4), "the click on Large's line hit it");
  await app.settle();
  assert.equal(size.get(), "Large");
  assert.equal(focused(app), "radio_button Large");
  assert.ok(clickAt(app.app, 1, 1), "a click on the group's label hits the group");
  await app.settle();
  assert.equal(size.get(), "Large", "and chooses nothing");
});

Deno.test("agents choose on the group with select, or click a radio button", async () => {
  await using test = await sizeApp();
  const { app, size, changes } = test;
  const group = app.get({ role: "radio_group" }).id;
  await app.act(group, { action: "select", option: "Large" });
  assert.equal(size.get(), "Large");
  assert.equal(focused(app), "radio_button Large", "focus goes to the chosen option");
  await app.act(app.get({ role: "radio_button", name: "Medium" }).id, { action: "click" });
  assert.deepEqual(checked(app), ["Medium"]);
  await app.act(app.get({ role: "radio_button", name: "Small" }).id, { action: "focus" });
  assert.deepEqual(checked(app), ["Medium"], "focus alone chooses nothing");
  await app.act(app.get({ role: "radio_button", name: "Small" }).id, {
    action: "press_key",
    keybind: "End",
  });
  assert.deepEqual(checked(app), ["Large"]);
  await assert.rejects(() => app.act(group, { action: "select", option: "Huge" }), {
    message:
      'invalid arguments: no option named "Huge" in this radio_group; its options are "Small", "Medium", "Large"',
  });
  await assert.rejects(
    () =>
      app.act(app.get({ role: "radio_button", name: "Small" }).id, {
        action: "select",
        option: "Small",
      }),
    { message: /select works on combo_box, radio_group, .* not on a radio_button/ },
  );
  assert.deepEqual(changes, ["Large", "Medium", "Large"]);
});

Deno.test("a disabled radio group refuses every action and Tab passes it", async () => {
  await using test = await sizeApp({ disabled: true });
  const { app, size } = test;
  assert.match(
    app.tree(),
    /radio_group "Size" #\d+ disabled\n {2}radio_button "Small" #\d+ checked disabled/,
  );
  const group = app.get({ role: "radio_group" }).id;
  await assert.rejects(() => app.act(group, { action: "select", option: "Large" }), {
    message: /the node is disabled/,
  });
  await assert.rejects(
    () => app.act(app.get({ role: "radio_button", name: "Large" }).id, { action: "click" }),
    { message: /the node is disabled/ },
  );
  clickAt(app.app, 4, 4);
  await app.settle();
  await app.act(app.get({ role: "button", name: "Before" }).id, { action: "focus" });
  await press(app, "Tab");
  assert.equal(focused(app), "button After");
  assert.equal(size.get(), "Small");
});

Deno.test("a radio group follows its options: buttons kept keep their ids", async () => {
  let options!: Signal<string[]>;
  await using app = await render(component((cx) => {
    options = cx.signal(["Small", "Medium"], { name: "options" });
    return radioGroup({ label: "Size", options, value: "Medium" });
  }));
  const medium = app.get({ role: "radio_button", name: "Medium" }).id;
  options.set(["Small", "Medium", "Large"]);
  await app.settle();
  assert.equal(app.get({ role: "radio_button", name: "Medium" }).id, medium);
  assert.deepEqual(checked(app), ["Medium"]);
  assert.equal(app.query({ role: "radio_button" }).length, 3);
  options.set(["Large"]);
  await app.settle();
  assert.deepEqual(app.query({ role: "radio_button" }).map((node) => node.name), ["Large"]);
  assert.deepEqual(checked(app), []);
});
