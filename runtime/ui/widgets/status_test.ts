import assert from "node:assert/strict";
import { button, column, component, type Cx, dialog, show, text } from "../../mod.ts";
import { render } from "../../testing.ts";
import { LIGHT_THEME } from "../theme.ts";

/** An app with a Notify button whose handler calls `notify(cx)`, and a last line of text. */
function notifier(notify: (cx: Cx, count: number) => void) {
  return component((cx) => {
    let count = 0;
    return column(
      button("Notify", () => notify(cx, ++count)),
      button("Other", () => {}),
      column().grow(),
      text("Bottom line of the content"),
    );
  });
}

Deno.test("notify: a status line at the bottom of the app's area and a status node", async () => {
  await using app = await render(
    notifier((cx) => cx.notify("Saved 3 notes", { kind: "success" })),
    { width: 40, height: 6, clock: "manual" },
  );
  assert.equal(app.screen().lines[5], "Bottom line of the content");
  await app.act(app.get({ role: "button", name: "Notify" }).id, { action: "click" });
  assert.equal(app.screen().lines[5], " ✓ Saved 3 notes");
  // First under the window, so a tree cut to a budget still shows it.
  assert.match(app.tree(), /^window "Test" #1\n status "Saved 3 notes" #\d+ value="success"\n/);
  const status = app.get({ role: "status" });
  assert.equal(status.value, "success");
  // Focus stays where it was; Tab goes on as before.
  assert.equal(app.get({ state: "focused" }).name, "Notify");
  await app.press("Tab");
  assert.equal(app.get({ state: "focused" }).name, "Other");
  // After its time it goes, and the content shows again.
  await app.advance(4999);
  assert.equal(app.query({ role: "status" }).length, 1);
  await app.advance(1);
  assert.equal(app.query({ role: "status" }).length, 0);
  assert.equal(app.screen().lines[5], "Bottom line of the content");
});

Deno.test("notify: each kind in its theme colour, with a mark that says it without colour", async () => {
  const kinds = ["info", "success", "warning", "error"] as const;
  await using app = await render(
    notifier((cx, count) => cx.notify(`Message ${count}`, { kind: kinds[(count - 1) % 4]! })),
    { width: 30, height: 8, clock: "manual", theme: LIGHT_THEME },
  );
  const notify = app.get({ role: "button", name: "Notify" }).id;
  for (let index = 0; index < 3; index++) await app.act(notify, { action: "click" });
  assert.deepEqual(app.screen().lines.slice(5), [" i Message 1", " ✓ Message 2", " ! Message 3"]);
  const looks = [5, 6, 7].map((y) => app.screen().styleAt(1, y));
  assert.equal(new Set(looks).size, 3, looks.join(" | "));
  assert.match(looks[1]!, new RegExp(LIGHT_THEME.colours.success as string));
  // A fourth pushes the oldest out: three at most.
  await app.act(notify, { action: "click" });
  assert.deepEqual(app.screen().lines.slice(5), [" ✓ Message 2", " ! Message 3", " ✗ Message 4"]);
  assert.match(app.screen().styleAt(1, 7), new RegExp(`${LIGHT_THEME.colours.error}.*bold|bold`));
  assert.deepEqual(app.query({ role: "status" }).map((m) => [m.name, m.value]), [
    ["Message 2", "success"],
    ["Message 3", "warning"],
    ["Message 4", "error"],
  ]);
  // Without colour the marks and the inverse line still tell it.
  assert.match(app.screen({ depth: "none" }).styleAt(1, 7), /inverse/);
});

Deno.test("notify: a click takes a message away; a long text is cut on screen, whole in the tree", async () => {
  const long = `Copied ${"very ".repeat(20)}many files\nin two lines`;
  await using app = await render(
    notifier((cx) => cx.notify(long, { kind: "info", durationMs: 60_000 })),
    { width: 30, height: 6, clock: "manual" },
  );
  await app.act(app.get({ role: "button", name: "Notify" }).id, { action: "click" });
  assert.equal(app.screen().lines[5], ` i Copied ${"very ".repeat(20)}`.slice(0, 30).trimEnd());
  assert.equal(app.get({ role: "status" }).name, long);
  // A person's click on the line (the agent's too).
  await app.act(app.get({ role: "status" }).id, { action: "click" });
  assert.equal(app.query({ role: "status" }).length, 0);
});

Deno.test("notify: bad arguments are refused", async () => {
  const errors: unknown[] = [];
  await using app = await render(notifier((cx, count) => {
    try {
      if (count === 1) cx.notify("");
      if (count === 2) cx.notify("x", { kind: "fatal" as never });
      if (count === 3) cx.notify("x", { durationMs: 0 });
    } catch (error) {
      errors.push(error);
    }
  }));
  const notify = app.get({ role: "button", name: "Notify" }).id;
  for (let index = 0; index < 3; index++) await app.act(notify, { action: "click" });
  assert.match(String(errors[0]), /takes a text to show/);
  assert.match(String(errors[1]), /kind is one of info, success, warning, error, got "fatal"/);
  assert.match(String(errors[2]), /durationMs must be a number of ms above 0/);
  assert.equal(app.query({ role: "status" }).length, 0);
});

Deno.test("notify: with nothing focused a key goes to the dialog open under a message, not to it", async () => {
  await using app = await render(
    component((cx) => {
      const open = cx.signal(true, { name: "open" });
      setTimeout(() => cx.notify("Settings opened"), 10); // the message comes after the dialog
      return show(
        open,
        () => dialog("Settings", text("Nothing to focus")).onClose(() => open.set(false)),
      );
    }),
    { clock: "manual" },
  );
  await app.advance(10);
  assert.equal(app.query({ role: "dialog" }).length, 1);
  assert.equal(app.query({ role: "status" }).length, 1);
  assert.equal(app.query({ state: "focused" }).length, 0);
  await app.press("Escape");
  assert.equal(app.query({ role: "dialog" }).length, 0, "Escape closed the dialog");
});
