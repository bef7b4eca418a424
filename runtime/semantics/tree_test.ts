import assert from "node:assert/strict";
import { type NodeData, STATE_BIT } from "./node.ts";
import { SemanticTree, type TreeUpdate } from "./tree.ts";

/** A committed tree `window > group > [text, button]`, so that later changes stand alone. */
function smallTree() {
  const tree = new SemanticTree("Notes");
  const group = tree.createNode("group");
  const label = tree.createNode("text");
  const button = tree.createNode("button");
  tree.setName(label, "2 notes");
  tree.setName(button, "Add");
  tree.setChildren(tree.root, [group]);
  tree.setChildren(group, [label, button]);
  tree.commit();
  return { tree, group, label, button };
}

function mustCommit(tree: SemanticTree): TreeUpdate {
  const update = tree.commit();
  assert.notEqual(update, null, "expected the frame to change the tree");
  return update!;
}

function byId(update: TreeUpdate): Map<number, NodeData> {
  return new Map(update.nodes.map((data) => [data.id, data]));
}

Deno.test("SemanticTree ids", async (t) => {
  await t.step("the root window is #1 and named by the title", () => {
    const tree = new SemanticTree("Notes");
    assert.equal(tree.root.id, 1);
    assert.equal(tree.root.role, "window");
    assert.equal(tree.root.name, "Notes");
    assert.equal(tree.get(1), tree.root);
  });

  await t.step("createNode() gives each node a fresh id", () => {
    const tree = new SemanticTree("Notes");
    const ids = Array.from({ length: 5 }, () => tree.createNode("text").id);
    assert.deepEqual(ids, [2, 3, 4, 5, 6]);
    assert.equal(tree.size, 6);
  });

  await t.step("remove() never frees an id for reuse", () => {
    const { tree, group, label, button } = smallTree();
    const removed = [group.id, label.id, button.id];
    tree.remove(group);
    tree.commit();
    for (const id of removed) assert.equal(tree.get(id), undefined);
    assert.equal(tree.size, 1);
    const fresh = Array.from({ length: 10 }, () => tree.createNode("text").id);
    for (const id of fresh) {
      assert.ok(!removed.includes(id), `id ${id} was used again after its node was removed`);
      assert.ok(id > Math.max(...removed));
    }
    assert.equal(new Set(fresh).size, fresh.length);
  });

  await t.step("a node keeps its id through changes", () => {
    const { tree, label } = smallTree();
    const id = label.id;
    tree.setName(label, "3 notes");
    tree.setRole(label, "heading");
    tree.commit();
    assert.equal(label.id, id);
    assert.equal(tree.get(id), label);
  });
});

Deno.test("SemanticTree.commit()", async (t) => {
  await t.step("bumps the revision by exactly one when anything changed", () => {
    const { tree, label, button } = smallTree();
    const before = tree.revision;
    tree.setName(label, "3 notes");
    tree.setState(button, "disabled", true);
    tree.setBounds(button, { x: 1, y: 2, width: 7, height: 1 });
    const update = mustCommit(tree);
    assert.equal(tree.revision, before + 1);
    assert.equal(update.revision, before + 1);
  });

  await t.step("returns null and keeps the revision when nothing changed", () => {
    const { tree } = smallTree();
    const before = tree.revision;
    assert.equal(tree.hasChanges, false);
    assert.equal(tree.commit(), null);
    assert.equal(tree.commit(), null);
    assert.equal(tree.revision, before);
  });

  await t.step("counts a focus change as a change", () => {
    const { tree, button } = smallTree();
    const before = tree.revision;
    tree.setState(button, "focused", true);
    const update = mustCommit(tree);
    assert.equal(tree.revision, before + 1);
    assert.deepEqual(update.nodes.map((data) => [data.id, data.states]), [[button.id, [
      "focused",
    ]]]);
  });

  await t.step("the first commit reaches revision 1 with every node", () => {
    const tree = new SemanticTree("Notes");
    const text = tree.createNode("text");
    tree.setChildren(tree.root, [text]);
    const update = mustCommit(tree);
    assert.equal(update.revision, 1);
    assert.equal(update.root, 1);
    assert.deepEqual(update.nodes.map((data) => data.id).sort(), [1, 2]);
    assert.deepEqual(update.removed, []);
  });

  await t.step("forgets what it reported: the next frame starts empty", () => {
    const { tree, label } = smallTree();
    tree.setName(label, "3 notes");
    mustCommit(tree);
    assert.equal(tree.hasChanges, false);
    assert.equal(tree.commit(), null);
  });

  await t.step("reports nothing for a node created and removed within one frame", () => {
    const { tree, group } = smallTree();
    const before = tree.revision;
    const passing = tree.createNode("text");
    const child = tree.createNode("text");
    tree.setChildren(passing, [child]);
    tree.remove(passing);
    assert.equal(tree.commit(), null);
    assert.equal(tree.revision, before);
    // Attached for a moment: only the parent, back as it was, is reported.
    const flash = tree.createNode("button");
    tree.setChildren(group, [...group.children, flash]);
    tree.remove(flash);
    const update = mustCommit(tree);
    assert.deepEqual(update.removed, []);
    assert.deepEqual(update.nodes.map((data) => data.id), [group.id]);
  });
});

Deno.test("SemanticTree setters", async (t) => {
  await t.step("setting a property to its current value is not a change", () => {
    const { tree, label, button, group } = smallTree();
    tree.setName(label, "2 notes");
    tree.setValue(label, undefined);
    tree.setRole(button, "button");
    tree.setState(button, "disabled", false);
    tree.setBounds(button, { ...button.bounds }); // an equal rectangle, not the same object
    tree.setChildren(group, [label, button]); // a new array with the same children
    assert.equal(tree.hasChanges, false);
    assert.equal(tree.commit(), null);

    tree.setState(button, "checked", true);
    tree.commit();
    tree.setState(button, "checked", true);
    tree.setValue(label, "x");
    tree.commit();
    tree.setValue(label, "x");
    assert.equal(tree.commit(), null);
  });

  await t.step("each setter records a change", () => {
    const cases: [string, (s: ReturnType<typeof smallTree>) => void][] = [
      ["setName", ({ tree, label }) => tree.setName(label, "3 notes")],
      ["setName to none", ({ tree, label }) => tree.setName(label, undefined)],
      ["setValue", ({ tree, label }) => tree.setValue(label, "v")],
      ["setRole", ({ tree, label }) => tree.setRole(label, "heading")],
      ["setState", ({ tree, button }) => tree.setState(button, "hovered", true)],
      [
        "setBounds",
        ({ tree, button }) => tree.setBounds(button, { x: 0, y: 0, width: 1, height: 0 }),
      ],
      ["setChildren", ({ tree, group, label }) => tree.setChildren(group, [label])],
    ];
    for (const [what, change] of cases) {
      const small = smallTree();
      const before = small.tree.revision;
      change(small);
      assert.notEqual(small.tree.commit(), null, `${what} was not recorded`);
      assert.equal(small.tree.revision, before + 1, what);
    }
  });

  await t.step("setState() keeps the other states", () => {
    const { tree, button } = smallTree();
    tree.setState(button, "focused", true);
    tree.setState(button, "disabled", true);
    tree.setState(button, "focused", false);
    assert.equal(button.states, STATE_BIT.disabled);
    assert.ok(button.has("disabled"));
    assert.ok(!button.has("focused"));
  });
});

Deno.test("SemanticTree TreeUpdate", async (t) => {
  await t.step("lists added nodes with their whole data", () => {
    const { tree, group } = smallTree();
    const field = tree.createNode("text_field");
    tree.setName(field, "Title");
    tree.setValue(field, "milk");
    tree.setState(field, "focused", true);
    tree.setBounds(field, { x: 0, y: 2, width: 30, height: 1 });
    tree.setChildren(group, [...group.children, field]);
    const nodes = byId(mustCommit(tree));
    assert.deepEqual(nodes.get(field.id), {
      id: field.id,
      role: "text_field",
      name: "Title",
      value: "milk",
      states: ["focused"],
      bounds: { x: 0, y: 2, width: 30, height: 1 },
      children: [],
    });
    // The parent changed too: its children now include the new node.
    assert.deepEqual(nodes.get(group.id)?.children, [...group.children.map((c) => c.id)]);
    assert.equal(nodes.size, 2);
  });

  await t.step("lists each changed node once, and no unchanged one", () => {
    const { tree, label, button, group } = smallTree();
    tree.setName(label, "3 notes");
    tree.setName(label, "4 notes");
    tree.setState(label, "selected", true);
    const update = mustCommit(tree);
    assert.deepEqual(update.nodes.map((data) => data.id), [label.id]);
    assert.equal(update.nodes[0]!.name, "4 notes");
    assert.deepEqual(update.nodes[0]!.states, ["selected"]);
    assert.ok(!update.nodes.some((data) => data.id === button.id || data.id === group.id));
    assert.deepEqual(update.removed, []);
  });

  await t.step("lists removed ids, the removed node's descendants included", () => {
    const { tree, group, label, button } = smallTree();
    const inner = tree.createNode("text");
    tree.setChildren(button, [inner]);
    tree.commit();
    tree.remove(group);
    const update = mustCommit(tree);
    assert.deepEqual([...update.removed].sort((a, b) => a - b), [
      group.id,
      label.id,
      button.id,
      inner.id,
    ]);
    // The parent lost a child; the removed nodes themselves are not listed as changed.
    assert.deepEqual(update.nodes.map((data) => data.id), [tree.root.id]);
    assert.deepEqual(update.nodes[0]!.children, []);
    for (const node of [group, label, button, inner]) {
      assert.equal(node.attached, false);
      assert.equal(tree.get(node.id), undefined);
    }
  });

  await t.step("does not list a node changed and then removed in the same frame", () => {
    const { tree, group, label } = smallTree();
    tree.setName(label, "changed");
    tree.remove(label);
    const update = mustCommit(tree);
    assert.deepEqual(update.removed, [label.id]);
    assert.deepEqual(update.nodes.map((data) => data.id), [group.id]);
  });

  await t.step("remove() on a removed node does nothing", () => {
    const { tree, label } = smallTree();
    tree.remove(label);
    tree.commit();
    tree.remove(label);
    assert.equal(tree.commit(), null);
  });
});

Deno.test("SemanticTree secure nodes", async (t) => {
  await t.step("setState(secure) drops the value", () => {
    const { tree, group } = smallTree();
    const field = tree.createNode("text_field");
    tree.setChildren(group, [field]);
    tree.setValue(field, "hunter2");
    tree.commit();
    tree.setState(field, "secure", true);
    assert.equal(field.value, undefined);
    const data = byId(mustCommit(tree)).get(field.id)!;
    assert.ok(!("value" in data));
    assert.deepEqual(data.states, ["secure"]);
  });

  await t.step("setValue() on a secure node keeps none and is no change", () => {
    const { tree, group } = smallTree();
    const field = tree.createNode("text_field");
    tree.setChildren(group, [field]);
    tree.setState(field, "secure", true);
    tree.commit();
    tree.setValue(field, "hunter2");
    assert.equal(field.value, undefined);
    assert.equal(tree.commit(), null);
  });

  await t.step("no update ever carries a secret value", () => {
    const { tree, group } = smallTree();
    const field = tree.createNode("text_field");
    tree.setValue(field, "hunter2");
    tree.setState(field, "secure", true);
    tree.setChildren(group, [field]);
    tree.setValue(field, "hunter3");
    const update = mustCommit(tree);
    assert.ok(!JSON.stringify(update).includes("hunter"));
  });

  await t.step("an update leaves out a secure value that reached the node directly", () => {
    const { tree, group } = smallTree();
    const field = tree.createNode("text_field");
    tree.setState(field, "secure", true);
    tree.setChildren(group, [field]);
    field.value = "hunter2"; // bypassing the tree: the update must still not carry it
    const data = byId(mustCommit(tree)).get(field.id)!;
    assert.ok(!("value" in data));
  });
});

Deno.test("SemanticTree.setChildren()", async (t) => {
  await t.step("sets each child's parent, and clears it on children dropped", () => {
    const { tree, group, label, button } = smallTree();
    assert.equal(label.parent, group);
    tree.setChildren(group, [button]);
    assert.equal(label.parent, null);
    assert.equal(button.parent, group);
    assert.equal(label.attached, true, "a dropped child is detached, not removed");
    assert.equal(tree.get(label.id), label);
  });

  await t.step("refuses a node that belongs to another parent", () => {
    const { tree, group, label } = smallTree();
    const other = tree.createNode("group");
    tree.setChildren(tree.root, [group, other]);
    assert.throws(
      () => tree.setChildren(other, [label]),
      {
        message: `node #${label.id} is already a child of node #${group.id}: remove it there first`,
      },
    );
  });

  await t.step("a refusal leaves both parents and all children as they were", () => {
    const { tree, group, label, button } = smallTree();
    const other = tree.createNode("group");
    const kept = tree.createNode("text");
    const fresh = tree.createNode("text");
    tree.setChildren(tree.root, [group, other]);
    tree.setChildren(other, [kept]);
    tree.commit();
    assert.throws(() => tree.setChildren(other, [fresh, label]), /already a child of node/);
    assert.deepEqual(other.children, [kept]);
    assert.equal(kept.parent, other);
    assert.equal(fresh.parent, null);
    assert.deepEqual(group.children, [label, button]);
    assert.equal(label.parent, group);
    assert.equal(tree.commit(), null);
  });

  await t.step("moves a node once its old parent let it go", () => {
    const { tree, group, label, button } = smallTree();
    const other = tree.createNode("group");
    tree.setChildren(tree.root, [group, other]);
    tree.setChildren(group, [button]);
    tree.setChildren(other, [label]);
    assert.equal(label.parent, other);
    const nodes = byId(mustCommit(tree));
    assert.deepEqual(nodes.get(group.id)?.children, [button.id]);
    assert.deepEqual(nodes.get(other.id)?.children, [label.id]);
  });

  await t.step("refuses a removed node: its id must not come back", () => {
    const { tree, group, label } = smallTree();
    tree.remove(label);
    tree.commit();
    assert.throws(() => tree.setChildren(group, [label]), {
      message:
        `node #${label.id} was removed from the tree: create a new node instead of reusing it`,
    });
    assert.ok(!group.children.includes(label));
    assert.equal(label.parent, null);
  });
});

Deno.test("SemanticTree.walk() visits parents before children, in order", () => {
  const { tree, group, label, button } = smallTree();
  const tail = tree.createNode("text");
  tree.setChildren(tree.root, [group, tail]);
  assert.deepEqual([...tree.walk()].map((node) => node.id), [
    tree.root.id,
    group.id,
    label.id,
    button.id,
    tail.id,
  ]);
  assert.deepEqual([...tree.walk(group)].map((node) => node.id), [group.id, label.id, button.id]);
});

Deno.test("SemanticTree rows named by their content", async (t) => {
  /** A committed `window > list > list_item > [checkbox "Done", text "Buy milk"]`. */
  function rowTree() {
    const tree = new SemanticTree("Notes");
    const list = tree.createNode("list");
    const row = tree.createNode("list_item");
    const done = tree.createNode("checkbox");
    const text = tree.createNode("text");
    tree.setName(done, "Done");
    tree.setName(text, "Buy milk");
    tree.setChildren(tree.root, [list]);
    tree.setChildren(list, [row]);
    tree.setChildren(row, [done, text]);
    tree.commit();
    return { tree, list, row, done, text };
  }

  await t.step("a list_item without a name takes its first text's at commit", () => {
    const { row } = rowTree();
    assert.equal(row.name, "Buy milk");
  });

  await t.step("the update carries the derived name, so a mirror sees it", () => {
    const tree = new SemanticTree("Notes");
    const row = tree.createNode("list_item");
    const text = tree.createNode("text");
    tree.setName(text, "Milk");
    tree.setChildren(tree.root, [row]);
    tree.setChildren(row, [text]);
    const update = mustCommit(tree);
    assert.equal(byId(update).get(row.id)?.name, "Milk");
  });

  await t.step("follows the text when it changes, in the same frame's update", () => {
    const { tree, row, text } = rowTree();
    tree.setName(text, "Buy bread");
    const update = mustCommit(tree);
    assert.equal(row.name, "Buy bread");
    assert.equal(byId(update).get(row.id)?.name, "Buy bread");
  });

  await t.step("looks through groups and skips texts without a name", () => {
    const tree = new SemanticTree("W");
    const row = tree.createNode("list_item");
    const group = tree.createNode("group");
    const empty = tree.createNode("text");
    const deep = tree.createNode("text");
    tree.setName(empty, "");
    tree.setName(deep, "Deep");
    tree.setChildren(tree.root, [row]);
    tree.setChildren(row, [group]);
    tree.setChildren(group, [empty, deep]);
    tree.commit();
    assert.equal(row.name, "Deep");
  });

  await t.step("rows added later are named, and a row that loses its text loses its name", () => {
    const { tree, list, row, done, text } = rowTree();
    const added = tree.createNode("list_item");
    const addedText = tree.createNode("text");
    tree.setName(addedText, "Eggs");
    tree.setChildren(added, [addedText]);
    tree.setChildren(list, [row, added]);
    tree.remove(text);
    const update = mustCommit(tree);
    assert.equal(added.name, "Eggs");
    assert.equal(row.name, undefined);
    assert.equal(byId(update).get(row.id)?.name, undefined);
    assert.ok(byId(update).has(row.id), "the row's lost name is a change");
    assert.equal(done.name, "Done");
  });

  await t.step("an explicit name wins, and clearing it names the row by its text again", () => {
    const { tree, row, text } = rowTree();
    tree.setName(row, "Groceries");
    tree.commit();
    assert.equal(row.name, "Groceries");
    tree.setName(text, "Buy bread");
    tree.commit();
    assert.equal(row.name, "Groceries");
    tree.setName(row, undefined);
    tree.commit();
    assert.equal(row.name, "Buy bread");
  });

  await t.step("an explicit name equal to the derived one stays when the text changes", () => {
    const { tree, row, text } = rowTree();
    tree.setName(row, "Buy milk");
    tree.setName(text, "Buy bread");
    tree.commit();
    assert.equal(row.name, "Buy milk");
  });

  await t.step("a frame that changes nothing a row is named by gives no update", () => {
    const { tree, row } = rowTree();
    tree.setName(row, undefined); // already named by its content: no change
    assert.equal(tree.commit(), null);
  });

  await t.step("a node that stops being a list_item drops the derived name", () => {
    const { tree, row } = rowTree();
    tree.setRole(row, "group");
    tree.commit();
    assert.equal(row.name, undefined);
  });

  await t.step("other roles are not named by their content", () => {
    const { tree, list } = rowTree();
    tree.commit();
    assert.equal(list.name, undefined);
  });
});

Deno.test("SemanticTree finds its nodes by id while thousands come and go", () => {
  const tree = new SemanticTree("Log");
  const list = tree.createNode("list");
  tree.setChildren(tree.root, [list]);
  const kept: number[] = [];
  for (let round = 0; round < 20; round++) {
    const rows = Array.from({ length: 300 }, () => tree.createNode("list_item"));
    tree.setChildren(list, [...list.children, ...rows]);
    // Every round keeps one row and removes the others: ids are never reused.
    for (const row of rows.slice(1)) tree.remove(row);
    kept.push(rows[0]!.id);
    tree.commit();
  }
  assert.equal(tree.size, 2 + kept.length);
  assert.deepEqual(list.children.map((row) => row.id), kept);
  for (const id of kept) assert.equal(tree.get(id)?.id, id);
  assert.equal(tree.get(kept[0]! + 1), undefined); // removed
  assert.equal(tree.get(1), tree.root);
  for (const id of [0, -1, 1.5, Number.NaN, 2 ** 40, Infinity]) {
    assert.equal(tree.get(id), undefined, `get(${id})`);
  }
  const next = tree.createNode("text");
  assert.equal(next.id, kept.at(-1)! + 300);
  assert.equal(tree.get(next.id), next);
});
