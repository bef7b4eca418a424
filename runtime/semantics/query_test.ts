import assert from "node:assert/strict";
import type { Role, SemanticNode } from "./node.ts";
import { matchesQuery, nodePath, queryTree, validateQuery } from "./query.ts";
import { SemanticTree } from "./tree.ts";

/** The Notes window: two rows, each a checkbox, a text and a Delete button; then a password. */
function notes() {
  const tree = new SemanticTree("Notes");
  const node = (role: Role, name?: string, value?: string): SemanticNode => {
    const created = tree.createNode(role);
    if (name !== undefined) tree.setName(created, name);
    if (value !== undefined) tree.setValue(created, value);
    return created;
  };
  const count = node("text", "2 notes");
  const title = node("text_field", "Title", "milk and honey");
  const list = node("list");
  const rows = ["Buy milk", "Call Bob"].map((label) => {
    const item = node("list_item");
    const done = node("checkbox", "Done");
    const text = node("text", label);
    const remove = node("button", "Delete");
    tree.setChildren(item, [done, text, remove]);
    return { item, done, text, remove };
  });
  tree.setChildren(list, rows.map((row) => row.item));
  const password = node("text_field", "Sync password");
  tree.setValue(password, "hunter2");
  tree.setState(password, "secure", true);
  password.value = "hunter2"; // as if it slipped past the tree: the query must still not match it
  const deleteAll = node("button", "Delete all");
  tree.setChildren(tree.root, [count, title, list, password, deleteAll]);
  return { tree, count, title, list, rows, password, deleteAll };
}

const ids = (matches: { id: number }[]) => matches.map((match) => match.id);

Deno.test("queryTree()", async (t) => {
  await t.step("matches the role exactly", () => {
    const { tree, title, password } = notes();
    assert.deepEqual(ids(queryTree(tree.root, { role: "text_field" })), [title.id, password.id]);
    assert.deepEqual(queryTree(tree.root, { role: "list_item" }).length, 2);
    assert.deepEqual(queryTree(tree.root, { role: "list" }).map((m) => m.role), ["list"]);
  });

  await t.step("matches the whole name exactly", () => {
    const { tree, rows, deleteAll } = notes();
    assert.deepEqual(
      ids(queryTree(tree.root, { name: "Delete" })),
      rows.map((row) => row.remove.id),
    );
    assert.deepEqual(ids(queryTree(tree.root, { name: "Delete all" })), [deleteAll.id]);
    assert.deepEqual(queryTree(tree.root, { name: "Delet" }), []);
    assert.deepEqual(queryTree(tree.root, { name: "delete" }), [], "case matters");
    assert.deepEqual(queryTree(tree.root, { name: "Delete " }), []);
  });

  await t.step("matches text as a substring of the name or the value", () => {
    const { tree, count, title, rows } = notes();
    assert.deepEqual(ids(queryTree(tree.root, { text: "milk" })), [title.id, rows[0]!.text.id]);
    assert.deepEqual(ids(queryTree(tree.root, { text: "honey" })), [title.id], "in the value");
    assert.deepEqual(ids(queryTree(tree.root, { text: "not" })), [count.id], "in the name");
    assert.deepEqual(queryTree(tree.root, { text: "Milk" }), []);
  });

  await t.step("requires every given key to match", () => {
    const { tree, rows, deleteAll } = notes();
    assert.deepEqual(
      ids(queryTree(tree.root, { role: "button", name: "Delete" })),
      rows.map((row) => row.remove.id),
    );
    assert.deepEqual(ids(queryTree(tree.root, { role: "button", text: "all" })), [deleteAll.id]);
    assert.deepEqual(queryTree(tree.root, { role: "checkbox", name: "Delete" }), []);
    assert.deepEqual(queryTree(tree.root, { role: "text", text: "honey" }), []);
    assert.deepEqual(queryTree(tree.root, { name: "Title", text: "vinegar" }), []);
  });

  await t.step("with no keys, finds every node in tree order", () => {
    const { tree } = notes();
    assert.deepEqual(ids(queryTree(tree.root, {})), [...tree.walk()].map((node) => node.id));
  });

  await t.step("never matches a secure node's value", () => {
    const { tree, password } = notes();
    assert.deepEqual(queryTree(tree.root, { text: "hunter2" }), []);
    assert.deepEqual(queryTree(tree.root, { text: "hunt" }), []);
    assert.deepEqual(ids(queryTree(tree.root, { text: "Sync" })), [password.id], "its name still");
  });

  await t.step("returns id, role, name (null when none) and path, and no value", () => {
    const { tree, title, list } = notes();
    assert.deepEqual(queryTree(tree.root, { name: "Title" }), [
      {
        id: title.id,
        role: "text_field",
        name: "Title",
        path: 'window "Notes" > text_field "Title"',
      },
    ]);
    assert.deepEqual(queryTree(tree.root, { role: "list" }), [
      { id: list.id, role: "list", name: null, path: 'window "Notes" > list' },
    ]);
    const [password] = queryTree(tree.root, { role: "text_field", name: "Sync password" });
    assert.ok(!JSON.stringify(password).includes("hunter2"));
  });

  await t.step("gives paths from the window down to the node", () => {
    const { tree } = notes();
    assert.deepEqual(queryTree(tree.root, { role: "button", name: "Delete" }).map((m) => m.path), [
      'window "Notes" > list > list_item > button "Delete"',
      'window "Notes" > list > list_item > button "Delete"',
    ]);
    assert.deepEqual(queryTree(tree.root, { role: "window" }).map((m) => m.path), [
      'window "Notes"',
    ]);
  });

  await t.step("throws a TypeError naming an unknown role", () => {
    const { tree } = notes();
    for (const role of ["Button", "textField", "text-field", "buttons", ""]) {
      assert.throws(() => queryTree(tree.root, { role }), {
        name: "TypeError",
        message: `invalid query: unknown role ${
          JSON.stringify(role)
        }; roles are snake_case, such as button, text_field, checkbox, menu_item`,
      });
    }
  });
});

Deno.test("validateQuery()", async (t) => {
  await t.step("accepts known roles and absent keys", () => {
    validateQuery({});
    validateQuery({ role: "menu_item", name: "Open", text: "" });
    validateQuery({ role: undefined, name: undefined, text: undefined });
  });

  await t.step("throws a TypeError when a key is not a string", () => {
    assert.throws(() => validateQuery({ name: 42 as unknown as string }), {
      name: "TypeError",
      message: "invalid query: name must be a string, got number",
    });
    assert.throws(() => validateQuery({ text: null as unknown as string }), {
      name: "TypeError",
      message: "invalid query: text must be a string, got object",
    });
    assert.throws(() => validateQuery({ role: ["button"] as unknown as string }), TypeError);
  });
});

Deno.test("matchesQuery()", async (t) => {
  await t.step("does not match text against a node with neither name nor value", () => {
    const { list } = notes();
    assert.equal(matchesQuery(list, { text: "" }), false);
    assert.equal(matchesQuery(list, {}), true);
  });

  await t.step("matches text in the value of a node without a name", () => {
    const tree = new SemanticTree("W");
    const node = tree.createNode("text_field");
    tree.setValue(node, "draft");
    assert.equal(matchesQuery(node, { text: "raf" }), true);
    tree.setState(node, "secure", true);
    node.value = "draft";
    assert.equal(matchesQuery(node, { text: "raf" }), false);
  });
});

Deno.test("nodePath()", async (t) => {
  await t.step("JSON-quotes each name, so names cannot fake steps", () => {
    const tree = new SemanticTree('A "quoted" > title');
    const group = tree.createNode("group");
    const button = tree.createNode("button");
    tree.setName(button, 'OK" > button "Pay');
    tree.setChildren(tree.root, [group]);
    tree.setChildren(group, [button]);
    assert.equal(
      nodePath(button),
      'window "A \\"quoted\\" > title" > group > button "OK\\" > button \\"Pay"',
    );
  });

  await t.step("writes a node without a name as its role alone", () => {
    const tree = new SemanticTree("W");
    const item = tree.createNode("list_item");
    tree.setChildren(tree.root, [item]);
    assert.equal(nodePath(item), 'window "W" > list_item');
    tree.setName(item, "");
    assert.equal(nodePath(item), 'window "W" > list_item ""', "an empty name is still a name");
  });
});
