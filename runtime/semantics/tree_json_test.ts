import assert from "node:assert/strict";
import { SemanticTree } from "./tree.ts";
import { absoluteBounds, layoutEntries, treeToJson } from "./tree_json.ts";

/** window (80x24) > group at 2,3 > [field at 1,1, button at 10,0]; then a text at 0,20. */
function placedTree() {
  const tree = new SemanticTree("Notes");
  const group = tree.createNode("group");
  const field = tree.createNode("text_field");
  const button = tree.createNode("button");
  const status = tree.createNode("text");
  tree.setName(field, "Password");
  tree.setValue(field, "hunter2");
  tree.setState(field, "secure", true);
  field.value = "hunter2"; // as if it slipped past the tree: the JSON must still leave it out
  tree.setState(field, "focused", true);
  tree.setName(button, "Sync");
  tree.setState(button, "disabled", true);
  tree.setValue(status, "idle");
  tree.setBounds(tree.root, { x: 0, y: 0, width: 80, height: 24 });
  tree.setBounds(group, { x: 2, y: 3, width: 30, height: 4 });
  tree.setBounds(field, { x: 1, y: 1, width: 8, height: 1 });
  tree.setBounds(button, { x: 10, y: 0, width: 8, height: 1 });
  tree.setBounds(status, { x: 0, y: 20, width: 4, height: 1 });
  tree.setChildren(tree.root, [group, status]);
  tree.setChildren(group, [field, button]);
  return { tree, group, field, button, status };
}

Deno.test("treeToJson()", async (t) => {
  await t.step("nests children, with states and bounds relative to the parent", () => {
    const { tree } = placedTree();
    assert.deepEqual(treeToJson(tree.root), {
      id: 1,
      role: "window",
      name: "Notes",
      states: [],
      bounds: { x: 0, y: 0, width: 80, height: 24 },
      children: [
        {
          id: 2,
          role: "group",
          states: [],
          bounds: { x: 2, y: 3, width: 30, height: 4 },
          children: [
            {
              id: 3,
              role: "text_field",
              name: "Password",
              states: ["focused", "secure"],
              bounds: { x: 1, y: 1, width: 8, height: 1 },
              children: [],
            },
            {
              id: 4,
              role: "button",
              name: "Sync",
              states: ["disabled"],
              bounds: { x: 10, y: 0, width: 8, height: 1 },
              children: [],
            },
          ],
        },
        {
          id: 5,
          role: "text",
          value: "idle",
          states: [],
          bounds: { x: 0, y: 20, width: 4, height: 1 },
          children: [],
        },
      ],
    });
  });

  await t.step("leaves a secure node's value out entirely", () => {
    const { tree, field } = placedTree();
    const json = treeToJson(tree.root);
    const fieldJson = json.children[0]!.children[0]!;
    assert.equal(fieldJson.id, field.id);
    assert.ok(!("value" in fieldJson));
    assert.ok(!JSON.stringify(json).includes("hunter2"));
  });

  await t.step("converts a subtree from the given node", () => {
    const { group, button } = placedTree();
    const json = treeToJson(button);
    assert.deepEqual(json.children, []);
    assert.deepEqual(treeToJson(group).children.map((child) => child.id), [3, 4]);
  });
});

Deno.test("layoutEntries()", async (t) => {
  await t.step("lists every node in tree order in window coordinates", () => {
    const { tree } = placedTree();
    assert.deepEqual(layoutEntries(tree.root), [
      { id: 1, role: "window", x: 0, y: 0, width: 80, height: 24 },
      { id: 2, role: "group", x: 2, y: 3, width: 30, height: 4 },
      { id: 3, role: "text_field", x: 3, y: 4, width: 8, height: 1 },
      { id: 4, role: "button", x: 12, y: 3, width: 8, height: 1 },
      { id: 5, role: "text", x: 0, y: 20, width: 4, height: 1 },
    ]);
  });

  await t.step("sums the bounds of every ancestor, negative offsets included", () => {
    const tree = new SemanticTree("W");
    let parent = tree.root;
    const offsets = [[1, 2], [3, -10], [0, 4], [5, 1]] as const;
    for (const [x, y] of offsets) {
      const child = tree.createNode("group");
      tree.setBounds(child, { x, y, width: 1, height: 1 });
      tree.setChildren(parent, [child]);
      parent = child;
    }
    const last = layoutEntries(tree.root).at(-1)!;
    assert.deepEqual([last.x, last.y], [9, -3]);
    assert.deepEqual(absoluteBounds(parent), { x: 9, y: -3, width: 1, height: 1 });
  });

  await t.step("never carries a value", () => {
    const { tree } = placedTree();
    for (const entry of layoutEntries(tree.root)) assert.ok(!("value" in entry));
  });
});

Deno.test("absoluteBounds()", async (t) => {
  await t.step("sums the bounds of the node and its ancestors, keeping its size", () => {
    const { field, button, status } = placedTree();
    assert.deepEqual(absoluteBounds(field), { x: 3, y: 4, width: 8, height: 1 });
    assert.deepEqual(absoluteBounds(button), { x: 12, y: 3, width: 8, height: 1 });
    assert.deepEqual(absoluteBounds(status), { x: 0, y: 20, width: 4, height: 1 });
  });

  await t.step("agrees with layoutEntries() for every node", () => {
    const { tree } = placedTree();
    for (const entry of layoutEntries(tree.root)) {
      const { x, y, width, height } = absoluteBounds(tree.get(entry.id)!);
      assert.deepEqual({ x, y, width, height }, {
        x: entry.x,
        y: entry.y,
        width: entry.width,
        height: entry.height,
      });
    }
  });
});
