import assert from "node:assert/strict";
import { render, type TestApp } from "../testing.ts";
import {
  bind,
  button,
  checkbox,
  column,
  component,
  dialog,
  list,
  row,
  scrollView,
  show,
  slider,
  text,
  textField,
} from "../ui/mod.ts";
import {
  clickAt,
  draggableAt,
  dragTo,
  hitTest,
  hoverAt,
  pressKey,
  typeText,
  wheelAt,
} from "./person.ts";
import { parseKeybind } from "../text/keybind.ts";
import type { LabelWidget } from "../ui/widget.ts";

/** A form, a long list in a scroll view and a dialog, laid out in 40 by 12 cells. */
function app(): Promise<TestApp> {
  return render(
    component((cx) => {
      const open = cx.signal(false);
      const clicks = cx.signal(0);
      const secret = cx.secret("", { name: "secret" });
      const rows = Array.from({ length: 100 }, (_, index) => index);
      return column(
        row(
          button("Open", () => open.set(true)),
          button("Never", () => {}).disabled(),
          text(bind(() => `clicks ${clicks.get()}`)),
        ),
        textField({ label: "Name", value: "" }),
        slider({ label: "Level", value: 50, min: 0, max: 100 }),
        scrollView(
          list(rows, (index) =>
            row(
              checkbox("Done", false),
              button(`Row ${index}`, () => clicks.set(index)),
            )),
        ),
        show(open, () =>
          dialog(
            "Dialog",
            textField({ label: "Secret", value: secret }).secure(),
            button("Close", () => open.set(false)),
          ).onClose(() => open.set(false))),
      );
    }),
    { width: 40, height: 12 },
  );
}

function line(app: TestApp, text: string): string {
  return app.tree().split("\n").find((entry) => entry.includes(text))?.trim() ?? "";
}

Deno.test("hitTest() finds the deepest element under a point", async () => {
  const test = await app();
  const { app: env } = test;
  assert.equal(hitTest(env, 1, 0)?.kind, "button"); // "[ Open ]"
  assert.equal(hitTest(env, 0, 1)?.kind, "text_field");
  assert.equal(hitTest(env, 1, 3)?.kind, "checkbox"); // the first row of the list
  assert.equal(hitTest(env, 39, 0)?.kind, "window", "past everything: the window itself");
  assert.equal(hitTest(env, 100, 100), null, "outside the window");
  await test.close();
});

Deno.test("hitTest() sees only rows scrolled into view", async () => {
  const test = await app();
  wheelAt(test.app, 1, 5, 0, 50);
  const hit = hitTest(test.app, 12, 3)!;
  assert.equal(hit.kind, "button");
  assert.equal((hit as LabelWidget).label, "Row 50");
  await test.close();
});

Deno.test("clickAt() clicks as the user; a disabled button takes no click", async () => {
  const test = await app();
  assert.ok(clickAt(test.app, 12, 3)); // "[ Row 0 ]"
  assert.match(line(test, `button "Row 0"`), /focused/);
  assert.ok(!clickAt(test.app, 11, 0), "the disabled button refuses, quietly");
  assert.ok(!clickAt(test.app, 100, 100));
  clickAt(test.app, 1, 3);
  assert.match(line(test, `checkbox "Done"`), /checked/);
  clickAt(test.app, 1, 3, 2); // the second click of a double click toggles it back
  assert.doesNotMatch(line(test, `checkbox "Done"`), /checked/);
  await test.close();
});

Deno.test("clickAt() reaches only the top dialog while one is open", async () => {
  const test = await app();
  clickAt(test.app, 1, 0);
  assert.match(test.tree(), /dialog "Dialog"/);
  const before = test.tree();
  clickAt(test.app, 1, 3); // a checkbox under the dialog's shade, outside the dialog
  clickAt(test.app, 0, 0);
  assert.equal(test.tree(), before);
  await test.close();
});

Deno.test("typeText() types into the focused field, as the user, secure ones too", async () => {
  const test = await app();
  clickAt(test.app, 0, 1); // the Name field
  typeText(test.app, "Ada");
  assert.match(line(test, `text_field "Name"`), /value="Ada" focused/);
  clickAt(test.app, 1, 0); // Open: the dialog, which takes focus to its first field
  assert.match(line(test, `text_field "Secret"`), /focused/);
  typeText(test.app, "hunter2"); // an agent's type_text would be refused here
  const secret = test.app.elementById(test.get({ name: "Secret" }).id)!;
  assert.equal(secret.textEdit?.value, "hunter2");
  assert.doesNotMatch(test.tree(), /hunter2/);
  await test.close();
});

Deno.test("typeText() without a field presses each character as a key", async () => {
  const test = await app();
  clickAt(test.app, 1, 3); // the first checkbox: toggled, focused
  typeText(test.app, " ");
  assert.doesNotMatch(line(test, `checkbox "Done"`), /checked/, "Space toggled it back");
  await test.close();
});

Deno.test("pressKey() with nothing focused goes to the top dialog, so Escape closes it", async () => {
  const test = await app();
  clickAt(test.app, 1, 0);
  assert.equal(test.app.focused?.kind, "text_field", "the dialog took focus when it opened");
  // With nothing focused (as after the focused node went away), keys go to the top dialog.
  test.app.focus(null);
  pressKey(test.app, parseKeybind("Escape"));
  assert.doesNotMatch(test.tree(), /dialog/);
  await test.close();
});

Deno.test("wheelAt() scrolls the scroll view under the pointer, and nothing elsewhere", async () => {
  const test = await app();
  assert.ok(wheelAt(test.app, 1, 4, 0, 3));
  assert.equal((hitTest(test.app, 12, 3) as LabelWidget).label, "Row 3");
  assert.ok(!wheelAt(test.app, 1, 0, 0, 3), "over the buttons there is nothing to scroll");
  await test.close();
});

Deno.test("hoverAt() hovers what a click would act on; plain text hovers nothing", async () => {
  const test = await app();
  hoverAt(test.app, 1, 0);
  assert.match(line(test, `button "Open"`), /hovered/);
  hoverAt(test.app, 25, 0); // "clicks 0"
  assert.doesNotMatch(test.tree(), /hovered/);
  await test.close();
});

Deno.test("draggableAt() and dragTo() move a slider", async () => {
  const test = await app();
  const slider = draggableAt(test.app, 8, 2)!;
  assert.equal(slider.kind, "slider");
  assert.ok(dragTo(test.app, slider, 7, 2)); // the track's first cell
  assert.match(line(test, `slider "Level"`), /value="0"/);
  assert.equal(draggableAt(test.app, 1, 0), null);
  await test.close();
});
