import assert from "node:assert/strict";
import type { Signal } from "../reactive/mod.ts";
import { type Action, ActionError, render, type TestApp } from "../testing.ts";
import {
  button,
  checkbox,
  column,
  component,
  dialog,
  list,
  menu,
  menuItem,
  row,
  scrollView,
  show,
  slider,
  text,
  textField,
} from "../ui/mod.ts";
import { ACTION_NAMES, dispatchKey, parseAction, staleRevisionMessage } from "./action.ts";
import { parseKeybind } from "../text/keybind.ts";

/** A form with one of every widget; handlers report into `events`. */
async function renderForm() {
  const events: string[] = [];
  let name: Signal<string> | undefined;
  let level: Signal<number> | undefined;
  let agree: Signal<boolean> | undefined;
  let open: Signal<boolean> | undefined;
  let secret: Signal<string> | undefined;
  const root = component((cx) => {
    name = cx.signal("", { name: "name" });
    level = cx.signal(5, { name: "level" });
    agree = cx.signal(false, { name: "agree" });
    open = cx.signal(false, { name: "open" });
    secret = cx.secret("", { name: "secret" });
    return column(
      textField({
        label: "Name",
        value: name,
        onSubmit: (value) => events.push(`submit ${value}`),
      }),
      row(
        checkbox("Agree", agree),
        button("Save", () => events.push("save")),
        button("Off", () => events.push("off")).disabled(),
      ),
      slider({ label: "Level", value: level, min: 0, max: 10 }),
      list(["one", "two", "three"], (item) => text(item))
        .onSelect((item) => events.push(`select ${item}`))
        .onActivate((item) => events.push(`activate ${item}`)),
      menu(
        "Edit",
        menuItem("Undo", () => events.push("undo")),
        menuItem("Redo", () => events.push("redo")),
      ),
      button("Open", () => open!.set(true)),
      show(open, () =>
        dialog(
          "Confirm",
          textField({ label: "Reason", value: "" }),
          textField({ label: "PIN", value: secret! }).secure(),
          slider({ label: "Amount", value: 0, min: 0, max: 100 }),
          button("OK", () => open!.set(false)),
          button("Gone", () => {}).disabled(),
        ).onClose(() => {
          events.push("close");
          open!.set(false);
        })),
      scrollView(column(...Array.from({ length: 8 }, (_, index) => text(`line ${index}`)))).height(
        3,
      ),
      text("Plain"),
      textField({ label: "Notes", value: "" }),
    );
  });
  const app = await render(root, { title: "Form" });
  const id = (query: { role?: string; name?: string }) => app.get(query).id;
  return {
    app,
    events,
    id,
    name: () => name!.get(),
    level: () => level!.get(),
    agree: () => agree!.get(),
    secret: () => secret!.get(),
    openDialog: async () => {
      open!.set(true);
      await app.settle();
    },
  };
}

/** The names (or roles) of the focused nodes, from the tree text. */
function focusedLine(app: TestApp): string {
  return app.tree().split("\n").filter((line) => / focused\b/.test(line)).map((line) =>
    line.trim().replace(/ #\d+.*/, "")
  ).join(" | ");
}

/** The id of the node that has focus. */
function focusedId(app: TestApp): number {
  const match = /#(\d+)[^\n]* focused/.exec(app.tree());
  if (match === null) throw new Error(`nothing has focus:\n${app.tree()}`);
  return Number(match[1]);
}

/** Acts at the current revision and checks that the revision moved by `steps` (0 or 1). */
async function actExpecting(app: TestApp, id: number, action: Action, steps: 0 | 1) {
  const before = app.revision;
  const after = await app.act(id, action, before);
  assert.equal(after, before + steps, `${JSON.stringify(action)} moves the revision by ${steps}`);
  assert.equal(app.revision, after, "no frame is left pending");
}

function layoutOf(app: TestApp, id: number) {
  const entry = app.snapshot().layout.find((candidate) => candidate.id === id);
  assert.ok(entry, `node #${id} has a layout entry`);
  return entry;
}

Deno.test("parseAction()", async (t) => {
  await t.step("parseAction() accepts the nine actions", () => {
    const actions: Action[] = [
      { action: "click" },
      { action: "double_click" },
      { action: "hover" },
      { action: "focus" },
      { action: "type_text", text: "hello" },
      { action: "press_key", keybind: "Ctrl+A" },
      { action: "scroll", delta: { x: 0, y: 120 } },
      { action: "drag", to: { x: 40, y: 300 } },
      { action: "select", option: "Green" },
    ];
    assert.deepEqual(actions.map((action) => action.action), [...ACTION_NAMES]);
    for (const action of actions) assert.deepEqual(parseAction({ ...action }), action);
  });

  await t.step("parseAction() refuses fields an action does not take, naming them", () => {
    const cases: [unknown, string][] = [
      [
        { action: "click", text: "x" },
        `invalid arguments: unknown field "text" in a click action; it takes no other field`,
      ],
      [
        { action: "type_text", text: "x", delay: 5 },
        `invalid arguments: unknown field "delay" in a type_text action; it takes "text"`,
      ],
      [
        { action: "hover", ["k".repeat(100_000)]: 1 },
        `invalid arguments: unknown field "${
          "k".repeat(40)
        }…" in a hover action; it takes no other field`,
      ],
      [
        { action: "scroll", delta: { x: 0, y: 1, z: 2 } },
        `invalid arguments: unknown field "z" in the delta of a scroll action; it takes "x" and "y"`,
      ],
    ];
    for (const [raw, message] of cases) {
      assert.throws(() => parseAction(raw), { name: "ActionError", kind: "invalid", message });
    }
  });

  await t.step("parseAction() refuses an unknown action", () => {
    assert.throws(() => parseAction({ action: "tap" }), {
      name: "ActionError",
      kind: "invalid",
      message:
        `unknown action "tap": expected one of click, double_click, hover, focus, type_text, press_key, scroll, drag, select`,
    });
    assert.throws(() => parseAction({ type: "click" }), {
      kind: "invalid",
      message:
        `invalid arguments: the action object needs an "action" field naming the action, such as {"action": "click"}`,
    });
  });

  await t.step("parseAction() refuses what is not an object", () => {
    for (const raw of [null, "click", 3, ["click"]]) {
      assert.throws(() => parseAction(raw), {
        name: "ActionError",
        kind: "invalid",
        message: `invalid arguments: action must be an object such as {"action": "click"}`,
      });
    }
  });

  await t.step("parseAction() says what each action's arguments must be", () => {
    const cases: [unknown, string][] = [
      [
        { action: "type_text" },
        `invalid arguments: type_text needs "text", a string, as in {"action": "type_text", "text": "hello"}`,
      ],
      [
        { action: "type_text", text: 5 },
        `invalid arguments: type_text needs "text", a string, as in {"action": "type_text", "text": "hello"}`,
      ],
      [
        { action: "press_key" },
        `invalid arguments: press_key needs "keybind", a string, as in {"action": "press_key", "keybind": "Ctrl+A"}`,
      ],
      [
        { action: "press_key", keybind: "Ctrl+Nope" },
        `invalid arguments: invalid keybind "Ctrl+Nope": unknown key "Nope"; expected a name such as Enter, Tab, ArrowDown, F5 or a single character`,
      ],
      [
        { action: "scroll", delta: { x: 0 } },
        `invalid arguments: scroll needs "delta" with numbers x and y, as in {"action": "scroll", "delta": {"x": 0, "y": 3}}`,
      ],
      [
        { action: "scroll", delta: { x: 0, y: Infinity } },
        `invalid arguments: scroll needs "delta" with numbers x and y, as in {"action": "scroll", "delta": {"x": 0, "y": 3}}`,
      ],
      [
        { action: "drag", to: [1, 2] },
        `invalid arguments: drag needs "to" with numbers x and y, as in {"action": "drag", "to": {"x": 40, "y": 3}}`,
      ],
      [
        { action: "drag", to: { x: "1", y: 2 } },
        `invalid arguments: drag needs "to" with numbers x and y, as in {"action": "drag", "to": {"x": 40, "y": 3}}`,
      ],
    ];
    for (const [raw, message] of cases) {
      assert.throws(() => parseAction(raw), { name: "ActionError", kind: "invalid", message });
    }
  });
});

Deno.test("act() guards", async (t) => {
  await t.step("act() refuses an id that names no node", async () => {
    const { app } = await renderForm();
    await assert.rejects(() => app.act(999, { action: "click" }), {
      name: "ActionError",
      kind: "no_node",
      message: "no node with id 999; read ui_tree again",
    });
    await app.close();
  });

  await t.step("act() refuses an id whose node was removed", async () => {
    const { app, id } = await renderForm();
    await app.act(id({ role: "menu" }), { action: "click" });
    const undo = id({ name: "Undo" });
    await app.act(id({ role: "menu" }), { action: "click" });
    await assert.rejects(() => app.act(undo, { action: "click" }), {
      message: `no node with id ${undo}; read ui_tree again`,
    });
    await app.close();
  });

  await t.step("act() refuses a stale revision and does nothing", async () => {
    const { app, id, events } = await renderForm();
    const old = app.revision;
    await app.act(id({ name: "Save" }), { action: "click" }, old);
    const current = app.revision;
    assert.equal(current, old + 1);
    await assert.rejects(() => app.act(id({ name: "Save" }), { action: "click" }, old), {
      name: "ActionError",
      kind: "stale_revision",
      message:
        `stale revision: the tree is now at revision ${current}; read ui_tree again and retry`,
    });
    assert.equal(
      staleRevisionMessage(7),
      "stale revision: the tree is now at revision 7; read ui_tree again and retry",
    );
    assert.deepEqual(events, ["save"]);
    assert.equal(app.revision, current);
    await app.close();
  });

  await t.step("act() checks the revision against a frame still pending", async () => {
    const { app, id } = await renderForm();
    const seen = app.revision;
    app.app.rt.requestFrame(); // an empty frame: the revision stays
    await app.act(id({ name: "Save" }), { action: "hover" }, seen);
    const hovered = app.revision;
    app.app.focus(null);
    app.app.focus(app.app.elementById(id({ name: "Save" }))!); // a change not yet framed
    await assert.rejects(() => app.act(id({ name: "Save" }), { action: "click" }, hovered), {
      message: staleRevisionMessage(hovered + 1),
    });
    await app.close();
  });

  await t.step("act() refuses ids and revisions that are not whole numbers", async () => {
    const { app } = await renderForm();
    await assert.rejects(() => app.act(1.5, { action: "click" }), {
      kind: "invalid",
      message: "invalid arguments: id must be a whole number",
    });
    await assert.rejects(() => app.act("2" as unknown as number, { action: "click" }), {
      message: "invalid arguments: id must be a whole number",
    });
    await assert.rejects(() => app.act(2, { action: "click" }, 1.5), {
      kind: "invalid",
      message: "invalid arguments: revision must be a whole number",
    });
    await app.close();
  });

  await t.step("act() refuses an unknown action", async () => {
    const { app } = await renderForm();
    await assert.rejects(() => app.act(2, { action: "swipe" } as unknown as Action), {
      kind: "invalid",
      message: /^unknown action "swipe": expected one of click, /,
    });
    await app.close();
  });

  await t.step("a disabled node refuses every action", async () => {
    const { app, id, events } = await renderForm();
    const off = id({ name: "Off" });
    const revision = app.revision;
    const actions: Action[] = [
      { action: "click" },
      { action: "double_click" },
      { action: "hover" },
      { action: "focus" },
      { action: "type_text", text: "x" },
      { action: "press_key", keybind: "Enter" },
      { action: "scroll", delta: { x: 0, y: 1 } },
      { action: "drag", to: { x: 0, y: 0 } },
    ];
    for (const action of actions) {
      await assert.rejects(() => app.act(off, action, revision), {
        name: "ActionError",
        kind: "disabled",
        message: 'the node is disabled; ui_wait with "state": "enabled" waits for it',
      }, action.action);
    }
    assert.deepEqual(events, []);
    assert.equal(app.revision, revision);
    await app.close();
  });

  await t.step("a secure node refuses agents' type_text and press_key", async () => {
    const { app, id, openDialog, secret } = await renderForm();
    await openDialog();
    const pin = id({ name: "PIN" });
    for (
      const action of [{ action: "type_text", text: "1234" }, {
        action: "press_key",
        keybind: "1",
      }] as const
    ) {
      await assert.rejects(() => app.act(pin, action), {
        name: "ActionError",
        kind: "secret",
        message:
          "the node holds a secret: agents may not type into it or press keys on it; ask the user to fill it in",
      });
    }
    assert.equal(secret(), "");
    await app.close();
  });

  await t.step("a secure node still takes agents' click, focus and hover", async () => {
    const { app, id, openDialog } = await renderForm();
    await openDialog();
    const pin = id({ name: "PIN" });
    await app.act(pin, { action: "hover" });
    await app.act(pin, { action: "click" });
    assert.match(app.tree(), /text_field "PIN" #\d+ focused secure hovered/);
    await app.close();
  });

  await t.step("the person may type into a secure node and press keys on it", async () => {
    const { app, id, openDialog, secret } = await renderForm();
    await openDialog();
    const pin = id({ name: "PIN" });
    await app.userAct(pin, { action: "type_text", text: "1234" });
    await app.userAct(pin, { action: "press_key", keybind: "Backspace" });
    assert.equal(secret(), "123");
    assert.doesNotMatch(app.tree(), /123/);
    await app.close();
  });

  await t.step(
    "a key pressed on a node around a focused secure field does not reach it",
    async () => {
      const { app, id, openDialog, secret } = await renderForm();
      await openDialog();
      const pin = id({ name: "PIN" });
      await app.userAct(pin, { action: "type_text", text: "12" });
      await app.act(id({ role: "dialog" }), { action: "press_key", keybind: "7" });
      assert.equal(secret(), "12");
      // A node outside the dialog is refused before anything happens.
      await assert.rejects(
        () => app.act(id({ name: "Plain" }), { action: "press_key", keybind: "Backspace" }),
        { kind: "modal", message: /^the node is behind a modal dialog; / },
      );
      assert.equal(secret(), "12");
      assert.match(app.tree(), /text_field "PIN" #\d+ focused secure/);
      await app.close();
    },
  );

  await t.step("actions a node does not support say what they work on", async () => {
    const { app, id } = await renderForm();
    const plain = id({ name: "Plain" });
    const save = id({ name: "Save" });
    await assert.rejects(() => app.act(plain, { action: "focus" }), {
      kind: "unsupported",
      message:
        "invalid arguments: a text cannot take focus; focus works on buttons, text fields, checkboxes, sliders, menus and list items",
    });
    await assert.rejects(() => app.act(save, { action: "type_text", text: "x" }), {
      kind: "unsupported",
      message:
        "invalid arguments: type_text works on nodes that take typed text (text_field, text_area), not on a button",
    });
    await assert.rejects(() => app.act(save, { action: "scroll", delta: { x: 0, y: 1 } }), {
      kind: "unsupported",
      message:
        "invalid arguments: scroll works on a scroll_view, table or tree, or a node inside one; this button is in none",
    });
    await assert.rejects(() => app.act(save, { action: "drag", to: { x: 1, y: 1 } }), {
      kind: "unsupported",
      message: "invalid arguments: drag works on slider and text_area nodes, not on a button",
    });
    await app.close();
  });

  await t.step("an ActionError is an Error with its kind", () => {
    const error = new ActionError("no_node", "no node with id 3");
    assert.ok(error instanceof Error);
    assert.equal(error.name, "ActionError");
    assert.equal(error.kind, "no_node");
  });
});

Deno.test("click", async (t) => {
  await t.step("click activates a button and focuses it", async () => {
    const { app, id, events } = await renderForm();
    await actExpecting(app, id({ name: "Save" }), { action: "click" }, 1);
    assert.deepEqual(events, ["save"]);
    assert.equal(focusedLine(app), `button "Save"`);
    await actExpecting(app, id({ name: "Save" }), { action: "click" }, 0); // nothing in the tree changed
    assert.deepEqual(events, ["save", "save"]);
    await app.close();
  });

  await t.step("click toggles a checkbox", async () => {
    const { app, id, agree } = await renderForm();
    const box = id({ name: "Agree" });
    await actExpecting(app, box, { action: "click" }, 1);
    assert.equal(agree(), true);
    assert.match(app.tree(), /checkbox "Agree" #\d+ focused checked/);
    await actExpecting(app, box, { action: "click" }, 1);
    assert.equal(agree(), false);
    await app.close();
  });

  await t.step("click opens a menu and selects an item, which closes it", async () => {
    const { app, id, events } = await renderForm();
    const edit = id({ role: "menu" });
    await actExpecting(app, edit, { action: "click" }, 1);
    assert.match(
      app.tree(),
      /menu "Edit" #\d+ focused expanded\n {2}menu_item "Undo" #\d+\n {2}menu_item "Redo"/,
    );
    await actExpecting(app, id({ name: "Redo" }), { action: "click" }, 1);
    assert.deepEqual(events, ["redo"]);
    // The chosen item went away with the menu's items: focus went back to the menu.
    assert.match(app.tree(), /menu "Edit" #\d+ focused collapsed\n/);
    assert.equal(app.query({ role: "menu_item" }).length, 0);
    await app.close();
  });

  await t.step("click selects a list item", async () => {
    const { app, events } = await renderForm();
    const two = app.query({ role: "list_item" })[1]!.id;
    await actExpecting(app, two, { action: "click" }, 1);
    assert.deepEqual(events, ["select two"]);
    assert.match(app.tree(), new RegExp(`list_item "two" #${two} focused selected`));
    await app.close();
  });

  await t.step("click on a plain text changes nothing, even with focus elsewhere", async () => {
    const { app, id } = await renderForm();
    await app.act(id({ name: "Save" }), { action: "focus" });
    await actExpecting(app, id({ name: "Plain" }), { action: "click" }, 0);
    assert.equal(focusedLine(app), `button "Save"`);
    await app.close();
  });

  await t.step("click on a text field focuses it", async () => {
    const { app, id } = await renderForm();
    await actExpecting(app, id({ name: "Name" }), { action: "click" }, 1);
    assert.equal(focusedLine(app), `text_field "Name"`);
    await app.close();
  });
});

Deno.test("double_click", async (t) => {
  await t.step("double_click is two clicks on a button", async () => {
    const { app, id, events } = await renderForm();
    await app.act(id({ name: "Save" }), { action: "double_click" });
    assert.deepEqual(events, ["save", "save"]);
    await app.close();
  });

  await t.step("double_click on a checkbox toggles it twice", async () => {
    const { app, id, agree } = await renderForm();
    await app.act(id({ name: "Agree" }), { action: "double_click" });
    assert.equal(agree(), false);
    await app.close();
  });

  await t.step("double_click on a list item selects it, then activates it", async () => {
    const { app, events } = await renderForm();
    await app.act(app.query({ role: "list_item" })[2]!.id, { action: "double_click" });
    assert.deepEqual(events, ["select three", "activate three"]);
    await app.close();
  });

  await t.step("double_click on a text field selects its text, so typing replaces it", async () => {
    const { app, id, name } = await renderForm();
    const field = id({ name: "Name" });
    await app.act(field, { action: "type_text", text: "old words" });
    await app.act(field, { action: "double_click" });
    await app.act(field, { action: "type_text", text: "new" });
    assert.equal(name(), "new");
    await app.close();
  });

  await t.step("double_click stops when the first click removed the node", async () => {
    let deletes = 0;
    const root = component((cx) => {
      const items = cx.signal(["a", "b"]);
      return list(items, (item) =>
        button(`Delete ${item}`, () => {
          deletes++;
          items.set(items.get().filter((other) => other !== item));
        }));
    });
    await using app = await render(root);
    await app.act(app.get({ name: "Delete a" }).id, { action: "double_click" });
    assert.equal(deletes, 1);
    assert.equal(app.query({ role: "button" }).length, 1);
  });
});

Deno.test("hover and focus", async (t) => {
  await t.step("hover sets hovered and moves it", async () => {
    const { app, id } = await renderForm();
    const save = id({ name: "Save" });
    const plain = id({ name: "Plain" });
    await actExpecting(app, save, { action: "hover" }, 1);
    assert.match(app.tree(), /button "Save" #\d+ hovered/);
    await actExpecting(app, save, { action: "hover" }, 0);
    await actExpecting(app, plain, { action: "hover" }, 1);
    assert.match(app.tree(), /button "Save" #\d+\n/);
    assert.match(app.tree(), /text "Plain" #\d+ hovered/);
    await app.close();
  });

  await t.step("focus moves focus; focusing the focused node changes nothing", async () => {
    const { app, id } = await renderForm();
    await actExpecting(app, id({ name: "Agree" }), { action: "focus" }, 1);
    assert.equal(focusedLine(app), `checkbox "Agree"`);
    await actExpecting(app, id({ name: "Agree" }), { action: "focus" }, 0);
    await actExpecting(app, id({ role: "slider" }), { action: "focus" }, 1);
    assert.equal(focusedLine(app), `slider "Level"`);
    await app.close();
  });
});

Deno.test("type_text", async (t) => {
  await t.step("type_text focuses the field and inserts at its cursor", async () => {
    const { app, id, name } = await renderForm();
    const field = id({ name: "Name" });
    await actExpecting(app, field, { action: "type_text", text: "world" }, 1);
    assert.match(app.tree(), /text_field "Name" #\d+ value="world" focused/);
    await app.act(field, { action: "press_key", keybind: "Home" });
    await app.act(field, { action: "type_text", text: "hello " });
    assert.equal(name(), "hello world");
    assert.match(app.tree(), /value="hello world"/);
    await app.close();
  });

  await t.step("type_text of nothing changes nothing", async () => {
    const { app, id } = await renderForm();
    await app.act(id({ name: "Name" }), { action: "focus" });
    await actExpecting(app, id({ name: "Name" }), { action: "type_text", text: "" }, 0);
    await app.close();
  });

  await t.step(
    "type_text into a field with a plain value keeps the text in the field",
    async () => {
      const { app, id } = await renderForm();
      await app.act(id({ name: "Notes" }), { action: "type_text", text: "memo" });
      assert.match(app.tree(), /text_field "Notes" #\d+ value="memo" focused/);
      await app.close();
    },
  );
});

Deno.test("press_key on text fields", async (t) => {
  await t.step("Enter submits the text", async () => {
    const { app, id, events } = await renderForm();
    const field = id({ name: "Name" });
    await app.act(field, { action: "type_text", text: "Ada" });
    await app.act(field, { action: "press_key", keybind: "Enter" });
    assert.deepEqual(events, ["submit Ada"]);
    await app.close();
  });

  await t.step("Enter in a field without onSubmit does nothing", async () => {
    const { app, id, events } = await renderForm();
    await app.act(id({ name: "Notes" }), { action: "focus" });
    await actExpecting(app, id({ name: "Notes" }), { action: "press_key", keybind: "Enter" }, 0);
    assert.deepEqual(events, []);
    await app.close();
  });

  await t.step("Backspace, Delete, arrows, Home and End edit at the cursor", async () => {
    const { app, id, name } = await renderForm();
    const field = id({ name: "Name" });
    const press = (keybind: string) => app.act(field, { action: "press_key", keybind });
    await app.act(field, { action: "type_text", text: "abcd" });
    await press("Backspace"); // abc|
    assert.equal(name(), "abc");
    await press("Home"); // |abc
    await press("Delete"); // |bc
    assert.equal(name(), "bc");
    await press("ArrowRight"); // b|c
    await app.act(field, { action: "type_text", text: "X" });
    assert.equal(name(), "bXc");
    await press("End");
    await press("ArrowLeft"); // bX|c
    await press("Backspace");
    assert.equal(name(), "bc");
    await press("Space");
    assert.equal(name(), "b c");
    await app.close();
  });

  await t.step("Ctrl+A selects all, so the next typed text replaces it", async () => {
    const { app, id, name } = await renderForm();
    const field = id({ name: "Name" });
    await app.act(field, { action: "type_text", text: "old" });
    await actExpecting(app, field, { action: "press_key", keybind: "Ctrl+A" }, 0);
    await actExpecting(app, field, { action: "type_text", text: "new" }, 1);
    assert.equal(name(), "new");
    await app.close();
  });

  await t.step("a typed character key is inserted", async () => {
    const { app, id, name } = await renderForm();
    await app.act(id({ name: "Name" }), { action: "press_key", keybind: "Shift+q" });
    assert.equal(name(), "Q");
    await app.close();
  });
});

Deno.test("press_key on buttons, checkboxes and sliders", async (t) => {
  await t.step("Enter and Space click a button", async () => {
    const { app, id, events } = await renderForm();
    await app.act(id({ name: "Save" }), { action: "press_key", keybind: "Enter" });
    await app.act(id({ name: "Save" }), { action: "press_key", keybind: "Space" });
    assert.deepEqual(events, ["save", "save"]);
    await app.close();
  });

  await t.step("Space toggles a checkbox, and so does Enter", async () => {
    const { app, id, agree } = await renderForm();
    await actExpecting(app, id({ name: "Agree" }), { action: "press_key", keybind: "Space" }, 1);
    assert.equal(agree(), true);
    await actExpecting(app, id({ name: "Agree" }), { action: "press_key", keybind: "Enter" }, 1);
    assert.equal(agree(), false);
    await app.close();
  });

  await t.step("a modified Enter does not click", async () => {
    const { app, id, events } = await renderForm();
    await app.act(id({ name: "Save" }), { action: "press_key", keybind: "Ctrl+Enter" });
    assert.deepEqual(events, []);
    await app.close();
  });

  await t.step("arrows, PageUp, PageDown, Home and End move a slider", async () => {
    const { app, id, level } = await renderForm();
    const slider = id({ role: "slider" });
    const steps: [string, number][] = [
      ["ArrowRight", 6],
      ["ArrowUp", 7],
      ["ArrowLeft", 6],
      ["ArrowDown", 5],
      ["Home", 0],
      ["ArrowDown", 0],
      ["End", 10],
      ["ArrowUp", 10],
      ["PageDown", 0],
      ["PageUp", 10],
    ];
    for (const [keybind, expected] of steps) {
      await app.act(slider, { action: "press_key", keybind });
      assert.equal(level(), expected, keybind);
    }
    assert.match(app.tree(), /slider "Level" #\d+ value="10" focused/);
    await app.close();
  });

  await t.step("a key that changes nothing leaves the revision", async () => {
    const { app, id } = await renderForm();
    const slider = id({ role: "slider" });
    await app.act(slider, { action: "press_key", keybind: "End" });
    await actExpecting(app, slider, { action: "press_key", keybind: "End" }, 0);
    await actExpecting(app, slider, { action: "press_key", keybind: "F5" }, 0);
    await app.close();
  });
});

Deno.test("press_key on lists and menus", async (t) => {
  await t.step("ArrowDown and ArrowUp select and focus the neighbouring item", async () => {
    const { app, events } = await renderForm();
    const [one, two, three] = app.query({ role: "list_item" }).map((item) => item.id);
    await app.act(one!, { action: "click" });
    await app.act(one!, { action: "press_key", keybind: "ArrowDown" });
    assert.match(app.tree(), new RegExp(`list_item "two" #${two} focused selected`));
    await app.act(two!, { action: "press_key", keybind: "ArrowDown" });
    await actExpecting(app, three!, { action: "press_key", keybind: "ArrowDown" }, 0); // the last
    await app.act(three!, { action: "press_key", keybind: "ArrowUp" });
    assert.deepEqual(events, ["select one", "select two", "select three", "select two"]);
    assert.match(app.tree(), new RegExp(`list_item "two" #${two} focused selected`));
    assert.doesNotMatch(app.tree(), new RegExp(`list_item "three" #${three} .*selected`));
    await app.close();
  });

  await t.step("Enter activates a list item; Space selects it", async () => {
    const { app, events } = await renderForm();
    const two = app.query({ role: "list_item" })[1]!.id;
    await app.act(two, { action: "press_key", keybind: "Space" });
    await app.act(two, { action: "press_key", keybind: "Enter" });
    assert.deepEqual(events, ["select two", "activate two"]);
    await app.close();
  });

  await t.step("Enter opens a menu, Escape closes it", async () => {
    const { app, id } = await renderForm();
    const edit = id({ role: "menu" });
    await app.act(edit, { action: "press_key", keybind: "Enter" });
    assert.equal(app.query({ role: "menu_item" }).length, 2);
    await app.act(edit, { action: "press_key", keybind: "Escape" });
    assert.equal(app.query({ role: "menu_item" }).length, 0);
    assert.match(app.tree(), /menu "Edit" #\d+ focused collapsed/);
    await actExpecting(app, edit, { action: "press_key", keybind: "Escape" }, 0);
    await app.close();
  });

  await t.step("Escape on a menu item closes its menu; Enter on an item selects it", async () => {
    const { app, id, events } = await renderForm();
    const edit = id({ role: "menu" });
    await app.act(edit, { action: "click" });
    await app.act(id({ name: "Undo" }), { action: "press_key", keybind: "Escape" });
    assert.equal(app.query({ role: "menu_item" }).length, 0);
    await app.act(edit, { action: "click" });
    await app.act(id({ name: "Undo" }), { action: "press_key", keybind: "Enter" });
    assert.deepEqual(events, ["undo"]);
    assert.equal(app.query({ role: "menu_item" }).length, 0);
    await app.close();
  });
});

Deno.test("press_key Tab and Shift+Tab", async (t) => {
  const order = [
    `text_field "Name"`,
    `checkbox "Agree"`,
    `button "Save"`,
    `slider "Level"`,
    `list_item "one"`, // a list is one Tab stop: its rows are reached with the arrows
    `menu "Edit"`,
    `button "Open"`,
    `text_field "Notes"`,
  ];

  await t.step("Tab moves focus in tree order, skips disabled nodes and wraps", async () => {
    const { app } = await renderForm();
    const seen: string[] = [];
    for (let index = 0; index <= order.length; index++) {
      await actExpecting(app, 1, { action: "press_key", keybind: "Tab" }, 1);
      seen.push(focusedLine(app));
    }
    assert.deepEqual(seen, [...order, order[0]]);
    await app.close();
  });

  await t.step("Shift+Tab moves focus backwards and wraps", async () => {
    const { app } = await renderForm();
    const seen: string[] = [];
    for (let index = 0; index <= order.length; index++) {
      await app.act(1, { action: "press_key", keybind: "Shift+Tab" });
      seen.push(focusedLine(app));
    }
    assert.deepEqual(seen, [...[...order].reverse(), order.at(-1)]);
    await app.close();
  });

  await t.step("Tab pressed on a node goes on from that node", async () => {
    const { app, id } = await renderForm();
    await app.act(id({ name: "Save" }), { action: "press_key", keybind: "Tab" });
    assert.equal(focusedLine(app), `slider "Level"`);
    await app.close();
  });

  await t.step("an open dialog keeps Tab and Shift+Tab inside it", async () => {
    const { app, id } = await renderForm();
    await app.act(id({ name: "Open" }), { action: "click" });
    const inDialog = [`text_field "Reason"`, `text_field "PIN"`, `slider "Amount"`, `button "OK"`];
    // Opening the dialog moved focus to its first field.
    assert.equal(focusedLine(app), inDialog[0]);
    const seen: string[] = [];
    // Keys go to the focused node, as a person's do: the window is behind the dialog, and
    // agents may not press keys on the secure PIN field.
    for (let index = 0; index < inDialog.length; index++) {
      await app.userAct(focusedId(app), { action: "press_key", keybind: "Tab" });
      seen.push(focusedLine(app));
    }
    assert.deepEqual(seen, [...inDialog.slice(1), inDialog[0]]);
    await app.userAct(focusedId(app), { action: "press_key", keybind: "Shift+Tab" });
    assert.equal(focusedLine(app), `button "OK"`);
    await app.close();
  });
});

Deno.test("press_key arrows move through a menu", async (t) => {
  await t.step(
    "ArrowDown opens the menu on its first item; arrows wrap; Enter chooses",
    async () => {
      const { app, id, events } = await renderForm();
      const edit = id({ role: "menu" });
      await actExpecting(app, edit, { action: "press_key", keybind: "ArrowDown" }, 1);
      assert.match(app.tree(), /menu "Edit" #\d+ expanded/);
      assert.equal(focusedLine(app), `menu_item "Undo"`);
      await app.act(focusedId(app), { action: "press_key", keybind: "ArrowDown" });
      assert.equal(focusedLine(app), `menu_item "Redo"`);
      await app.act(focusedId(app), { action: "press_key", keybind: "ArrowDown" });
      assert.equal(focusedLine(app), `menu_item "Undo"`, "wraps to the first item");
      await app.act(focusedId(app), { action: "press_key", keybind: "ArrowUp" });
      assert.equal(focusedLine(app), `menu_item "Redo"`, "wraps to the last item");
      await app.act(focusedId(app), { action: "press_key", keybind: "Enter" });
      assert.deepEqual(events, ["redo"]);
      assert.match(app.tree(), /menu "Edit" #\d+ focused collapsed\n/);
      await app.close();
    },
  );

  await t.step("Escape on an item closes the menu and focuses it", async () => {
    const { app, id, events } = await renderForm();
    await app.act(id({ role: "menu" }), { action: "press_key", keybind: "ArrowUp" });
    assert.equal(focusedLine(app), `menu_item "Redo"`);
    await app.act(focusedId(app), { action: "press_key", keybind: "Escape" });
    assert.deepEqual(events, []);
    assert.equal(app.query({ role: "menu_item" }).length, 0);
    assert.equal(focusedLine(app), `menu "Edit"`);
    await app.close();
  });
});

Deno.test("press_key Escape on dialogs", async (t) => {
  await t.step("Escape inside a dialog calls onClose, which closes it", async () => {
    const { app, id, events } = await renderForm();
    await app.act(id({ name: "Open" }), { action: "click" });
    const reason = id({ name: "Reason" });
    await app.act(reason, { action: "type_text", text: "because" });
    await actExpecting(app, reason, { action: "press_key", keybind: "Escape" }, 1);
    assert.deepEqual(events, ["close"]);
    assert.equal(app.query({ role: "dialog" }).length, 0);
    assert.equal(app.app.overlays.length, 0);
    // Focus went back to the button that opened the dialog.
    assert.equal(focusedLine(app), `button "Open"`);
    await app.close();
  });

  await t.step("Escape pressed on the dialog node itself closes it", async () => {
    const { app, id, events, openDialog } = await renderForm();
    await openDialog();
    await app.act(id({ role: "dialog" }), { action: "press_key", keybind: "Escape" });
    assert.deepEqual(events, ["close"]);
    assert.equal(app.query({ role: "dialog" }).length, 0);
    await app.close();
  });

  await t.step("Escape on a dialog without onClose does nothing", async () => {
    const root = component(() => dialog("Sticky", button("Stay", () => {})));
    await using app = await render(root);
    // The dialog's button took focus when the dialog opened, so Escape changes nothing.
    assert.match(app.tree(), /button "Stay" #\d+ focused/);
    await actExpecting(app, app.get({ name: "Stay" }).id, {
      action: "press_key",
      keybind: "Escape",
    }, 0);
    assert.equal(app.query({ role: "dialog" }).length, 1);
  });
});

Deno.test("scroll", async (t) => {
  await t.step("scroll moves a scroll view's content, within its bounds", async () => {
    const { app, id } = await renderForm();
    const view = id({ role: "scroll_view" });
    const first = id({ name: "line 0" });
    const top = layoutOf(app, view).y;
    assert.equal(layoutOf(app, first).y, top);
    await actExpecting(app, view, { action: "scroll", delta: { x: 0, y: 2 } }, 1);
    assert.equal(layoutOf(app, first).y, top - 2);
    await actExpecting(app, view, { action: "scroll", delta: { x: 0, y: 100 } }, 1);
    assert.equal(layoutOf(app, first).y, top - 5, "8 lines in 3: at most 5 down");
    await actExpecting(app, view, { action: "scroll", delta: { x: 0, y: 1 } }, 0);
    await actExpecting(app, view, { action: "scroll", delta: { x: 0, y: -100 } }, 1);
    assert.equal(layoutOf(app, first).y, top);
    await app.close();
  });

  await t.step("scroll on a node inside a scroll view scrolls that view", async () => {
    const { app, id } = await renderForm();
    const line = id({ name: "line 3" });
    const before = layoutOf(app, line).y;
    await app.act(line, { action: "scroll", delta: { x: 0, y: 1.4 } });
    assert.equal(layoutOf(app, line).y, before - 1, "deltas round to whole cells");
    await app.close();
  });

  await t.step("PageDown and PageUp scroll a scroll view", async () => {
    const { app, id } = await renderForm();
    const view = id({ role: "scroll_view" });
    const first = id({ name: "line 0" });
    const top = layoutOf(app, view).y;
    await app.act(view, { action: "press_key", keybind: "PageDown" });
    assert.equal(layoutOf(app, first).y, top - 2, "a page is the height less one");
    await app.act(id({ name: "line 4" }), { action: "press_key", keybind: "PageUp" });
    assert.equal(layoutOf(app, first).y, top);
    await app.close();
  });
});

Deno.test("drag", async (t) => {
  /** The x of the slider track's first cell: "Level [" is 7 cells. */
  const trackStart = (app: TestApp, slider: number, label: string) =>
    layoutOf(app, slider).x + label.length + 2;

  await t.step("drag moves a slider's value to the point on its track", async () => {
    const { app, id, level } = await renderForm();
    const slider = id({ role: "slider" });
    const start = trackStart(app, slider, "Level");
    const y = layoutOf(app, slider).y;
    await actExpecting(app, slider, { action: "drag", to: { x: start + 19, y } }, 1);
    assert.equal(level(), 10);
    assert.match(app.tree(), /slider "Level" #\d+ value="10" focused/);
    await app.act(slider, { action: "drag", to: { x: start, y } });
    assert.equal(level(), 0);
    await app.act(slider, { action: "drag", to: { x: start + 10, y } }); // 10/19 of 0..10
    assert.equal(level(), 5);
    await app.act(slider, { action: "drag", to: { x: start - 30, y } });
    assert.equal(level(), 0, "before the track is the minimum");
    await app.act(slider, { action: "drag", to: { x: start + 500, y } });
    assert.equal(level(), 10, "past the track is the maximum");
    await actExpecting(app, slider, { action: "drag", to: { x: start + 500, y } }, 0);
    await app.close();
  });

  await t.step("drag works on a slider in a dialog, from its place in the window", async () => {
    const { app, id, openDialog } = await renderForm();
    await openDialog();
    const slider = id({ role: "slider", name: "Amount" });
    const entry = layoutOf(app, slider);
    assert.ok(entry.x > 0 && entry.y > 0, "the dialog is centred, away from the corner");
    await app.act(slider, {
      action: "drag",
      to: { x: trackStart(app, slider, "Amount") + 19, y: entry.y },
    });
    assert.match(app.tree(), /slider "Amount" #\d+ value="100" focused/);
    await app.close();
  });
});

Deno.test("dispatchKey()", async (t) => {
  await t.step("dispatchKey() with no start sends the key to the focused element", async () => {
    const { app, id, events } = await renderForm();
    await app.act(id({ name: "Save" }), { action: "focus" });
    dispatchKey(app.app, parseKeybind("Enter"), null);
    assert.deepEqual(events, ["save"]);
    await app.close();
  });

  await t.step("keys that arrive before a frame each see the one before", async () => {
    const { app, id, level, agree } = await renderForm();
    const slider = app.app.elementById(id({ role: "slider" }))!;
    dispatchKey(app.app, parseKeybind("ArrowRight"), slider);
    dispatchKey(app.app, parseKeybind("ArrowRight"), slider);
    assert.equal(level(), 7);
    const box = app.app.elementById(id({ name: "Agree" }))!;
    dispatchKey(app.app, parseKeybind("Space"), box);
    dispatchKey(app.app, parseKeybind("Space"), box);
    assert.equal(agree(), false);
    await app.settle();
    assert.match(app.tree(), /checkbox "Agree" #\d+\n/);
    assert.match(app.tree(), /slider "Level" #\d+ value="7"/);
    await app.close();
  });
});
