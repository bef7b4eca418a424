import assert from "node:assert/strict";
import { paintElements } from "../../render/paint.ts";
import { render } from "../../testing.ts";
import { typeText } from "../../input/person.ts";
import type { StyleName, Surface } from "../surface.ts";
import { bind, column, component, text, textField, widget } from "../mod.ts";
import type { Signal } from "../../reactive/mod.ts";

/** A surface that records the style of every cell it is told to paint. */
function recordingSurface(): Surface & { styles: Map<string, StyleName> } {
  const styles = new Map<string, StyleName>();
  return {
    styles,
    write(x, y, written, style, clip) {
      let column = x;
      for (const _ of written) {
        if (column >= clip.x && column < clip.x + clip.width && y >= clip.y) {
          styles.set(`${column},${y}`, style);
        }
        column++;
      }
      return column;
    },
    fill(rect, style, clip) {
      for (let y = rect.y; y < rect.y + rect.height; y++) {
        for (let x = rect.x; x < rect.x + rect.width; x++) {
          if (x >= clip.x && x < clip.x + clip.width && y >= clip.y && y < clip.y + clip.height) {
            styles.set(`${x},${y}`, style);
          }
        }
      }
    },
  };
}

Deno.test("widget({ onText }) takes an agent's type_text and a person's typing", async () => {
  let typed: Signal<string> | undefined;
  await using app = await render(component((cx) => {
    typed = cx.signal("", { name: "typed" });
    const shown = typed;
    return widget(
      {
        role: "text_area",
        name: "Editor",
        value: shown,
        focusable: true,
        onText: (more) => shown.set(shown.get() + more),
      },
      text(bind(() => `${shown.get().length} characters`)),
    );
  }));
  const editor = app.get({ role: "text_area", name: "Editor" });
  await app.act(editor.id, { action: "type_text", text: "hello" });
  assert.equal(typed!.get(), "hello");
  typeText(app.app, " world"); // the person's keys go to the focused editor as text
  await app.settle();
  assert.match(app.tree(), /text_area "Editor" #\d+ value="hello world" focused/);
  assert.match(app.tree(), /text "11 characters"/);
});

Deno.test("type_text on a widget() without onText says what is missing", async () => {
  await using app = await render(
    component(() => widget({ role: "text_field", name: "Fake", focusable: true })),
  );
  await assert.rejects(
    () => app.act(app.get({ name: "Fake" }).id, { action: "type_text", text: "x" }),
    {
      name: "ActionError",
      message:
        "invalid arguments: type_text works on nodes that take typed text (text_field, text_area), not on this text_field, a widget() without onText",
    },
  );
});

Deno.test("a focusable widget() shows focus without painting it itself", async () => {
  await using app = await render(
    component(() =>
      column(
        widget({ role: "radio_button", name: "Plain", focusable: true }, text("Plain")),
        widget({ role: "radio_button", name: "Other", focusable: true }, text("Other")),
      )
    ),
    { width: 20, height: 4 },
  );
  const paint = () => {
    const surface = recordingSurface();
    paintElements(surface, app.app, { x: 0, y: 0, width: 20, height: 4 });
    return surface.styles;
  };
  assert.equal(paint().get("0,0"), "text");
  await app.act(app.get({ role: "radio_button", name: "Plain" }).id, { action: "focus" });
  const styles = paint();
  assert.equal(styles.get("0,0"), "focus", "the focused widget's cells take the focus look");
  assert.equal(styles.get("0,1"), "text", "the other keeps its own");
  await app.act(app.get({ role: "radio_button", name: "Other" }).id, { action: "hover" });
  assert.equal(paint().get("0,1"), "hover");
});

Deno.test(".invalid(), .description() and .required() show on the node, bound like any property", async () => {
  let email: Signal<string> | undefined;
  await using app = await render(component((cx) => {
    email = cx.signal("me", { name: "email" });
    const value = email;
    return column(
      textField({ label: "Email", value })
        .description("Where receipts go")
        .required()
        .invalid(bind(() => value.get().includes("@") ? null : "needs an @")),
    );
  }));
  const line = () => app.tree().split("\n").find((l) => l.includes('text_field "Email"'))!;
  assert.match(line(), / value="me" description="needs an @" invalid required$/);
  const match = app.get({ role: "text_field", name: "Email" });
  assert.equal(app.app.tree.get(match.id)!.description, "needs an @");
  email!.set("me@example.org");
  await app.settle();
  assert.match(line(), / value="me@example.org" description="Where receipts go" required$/);
  assert.deepEqual(app.query({ role: "text_field", state: "invalid" }), []);
  email!.set("");
  await app.settle();
  assert.deepEqual(app.query({ state: "invalid" }).map((m) => m.name), ["Email"]);
  // The description is the message's, and goes back when the field is valid again.
  assert.equal(app.app.tree.get(match.id)!.description, "needs an @");
});
