/**
 * Keys and focus for the app, through the harness: the window's size as a value layouts
 * follow, app-wide keybindings (while their component is mounted, after the focused widget,
 * none from behind a dialog), the `?` help view, `.autofocus()`, refs, and focus given back
 * when a dialog closes.
 */

import assert from "node:assert/strict";
import {
  bind,
  button,
  column,
  component,
  dialog,
  focusRef,
  list,
  row,
  show,
  text,
  textField,
} from "../mod.ts";
import { render } from "../testing.ts";
import { notesApp } from "../../examples/notes.ts";

Deno.test("cx.windowSize() follows the window, and a layout with it", async (t) => {
  await using app = await render(
    component((cx) => {
      const size = cx.windowSize();
      const wide = cx.memo(() => size.get().columns >= 60);
      return column(
        text(bind(() => `${size.get().columns}×${size.get().rows}`)),
        row(
          text("Files"),
          show(wide, () => text("│ Preview")),
        ),
        show(bind(() => !wide.get()), () => text("(widen the window for the preview)")),
      );
    }),
    { width: 80, height: 24 },
  );
  await t.step("the harness's size, at first", () => {
    assert.equal(app.query({ role: "text" })[0]!.name, "80×24");
    assert.equal(app.screen().lines[1], "Files │ Preview");
  });
  await t.step("resize() lays the app out again in the new size", async () => {
    const before = app.revision;
    const after = await app.resize(40, 10);
    assert.ok(after > before);
    assert.equal(app.query({ role: "text" })[0]!.name, "40×10");
    assert.deepEqual(app.screen().lines.slice(0, 3), [
      "40×10",
      "Files",
      "(widen the window for the preview)",
    ]);
    assert.equal(app.screen().lines.length, 10);
  });
  await t.step("and back", async () => {
    await app.resize(100, 30);
    assert.equal(app.query({ role: "text" })[0]!.name, "100×30");
    assert.equal(app.screen().lines[1], "Files │ Preview");
  });
  await t.step("the size is a signal inspection shows; a bad size is refused", async () => {
    const signal = app.snapshot().signals.find((s) => s.name === "window size");
    assert.deepEqual(signal?.value, { columns: 100, rows: 30 });
    await assert.rejects(app.resize(0, 10), RangeError);
  });
});

Deno.test("cx.keybind(): app-wide keys while their component is mounted", async (t) => {
  const log: string[] = [];
  await using app = await render(component((cx) => {
    const panel = cx.signal(true);
    const draft = cx.signal("");
    cx.keybind("Ctrl+S", "Save", () => log.push(`save ${draft.get()}`));
    cx.keybind("a", "Archive", () => log.push("archive"));
    cx.keybind("Ctrl+P", "Hide the panel", () => panel.set(!panel.get()));
    return column(
      textField({ label: "Note", value: draft }),
      button("OK", () => log.push("ok")),
      list(cx.signal(["apple", "avocado"]), (item) => text(item)).label("Fruit"),
      show(panel, () =>
        component((panelCx) => {
          panelCx.keybind("F5", "Refresh", () => log.push("refresh"));
          return text("Panel");
        })),
    );
  }));
  await t.step("a key no widget takes runs the binding, wherever focus is", async () => {
    await app.press("Ctrl+S");
    await app.press("Tab"); // the field
    await app.type("hi");
    await app.press("Ctrl+S");
    assert.deepEqual(log.splice(0), ["save ", "save hi"]);
  });
  await t.step("the focused widget comes first: the field types the a", async () => {
    await app.press("a");
    assert.equal(app.get({ role: "text_field" }).value, "hia");
    assert.deepEqual(log.splice(0), []);
  });
  await t.step("on a button the a is the app's; Enter is the button's", async () => {
    await app.press("Tab");
    await app.press("a");
    await app.press("Enter");
    assert.deepEqual(log.splice(0), ["archive", "ok"]);
  });
  await t.step("the list's type-ahead keeps its letters", async () => {
    await app.press("Tab");
    await app.press("a");
    assert.deepEqual(log.splice(0), []);
  });
  await t.step("agents see them and press them on the window", async () => {
    assert.deepEqual(app.snapshot().keybinds, [
      { key: "Ctrl+S", description: "Save", applies: true },
      { key: "a", description: "Archive", applies: true },
      { key: "Ctrl+P", description: "Hide the panel", applies: true },
      { key: "F5", description: "Refresh", applies: true },
    ]);
    const window = app.get({ role: "window" });
    await app.act(window.id, { action: "press_key", keybind: "f5" });
    assert.deepEqual(log.splice(0), ["refresh"]);
  });
  await t.step("unmounting a component removes its bindings", async () => {
    await app.press("Ctrl+P");
    assert.equal(app.query({ role: "text", name: "Panel" }).length, 0);
    assert.deepEqual(app.snapshot().keybinds.map((k) => k.key), ["Ctrl+S", "a", "Ctrl+P"]);
    await app.press("F5");
    assert.deepEqual(log.splice(0), []);
  });
});

Deno.test("cx.keybind(): a dialog keeps the keys of the app behind it; priority; the last made wins", async (t) => {
  const log: string[] = [];
  await using app = await render(component((cx) => {
    const open = cx.signal(false);
    cx.keybind("Ctrl+O", "Open", () => open.set(true));
    cx.keybind("n", "New", () => log.push("new"), { priority: true });
    cx.keybind("Ctrl+D", "Delete", () => log.push("outer delete"));
    return column(
      list(cx.signal(["north", "south"]), (item) => text(item)).label("Places"),
      textField({ label: "Name", value: cx.signal("") }),
      show(open, () =>
        component((inner) => {
          inner.keybind("Ctrl+D", "Delete in the dialog", () => log.push("inner delete"));
          return dialog("Confirm", button("Close", () => open.set(false)))
            .onClose(() => open.set(false));
        })),
    );
  }));
  await t.step("a priority binding comes before the focused list", async () => {
    await app.press("Tab"); // the list's first row
    await app.press("n");
    assert.deepEqual(log.splice(0), ["new"]);
  });
  await t.step("but not before a text field, which types its character", async () => {
    await app.press("Tab");
    await app.press("n");
    assert.equal(app.get({ role: "text_field" }).value, "n");
    assert.deepEqual(log.splice(0), []);
  });
  await t.step("in a dialog only the dialog's bindings apply", async () => {
    await app.press("Ctrl+O");
    assert.ok(app.get({ role: "dialog" }).states.includes("modal"));
    await app.press("Ctrl+D");
    await app.press("Ctrl+O");
    await app.press("n");
    assert.deepEqual(log.splice(0), ["inner delete"]);
    assert.deepEqual(
      app.snapshot().keybinds.map((k) => `${k.key} ${k.applies}`),
      ["Ctrl+O false", "n false", "Ctrl+D false", "Ctrl+D true"],
    );
  });
  await t.step("closing the dialog gives focus back to the field", async () => {
    await app.press("Escape");
    assert.equal(app.query({ role: "dialog" }).length, 0);
    assert.ok(app.get({ role: "text_field" }).states.includes("focused"));
    await app.press("Ctrl+D");
    assert.deepEqual(log.splice(0), ["outer delete"]);
  });
  await t.step("a key that cannot be parsed, or no description, throws", () => {
    assert.throws(
      () =>
        render(component((cx) => {
          cx.keybind("Ctrl+Banana", "Eat", () => {});
          return text("x");
        })),
      /invalid keybind "Ctrl\+Banana": unknown key "Banana"/,
    );
    assert.throws(
      () =>
        render(component((cx) => {
          cx.keybind("Ctrl+S", "", () => {});
          return text("x");
        })),
      /cx.keybind\(\) needs a description/,
    );
  });
});

Deno.test("? or F1 shows the keys; Escape closes them and focus goes back", async (t) => {
  await using app = await render(component((cx) => {
    cx.keybind("Ctrl+S", "Save", () => {});
    cx.keybind("Ctrl+Q", "Quit without saving", () => {}, { hint: false });
    return column(button("OK", () => {}), textField({ label: "Name", value: cx.signal("") }));
  }));
  await t.step("? on a button opens the help view, which lists every binding", async () => {
    await app.press("Tab");
    await app.press("?");
    const help = app.get({ role: "dialog", name: "Keys" });
    assert.ok(help.states.includes("modal"));
    const lines = app.query({ role: "text", within: help.id }).map((match) => match.name);
    assert.ok(lines.includes("Ctrl+S          Save"), lines.join("\n"));
    assert.ok(lines.includes("Ctrl+Q          Quit without saving"));
    assert.ok(lines.some((line) => /^\?, F1 +Show these keys/.test(line ?? "")));
    assert.ok(app.get({ role: "button", name: "Close" }).states.includes("focused"));
    assert.ok(app.app.helpOpen);
  });
  await t.step("the screen shows it", () => {
    assert.ok(app.screen().lines.some((line) => line.includes("Ctrl+S          Save")));
  });
  await t.step("Escape closes it; focus is back on the button", async () => {
    await app.press("Escape");
    assert.equal(app.query({ role: "dialog" }).length, 0);
    assert.ok(app.get({ role: "button", name: "OK" }).states.includes("focused"));
  });
  await t.step("in a text field ? types; F1 opens the keys, and F1 closes them", async () => {
    await app.press("Tab");
    await app.press("?");
    assert.equal(app.get({ role: "text_field" }).value, "?");
    assert.equal(app.query({ role: "dialog" }).length, 0);
    await app.press("F1");
    assert.equal(app.query({ role: "dialog", name: "Keys" }).length, 1);
    await app.press("F1");
    assert.equal(app.query({ role: "dialog" }).length, 0);
    assert.ok(app.get({ role: "text_field" }).states.includes("focused"));
  });
  await t.step("an agent opens it with press_key on the window", async () => {
    await app.act(app.get({ role: "window" }).id, { action: "press_key", keybind: "?" });
    const close = app.get({ role: "button", name: "Close" });
    await app.act(close.id, { action: "click" });
    assert.equal(app.query({ role: "dialog" }).length, 0);
  });
});

Deno.test("focus from code: .autofocus(), refs, and a dialog that gives focus back", async (t) => {
  await using app = await render(component((cx) => {
    const open = cx.signal(false);
    const title = focusRef();
    const disabledRef = focusRef();
    return column(
      button("First", () => {}),
      textField({ label: "Search", value: cx.signal("") }).autofocus(),
      textField({ label: "Title", value: cx.signal("") }).ref(title),
      button("Edit title", () => title.focus()),
      button("Off", () => {}).disabled().ref(disabledRef),
      button("Try the disabled one", () => {
        if (disabledRef.focus()) throw new Error("a disabled button took focus");
      }),
      button("Open", () => open.set(true)),
      show(open, () =>
        dialog(
          "Rename",
          button("Cancel", () => open.set(false)),
          textField({ label: "New name", value: cx.signal("") }).autofocus(),
          button("Focus the title", () => {
            if (title.focus()) throw new Error("a ref behind the dialog took focus");
          }),
        ).onClose(() => open.set(false))),
    );
  }));
  await t.step(".autofocus() gives the field focus at the first frame", () => {
    assert.ok(app.get({ role: "text_field", name: "Search" }).states.includes("focused"));
  });
  await t.step("a ref moves focus from a handler", async () => {
    await app.act(app.get({ role: "button", name: "Edit title" }).id, { action: "click" });
    assert.ok(app.get({ role: "text_field", name: "Title" }).states.includes("focused"));
  });
  await t.step("a ref to a disabled view refuses", async () => {
    const tryIt = app.get({ role: "button", name: "Try the disabled one" });
    await app.act(tryIt.id, { action: "click" });
    assert.ok(app.get({ id: tryIt.id }).states.includes("focused"));
  });
  await t.step(
    "a dialog's .autofocus() field has focus when it opens, not its first button",
    async () => {
      await app.act(app.get({ role: "button", name: "Open" }).id, { action: "click" });
      assert.ok(app.get({ role: "text_field", name: "New name" }).states.includes("focused"));
    },
  );
  await t.step("a ref to a view behind the dialog refuses", async () => {
    await app.act(app.get({ role: "button", name: "Focus the title" }).id, { action: "click" });
    assert.ok(app.get({ role: "button", name: "Focus the title" }).states.includes("focused"));
  });
  await t.step("Escape closes the dialog and focus goes back to Open", async () => {
    await app.press("Escape");
    assert.equal(app.query({ role: "dialog" }).length, 0);
    assert.ok(app.get({ role: "button", name: "Open" }).states.includes("focused"));
  });
  await t.step("a dialog closed by its button gives focus back too", async () => {
    await app.press("Enter");
    await app.press("Shift+Tab"); // Cancel
    await app.press("Enter");
    assert.equal(app.query({ role: "dialog" }).length, 0);
    assert.ok(app.get({ role: "button", name: "Open" }).states.includes("focused"));
  });
});

Deno.test("the Notes demo: Ctrl+N takes focus back to the title field from anywhere", async () => {
  await using app = await render(notesApp());
  await app.act(app.get({ role: "button", name: "Add" }).id, { action: "focus" });
  await app.press("Ctrl+N");
  assert.ok(app.get({ role: "text_field", name: "Title" }).states.includes("focused"));
  assert.deepEqual(app.snapshot().keybinds, [
    { key: "Ctrl+N", description: "New note", applies: true },
  ]);
});

Deno.test("the help view scrolls its list in a short window, its Close button in view", async () => {
  await using app = await render(
    component((cx) => {
      for (let index = 2; index <= 7; index++) cx.keybind(`F${index}`, `Action ${index}`, () => {});
      return button("OK", () => {});
    }),
    { width: 60, height: 12 },
  );
  await app.press("F1");
  const list = app.get({ role: "scroll_view", name: "Keys" });
  assert.ok(app.query({ role: "text", within: list.id, state: "offscreen" }).length > 0);
  assert.ok(app.screen().find("[ Close ]"), app.screen().text);
  await app.press("Escape");
  await app.resize(60, 30);
  await app.press("F1");
  assert.equal(app.query({ role: "scroll_view" }).length, 0, "room enough: no scrolling");
  assert.ok(app.screen().find("Ctrl+Z"));
});

Deno.test("an app that binds ? or F1 itself gets them instead of the help view", async () => {
  const pressed: string[] = [];
  await using app = await render(component((cx) => {
    cx.keybind("?", "Ask", () => pressed.push("?"));
    cx.keybind("F1", "Manual", () => pressed.push("F1"));
    return button("OK", () => {});
  }));
  await app.press("?");
  await app.press("F1");
  assert.deepEqual(pressed, ["?", "F1"]);
  assert.equal(app.query({ role: "dialog" }).length, 0);
});

Deno.test("the help view's list scrolls by the keys from its Close button", async () => {
  await using app = await render(
    component((cx) => {
      for (let index = 2; index <= 9; index++) cx.keybind(`F${index}`, `Action ${index}`, () => {});
      return button("OK", () => {});
    }),
    { width: 60, height: 12 },
  );
  await app.press("F1");
  const onScreen = () => app.screen().text;
  assert.ok(onScreen().includes("Action 2") && !onScreen().includes("Ctrl+Z"));
  await app.press("End");
  assert.ok(onScreen().includes("Ctrl+Z") && !onScreen().includes("Action 2"), onScreen());
  await app.press("Home");
  assert.ok(onScreen().includes("Action 2"));
  await app.press("PageDown");
  assert.ok(!onScreen().includes("Action 2"), onScreen());
  await app.press("ArrowUp");
  assert.ok(app.get({ role: "button", name: "Close" }).states.includes("focused"));
  await app.press("Escape");
  assert.equal(app.query({ role: "dialog" }).length, 0);
});
