import assert from "node:assert/strict";
import type { SemanticNode } from "./node.ts";
import { SemanticTree } from "./tree.ts";
import { formatTree } from "./tree_text.ts";
import {
  DEFAULT_TREE_BYTES,
  formatTreeView,
  MAX_TREE_BYTES,
  parseTreeView,
  type TreeView,
  treeViewText,
} from "./tree_view.ts";

/**
 * A window 80 by 24 holding a text and a list of `count` rows one cell high from y 1 on, each
 * a checkbox, a text that names it and a button: the benchmark app's shape.
 */
function listTree(count: number) {
  const tree = new SemanticTree("Bench");
  tree.setBounds(tree.root, { x: 0, y: 0, width: 80, height: 24 });
  const clicks = tree.createNode("text");
  tree.setName(clicks, "0 clicks");
  tree.setBounds(clicks, { x: 0, y: 0, width: 8, height: 1 });
  const list = tree.createNode("list");
  tree.setBounds(list, { x: 0, y: 1, width: 80, height: count });
  const rows: SemanticNode[] = [];
  for (let index = 0; index < count; index++) {
    const row = tree.createNode("list_item");
    tree.setBounds(row, { x: 0, y: index, width: 80, height: 1 });
    const done = tree.createNode("checkbox");
    tree.setName(done, "Done");
    const title = tree.createNode("text");
    tree.setName(title, `Row ${index}`);
    const remove = tree.createNode("button");
    tree.setName(remove, "Delete");
    tree.setChildren(row, [done, title, remove]);
    rows.push(row);
  }
  tree.setChildren(list, rows);
  tree.setChildren(tree.root, [clicks, list]);
  tree.commit();
  return { tree, list, rows };
}

function bytes(text: string): number {
  return new TextEncoder().encode(text).length;
}

/** The arguments of every cut line, in order. */
function cuts(text: string): Record<string, number | boolean>[] {
  return [...text.matchAll(/^ *… \d+ more items?: ui_tree (\{.*\})$/gm)].map((match) =>
    JSON.parse(match[1]!)
  );
}

/** Follows every cut from the whole tree's view and counts how often each row is listed. */
function pageThrough(
  tree: SemanticTree,
  view: TreeView,
): { calls: number; seen: Map<number, number> } {
  const seen = new Map<number, number>();
  const pending: TreeView[] = [view];
  let calls = 0;
  while (pending.length > 0) {
    const next = pending.shift()!;
    calls++;
    assert.ok(calls < 10_000, "paging must end");
    const text = treeViewText(tree.root, next, (id) => tree.get(id));
    assert.ok(bytes(text) <= (next.maxBytes ?? DEFAULT_TREE_BYTES), "within the budget");
    for (const match of text.matchAll(/^ *list_item "Row \d+" #(\d+)/gm)) {
      const id = Number(match[1]);
      // A view rooted at a row lists it as its header: count rows under a list only.
      if (next.root === undefined || tree.get(next.root)!.role !== "list_item") {
        seen.set(id, (seen.get(id) ?? 0) + 1);
      }
    }
    for (const args of cuts(text)) {
      const more: TreeView = { root: args.root as number, from: args.from as number };
      if (args.depth !== undefined) more.depth = args.depth as number;
      if (args.visible !== undefined) more.visible = args.visible as boolean;
      if (next.maxBytes !== undefined) more.maxBytes = next.maxBytes;
      pending.push(more);
    }
  }
  return { calls, seen };
}

Deno.test("formatTreeView()", async (t) => {
  await t.step("writes the whole tree as formatTree does when it fits", () => {
    const { tree } = listTree(3);
    assert.equal(formatTreeView(tree.root), formatTree(tree.root));
  });

  await t.step("depth 0 writes the root's line alone; a depth cut adds no line", () => {
    const { tree, list } = listTree(3);
    assert.equal(formatTreeView(list, { depth: 0 }), "list #3\n");
    assert.equal(
      formatTreeView(tree.root, { depth: 1 }),
      'window "Bench" #1\n text "0 clicks" #2\n list #3\n',
    );
  });

  await t.step("from skips the root's first children, counting all of them", () => {
    const { list, rows } = listTree(3);
    const text = formatTreeView(list, { from: 2, depth: 1 });
    assert.equal(text, `list #3\n list_item "Row 2" #${rows[2]!.id}\n`);
    assert.equal(formatTreeView(list, { from: 5 }), "list #3\n");
  });

  await t.step("visible keeps the nodes whose bounds meet the window", () => {
    const { tree, rows } = listTree(100);
    const text = formatTreeView(tree.root, { visible: true, depth: 2 });
    // The window is 24 rows high and the list starts at row 1: rows 0 to 22 show.
    assert.match(text, new RegExp(`list_item "Row 22" #${rows[22]!.id}\n$`));
    assert.doesNotMatch(text, /Row 23/);
    assert.equal(text.split("\n").length - 1, 3 + 23);
  });

  await t.step("visible keeps only what a scroll view's viewport shows", () => {
    const tree = new SemanticTree("W");
    tree.setBounds(tree.root, { x: 0, y: 0, width: 80, height: 24 });
    const scroll = tree.createNode("scroll_view");
    tree.setBounds(scroll, { x: 0, y: 2, width: 80, height: 5 });
    const content = tree.createNode("group");
    tree.setBounds(content, { x: 0, y: -10, width: 80, height: 40 }); // scrolled by 10
    const lines = Array.from({ length: 40 }, (_, index) => {
      const line = tree.createNode("text");
      tree.setName(line, `L${index}`);
      tree.setBounds(line, { x: 0, y: index, width: 10, height: 1 });
      return line;
    });
    tree.setChildren(content, lines);
    tree.setChildren(scroll, [content]);
    tree.setChildren(tree.root, [scroll]);
    tree.commit();
    const names = [...formatTreeView(tree.root, { visible: true }).matchAll(/text "(L\d+)"/g)]
      .map((match) => match[1]);
    assert.deepEqual(names, ["L10", "L11", "L12", "L13", "L14"]);
  });

  await t.step("over budget, cuts the longest list with a line that shows the rest", () => {
    const { tree, list } = listTree(1000);
    const text = formatTreeView(tree.root);
    assert.ok(bytes(text) <= DEFAULT_TREE_BYTES);
    assert.ok(bytes(text) > DEFAULT_TREE_BYTES - 200, "the budget is used");
    const lines = text.trimEnd().split("\n");
    assert.equal(lines[1], ' text "0 clicks" #2', "the short list is whole");
    const last = lines[lines.length - 1]!;
    const kept = lines.filter((line) => line.startsWith("  list_item")).length;
    assert.equal(
      last,
      `  … ${1000 - kept} more items: ui_tree {"root":${list.id},"from":${kept}}`,
    );
  });

  await t.step("cut lines repeat depth (what is left of it) and visible", () => {
    const { tree, list } = listTree(1000);
    const text = formatTreeView(tree.root, { depth: 2, maxBytes: 1000 });
    const [args] = cuts(text);
    assert.equal(args?.root, list.id);
    assert.equal(args?.depth, 1);
    const visible = formatTreeView(list, { visible: true, maxBytes: 300 });
    assert.equal(cuts(visible)[0]?.visible, true);
    assert.equal(cuts(visible)[0]?.depth, undefined);
  });

  await t.step("cuts are the same every time", () => {
    const { tree } = listTree(500);
    assert.equal(
      formatTreeView(tree.root, { maxBytes: 5000 }),
      formatTreeView(tree.root, { maxBytes: 5000 }),
    );
  });

  await t.step("paging through 1,000 rows lists each row exactly once", () => {
    const { tree, rows } = listTree(1000);
    for (const view of [{}, { maxBytes: 4000 }, { maxBytes: 700, depth: 3 }] as TreeView[]) {
      const { seen } = pageThrough(tree, view);
      assert.equal(seen.size, 1000, JSON.stringify(view));
      for (const row of rows) assert.equal(seen.get(row.id), 1, `row #${row.id}`);
    }
  });

  await t.step("paging the visible rows lists each of them exactly once", () => {
    const { tree } = listTree(1000);
    const { seen } = pageThrough(tree, { visible: true, maxBytes: 400 });
    assert.equal(seen.size, 23);
  });

  await t.step("following every cut lists each node once, in random trees and budgets", () => {
    let seed = 12345;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let round = 0; round < 60; round++) {
      const tree = new SemanticTree("R");
      const nodes: SemanticNode[] = [tree.root];
      const count = 1 + Math.floor(random() * 300);
      for (let index = 0; index < count; index++) {
        const node = tree.createNode(random() < 0.2 ? "list_item" : "group");
        if (random() < 0.7) tree.setName(node, "n".repeat(Math.floor(random() * 150)));
        const parent = nodes[Math.floor(random() ** 2 * nodes.length)]!;
        tree.setChildren(parent, [...parent.children, node]);
        nodes.push(node);
      }
      tree.commit();
      const budget = 60 + Math.floor(random() * 3000);
      const seen = new Map<number, number>();
      const pending: TreeView[] = [{ maxBytes: budget }];
      let calls = 0;
      while (pending.length > 0) {
        const view = pending.shift()!;
        assert.ok(++calls < 5000, "paging ends");
        const lines = treeViewText(tree.root, view, (id) => tree.get(id)).trimEnd().split("\n");
        if (view.root !== undefined) lines.shift(); // the root of a follow-up view, again
        for (const line of lines) {
          const cut = /… \d+ more items?: ui_tree (\{.*\})$/.exec(line);
          if (cut !== null) {
            const args = JSON.parse(cut[1]!);
            pending.push({ root: args.root, from: args.from, maxBytes: budget });
            continue;
          }
          const id = Number(/ #(\d+)/.exec(line)![1]);
          seen.set(id, (seen.get(id) ?? 0) + 1);
        }
      }
      for (const node of nodes) {
        assert.equal(seen.get(node.id), 1, `#${node.id} in round ${round}, budget ${budget}`);
      }
    }
  });

  await t.step("with lines too long for any list, writes in order as far as it fits", () => {
    const tree = new SemanticTree("W");
    let parent = tree.root;
    for (let depth = 0; depth < 20; depth++) {
      const child = tree.createNode("group");
      tree.setName(child, "x".repeat(100));
      tree.setChildren(parent, [child]);
      parent = child;
    }
    tree.commit();
    const text = formatTreeView(tree.root, { maxBytes: 700 });
    assert.ok(bytes(text) <= 700, `${bytes(text)} bytes`);
    const groups = text.split("\n").filter((line) => line.trim().startsWith("group"));
    assert.ok(groups.length >= 3, "as many lines as fit");
    const [args] = cuts(text);
    assert.equal(args?.from, 0);
    // Following the cut goes on from the deepest node written.
    const deepest = Number(/#(\d+)\n *… /.exec(text)![1]);
    assert.equal(args?.root, deepest);
  });

  await t.step("a budget smaller than two lines still writes the root and its first child", () => {
    const { tree } = listTree(3);
    const text = formatTreeView(tree.root, { maxBytes: 10 });
    assert.equal(
      text,
      'window "Bench" #1\n text "0 clicks" #2\n … 1 more item: ui_tree {"root":1,"from":1,"max_bytes":10}\n',
    );
  });

  await t.step("counts the budget in UTF-8 bytes", () => {
    const tree = new SemanticTree("W");
    const texts = Array.from({ length: 50 }, () => {
      const node = tree.createNode("text");
      tree.setName(node, "ünïcödé 😀😀😀");
      return node;
    });
    tree.setChildren(tree.root, texts);
    tree.commit();
    const text = formatTreeView(tree.root, { maxBytes: 500 });
    assert.ok(bytes(text) <= 500);
    assert.ok(text.length < 500 && bytes(text) > text.length);
  });
});

Deno.test("treeViewText()", async (t) => {
  await t.step("writes the subtree of the node root names", () => {
    const { tree, rows } = listTree(2);
    const row = rows[1]!;
    assert.equal(
      treeViewText(tree.root, { root: row.id }, (id) => tree.get(id)),
      `list_item "Row 1" #${row.id}\n checkbox "Done" #${row.id + 1}\n button "Delete" #${
        row.id + 3
      }\n`,
    );
  });

  await t.step("an unknown or removed root is a RangeError that says how to recover", () => {
    const { tree, rows } = listTree(2);
    tree.remove(rows[0]!);
    tree.commit();
    for (const id of [999, rows[0]!.id]) {
      assert.throws(() => treeViewText(tree.root, { root: id }, (id) => tree.get(id)), {
        name: "RangeError",
        message: `no node with id ${id}; read ui_tree again`,
      });
    }
  });
});

Deno.test("parseTreeView()", async (t) => {
  await t.step("reads every argument, and nothing from an empty object", () => {
    assert.deepEqual(parseTreeView({}), {});
    assert.deepEqual(
      parseTreeView({ root: 7, depth: 0, from: 20, visible: true, max_bytes: 4096 }),
      { root: 7, depth: 0, from: 20, visible: true, maxBytes: 4096 },
    );
    assert.deepEqual(parseTreeView({ visible: false }), {});
    assert.deepEqual(parseTreeView({ max_bytes: MAX_TREE_BYTES }), { maxBytes: MAX_TREE_BYTES });
  });

  await t.step("refuses bad values with invalid arguments", () => {
    const bad: [Record<string, unknown>, string][] = [
      [{ root: "7" }, 'root must be a whole number of at least 1, got "7"'],
      [{ root: 0 }, "root must be a whole number of at least 1, got 0"],
      [{ depth: -1 }, "depth must be a whole number of at least 0, got -1"],
      [{ from: 1.5 }, "from must be a whole number of at least 0, got 1.5"],
      [{ max_bytes: 0 }, "max_bytes must be a whole number of at least 1, got 0"],
      [{ max_bytes: MAX_TREE_BYTES + 1 }, "max_bytes must be at most 3500000, got 3500001"],
      [{ visible: "yes" }, "visible must be true or false"],
    ];
    for (const [args, message] of bad) {
      assert.throws(() => parseTreeView(args), {
        name: "TypeError",
        message: `invalid arguments: ${message}`,
      });
    }
  });
});

Deno.test("parseTreeView() reads the depth", () => {
  assert.equal(parseTreeView({ root: 7, depth: 1 }).depth, 1);
});

Deno.test("formatTreeView() ends a cut list with the call that reads on", () => {
  const tree = new SemanticTree("Notes");
  const list = tree.createNode("list");
  tree.setChildren(tree.root, [list]);
  tree.setChildren(list, Array.from({ length: 6 }, () => tree.createNode("list_item")));
  assert.equal(
    formatTreeView(tree.root, { maxBytes: 110 }),
    'window "Notes" #1\n list #2\n  list_item #3\n  … 5 more items: ui_tree {"root":2,"from":1,"max_bytes":110}\n',
  );
});
