/**
 * Errors people can see, through the harness: an error thrown in a handler, a keybinding, an
 * effect or a binding shows a status message of kind `error` saying what failed (the log keeps
 * the stack); a binding that threw shows `⚠ error` with the state `invalid` and the failure as
 * its description until it runs again without throwing.
 */

import assert from "node:assert/strict";
import {
  bind,
  button,
  checkbox,
  column,
  component,
  list,
  select,
  show,
  text,
  textField,
  widget,
} from "../mod.ts";
import { render } from "../testing.ts";
import { errorsApp } from "../../tests/fixtures/errors_app.ts";
import { setLogSink } from "./log.ts";

/** Runs `fn` with log lines captured; returns them. */
async function captureLog(fn: () => Promise<void>): Promise<string[]> {
  const lines: string[] = [];
  const restore = setLogSink((line) => lines.push(line));
  try {
    await fn();
  } finally {
    restore();
  }
  return lines;
}

Deno.test("an error in a handler shows a status message; the log keeps the stack", async (t) => {
  const lines = await captureLog(async () => {
    await using app = await render(errorsApp(), { clock: "manual" });
    await t.step("a click on Save: the person and the tree see what failed", async () => {
      await app.act(app.get({ role: "button", name: "Save" }).id, { action: "click" });
      const status = app.get({ role: "status" });
      assert.equal(status.name, "The click handler failed: the disk is full");
      assert.equal(status.value, "error");
      assert.ok(app.screen().find("✗ The click handler failed: the disk is full"));
    });
    await t.step("the same error again makes no second message", async () => {
      await app.act(app.get({ role: "button", name: "Save" }).id, { action: "click" });
      assert.equal(app.query({ role: "status" }).length, 1);
    });
    await t.step("Ctrl+S: the keybinding's failure names the key and what it does", async () => {
      await app.press("Ctrl+S");
      assert.deepEqual(app.query({ role: "status" }).map((s) => s.name), [
        "The click handler failed: the disk is full",
        "The Ctrl+S keybinding (Save) failed: the disk is full",
      ]);
    });
    await t.step("the messages go after 8 seconds", async () => {
      await app.advance(8000);
      assert.equal(app.query({ role: "status" }).length, 0);
    });
  });
  const at = lines.findIndex((line) =>
    line === "error in the click handler: Error: the disk is full"
  );
  assert.ok(at >= 0, lines.join("\n"));
  assert.match(lines[at + 1]!, /^ {4}at .*errors_app\.ts:\d+:\d+/, "the stack follows its error");
});

Deno.test("a binding that threw shows ⚠ error and invalid, not a stale value", async (t) => {
  await using app = await render(errorsApp(), { clock: "manual" });
  const plus = app.get({ role: "button", name: "+1" }).id;
  await t.step("while it throws", async () => {
    await app.act(plus, { action: "click" });
    const total = app.get({ role: "text" });
    assert.equal(total.name, "⚠ error");
    assert.deepEqual(total.states, ["invalid"]);
    assert.equal(total.description, "a label binding failed: an odd count has no total");
    assert.ok(app.screen().find("⚠ error"));
    assert.equal(
      app.get({ role: "status" }).name,
      "A label binding failed: an odd count has no total",
    );
  });
  await t.step("once it runs again without throwing", async () => {
    await app.act(plus, { action: "click" });
    const total = app.get({ role: "text" });
    assert.equal(total.name, "Total 2");
    assert.deepEqual(total.states, []);
    assert.equal(total.description, undefined);
  });
});

Deno.test("a failing binding and a widget's own .invalid() share the node", async () => {
  await using app = await render(
    component((cx) => {
      const email = cx.signal("x");
      const broken = cx.signal(false);
      return column(
        textField({
          label: bind(() => {
            if (broken.get()) throw new Error("no label");
            return "Email";
          }),
          value: email,
        }).invalid(bind(() => email.get().includes("@") ? null : "needs an @")),
        button("Break", () => broken.set(!broken.get())),
      );
    }),
    { clock: "manual" },
  );
  const field = () => app.get({ role: "text_field" });
  assert.equal(field().description, "needs an @");
  await app.act(app.get({ role: "button" }).id, { action: "click" });
  assert.equal(field().name, "⚠ error");
  assert.equal(field().description, "a label binding failed: no label");
  assert.ok(field().states.includes("invalid"));
  await app.act(app.get({ role: "button" }).id, { action: "click" });
  assert.equal(field().name, "Email");
  assert.equal(field().description, "needs an @", "its own message comes back");
  assert.ok(field().states.includes("invalid"));
});

Deno.test("an effect's error and an async keybinding's rejection are shown too", async () => {
  await using app = await render(
    component((cx) => {
      const runs = cx.signal(0);
      cx.effect(() => {
        if (runs.get() > 0) throw new Error("the effect failed");
      });
      cx.keybind("F5", "Refresh", async () => {
        await Promise.resolve();
        throw new Error("offline");
      });
      return button("Run", () => runs.set(runs.get() + 1));
    }),
    { clock: "manual" },
  );
  await app.act(app.get({ role: "button" }).id, { action: "click" });
  await app.press("F5");
  await app.advance(0);
  assert.deepEqual(app.query({ role: "status" }).map((s) => s.name), [
    "An effect failed: the effect failed",
    "The F5 keybinding (Refresh) failed: offline",
  ]);
});

Deno.test("an async click, menu item or submit handler that rejects is shown, not left unhandled", async () => {
  await using app = await render(
    component((cx) => {
      const open = cx.signal(true);
      return column(
        button("Sync", async () => {
          await Promise.resolve();
          throw new Error("offline");
        }),
        textField({
          label: "Title",
          value: cx.signal(""),
          onSubmit: async () => {
            await Promise.resolve();
            throw new Error("cannot add");
          },
        }),
        show(open, () =>
          button("Save and close", async () => {
            open.set(false);
            await Promise.resolve();
            throw new Error("not saved");
          })),
      );
    }),
    { clock: "manual" },
  );
  await app.act(app.get({ role: "button", name: "Sync" }).id, { action: "click" });
  await app.act(app.get({ role: "text_field" }).id, { action: "press_key", keybind: "Enter" });
  await app.act(app.get({ role: "button", name: "Save and close" }).id, { action: "click" });
  await app.advance(0);
  assert.deepEqual(app.query({ role: "status" }).map((s) => s.name), [
    "The click handler failed: offline",
    "The submit handler failed: cannot add",
    "The click handler failed: not saved",
  ]);
  assert.equal(app.query({ role: "button", name: "Save and close" }).length, 0);
});

Deno.test("an async list, checkbox, select or widget() handler that rejects is shown too", async () => {
  const later = (message: string) => async () => {
    await Promise.resolve();
    throw new Error(message);
  };
  await using app = await render(
    component(() =>
      column(
        list(["Buy milk"], (item) => text(item), (item) => item).onActivate(later("not opened")),
        checkbox("Done", false).onToggle(later("not ticked")),
        select({ label: "Colour", options: ["Red", "Green"], onChange: later("not chosen") }),
      )
    ),
    { clock: "manual" },
  );
  const row = app.get({ role: "list_item", name: "Buy milk" });
  await app.act(row.id, { action: "double_click" });
  await app.act(app.get({ role: "checkbox" }).id, { action: "click" });
  await app.act(app.get({ role: "combo_box" }).id, { action: "select", option: "Green" });
  await app.advance(0);
  assert.deepEqual(app.query({ role: "status" }).map((s) => s.name), [
    "The onActivate handler failed: not opened",
    "The change handler failed: not ticked",
    "The change handler failed: not chosen",
  ]);
  await app.close(); // one manual-clock app at a time
  await using custom = await render(
    component(() =>
      widget({ role: "button", name: "Custom", focusable: true, onClick: later("no click") })
    ),
    { clock: "manual" },
  );
  await custom.act(custom.get({ role: "button", name: "Custom" }).id, { action: "click" });
  await custom.advance(0);
  assert.deepEqual(custom.query({ role: "status" }).map((s) => s.name), [
    "The click handler failed: no click",
  ]);
});
