/**
 * Answers keep to their budgets and say what they left out, end to end over a real Unix
 * socket to real app processes (the review of issue 12): `inspect_snapshot` within
 * `max_bytes` with cut lines that page through everything; long names and values cut in tree
 * views, change lines, receipts and matches, and read whole with `ui_query {"id","full"}`;
 * cut lines that repeat the caller's `max_bytes`; `offscreen` inherited in matches; the
 * messages of bad queries and query waits; U+2028/U+2029 escaped in paths and in crowndev.
 *
 * @module
 */

import assert from "node:assert/strict";
import type { Client } from "../runtime/agent/transport/sdk.ts";
import { markedContent, receiptOf } from "./_marked.ts";
import {
  callTool,
  connect,
  nodeId,
  REQUEST_TIMEOUT_MS,
  runtimeDir,
  startApp,
  type ToolText,
  withTimeout,
} from "./_app_process.ts";
import { crowndev } from "./_crowndev_process.ts";
import { FILL_ROWS, FIRST_ROWS, SEPARATED_NAME } from "./fixtures/budgets_app.ts";

const BUDGETS_APP = "tests/fixtures/budgets_app.ts";
const ROWS_APP = "tests/fixtures/tree_views_app.ts";

/** A character a reader takes for a line break, or that reorders or controls what it shows. */
const RAW_BREAK_OR_CONTROL =
  /[\u0080-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

function bytes(text: string): number {
  return new TextEncoder().encode(text).length;
}

/** The content of a wrapped answer. */
function unwrapped<T>(answer: ToolText): T {
  assert.equal(answer.isError, false, answer.text);
  return markedContent(answer.text) as T;
}

interface Match {
  id: number;
  role: string;
  name: string | null;
  path: string;
  value?: string;
  states: string[];
  cut?: string;
}

interface Snapshot {
  revision: number;
  tree?: { id: number; children: unknown[] };
  layout?: { id: number; x: number; y: number }[];
  signals?: unknown[];
  frames?: unknown[];
  cut?: string[];
}

function agent(client: Client) {
  const call = (name: string, args: Record<string, unknown> = {}) =>
    withTimeout(callTool(client, name, args), REQUEST_TIMEOUT_MS, name);
  return {
    call,
    async tree(args: Record<string, unknown> = {}) {
      return unwrapped<{ revision: number; tree?: string; changes?: string }>(
        await call("ui_tree", args),
      );
    },
    async query(args: Record<string, unknown>) {
      return unwrapped<{ revision: number; nodes: Match[]; more?: number }>(
        await call("ui_query", args),
      );
    },
    async inspect(args: Record<string, unknown> = {}) {
      const answer = await call("inspect_snapshot", args);
      const snapshot = unwrapped<Snapshot>(answer);
      return { snapshot, bytes: bytes(JSON.stringify(snapshot)) };
    },
  };
}

/** The arguments in a cut line `… <what>: <tool> {...}`. */
function cutArguments(line: string, tool: string): Record<string, unknown> {
  const match = new RegExp(`^ *… .*: ${tool} (\\{.*\\})`).exec(line);
  assert.ok(match, `a cut line naming ${tool}: ${line}`);
  return JSON.parse(match[1]!);
}

Deno.test("inspect_snapshot keeps to its budget on an app with 1,000 rows", async (t) => {
  await using dir = await runtimeDir();
  await using app = startApp(ROWS_APP, { env: { XDG_RUNTIME_DIR: dir.path } });
  await using client = await connect(await app.listening());
  const a = agent(client);
  const whole = await a.inspect({ max_bytes: 3_500_000 });
  const nodes = whole.snapshot.layout!.length;

  await t.step(
    "without arguments: at most 32,768 bytes, and cut says what is left out",
    async () => {
      const { snapshot, bytes: size } = await a.inspect();
      assert.ok(size <= 32_768, `${size} bytes`);
      assert.deepEqual(Object.keys(snapshot), [
        "revision",
        "layout",
        "signals",
        "frames",
        "keybinds",
        "cut",
      ]);
      const [treeCut, layoutCut] = snapshot.cut!;
      assert.match(
        treeCut!,
        /^… the tree \(\d+ bytes\): inspect_snapshot \{"sections":\["tree"\],"max_bytes":\d+\}$/,
      );
      assert.equal(
        layoutCut,
        `… ${
          nodes - snapshot.layout!.length
        } more layout entries: inspect_snapshot {"sections":["layout"],"from":${
          snapshot.layout!.length
        }}`,
      );
      // The tree, asked for as its cut line says, comes whole within the budget it names.
      const asked = cutArguments(treeCut!, "inspect_snapshot");
      const tree = await a.inspect(asked);
      assert.deepEqual(Object.keys(tree.snapshot), ["revision", "tree"]);
      assert.ok(tree.bytes <= (asked.max_bytes as number));
      assert.deepEqual(tree.snapshot.tree, whole.snapshot.tree);
    },
  );

  await t.step("the resource inspect://snapshot keeps to the same default budget", async () => {
    const { contents } = await client.readResource({ uri: "inspect://snapshot" });
    const text = (contents[0] as { text: string }).text;
    assert.ok(bytes(text) <= 32_768, `${bytes(text)} bytes`);
    assert.ok((JSON.parse(text) as Snapshot).cut!.length > 0);
  });

  await t.step("following the layout's cut lines lists every node once", async () => {
    const seen = new Map<number, number>();
    let args: Record<string, unknown> | undefined = { sections: ["layout"], max_bytes: 8192 };
    let calls = 0;
    while (args !== undefined) {
      calls++;
      assert.ok(calls < 100, "paging ends");
      const { snapshot, bytes: size } = await a.inspect(args);
      assert.ok(size <= 8192, `${size} bytes`);
      for (const entry of snapshot.layout!) seen.set(entry.id, (seen.get(entry.id) ?? 0) + 1);
      const next: string | undefined = snapshot.cut?.[0];
      args = next === undefined ? undefined : cutArguments(next, "inspect_snapshot");
      if (args !== undefined) assert.equal(args.max_bytes, 8192, "the caller's budget repeats");
    }
    assert.ok(calls > 1);
    assert.equal(seen.size, nodes);
    assert.ok([...seen.values()].every((count) => count === 1));
  });

  await t.step("sections and root give only what is asked, in window cells", async () => {
    const signals = await a.inspect({ sections: ["signals"], max_bytes: 3_500_000 });
    assert.deepEqual(Object.keys(signals.snapshot), ["revision", "signals"]);
    const listId = whole.snapshot.layout!.find((entry, index) =>
      index > 0 && (whole.snapshot.layout![index + 1]?.id ?? 0) > entry.id &&
      (whole.snapshot.tree!.children as { id: number; role: string }[]).some((child) =>
        child.id === entry.id && child.role === "list"
      )
    )!.id;
    const part = await a.inspect({
      sections: ["layout", "tree"],
      root: listId,
      max_bytes: 3_500_000,
    });
    assert.deepEqual(Object.keys(part.snapshot), ["revision", "tree", "layout"]);
    assert.equal(part.snapshot.tree!.id, listId);
    assert.equal(part.snapshot.layout![0]!.id, listId);
    const inWhole = new Map(whole.snapshot.layout!.map((entry) => [entry.id, entry]));
    for (const entry of part.snapshot.layout!) {
      assert.deepEqual(entry, inWhole.get(entry.id));
    }
  });

  await t.step("bad arguments are refused", async () => {
    const refused = async (args: Record<string, unknown>) => {
      const answer = await a.call("inspect_snapshot", args);
      assert.equal(answer.isError, true, answer.text);
      return answer.text;
    };
    assert.match(await refused({ sections: ["nope"] }), /^invalid arguments: sections must be/);
    assert.match(await refused({ max_bytes: 10 }), /^invalid arguments: max_bytes must be/);
    assert.equal(await refused({ root: 999_999 }), "no node with id 999999; read ui_tree again");
  });
});

Deno.test("long app strings, cut lines, offscreen and messages, through a real socket", async (t) => {
  await using dir = await runtimeDir();
  await using app = startApp(BUDGETS_APP, { env: { XDG_RUNTIME_DIR: dir.path } });
  await using client = await connect(await app.listening());
  const a = agent(client);
  const first = await a.tree();
  const titleId = nodeId(first.tree!, "text_field", "Title");
  const long = "z".repeat(200_000);

  await t.step("a receipt cuts a long value and keeps the lines after it", async () => {
    const answer = await a.call("ui_act", {
      id: titleId,
      revision: first.revision,
      action: { action: "type_text", text: long },
    });
    assert.equal(answer.isError, false, answer.text);
    assert.ok(bytes(answer.text) <= 2048, `${bytes(answer.text)} bytes`);
    const changes = receiptOf(answer.text).changes!;
    assert.match(
      changes,
      new RegExp(
        `^~ text_field "Title" #${titleId} value="z{256}"…\\(\\+199744 chars\\) focused$`,
        "m",
      ),
    );
    assert.match(changes, /^~ text "200000 characters" #\d+$/m, "the short line after it");
    assert.doesNotMatch(changes, /more lines/);
  });

  await t.step("tree views cut a long value to fit the budget", async () => {
    const small = (await a.tree({ max_bytes: 500 })).tree!;
    assert.ok(bytes(small) <= 500, `${bytes(small)} bytes`);
    assert.match(small, new RegExp(`value="z{64}"…\\(\\+199936 chars\\)`));
    const fair = (await a.tree()).tree!;
    assert.match(fair, new RegExp(`value="z{1000}"…\\(\\+199000 chars\\)`));
    const since = (await a.tree({ since: first.revision })).changes!;
    assert.match(since, new RegExp(`value="z{1000}"…\\(\\+199000 chars\\)`));
  });

  await t.step("matches cut a long value and say how to read it whole", async () => {
    const answer = await a.call("ui_query", { role: "text_field" });
    assert.ok(bytes(answer.text) < 4096, `${bytes(answer.text)} bytes`);
    const [match] = unwrapped<{ nodes: Match[] }>(answer).nodes;
    assert.equal(match!.value, "z".repeat(1000));
    assert.equal(match!.cut, `value +199000 chars: ui_query {"id":${titleId},"full":true}`);
    const waited = await a.call("ui_wait", { role: "text_field", name: "Title" });
    assert.ok(bytes(waited.text) < 4096, `${bytes(waited.text)} bytes`);
    const full = await a.query(JSON.parse(/ui_query (\{.*\})$/.exec(match!.cut!)![1]!));
    assert.equal(full.nodes.length, 1);
    assert.equal(full.nodes[0]!.value, long);
    assert.equal(full.nodes[0]!.cut, undefined);
  });

  await t.step("a row named by a long title costs no more than the budget", async () => {
    assert.equal((await a.call("add_row", { title: "y".repeat(100_000) })).isError, false);
    const tree = (await a.tree({ max_bytes: 3_500_000 })).tree!;
    const listId = Number(/^ {2}list #(\d+)/m.exec(tree)![1]);
    let args: Record<string, unknown> | undefined = { root: listId, max_bytes: 2000 };
    let pages = 0;
    while (args !== undefined) {
      pages++;
      assert.ok(pages < 100, "paging ends");
      const page: string = (await a.tree(args)).tree!;
      assert.ok(bytes(page) <= 2000, `${bytes(page)} bytes for ${JSON.stringify(args)}`);
      const cut: string | undefined = page.trimEnd().split("\n").find((line: string) =>
        /^ *… \d+ more/.test(line)
      );
      args = cut === undefined ? undefined : cutArguments(cut, "ui_tree");
      if (args !== undefined) assert.equal(args.max_bytes, 2000, "the caller's budget repeats");
    }
    const buttons = await a.query({ role: "button", name: "Open", within: listId, limit: 100 });
    const last = buttons.nodes.at(-1)!;
    assert.ok(last.path.length < 1200, `a path of ${last.path.length} characters`);
    assert.match(last.path, /list_item "y{1000}"…\(\+99000 chars\) > button "Open"$/);
  });

  await t.step("a cut receipt names the since call and the budget that holds it all", async () => {
    const { revision, tree } = await a.tree({ max_bytes: 3_500_000 });
    const answer = await a.call("ui_act", {
      id: nodeId(tree!, "button", "Fill"),
      revision,
      action: { action: "click" },
    });
    assert.ok(bytes(answer.text) <= 2048);
    const changes = receiptOf(answer.text).changes!;
    const last = changes.trimEnd().split("\n").at(-1)!;
    const args = cutArguments(last, "ui_tree");
    assert.deepEqual(Object.keys(args), ["since", "max_bytes"]);
    assert.equal(args.since, revision);
    const answer2 = await a.call("ui_tree", args);
    assert.ok(bytes(answer2.text) <= (args.max_bytes as number), "the answer fits its budget");
    const all = (markedContent(answer2.text) as { changes: string }).changes;
    assert.doesNotMatch(all, /^… /m, "nothing left out");
    assert.equal(all.match(/^\+ list_item "Filled \d+" #\d+/gm)?.length, FILL_ROWS);
  });

  await t.step("matches carry offscreen from an offscreen row, and state finds them", async () => {
    const every = await a.query({
      role: "button",
      name: "Open",
      limit: 1000,
      max_bytes: 3_500_000,
    });
    const total = every.nodes.length;
    assert.equal(total, FIRST_ROWS + 1 + FILL_ROWS);
    const offscreen = await a.query({
      role: "button",
      name: "Open",
      state: "offscreen",
      limit: 1000,
      max_bytes: 3_500_000,
    });
    assert.ok(offscreen.nodes.length > total - 10, `${offscreen.nodes.length} of ${total}`);
    for (const match of offscreen.nodes) assert.deepEqual(match.states, ["offscreen"]);
    const onScreen = every.nodes.filter((match) => !match.states.includes("offscreen"));
    assert.equal(onScreen.length + offscreen.nodes.length, total);
    // The tree text says it once, on the list's line, for the rows: not on the rows, nor on
    // their buttons.
    const tree = (await a.tree({ max_bytes: 3_500_000 })).tree!;
    const row = Number(/list_item "Row 20" #(\d+)\n {4}button "Open" #\d+\n/.exec(tree)![1]);
    const runs = /^ {2}list #\d+ offscreen=(\S+)$/m.exec(tree)![1]!.split(",").map((run) =>
      run.split("..").map((end) => Number(end.slice(1)))
    );
    assert.ok(runs.some(([from, to]) => from! <= row && row <= (to ?? from)!), tree.slice(0, 500));
    assert.doesNotMatch(tree, / offscreen\n/, "no line marks itself");
    const waited = unwrapped<{ nodes: Match[] }>(
      await a.call("ui_wait", { role: "button", state: "offscreen", timeout_ms: 100 }),
    );
    assert.ok(waited.nodes.length > 0);
  });

  await t.step("bad queries and query waits say so in the contract's words", async () => {
    const role = await a.call("ui_query", { role: "Button" });
    assert.equal(role.isError, true);
    assert.match(role.text, /^invalid arguments: unknown role "Button"/);
    const bogus = await a.call("ui_tree", { bogus: 1 });
    assert.equal(
      bogus.text,
      "invalid arguments: ui_tree takes root, depth, from, visible, max_bytes and since, got bogus",
    );
    const modal = await a.call("ui_wait", { state: "modal", timeout_ms: 100 });
    assert.equal(modal.isError, true);
    assert.equal(modal.text, "timed out after 100 ms: no node matches the query (state)");
    const named = await a.call("ui_wait", { role: "button", name: "Nope zzz", timeout_ms: 0 });
    assert.equal(named.text, "timed out after 0 ms: no node matches the query (role, name)");
  });

  await t.step("paths escape line separators and bidi controls as tree text does", async () => {
    const { nodes } = await a.query({ text: "break" });
    assert.equal(nodes.length, 1);
    const [match] = nodes;
    assert.equal(match!.name, SEPARATED_NAME);
    assert.doesNotMatch(match!.path, RAW_BREAK_OR_CONTROL);
    const quoted = /text (".*")$/.exec(match!.path)![1]!;
    assert.equal(JSON.parse(quoted), SEPARATED_NAME);
    const line = (await a.tree()).tree!.split("\n").find((text) => text.includes("Line"))!;
    assert.ok(match!.path.endsWith(line.trim().replace(/ #\d+$/, "")), `${match!.path} / ${line}`);
  });

  await t.step("crowndev wait and crowndev inspect print no raw line separator", async () => {
    const env = { XDG_RUNTIME_DIR: dir.path };
    const waited = await crowndev(env, "wait", "text=break", "--timeout", "1000");
    assert.equal(waited.code, 0, JSON.stringify(waited));
    assert.match(waited.stdout, /\\u2028break\\u2029para \\u202eevil/);
    const inspected = await crowndev(env, "inspect");
    assert.equal(inspected.code, 0, JSON.stringify(inspected).slice(0, 500));
    for (const run of [waited, inspected]) {
      assert.doesNotMatch(run.stdout, RAW_BREAK_OR_CONTROL);
      assert.doesNotMatch(run.stderr, RAW_BREAK_OR_CONTROL);
    }
  });
});
