import assert from "node:assert/strict";
import { type Bounds, type Role, SemanticNode } from "./node.ts";
import { childPlace, isOnScreen, screenPlace } from "./on_screen.ts";
import { SemanticTree } from "./tree.ts";

/** A window 80 by 24 with `node()` to hang nodes with bounds under a parent. */
function window() {
  const tree = new SemanticTree("W");
  tree.setBounds(tree.root, { x: 0, y: 0, width: 80, height: 24 });
  const node = (parent: SemanticNode, role: Role, bounds: Bounds): SemanticNode => {
    const created = tree.createNode(role);
    tree.setBounds(created, bounds);
    tree.setChildren(parent, [...parent.children, created]);
    return created;
  };
  return { tree, node };
}

Deno.test("isOnScreen()", async (t) => {
  await t.step("a node inside the window is on screen; one past its edges is not", () => {
    const { tree, node } = window();
    assert.ok(isOnScreen(node(tree.root, "button", { x: 70, y: 23, width: 20, height: 1 })));
    assert.ok(!isOnScreen(node(tree.root, "button", { x: 0, y: 24, width: 10, height: 1 })));
    assert.ok(!isOnScreen(node(tree.root, "button", { x: 80, y: 0, width: 10, height: 1 })));
    assert.ok(!isOnScreen(node(tree.root, "button", { x: -10, y: 0, width: 10, height: 1 })));
  });

  await t.step("bounds are relative to the parent node", () => {
    const { tree, node } = window();
    const group = node(tree.root, "group", { x: 0, y: 20, width: 80, height: 10 });
    assert.ok(isOnScreen(node(group, "text", { x: 0, y: 3, width: 5, height: 1 })));
    assert.ok(!isOnScreen(node(group, "text", { x: 0, y: 4, width: 5, height: 1 })));
  });

  await t.step("a scroll view shows its content only within its viewport, nested ones too", () => {
    const { tree, node } = window();
    const outer = node(tree.root, "scroll_view", { x: 0, y: 5, width: 40, height: 10 });
    const content = node(outer, "group", { x: 0, y: -20, width: 40, height: 100 });
    assert.ok(!isOnScreen(node(content, "text", { x: 0, y: 19, width: 5, height: 1 })));
    assert.ok(isOnScreen(node(content, "text", { x: 0, y: 20, width: 5, height: 1 })));
    assert.ok(isOnScreen(node(content, "text", { x: 0, y: 29, width: 5, height: 1 })));
    assert.ok(!isOnScreen(node(content, "text", { x: 0, y: 30, width: 5, height: 1 })));
    const inner = node(content, "scroll_view", { x: 0, y: 22, width: 10, height: 2 });
    assert.ok(isOnScreen(node(inner, "text", { x: 0, y: 1, width: 5, height: 1 })));
    assert.ok(!isOnScreen(node(inner, "text", { x: 0, y: 2, width: 5, height: 1 })));
  });

  await t.step("a group does not clip: a child outside it still shows in the window", () => {
    const { tree, node } = window();
    const group = node(tree.root, "group", { x: 0, y: 0, width: 10, height: 1 });
    assert.ok(isOnScreen(node(group, "text", { x: 0, y: 5, width: 5, height: 1 })));
  });

  await t.step("a node without size counts as the cell at its corner", () => {
    const { tree, node } = window();
    assert.ok(isOnScreen(node(tree.root, "group", { x: 3, y: 3, width: 0, height: 0 })));
    assert.ok(!isOnScreen(node(tree.root, "group", { x: 3, y: 24, width: 0, height: 0 })));
  });
});

Deno.test("childPlace() carries window bounds and the clip down a walk", () => {
  const { tree, node } = window();
  const scroll = node(tree.root, "scroll_view", { x: 2, y: 3, width: 10, height: 4 });
  const text = node(scroll, "text", { x: 1, y: 1, width: 3, height: 1 });
  const walked = childPlace(childPlace(childPlace(null, tree.root), scroll), text);
  assert.deepEqual(walked, screenPlace(text));
  assert.deepEqual(walked.bounds, { x: 3, y: 4, width: 3, height: 1 });
  assert.deepEqual(walked.clip, { x: 2, y: 3, width: 10, height: 4 });
});

Deno.test("childPlace() puts a node below the window off screen", () => {
  const window = new SemanticNode(1, "window");
  window.bounds = { x: 0, y: 0, width: 80, height: 24 };
  const below = new SemanticNode(2, "button");
  below.bounds = { x: 0, y: 30, width: 8, height: 1 };
  assert.equal(childPlace(childPlace(null, window), below).onScreen, false);
});
