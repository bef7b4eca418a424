import assert from "node:assert/strict";
import type { HeadlessRenderer } from "../../render/headless.ts";
import { Signal } from "../../reactive/mod.ts";
import { render, type TestApp } from "../../testing.ts";
import { clickAt, pressKey, typeText } from "../../input/person.ts";
import { parseKeybind } from "../../text/keybind.ts";
import { bind, button, column, component, select, text } from "../mod.ts";

/** The gallery's select: "Colour" with Red, Green and Blue, between two buttons. */
async function colourApp(options: { disabled?: boolean } = {}) {
  let colour!: Signal<string>;
  const changes: string[] = [];
  const app = await render(
    component((cx) => {
      colour = cx.signal("Red", { name: "colour" });
      return column(
        button("Before", () => {}),
        select({
          label: "Colour",
          options: ["Red", "Green", "Blue"],
          value: colour,
          onChange: (value) => changes.push(value),
        }).disabled(options.disabled ?? false),
        text("Line one"),
        text("Line two"),
        text("Line three"),
        button("After", () => {}),
      );
    }),
    { width: 30, height: 10 },
  );
  return {
    app,
    colour,
    changes,
    screen: () => screenOf(app),
    id: comboId(app),
    [Symbol.asyncDispose]: () => app.close(),
  };
}

function screenOf(app: TestApp): string[] {
  return (app.app.renderer as HeadlessRenderer).screen().map((line) => line.trimEnd());
}

function comboId(app: TestApp): number {
  return app.get({ role: "combo_box" }).id;
}

/** Presses `keybind` on whatever has focus, as a person does. */
async function press(app: TestApp, keybind: string): Promise<void> {
  pressKey(app.app, parseKeybind(keybind));
  await app.settle();
}

function focusedName(app: TestApp): string | null {
  return app.get({ state: "focused" }).name;
}

function optionNames(app: TestApp): (string | null)[] {
  return app.query({ role: "option" }).map((option) => option.name);
}

Deno.test("a closed select shows its label, the chosen option and ▾; its node says the same", async () => {
  await using test = await colourApp();
  const { app, screen } = test;
  assert.equal(screen()[1], "Colour [Red    ▾]");
  assert.match(app.tree(), /\n combo_box "Colour" #\d+ value="Red" collapsed\n/);
  assert.deepEqual(optionNames(app), [], "no option nodes while closed");
});

Deno.test("a select opens with Enter, Space or an arrow, on the chosen option", async (t) => {
  await using test = await colourApp();
  const { app, colour, changes, screen, id } = test;
  await t.step("Enter opens a popup under the box, focus on the chosen option", async () => {
    await app.act(id, { action: "press_key", keybind: "Enter" });
    assert.deepEqual(optionNames(app), ["Red", "Green", "Blue"]);
    assert.equal(focusedName(app), "Red");
    assert.match(
      app.tree(),
      /combo_box "Colour" #\d+ value="Red" expanded\n {2}option "Red" #\d+ focused selected\n {2}option "Green" #\d+\n/,
    );
    const lines = screen();
    assert.equal(lines[1], "Colour [Red    ▴]");
    assert.equal(lines[2], "Line on┌──────────┐", "the popup starts under the box, over the text");
    assert.equal(lines[3], "Line tw│ ✓ Red    │");
    assert.equal(lines[4], "Line th│   Green  │");
    assert.equal(lines[5], "[ After│   Blue   │");
    assert.equal(lines[6], "       └──────────┘");
  });
  await t.step("ArrowDown, End and Home move; Escape closes without choosing", async () => {
    await press(app, "ArrowDown");
    assert.equal(focusedName(app), "Green");
    await press(app, "End");
    assert.equal(focusedName(app), "Blue");
    await press(app, "ArrowDown");
    assert.equal(focusedName(app), "Red", "the arrows wrap");
    await press(app, "Home");
    await press(app, "ArrowDown");
    await press(app, "Escape");
    assert.deepEqual(optionNames(app), []);
    assert.equal(colour.get(), "Red");
    assert.deepEqual(changes, []);
    assert.match(app.tree(), /combo_box "Colour" #\d+ value="Red" focused collapsed/);
  });
  await t.step(
    "Space opens; Enter on an option chooses it, closes and gives focus back",
    async () => {
      await press(app, "Space");
      assert.equal(focusedName(app), "Red");
      await press(app, "ArrowDown");
      await press(app, "Enter");
      assert.equal(colour.get(), "Green");
      assert.deepEqual(changes, ["Green"]);
      assert.deepEqual(optionNames(app), []);
      assert.match(app.tree(), /combo_box "Colour" #\d+ value="Green" focused collapsed/);
      assert.equal(screen()[1], "Colour [Green  ▾]");
    },
  );
  await t.step("ArrowUp on the closed select opens it on the chosen option", async () => {
    await press(app, "ArrowUp");
    assert.equal(focusedName(app), "Green");
    assert.match(app.tree(), /option "Green" #\d+ focused selected/);
    await press(app, "ArrowUp");
    await press(app, "Space");
    assert.equal(colour.get(), "Red", "Space on an option chooses it too");
    assert.deepEqual(changes, ["Green", "Red"]);
  });
  await t.step("Tab away closes an open select", async () => {
    await press(app, "Enter");
    assert.equal(optionNames(app).length, 3);
    await app.act(app.get({ role: "button", name: "After" }).id, { action: "focus" });
    assert.deepEqual(optionNames(app), []);
    assert.equal(colour.get(), "Red");
  });
});

Deno.test("type-ahead: letters go to the next option starting with them, open or closed", async () => {
  await using app = await render(component((cx) => {
    const tone = cx.signal("Red", { name: "tone" });
    return select({
      label: "Tone",
      options: ["Red", "Black", "Blue", "Brown", "Green"],
      value: tone,
    });
  }));
  const id = comboId(app);
  await app.act(id, { action: "focus" });
  await press(app, "b"); // closed: it opens at the first option starting with b
  assert.equal(focusedName(app), "Black");
  await press(app, "b");
  assert.equal(focusedName(app), "Blue", "the same letter again goes to the next");
  await press(app, "b");
  await press(app, "b");
  assert.equal(focusedName(app), "Black", "and round again");
  await press(app, "G");
  assert.equal(focusedName(app), "Green", "whatever the case");
  await press(app, "x");
  assert.equal(focusedName(app), "Green", "no option starts with x: focus stays");
  typeText(app.app, "r");
  await app.settle();
  assert.equal(focusedName(app), "Red");
  await press(app, "Enter");
  assert.equal(app.get({ role: "combo_box" }).value, "Red");
});

Deno.test("a person's clicks open the select, choose an option and close it", async () => {
  await using test = await colourApp();
  const { app, colour, changes, screen } = test;
  assert.ok(clickAt(app.app, 9, 1), "the click on the box hit it");
  await app.settle();
  assert.equal(optionNames(app).length, 3);
  assert.equal(focusedName(app), "Red");
  assert.ok(clickAt(app.app, 9, 5), "the click on Blue's line hit the popup, not the button");
  await app.settle();
  assert.equal(colour.get(), "Blue");
  assert.deepEqual(changes, ["Blue"]);
  assert.deepEqual(optionNames(app), []);
  assert.equal(focusedName(app), "Colour");
  assert.equal(screen()[1], "Colour [Blue   ▾]");
  // A click on the box while open closes it without choosing.
  clickAt(app.app, 9, 1);
  await app.settle();
  clickAt(app.app, 9, 1);
  await app.settle();
  assert.deepEqual(optionNames(app), []);
  assert.equal(colour.get(), "Blue");
});

Deno.test("agents choose with select, open or closed, click an option, and are told the options", async (t) => {
  await using test = await colourApp();
  const { app, colour, changes, id } = test;
  await t.step("select on the closed select chooses without opening it", async () => {
    await app.act(id, { action: "select", option: "Green" });
    assert.equal(colour.get(), "Green");
    assert.deepEqual(optionNames(app), []);
    assert.match(app.tree(), /combo_box "Colour" #\d+ value="Green" focused collapsed/);
  });
  await t.step("select on the open select chooses and closes it", async () => {
    await app.act(id, { action: "click" });
    assert.equal(optionNames(app).length, 3);
    await app.act(id, { action: "select", option: "Blue" });
    assert.equal(colour.get(), "Blue");
    assert.deepEqual(optionNames(app), []);
    assert.equal(focusedName(app), "Colour");
  });
  await t.step("choosing the chosen option again tells the app nothing", async () => {
    await app.act(id, { action: "select", option: "Blue" });
    assert.deepEqual(changes, ["Green", "Blue"]);
  });
  await t.step("a click on an option node chooses it", async () => {
    await app.act(id, { action: "press_key", keybind: "Enter" });
    await app.act(app.get({ role: "option", name: "Red" }).id, { action: "click" });
    assert.equal(colour.get(), "Red");
    assert.deepEqual(optionNames(app), []);
  });
  await t.step(
    "an unknown option is refused, naming the options, and changes nothing",
    async () => {
      const revision = app.app.tree.revision;
      await assert.rejects(() => app.act(id, { action: "select", option: "Purple" }), {
        message:
          'invalid arguments: no option named "Purple" in this combo_box; its options are "Red", "Green", "Blue"',
      });
      await assert.rejects(() => app.act(id, { action: "select", option: "red" }), {
        message: /no option named "red"/,
      });
      assert.equal(colour.get(), "Red");
      assert.equal(app.app.tree.revision, revision);
    },
  );
  await t.step("the app setting the signal shows the new choice", async () => {
    colour.set("Green");
    await app.settle();
    assert.equal(app.get({ role: "combo_box" }).value, "Green");
    colour.set("Mauve"); // no option has it: nothing is chosen
    await app.settle();
    assert.equal(app.get({ role: "combo_box" }).value, undefined);
    assert.match(screenOf(app)[1]!, /^Colour \[Select ▾\]/);
  });
});

Deno.test("a disabled select refuses agents and people, and Tab passes it", async () => {
  await using test = await colourApp({ disabled: true });
  const { app, colour, id } = test;
  assert.match(app.tree(), /combo_box "Colour" #\d+ value="Red" collapsed disabled/);
  await assert.rejects(() => app.act(id, { action: "select", option: "Blue" }), {
    message: /the node is disabled/,
  });
  await assert.rejects(() => app.act(id, { action: "click" }), { message: /disabled/ });
  clickAt(app.app, 9, 1);
  await app.settle();
  assert.deepEqual(optionNames(app), []);
  await app.act(app.get({ role: "button", name: "Before" }).id, { action: "focus" });
  await press(app, "Tab");
  assert.equal(focusedName(app), "After");
  assert.equal(colour.get(), "Red");
});

Deno.test("options with values: onChange gets the value, the tree the label", async () => {
  const sizes: number[] = [];
  await using app = await render(component((cx) => {
    const size = cx.signal(16, { name: "size" });
    return select({
      label: "Font size",
      options: [{ label: "Small", value: 10 }, { label: "Large", value: 16 }],
      value: size,
      onChange: (chosen) => sizes.push(chosen),
    }).invalid(bind(() => size.get() < 12 ? "too small to read" : null));
  }));
  const id = comboId(app);
  assert.equal(app.get({ role: "combo_box" }).value, "Large");
  await app.act(id, { action: "select", option: "Small" });
  assert.deepEqual(sizes, [10]);
  assert.match(app.tree(), /combo_box "Font size" #\d+ value="Small" .*invalid/);
  assert.equal(app.get({ role: "combo_box" }).description, "too small to read");
});

Deno.test("options from a signal: the select follows them, open or closed", async () => {
  let names!: Signal<string[]>;
  await using app = await render(component((cx) => {
    names = cx.signal(["Red", "Green"], { name: "names" });
    return select({ label: "Colour", options: names, value: "Green" });
  }));
  const id = comboId(app);
  await app.act(id, { action: "click" });
  assert.deepEqual(optionNames(app), ["Red", "Green"]);
  names.set(["Green", "Blue", "Cyan"]);
  await app.settle();
  assert.deepEqual(optionNames(app), ["Green", "Blue", "Cyan"], "the open popup shows them");
  assert.equal(focusedName(app), "Green", "focus on the chosen one, still chosen");
  names.set(["Blue"]);
  await app.settle();
  assert.equal(app.get({ role: "combo_box" }).value, undefined, "its option went: none chosen");
  names.set(["Blue", "Blue"]);
  await app.settle();
  assert.deepEqual(optionNames(app), ["Blue"], "repeated labels are refused, the old ones kept");
});

Deno.test("a long select scrolls its popup to the focused option", async () => {
  const many = Array.from({ length: 30 }, (_, index) => `Option ${index + 1}`);
  await using app = await render(
    component(() => select({ label: "Pick", options: many, value: "Option 1" })),
    { width: 30, height: 16 },
  );
  await app.act(comboId(app), { action: "press_key", keybind: "Enter" });
  let lines = screenOf(app);
  assert.equal(lines.length, 16);
  assert.ok(lines.some((line) => line.includes("Option 10")), lines.join("\n"));
  assert.ok(!lines.some((line) => line.includes("Option 11")), "ten options show at once");
  await press(app, "PageDown");
  assert.equal(focusedName(app), "Option 11", "PageDown moves by the ten options shown");
  await press(app, "PageDown");
  await press(app, "PageDown");
  assert.equal(focusedName(app), "Option 30", "and stops at the last");
  await press(app, "PageUp");
  assert.equal(focusedName(app), "Option 20");
  await press(app, "End");
  assert.equal(focusedName(app), "Option 30");
  lines = screenOf(app);
  assert.ok(lines.some((line) => line.includes("Option 30")), lines.join("\n"));
  assert.equal(optionNames(app).length, 30, "every option is a node agents can find");
});

Deno.test("select() refuses what it cannot show", () => {
  assert.throws(() => select({ label: "x", options: ["a", "a"] }), {
    name: "TypeError",
    message:
      `select()'s options need labels that differ (agents choose by label): "a" is there twice`,
  });
  assert.throws(() => select({ label: "x", options: [3 as unknown as string] }), {
    message: "select()'s options are strings or { label, value } objects, got 3",
  });
  assert.throws(() => select(undefined as never), { name: "TypeError" });
});
