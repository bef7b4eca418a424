import assert from "node:assert/strict";
import type { Role, SemanticNode } from "./node.ts";
import {
  findNodes,
  matchesQuery,
  nodePath,
  QUERY_STATES,
  queryTree,
  validateQuery,
} from "./query.ts";
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
        path: 'text_field "Title"',
      },
    ]);
    assert.deepEqual(queryTree(tree.root, { role: "list" }), [
      { id: list.id, role: "list", name: null, path: "list" },
    ]);
    const [password] = queryTree(tree.root, { role: "text_field", name: "Sync password" });
    assert.ok(!JSON.stringify(password).includes("hunter2"));
  });

  await t.step("gives paths from below the window down to the node", () => {
    const { tree } = notes();
    assert.deepEqual(queryTree(tree.root, { role: "button", name: "Delete" }).map((m) => m.path), [
      'list > list_item > button "Delete"',
      'list > list_item > button "Delete"',
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
        message: `invalid arguments: unknown role ${
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
      message: "invalid arguments: name must be a string, got number",
    });
    assert.throws(() => validateQuery({ text: null as unknown as string }), {
      name: "TypeError",
      message: "invalid arguments: text must be a string, got object",
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
    assert.equal(nodePath(button), 'group > button "OK\\" > button \\"Pay"');
    assert.equal(nodePath(tree.root), 'window "A \\"quoted\\" > title"', "the window's own");
  });

  await t.step("writes a node without a name as its role alone", () => {
    const tree = new SemanticTree("W");
    const item = tree.createNode("list_item");
    tree.setChildren(tree.root, [item]);
    assert.equal(nodePath(item), "list_item");
    tree.setName(item, "");
    assert.equal(nodePath(item), 'list_item ""', "an empty name is still a name");
  });
});

Deno.test("findNodes()", async (t) => {
  const lookup = (tree: SemanticTree) => (id: number) => tree.get(id);

  await t.step("finds only under within, the ancestor itself left out", () => {
    const { tree, rows } = notes();
    const row = rows[1]!;
    const found = findNodes(tree.root, { within: row.item.id }, lookup(tree));
    assert.deepEqual(ids(found.nodes), [row.done.id, row.text.id, row.remove.id]);
    const deletes = findNodes(tree.root, { name: "Delete", within: row.item.id }, lookup(tree));
    assert.deepEqual(ids(deletes.nodes), [row.remove.id]);
  });

  await t.step("with within, writes paths from below that ancestor", () => {
    const { tree, list, rows } = notes();
    const row = rows[1]!;
    const paths = (query: Parameters<typeof findNodes>[1]) =>
      findNodes(tree.root, query, lookup(tree)).nodes.map((match) => match.path);
    assert.deepEqual(paths({ name: "Delete", within: row.item.id }), ['button "Delete"']);
    assert.deepEqual(paths({ name: "Delete", within: list.id }), [
      'list_item > button "Delete"',
      'list_item > button "Delete"',
    ]);
    assert.deepEqual(paths({ id: row.remove.id, within: list.id }), [
      'list_item > button "Delete"',
    ]);
    assert.deepEqual(paths({ id: row.remove.id }), [
      'list > list_item > button "Delete"',
    ], "without within, from below the window");
  });

  await t.step("refuses a within id that names no node, saying how to recover", () => {
    const { tree } = notes();
    assert.throws(() => findNodes(tree.root, { within: 999 }, lookup(tree)), {
      name: "RangeError",
      message: "no node with id 999; read ui_tree again",
    });
  });

  await t.step("matches a state, and enabled as not disabled", () => {
    const { tree, rows, deleteAll } = notes();
    tree.setState(rows[0]!.done, "checked", true);
    tree.setState(deleteAll, "disabled", true);
    const checked = findNodes(tree.root, { state: "checked" }, lookup(tree));
    assert.deepEqual(ids(checked.nodes), [rows[0]!.done.id]);
    const enabled = findNodes(tree.root, { role: "button", state: "enabled" }, lookup(tree));
    assert.deepEqual(ids(enabled.nodes), rows.map((row) => row.remove.id));
    const disabled = findNodes(tree.root, { role: "button", state: "disabled" }, lookup(tree));
    assert.deepEqual(ids(disabled.nodes), [deleteAll.id]);
  });

  await t.step("refuses an unknown state, listing the states", () => {
    const { tree } = notes();
    assert.throws(() => findNodes(tree.root, { state: "on" }, lookup(tree)), {
      name: "TypeError",
      message: `invalid arguments: unknown state "on"; states are ${QUERY_STATES.join(", ")}`,
    });
  });

  await t.step("returns at most limit matches (50 by default) and how many more", () => {
    const tree = new SemanticTree("Many");
    const buttons = Array.from({ length: 60 }, () => tree.createNode("button"));
    tree.setChildren(tree.root, buttons);
    const first = findNodes(tree.root, { role: "button" }, lookup(tree));
    assert.equal(first.nodes.length, 50);
    assert.equal(first.more, 10);
    const few = findNodes(tree.root, { role: "button", limit: 7 }, lookup(tree));
    assert.deepEqual(ids(few.nodes), buttons.slice(0, 7).map((node) => node.id));
    assert.equal(few.more, 53);
    assert.equal(findNodes(tree.root, { role: "window" }, lookup(tree)).more, undefined);
  });

  await t.step("carries value and states, never a secure node's value", () => {
    const { tree, title, password } = notes();
    tree.setState(title, "focused", true);
    const [field] = findNodes(tree.root, { name: "Title" }, lookup(tree)).nodes;
    assert.deepEqual(field, {
      id: title.id,
      role: "text_field",
      name: "Title",
      path: 'text_field "Title"',
      states: ["focused"],
      value: "milk and honey",
    });
    const [secret] = findNodes(tree.root, { name: "Sync password" }, lookup(tree)).nodes;
    assert.deepEqual(secret?.states, ["secure"]);
    assert.equal(secret?.value, undefined);
    assert.ok(!JSON.stringify(secret).includes("hunter2"));
    assert.equal(password.value, "hunter2", "the node still holds it: only the match leaves it");
  });
});

Deno.test("findNodes() finds the window by role and state, with no more left", () => {
  const tree = new SemanticTree("Notes");
  const found = findNodes(tree.root, { role: "window", state: "enabled" }, (id) => tree.get(id));
  assert.equal(found.nodes[0]?.name, "Notes");
  assert.equal(found.more, undefined);
});
