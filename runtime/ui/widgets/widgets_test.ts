import assert from "node:assert/strict";
import type { Signal } from "../../reactive/mod.ts";
import { render } from "../../testing.ts";
import {
  bind,
  button,
  checkbox,
  column,
  component,
  dialog,
  heading,
  list,
  menu,
  menuItem,
  row,
  scrollView,
  show,
  slider,
  text,
  textField,
  widget,
} from "../mod.ts";
import type { MenuItemView } from "./mod.ts";
import type { Role } from "../../semantics/mod.ts";
import { nodeOf } from "../_test_tree.ts";

Deno.test("widget modifiers", async (t) => {
  await t.step(".label() names the node without changing what it shows", async () => {
    const root = component(() =>
      column(button("+", () => {}).label("Add one"), text("•").label("Status"))
    );
    await using app = await render(root);
    assert.match(app.tree(), /button "Add one" #2\n text "Status" #3/);
    assert.equal(app.query({ name: "+" }).length, 0);
  });

  await t.step(".label() follows a binding", async () => {
    let setName: ((name: string) => void) | undefined;
    const root = component((cx) => {
      const name = cx.signal("Save");
      setName = (value) => name.set(value);
      return button("S", () => {}).label(bind(() => `${name.get()} file`));
    });
    await using app = await render(root);
    const { id } = app.get({ name: "Save file" });
    setName!("Open");
    await app.settle();
    assert.equal(app.get({ role: "button" }).name, "Open file");
    assert.equal(app.get({ role: "button" }).id, id);
  });

  await t.step(".disabled() disables the node and its actions", async () => {
    let clicks = 0;
    const root = component(() => button("Off", () => clicks++).disabled());
    await using app = await render(root);
    assert.match(app.tree(), /button "Off" #2 disabled/);
    await assert.rejects(() => app.act(2, { action: "click" }), {
      name: "ActionError",
      kind: "disabled",
      message: 'the node is disabled; ui_wait with "state": "enabled" waits for it',
    });
    assert.equal(clicks, 0);
  });

  await t.step(".disabled(binding) follows the binding both ways", async () => {
    let clicks = 0;
    let setLocked: ((locked: boolean) => void) | undefined;
    const root = component((cx) => {
      const locked = cx.signal(true);
      setLocked = (value) => locked.set(value);
      return button("Go", () => clicks++).disabled(bind(() => locked.get()));
    });
    await using app = await render(root);
    const { id } = app.get({ name: "Go" });
    await assert.rejects(() => app.act(id, { action: "click" }), {
      message: 'the node is disabled; ui_wait with "state": "enabled" waits for it',
    });
    setLocked!(false);
    await app.settle();
    assert.doesNotMatch(app.tree(), /disabled/);
    await app.act(id, { action: "click" });
    assert.equal(clicks, 1);
    setLocked!(true);
    await app.settle();
    assert.match(app.tree(), /button "Go" #2 focused disabled/);
    await assert.rejects(() => app.act(id, { action: "click" }), {
      message: 'the node is disabled; ui_wait with "state": "enabled" waits for it',
    });
    assert.equal(clicks, 1);
    assert.equal(app.get({ name: "Go" }).id, id);
  });

  await t.step(".disabled() on a container refuses actions on what is inside", async () => {
    const root = component(() => column(button("Inner", () => {})).disabled());
    await using app = await render(root);
    await assert.rejects(() => app.act(app.get({ name: "Inner" }).id, { action: "focus" }), {
      message: 'the node is disabled; ui_wait with "state": "enabled" waits for it',
    });
  });

  await t.step(".secure() marks the node secure and keeps its value out of the tree", async () => {
    let password: Signal<string> | undefined;
    const root = component((cx) => {
      password = cx.secret("initial-secret");
      return textField({ label: "Password", value: password }).secure();
    });
    await using app = await render(root);
    assert.equal(app.tree(), `window "Test" #1\n text_field "Password" #2 secure\n`);
    assert.equal(nodeOf(app, "text_field").value, undefined);
    await app.userAct(2, { action: "type_text", text: "-more" });
    assert.equal(password!.get(), "initial-secret-more", "the person typed into it");
    assert.doesNotMatch(JSON.stringify(app.snapshot()), /secret-more|initial-secret/);
    assert.deepEqual(app.query({ text: "secret" }), []);
  });

  await t.step(
    "scrollView().height() keeps that height instead of filling the window",
    async () => {
      const root = component(() =>
        column(scrollView(column(...["a", "b", "c", "d", "e"].map((name) => text(name)))).height(2))
      );
      await using app = await render(root, { height: 20 });
      assert.equal(nodeOf(app, "scroll_view").bounds.height, 2);
    },
  );

  await t.step("scrollView() without a height fills the room left", async () => {
    const root = component(() => column(text("top"), scrollView(text("inside"))));
    await using app = await render(root, { height: 20 });
    assert.equal(nodeOf(app, "scroll_view").bounds.height, 19);
  });
});

Deno.test("widget()", async (t) => {
  await t.step("widget() with a role and a name is a node agents see and act on", async () => {
    let clicks = 0;
    const root = component(() =>
      widget(
        {
          role: "button",
          name: "Custom",
          content: "[custom]",
          focusable: true,
          onClick: () => clicks++,
        },
      )
    );
    await using app = await render(root);
    assert.equal(app.tree(), `window "Test" #1\n button "Custom" #2\n`);
    await app.act(2, { action: "click" });
    assert.equal(clicks, 1);
    assert.match(app.tree(), /button "Custom" #2 focused/);
  });

  await t.step("widget() follows its value and states", async () => {
    let setOn: ((on: boolean) => void) | undefined;
    const root = component((cx) => {
      const on = cx.signal(false);
      setOn = (value) => on.set(value);
      return widget({
        role: "switch",
        name: "Wi-Fi",
        value: bind(() => (on.get() ? "on" : "off")),
        checked: on,
        expanded: true,
      });
    });
    await using app = await render(root);
    assert.match(app.tree(), /switch "Wi-Fi" #2 value="off" expanded\n/);
    setOn!(true);
    await app.settle();
    assert.match(app.tree(), /switch "Wi-Fi" #2 value="on" checked expanded\n/);
  });

  await t.step("widget() without a role is invisible, but its children show", async () => {
    const root = component(() => widget({ name: "Unseen", content: "drawn" }, text("child")));
    await using app = await render(root);
    assert.equal(app.tree(), `window "Test" #1\n text "child" #2\n`);
  });

  await t.step("widget() without a name is invisible, but its children show", async () => {
    const root = component(() =>
      widget({ role: "group", content: "drawn" }, button("Child", () => {}))
    );
    await using app = await render(root);
    assert.equal(app.tree(), `window "Test" #1\n button "Child" #2\n`);
  });

  await t.step("widget() .label() gives a name, which makes it visible", async () => {
    const root = component(() => widget({ role: "group" }, text("child")).label("Panel"));
    await using app = await render(root);
    assert.equal(app.tree(), `window "Test" #1\n group "Panel" #2\n  text "child" #3\n`);
  });

  await t.step("widget() refuses an unknown role", () => {
    assert.throws(() => widget({ role: "Button" as Role }), {
      name: "TypeError",
      message: /^widget\(\) got an unknown role "Button"/,
    });
  });
});

Deno.test("leaf widgets", async (t) => {
  await t.step("heading() and text() have their roles and names", async () => {
    await using app = await render(component(() => column(heading("Title"), text("Body"))));
    assert.equal(app.tree(), `window "Test" #1\n heading "Title" #2\n text "Body" #3\n`);
  });

  await t.step("checkbox() with a plain boolean keeps its own state", async () => {
    const toggles: boolean[] = [];
    const root = component(() =>
      checkbox("Own", true).onToggle((checked) => toggles.push(checked))
    );
    await using app = await render(root);
    assert.match(app.tree(), /checkbox "Own" #2 checked/);
    await app.act(2, { action: "click" });
    assert.doesNotMatch(app.tree(), /checked/);
    await app.act(2, { action: "click" });
    assert.match(app.tree(), /checkbox "Own" #2 focused checked/);
    assert.deepEqual(toggles, [false, true]);
  });

  await t.step("checkbox() with a signal writes it", async () => {
    let done: Signal<boolean> | undefined;
    const root = component((cx) => {
      done = cx.signal(false);
      return checkbox("Done", done);
    });
    await using app = await render(root);
    await app.act(2, { action: "click" });
    assert.equal(done!.get(), true);
    assert.match(app.tree(), /checkbox "Done" #2 focused checked/);
    done!.set(false);
    await app.settle();
    assert.doesNotMatch(app.tree(), /checked/);
  });

  await t.step("checkbox() with a binding shows it and only reports toggles", async () => {
    const toggles: boolean[] = [];
    const root = component(() =>
      checkbox("Bound", bind(() => true)).onToggle((c) => toggles.push(c))
    );
    await using app = await render(root);
    await app.act(2, { action: "click" });
    assert.match(app.tree(), /checkbox "Bound" #2 focused checked/);
    assert.deepEqual(toggles, [false]);
  });

  await t.step("textField() with a plain string starts with it and keeps edits", async () => {
    const root = component(() => textField({ label: "Name", value: "Ada" }));
    await using app = await render(root);
    assert.match(app.tree(), /text_field "Name" #2 value="Ada"/);
    await app.act(2, { action: "type_text", text: " L." });
    assert.match(app.tree(), /text_field "Name" #2 value="Ada L\." focused/);
  });

  await t.step("slider() clamps a signal's value into its range", async () => {
    const root = component((cx) =>
      slider({ label: "Level", value: cx.signal(500), min: 0, max: 10 })
    );
    await using app = await render(root);
    assert.match(app.tree(), /slider "Level" #2 value="10"/);
  });

  await t.step("constructors refuse wrong arguments", () => {
    assert.throws(() => button("x", undefined as unknown as () => void), {
      name: "TypeError",
      message: "button() takes a label and a click handler (rt) => void",
    });
    assert.throws(() => textField(null as unknown as { label: string; value: string }), {
      name: "TypeError",
      message: "textField() takes { label, value, onSubmit? }",
    });
    assert.throws(() => slider({ label: "x", value: 0, min: 5, max: 5 }), {
      name: "RangeError",
      message: "slider() needs finite min < max, got min 5 and max 5",
    });
    assert.throws(() => slider({ label: "x", value: 0, min: 0, max: 5, step: 0 }), {
      name: "RangeError",
      message: "slider() needs a step above 0, got 0",
    });
    assert.throws(() => menu("File", text("no") as unknown as MenuItemView), {
      name: "TypeError",
      message: "menu() items must be menuItem() views",
    });
    assert.throws(() => menuItem("x", null as unknown as () => void), { name: "TypeError" });
    assert.throws(() => text("x").width(-1), {
      name: "RangeError",
      message: "width must be a whole number of cells, 0 or more, got -1",
    });
  });

  await t.step("a container refuses children that are not views when mounted", async () => {
    const root = component(() => column(text("x"), "plain" as unknown as ReturnType<typeof text>));
    await assert.rejects(async () => await render(root), {
      name: "TypeError",
      message: "a container's children must be views (text(), button(), ...), got string",
    });
  });

  await t.step("list() rows are list_items whatever the row view is", async () => {
    await using app = await render(component(() => list(["a"], (item) => text(item))));
    assert.equal(app.tree(), `window "Test" #1\n list #2\n  list_item "a" #3\n`);
  });
});

Deno.test("textField() secure: a bind() or memo that reads only secrets is accepted", async () => {
  await using app = await render(component((cx) => {
    const password = cx.secret("hunter2-BOUND", { name: "password" });
    const shown = cx.memo(() => password.get().trim());
    return column(
      textField({ label: "Via bind", value: bind(() => password.get()) }).secure(),
      textField({ label: "Via memo", value: shown }).secure(),
    );
  }));
  const snapshot = JSON.stringify(app.snapshot());
  assert.ok(!snapshot.includes("hunter2-BOUND"), snapshot);
  const password = app.snapshot().signals.find((signal) => signal.name === "password");
  assert.deepEqual(password, { id: password!.id, name: "password", secret: true, observers: 2 });
});

Deno.test(".secure() needs a declared secret", async (t) => {
  const expected = (detail: string) => ({
    name: "TypeError",
    message: `a .secure() field's value must be a declared secret: ${detail}`,
  });
  const declare =
    'declare signal "password" with cx.secret(initial) or cx.signal(initial, { secret: true })';

  await t.step("a plain signal fails at mount and names it", async () => {
    const root = component((cx) => {
      const password = cx.signal("hunter2-PLAIN", { name: "password" });
      return textField({ label: "Password", value: password }).secure();
    });
    await assert.rejects(async () => await render(root), expected(declare));
  });

  await t.step("a bind() or memo that reads a plain signal fails at mount", async () => {
    for (const viaMemo of [false, true]) {
      const root = component((cx) => {
        const token = cx.secret("hunter2-TOKEN");
        const password = cx.signal("x", { name: "password" });
        const value = viaMemo
          ? cx.memo(() => token.get() + password.get())
          : bind(() => token.get() + password.get());
        return textField({ label: "Password", value }).secure();
      });
      await assert.rejects(
        async () => await render(root),
        expected(`its binding or memo reads a signal that is not secret; ${declare}`),
      );
    }
  });

  await t.step("a plain value or a binding that reads no signal fails at mount", async () => {
    await assert.rejects(
      async () => await render(component(() => textField({ label: "PIN", value: "" }).secure())),
      expected("pass a signal made with cx.secret(initial) instead of a plain value"),
    );
    await assert.rejects(
      async () =>
        await render(component(() => textField({ label: "PIN", value: bind(() => "") }).secure())),
      expected(
        "its binding or memo reads no signal; bind it to a signal made with cx.secret(initial)",
      ),
    );
  });

  await t.step("a slider and widget({ value }) are checked as well", async () => {
    const root = component((cx) => {
      const level = cx.signal(3, { name: "password" });
      return slider({ label: "Level", value: level, min: 0, max: 9 }).secure();
    });
    await assert.rejects(async () => await render(root), expected(declare));
    const custom = component((cx) => {
      const code = cx.signal("1234", { name: "password" });
      return widget({ role: "text", name: "Code", value: code }).secure();
    });
    await assert.rejects(async () => await render(custom), expected(declare));
  });

  await t.step("the error does not carry the value", async () => {
    const root = component((cx) => {
      const password = cx.signal("hunter2-PLAIN", { name: "password" });
      return textField({ label: "Password", value: password }).secure();
    });
    const error = await (async () => await render(root))().then(
      () => null,
      (thrown: Error) => thrown,
    );
    assert.ok(error !== null);
    assert.doesNotMatch(`${error.message}\n${error.stack}`, /hunter2/);
  });

  await t.step("a secret read to decide another node's state is allowed", async () => {
    let password!: Signal<string>;
    await using app = await render(component((cx) => {
      password = cx.secret("", { name: "password" });
      return column(
        textField({ label: "Password", value: password }).secure(),
        button("Sync", () => {}).disabled(bind(() => password.get() === "")),
      );
    }));
    assert.match(app.tree(), /button "Sync" #\d+ disabled/);
    password.set("hunter2-SET");
    await app.settle();
    assert.doesNotMatch(app.tree(), /disabled|hunter2/);
  });

  await t.step("a property that is not secure may not show a secret as it is", async () => {
    const direct = component((cx) => text(cx.secret("hunter2-SHOWN")));
    await assert.rejects(async () => await render(direct), {
      name: "TypeError",
      message: /^a secret's value would be shown by a property that is not secure: /,
    });
    const bound = component((cx) => {
      const token = cx.secret("hunter2-SHOWN");
      return textField({ label: "Token", value: bind(() => token.get()) });
    });
    await assert.rejects(async () => await render(bound), {
      message: /^a secret's value would be shown by a property that is not secure: /,
    });
  });
});

Deno.test("a secret never shown on screen is secret from the start", async () => {
  let open!: Signal<boolean>;
  await using app = await render(component((cx) => {
    const token = cx.secret("tok-SAVED-1234", { name: "sync token" });
    open = cx.signal(false, { name: "open" });
    return column(
      button("Settings", () => open.set(true)),
      show(open, () => dialog("Settings", textField({ label: "Token", value: token }).secure())),
    );
  }));
  const before = app.snapshot();
  assert.doesNotMatch(JSON.stringify(before), /tok-SAVED/);
  const token = before.signals.find((signal) => signal.name === "sync token");
  assert.equal(token?.secret, true);
  assert.equal("value" in token!, false);
  open.set(true);
  await app.settle();
  assert.match(app.tree(), /text_field "Token" #\d+ .*secure/);
  assert.doesNotMatch(JSON.stringify(app.snapshot()), /tok-SAVED/);
});

Deno.test(".disabled() on a row shows on every node in it, as it acts", async () => {
  let off!: Signal<boolean>;
  let items!: Signal<string[]>;
  await using app = await render(component((cx) => {
    off = cx.signal(true);
    items = cx.signal(["a"]);
    return column(
      row(
        button("Save", () => {}),
        list(items, (item) => button(`Open ${item}`, () => {})),
      ).disabled(off),
      button("Outside", () => {}),
    );
  }));
  assert.match(app.tree(), /button "Save" #\d+ disabled/);
  assert.match(app.tree(), /button "Open a" #\d+ disabled/);
  assert.doesNotMatch(app.tree(), /button "Outside" #\d+ disabled/);
  await assert.rejects(
    () => app.act(app.get({ name: "Save" }).id, { action: "click" }),
    { message: 'the node is disabled; ui_wait with "state": "enabled" waits for it' },
  );

  items.update((list) => list.push("b")); // a row mounted into the disabled row
  assert.match(app.tree(), /button "Open b" #\d+ disabled/);

  off.set(false);
  assert.doesNotMatch(app.tree(), / disabled/);
  await app.act(app.get({ name: "Open b" }).id, { action: "click" });
});
