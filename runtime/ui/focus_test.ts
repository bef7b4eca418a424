import assert from "node:assert/strict";
import { App } from "../app/app.ts";
import { HeadlessRenderer } from "../render/headless.ts";
import type { Widget } from "./widget.ts";
import { canFocus, firstFocusable, focusableAncestor, nextFocus, takesFocus } from "./focus.ts";
import { button, column, component, list, row, text, textField } from "./mod.ts";

function mount(): App {
  return new App(
    component(() =>
      column(
        text("Title"),
        button("A", () => {}),
        row(button("B", () => {}), button("C", () => {})).disabled(),
        textField({ label: "D", value: "" }),
        list(["x"], (item) => row(text(item))),
      )
    ),
    { title: "Focus", renderer: new HeadlessRenderer() },
  );
}

/** The element whose node is named `name` (and has `role`, when given). */
function named(app: App, name: string, role?: string): Widget {
  const stack: Widget[] = [app.root];
  while (stack.length > 0) {
    const element = stack.pop()!;
    if (element.node?.name === name && (role === undefined || element.node.role === role)) {
      return element;
    }
    stack.push(...element.children);
  }
  throw new Error(`no element named ${name}`);
}

Deno.test("Tab order: depth first, a disabled subtree left out, wrapping both ways", () => {
  const app = mount();
  try {
    const [a, d, rowX] = [named(app, "A"), named(app, "D"), named(app, "x", "text")];
    const listItem = rowX.parent!.parent!;
    assert.equal(listItem.kind, "list_item");
    assert.equal(firstFocusable(app.root), a);
    assert.equal(nextFocus(app.root, null, 1), a);
    assert.equal(nextFocus(app.root, null, -1), listItem);
    assert.equal(nextFocus(app.root, a, 1), d, "B and C are in a disabled row");
    assert.equal(nextFocus(app.root, d, 1), listItem);
    assert.equal(nextFocus(app.root, listItem, 1), a);
    assert.equal(nextFocus(app.root, a, -1), listItem);
  } finally {
    app.close();
  }
});

Deno.test("focusable: what a widget takes, and what can take focus now", () => {
  const app = mount();
  try {
    const b = named(app, "B");
    assert.equal(takesFocus(b), true);
    assert.equal(canFocus(b), false, "inside a disabled row");
    assert.equal(canFocus(named(app, "A")), true);
    assert.equal(takesFocus(named(app, "Title")), false);
    const text = named(app, "x", "text");
    assert.equal(focusableAncestor(text)?.kind, "list_item");
    assert.equal(focusableAncestor(named(app, "A")), null);
  } finally {
    app.close();
  }
});
