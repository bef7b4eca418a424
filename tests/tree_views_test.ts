/**
 * Views of `ui_tree` end to end: a real app process with 1,000 rows, its MCP server on a real
 * Unix socket, and the SDK client. Paging through the cut lines lists every row exactly once;
 * `root`, `depth`, `from`, `visible` and `max_bytes` give what they promise, bad values are
 * refused, and app strings holding C1 or bidi controls reach the agent escaped.
 *
 * @module
 */

import { markedContent } from "./_marked.ts";
import assert from "node:assert/strict";
import { Client } from "../runtime/agent/transport/sdk.ts";
import {
  callTool,
  connect,
  REQUEST_TIMEOUT_MS,
  runtimeDir,
  startApp,
  type TreeAnswer,
  withTimeout,
} from "./_app_process.ts";
import { crownmcpTransport } from "./_crownmcp.ts";
import { HOSTILE_NAME } from "./fixtures/tree_views_app.ts";

const FIXTURE = "tests/fixtures/tree_views_app.ts";
const ROWS = 1000;

/** A code point a terminal acts on, or one that reorders what a reader sees. */
const RAW_C1_OR_BIDI = /[\u0080-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** A cut line: no id, starts with `…`, says how many and the arguments that show them. */
const CUT_LINE = /^( *)… (\d+) more items?: ui_tree (\{.*\})$/;

function bytes(text: string): number {
  return new TextEncoder().encode(text).length;
}

/** Calls `ui_tree` with `args`; returns the unwrapped answer, or throws its error text. */
async function tree(client: Client, args: Record<string, unknown> = {}): Promise<TreeAnswer> {
  const { text, isError } = await callTool(client, "ui_tree", args);
  if (isError) throw new Error(text);
  const answer = markedContent(text) as TreeAnswer;
  assert.deepEqual(Object.keys(answer), ["revision", "tree"]);
  return answer;
}

/** The error text of a `ui_tree` call that must fail. */
async function treeError(client: Client, args: Record<string, unknown>): Promise<string> {
  const { text, isError } = await callTool(client, "ui_tree", args);
  assert.ok(isError, `expected an error for ${JSON.stringify(args)}, got ${text}`);
  return text;
}

/** The row numbers of the `list_item "Row N"` lines, in order. */
function rowsIn(text: string): number[] {
  return [...text.matchAll(/^ *list_item "Row (\d+)" #\d+/gm)].map((match) => Number(match[1]));
}

/**
 * Follows every cut line from `first` on, as an agent would; returns how many calls it took
 * and how often each row was listed. Rows count only in pages rooted above them (a page
 * rooted at a row repeats that row as its header).
 */
async function pageThrough(
  client: Client,
  first: Record<string, unknown>,
): Promise<{ calls: number; rows: Map<number, number>; largest: number }> {
  const rows = new Map<number, number>();
  const pending = [first];
  let calls = 0;
  let largest = 0;
  while (pending.length > 0) {
    const args = pending.shift()!;
    calls++;
    assert.ok(calls <= 2 * ROWS, "paging ends");
    const { tree: text } = await tree(client, args);
    largest = Math.max(largest, bytes(text));
    const budget = (args.max_bytes as number | undefined) ?? 32_768;
    assert.ok(bytes(text) <= budget, `${bytes(text)} bytes for a budget of ${budget}`);
    const lines = text.trimEnd().split("\n");
    const header = args.root === undefined ? [] : [lines.shift()!];
    assert.ok(!header.some((line) => line.trimStart().startsWith("list_item")), "no row headers");
    for (const row of rowsIn(lines.join("\n"))) rows.set(row, (rows.get(row) ?? 0) + 1);
    for (const line of lines) {
      const cut = CUT_LINE.exec(line);
      if (cut === null) continue;
      const next = JSON.parse(cut[3]!) as Record<string, unknown>;
      if (args.max_bytes !== undefined) next.max_bytes = args.max_bytes;
      pending.push(next);
    }
  }
  return { calls, rows, largest };
}

Deno.test("ui_tree views of an app with 1,000 rows, through a real socket", async (t) => {
  await using runtime = await runtimeDir();
  await using app = startApp(FIXTURE, { env: { XDG_RUNTIME_DIR: runtime.path } });
  await using client = await connect(await app.listening());
  const c = client;
  const whole = await withTimeout(
    tree(c, { max_bytes: 3_500_000 }),
    REQUEST_TIMEOUT_MS,
    "ui_tree",
  );
  const listId = Number(/^ list #(\d+)(?: offscreen=\S+)?$/m.exec(whole.tree)![1]);

  await t.step("the whole tree: every row once, named by its text, one space a level", () => {
    assert.deepEqual(rowsIn(whole.tree), Array.from({ length: ROWS }, (_, index) => index));
    assert.match(
      whole.tree,
      /\n {2}list_item "Row 7" #(\d+)(?: offscreen)?\n {3}checkbox "Done" #\d+\n {3}button "Delete" #\d+\n/,
    );
    assert.doesNotMatch(whole.tree, /text "Row \d+"/, "a row's naming text has no line");
    assert.doesNotMatch(whole.tree, /…/);
  });

  await t.step(
    "without arguments the tree keeps to 32,768 bytes and says what it cut",
    async () => {
      const { revision, tree: text } = await tree(c);
      assert.equal(revision, whole.revision);
      assert.ok(bytes(text) <= 32_768 && bytes(text) > 30_000, `${bytes(text)} bytes`);
      const lines = text.trimEnd().split("\n");
      const shown = rowsIn(text);
      assert.deepEqual(shown, Array.from({ length: shown.length }, (_, index) => index));
      assert.equal(
        lines.at(-1),
        `  … ${ROWS - shown.length} more items: ui_tree {"root":${listId},"from":${shown.length}}`,
      );
    },
  );

  await t.step("paging through the cut lines lists every row exactly once", async () => {
    for (const first of [{}, { max_bytes: 4096 }, { depth: 2, max_bytes: 2000 }]) {
      const { calls, rows } = await pageThrough(c, first);
      assert.equal(rows.size, ROWS, JSON.stringify(first));
      for (let row = 0; row < ROWS; row++) {
        assert.equal(rows.get(row), 1, `row ${row} with ${JSON.stringify(first)}`);
      }
      assert.ok(calls > 1);
    }
  });

  await t.step("depth: 0 is the root's line alone; a depth cut adds no line", async () => {
    assert.equal((await tree(c, { depth: 0 })).tree, 'window "Tree Views" #1\n');
    const one = (await tree(c, { depth: 1 })).tree.trimEnd().split("\n");
    assert.equal(one.length, 4, "the window, the two texts and the list");
    assert.match(one[3]!, new RegExp(`^ list #${listId} offscreen=#\\d+\\.\\.#\\d+$`));
    const rowsOnly = (await tree(c, { root: listId, depth: 1, max_bytes: 3_500_000 })).tree;
    assert.equal(rowsOnly.trimEnd().split("\n").length, 1 + ROWS);
    assert.doesNotMatch(rowsOnly, /checkbox|…/);
  });

  await t.step("root and from give a subtree from a child on", async () => {
    const { tree: text } = await tree(c, { root: listId, from: 990 });
    const lines = text.trimEnd().split("\n");
    assert.match(lines[0]!, new RegExp(`^list #${listId} offscreen=#\\d+\\.\\.#\\d+$`));
    assert.deepEqual(rowsIn(text), [990, 991, 992, 993, 994, 995, 996, 997, 998, 999]);
    assert.match(lines[1]!, /^ list_item "Row 990" #\d+/);
    assert.match(lines[2]!, /^ {2}checkbox "Done" #\d+$/);
  });

  await t.step("cut lines repeat the caller's depth, visible and max_bytes", async () => {
    const { tree: text } = await tree(c, { depth: 2, max_bytes: 1000 });
    const cut = CUT_LINE.exec(text.trimEnd().split("\n").at(-1)!);
    assert.ok(cut, text);
    assert.deepEqual(Object.keys(JSON.parse(cut[3]!)), ["root", "from", "depth", "max_bytes"]);
    assert.equal(JSON.parse(cut[3]!).max_bytes, 1000);
    assert.equal(
      JSON.parse(cut[3]!).depth,
      1,
      "two levels below the window are one below the list",
    );
    const visible = (await tree(c, { root: listId, visible: true, max_bytes: 400 })).tree;
    const visibleCut = CUT_LINE.exec(visible.trimEnd().split("\n").at(-1)!);
    assert.ok(visibleCut, visible);
    assert.equal(JSON.parse(visibleCut[3]!).visible, true);
  });

  await t.step(
    "visible keeps the rows on screen: 22 of them below two lines of text",
    async () => {
      const { tree: text } = await tree(c, { visible: true });
      assert.deepEqual(rowsIn(text), Array.from({ length: 22 }, (_, index) => index));
      assert.ok(text.startsWith('window "Tree Views" #1\n text '), text);
      const { rows } = await pageThrough(c, { visible: true, max_bytes: 500 });
      assert.equal(rows.size, 22);
    },
  );

  await t.step("an unknown root is refused and says how to recover", async () => {
    assert.equal(
      await treeError(c, { root: 999_999 }),
      "no node with id 999999; read ui_tree again",
    );
  });

  await t.step("bad values and unknown arguments are refused", async () => {
    const refusals: [Record<string, unknown>, RegExp][] = [
      [{ depth: -1 }, /^invalid arguments: depth must be a whole number of at least 0/],
      [{ root: "1" }, /^invalid arguments: root must be a whole number/],
      [{ from: 0.5 }, /^invalid arguments: from must be a whole number/],
      [{ max_bytes: 0 }, /^invalid arguments: max_bytes must be a whole number of at least 1/],
      [{ max_bytes: 3_500_001 }, /^invalid arguments: max_bytes must be at most 3500000/],
      [{ visible: 1 }, /^invalid arguments: visible must be true or false/],
      [
        { colour: "red" },
        /^invalid arguments: ui_tree takes root, depth, from, visible, max_bytes.*, got colour/,
      ],
    ];
    for (const [args, message] of refusals) assert.match(await treeError(c, args), message);
  });

  await t.step("C1 and bidi controls in names reach the agent escaped", async () => {
    const { tree: text } = await tree(c, { depth: 1 });
    assert.doesNotMatch(text, RAW_C1_OR_BIDI);
    const line = text.split("\n")[1]!;
    assert.equal(
      line,
      ' text "Invoice\\u202etxt.exe\\u202c \\u009b2J\\u0085\\u0090\\u009f \\u2066\\u2067\\u2068\\u2069\\u200e\\u200f\\u061c end" #2',
    );
    assert.equal(JSON.parse(line.slice(" text ".length, line.lastIndexOf(" #"))), HOSTILE_NAME);
    const resource = await c.readResource({ uri: "ui://tree" });
    const resourceText = (resource.contents[0] as { text: string }).text;
    assert.doesNotMatch(resourceText, RAW_C1_OR_BIDI);
    assert.ok(resourceText.includes("\\u202e"));
  });

  await t.step("crownmcp forwards the view arguments and answers unchanged", async () => {
    const agent = new Client({ name: "tree-views-test", version: "0.1.0" });
    await withTimeout(
      agent.connect(crownmcpTransport({ XDG_RUNTIME_DIR: runtime.path })),
      REQUEST_TIMEOUT_MS,
      "crownmcp to start",
    );
    try {
      const selected = async () => {
        for (let tries = 0; tries < 400; tries++) {
          if ((await agent.listTools()).tools.some((tool) => tool.name === "ui_act")) return;
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
        throw new Error("crownmcp did not select the app");
      };
      await withTimeout(selected(), REQUEST_TIMEOUT_MS, "crownmcp to select the app");
      for (const args of [{ root: listId, from: 990, depth: 1 }, { visible: true }]) {
        assert.deepEqual(await tree(agent, args), await tree(c, args), JSON.stringify(args));
      }
      assert.equal(
        await treeError(agent, { root: 999_999 }),
        "no node with id 999999; read ui_tree again",
      );
    } finally {
      await agent.close();
    }
  });
});
