/**
 * Changes since a revision, action receipts, `ui_query`'s filters and `ui_wait`, end to end
 * over a real Unix socket: first against the app's own server (a `deno run` child whose
 * worker answers from its tree mirror), then against an in-process `AgentServer` over the
 * same-thread `AppHost`, where the test can see that a cancelled wait is freed.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { getuid } from "../ffi/mod.ts";
import { AppHost } from "../runtime/agent/hosts/app_host.ts";
import { connectToApp } from "../runtime/agent/clients/client.ts";
import { SameUserGate } from "../runtime/agent/access/gate.ts";
import { MAX_PENDING_REQUESTS } from "../runtime/agent/transport/line_transport.ts";
import { AgentServer } from "../runtime/agent/server/server.ts";
import type { Client } from "../runtime/agent/transport/sdk.ts";
import { socketPathFor } from "../runtime/agent/transport/socket_dir.ts";
import { markedContent, type Receipt, receiptOf } from "./_marked.ts";
import { render } from "../runtime/testing.ts";
import { button, column, component, list, row, scrollView, text } from "../runtime/ui/mod.ts";
import {
  callTool,
  connect,
  nodeId,
  runtimeDir,
  startApp,
  type ToolText,
  withTimeout,
} from "./_app_process.ts";
import { CHANGES_SECRET, CHANGES_TITLE, changesApp } from "./fixtures/changes_app.ts";

const FIXTURE = "tests/fixtures/changes_app.ts";

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
}

/** A client that remembers every text it received, to look for the secret in all of them. */
function recording(client: Client) {
  const received: string[] = [];
  return {
    received,
    async call(name: string, args: Record<string, unknown> = {}): Promise<ToolText> {
      const answer = await callTool(client, name, args);
      received.push(answer.text);
      return answer;
    },
    async tree(args: Record<string, unknown> = {}) {
      return unwrapped<{ revision: number; tree?: string; since?: number; changes?: string }>(
        await this.call("ui_tree", args),
      );
    },
    async act(id: number, revision: number, action: Record<string, unknown>): Promise<Receipt> {
      const answer = await this.call("ui_act", { id, revision, action });
      assert.equal(answer.isError, false, answer.text);
      return receiptOf(answer.text);
    },
  };
}

/** The change text of a receipt (`receiptOf` checked it is marked). */
function changeText(receipt: Receipt): string {
  assert.ok(receipt.changes !== undefined, `no changes in ${JSON.stringify(receipt)}`);
  return receipt.changes;
}

Deno.test("the app's own server: changes, receipts and waits from the worker", async (t) => {
  await using runtime = await runtimeDir();
  await using app = startApp(FIXTURE, { env: { XDG_RUNTIME_DIR: runtime.path } });
  let client: Client | null = null;
  try {
    client = await connect(await app.listening());
    const agent = recording(client);
    const start = await agent.tree();
    const id = (role: string, name: string) => nodeId(start.tree!, role, name);

    await t.step("a receipt after opening a dialog names its nodes", async () => {
      const before = (await agent.tree()).revision;
      const receipt = await agent.act(id("button", "Settings"), before, { action: "click" });
      assert.equal(receipt.revision, before + 1);
      assert.deepEqual(Object.keys(receipt), ["revision", "changes"]);
      const text = changeText(receipt);
      assert.match(text, /^\+ dialog "Settings" #\d+[^\n]* in #1$/m, text);
      assert.match(text, /^ {2,}text "Theme: dark" #\d+/m, text);
      assert.match(text, /^ {2,}button "Close" #\d+/m, text);
      const since = await agent.tree({ since: before });
      assert.deepEqual(since, { revision: before + 1, since: before, changes: text });
    });

    await t.step("closing it gives one removed-subtree line", async () => {
      const now = await agent.tree();
      const dialog = Number(/dialog "Settings" #(\d+)/.exec(now.tree!)![1]);
      const close = nodeId(now.tree!, "button", "Close");
      const receipt = await agent.act(close, now.revision, { action: "click" });
      const text = changeText(receipt);
      assert.match(text, new RegExp(`^- #${dialog}$`, "m"), text);
      assert.doesNotMatch(text, new RegExp(`^- #${close}$`, "m"), "only the subtree's root");
    });

    await t.step("a revision older than the history kept gets the full tree", async () => {
      const answer = await agent.tree({ since: 0 });
      assert.deepEqual(Object.keys(answer), ["revision", "tree"]);
      assert.match(answer.tree!, new RegExp(`^window "${CHANGES_TITLE}" #1\\n`));
    });

    await t.step("since in the future or not a whole number is refused", async () => {
      const { revision } = await agent.tree();
      const future = await agent.call("ui_tree", { since: revision + 5 });
      assert.equal(future.isError, true);
      assert.equal(
        future.text,
        `invalid arguments: since ${revision + 5} is after the current revision ${revision}`,
      );
      for (const since of [1.5, "3", -1]) {
        const answer = await agent.call("ui_tree", { since });
        assert.equal(answer.isError, true, String(since));
        assert.match(answer.text, /^invalid arguments: since must be a revision/);
      }
    });

    await t.step("ui_wait answers at the frame where the button becomes enabled", async () => {
      const download = id("button", "Download");
      const before = (await agent.tree()).revision;
      await agent.act(id("button", "Prepare"), before, { action: "click" });
      const answer = unwrapped<{ revision: number; nodes: Match[] }>(
        await agent.call("ui_wait", { id: download, state: "enabled", timeout_ms: 20_000 }),
      );
      assert.deepEqual(answer.nodes.map((node) => [node.id, node.states]), [[download, []]]);
      // The revision answered is the very frame that enabled it: the change is in it.
      const inIt = await agent.tree({ since: answer.revision - 1 });
      assert.match(inIt.changes!, new RegExp(`^~ button "Download" #${download}$`, "m"));
      const after = await agent.tree({ since: answer.revision });
      assert.doesNotMatch(after.changes!, new RegExp(`#${download}\\b`));
      const query = unwrapped<{ nodes: Match[] }>(
        await agent.call("ui_wait", { role: "button", name: "Download", state: "enabled" }),
      );
      assert.deepEqual(query.nodes.map((node) => node.id), [download]);
    });

    await t.step("ui_wait times out with a message of ids and states only", async () => {
      const locked = id("button", "Locked");
      const cases: [Record<string, unknown>, string][] = [
        [{ id: locked, state: "enabled", timeout_ms: 200 }, `#${locked} is still disabled`],
        [
          { role: "button", name: "Locked", state: "enabled", timeout_ms: 100 },
          "no node matches the query (role, name, state)",
        ],
        [{ name: "Nothing like this", timeout_ms: 100 }, "no node matches the query (name)"],
        [
          { role: "button", name: "Locked", gone: true, timeout_ms: 100 },
          `#${locked} still matches`,
        ],
      ];
      for (const [args, reason] of cases) {
        const answer = await agent.call("ui_wait", args);
        assert.equal(answer.isError, true, answer.text);
        assert.equal(answer.text, `timed out after ${args.timeout_ms} ms: ${reason}`);
      }
      const { revision } = await agent.tree();
      const still = await agent.call("ui_wait", { since: revision, timeout_ms: 100 });
      assert.equal(still.text, `timed out after 100 ms: the revision is still ${revision}`);
    });

    await t.step("ui_wait refuses an unknown id and bad arguments at once", async () => {
      const unknown = await agent.call("ui_wait", { id: 987654, timeout_ms: 30_000 });
      assert.equal(unknown.isError, true);
      assert.equal(unknown.text, "no node with id 987654; read ui_tree again");
      for (
        const [args, pattern] of [
          [{ timeout_ms: 100 }, /^invalid arguments: ui_wait needs a condition/],
          [{ name: "x", timeout_ms: 30_001 }, /^invalid arguments: timeout_ms must be a whole/],
          [{ name: "x", state: "shiny" }, /^invalid arguments: unknown state "shiny"; states are/],
          [{ name: "x", colour: "red" }, /^invalid arguments: ui_wait takes role, name, text/],
          [{ name: "x", within: 987654 }, /^no node with id 987654; read ui_tree again$/],
        ] as const
      ) {
        const answer = await agent.call("ui_wait", args);
        assert.equal(answer.isError, true, JSON.stringify(args));
        assert.match(answer.text, pattern);
      }
    });

    await t.step("ui_wait with gone answers when the dialog closes", async () => {
      const opened = await agent.act(
        id("button", "Settings"),
        (await agent.tree()).revision,
        { action: "click" },
      );
      const now = await agent.tree();
      assert.equal(now.revision, opened.revision);
      const waiting = agent.call("ui_wait", { role: "dialog", gone: true, timeout_ms: 20_000 });
      await agent.act(nodeId(now.tree!, "button", "Close"), now.revision, { action: "click" });
      const answer = unwrapped<{ revision: number; nodes: Match[] }>(await waiting);
      assert.deepEqual(answer.nodes, []);
      assert.ok(answer.revision > now.revision);
    });

    await t.step("ui_query filters by within and state, with values and states", async () => {
      const tree = await agent.tree();
      const disabled = unwrapped<{ nodes: Match[] }>(
        await agent.call("ui_query", { role: "button", state: "disabled" }),
      );
      assert.deepEqual(disabled.nodes.map((node) => node.name), ["Locked"]);
      assert.deepEqual(disabled.nodes[0]!.states, ["disabled"]);
      const limited = unwrapped<{ nodes: Match[]; more?: number }>(
        await agent.call("ui_query", { role: "button", limit: 2 }),
      );
      assert.equal(limited.nodes.length, 2);
      assert.equal(limited.more, 2, "Settings, Prepare, Download and Locked");
      const inside = unwrapped<{ nodes: Match[] }>(
        await agent.call("ui_query", { within: 1, role: "window" }),
      );
      assert.deepEqual(inside.nodes, [], "within leaves the ancestor itself out");
      const missing = await agent.call("ui_query", { within: 987654 });
      assert.equal(missing.text, "no node with id 987654; read ui_tree again");
      assert.ok(tree.revision > 0);
    });

    await t.step("no change text, receipt or wait answer carries a secret", async () => {
      const password = id("text_field", "Password");
      const before = (await agent.tree()).revision;
      const receipt = await agent.act(password, before, { action: "click" });
      assert.deepEqual(receipt, { revision: before + 1 }, "the focus the click gave is no change");
      await agent.tree({ since: 0 });
      const since = await agent.tree({ since: before });
      assert.match(
        since.changes!,
        new RegExp(`^~ text_field "Password" #${password}\\b.*secure`, "m"),
      );
      const field = unwrapped<{ nodes: Match[] }>(
        await agent.call("ui_wait", { id: password, state: "focused" }),
      );
      assert.equal(field.nodes[0]!.value, undefined);
      assert.deepEqual(field.nodes[0]!.states, ["focused", "secure"]);
      await agent.call("ui_query", { role: "text_field" });
      for (const text of agent.received) {
        assert.ok(!text.includes(CHANGES_SECRET) && !text.includes("hunter2"), text);
      }
    });
  } finally {
    await client?.close();
  }
});

Deno.test("an in-process server over AppHost: receipts, free waits, cancellation", async (t) => {
  await using dir = await runtimeDir();
  await using app = await render(changesApp(), { title: CHANGES_TITLE });
  const host = new AppHost(app.app);
  const uid = getuid();
  const server = new AgentServer({
    host,
    gate: new SameUserGate(uid),
    socketPath: socketPathFor(join(dir.path, "crownui"), CHANGES_TITLE, 1),
    log: () => {},
  });
  await server.start();
  const client = await connectToApp(server.socketPath);
  const agent = recording(client);
  try {
    await t.step("the same-thread host gives receipts too", async () => {
      const settings = app.get({ role: "button", name: "Settings" }).id;
      const receipt = await agent.act(settings, app.revision, { action: "click" });
      assert.match(changeText(receipt), /^\+ dialog "Settings" #\d+[^\n]* in #1$/m);
    });

    await t.step("ui_wait is no action: a burst of 30 takes no token of ui_act's", async () => {
      const waits = await Promise.all(
        Array.from({ length: 30 }, () => agent.call("ui_wait", { role: "dialog" })),
      );
      for (const answer of waits) assert.equal(answer.isError, false, answer.text);
      const close = app.get({ role: "button", name: "Close" }).id;
      const receipt = await agent.act(close, app.revision, { action: "click" });
      assert.ok(receipt.changes !== undefined, "the act was not refused: the dialog closed");
    });

    await t.step("cancelled waits end at once and free their request places", async () => {
      // As many waits as one connection may have pending: until they end, nothing else on it
      // is answered. Waits that were not freed would hold on until their 30 s timeout.
      const controllers = Array.from({ length: MAX_PENDING_REQUESTS }, () => new AbortController());
      const pending = controllers.map((controller, index) =>
        client.callTool(
          { name: "ui_wait", arguments: { name: `Never shown ${index}`, timeout_ms: 30_000 } },
          undefined,
          { signal: controller.signal, timeout: 60_000 },
        )
      );
      for (const call of pending) call.catch(() => {}); // rejected below, on purpose
      await withTimeout(
        until(() => host.waiting === MAX_PENDING_REQUESTS),
        20_000,
        "the waits to start",
      );
      for (const controller of controllers) controller.abort();
      for (const call of pending) await assert.rejects(call);
      await withTimeout(until(() => host.waiting === 0), 20_000, "the waits to be freed");
      const after = await withTimeout(
        agent.call("ui_tree", { since: app.revision }),
        20_000,
        "an answer on the same connection",
      );
      assert.equal(after.isError, false, after.text);
    });
  } finally {
    await client.close();
    await server.stop();
  }
});

Deno.test("a scroll is one line in the receipt, the list's, not a line per row", async () => {
  await using dir = await runtimeDir();
  const rows = component((cx) => {
    const items = cx.signal(Array.from({ length: 60 }, (_, index) => `Row ${index}`));
    return column(
      text("Top"),
      scrollView(list(items, (item) => row(text(item), button("Open", () => {})))),
    );
  });
  await using app = await render(rows, { title: "Rows", width: 40, height: 12 });
  const server = new AgentServer({
    host: new AppHost(app.app),
    gate: new SameUserGate(getuid()),
    socketPath: socketPathFor(join(dir.path, "crownui"), "Rows", 2),
    log: () => {},
  });
  await server.start();
  const client = await connectToApp(server.socketPath);
  try {
    const agent = recording(client);
    const scroll = app.get({ role: "scroll_view" }).id;
    const receipt = await agent.act(scroll, app.revision, {
      action: "scroll",
      delta: { x: 0, y: 5 },
    });
    const id = (name: string) => app.get({ role: "list_item", name }).id;
    assert.equal(
      changeText(receipt),
      `~ list #${app.get({ role: "list" }).id} onscreen=#${id("Row 5")}..#${id("Row 15")}\n`,
    );
  } finally {
    await client.close();
    await server.stop();
  }
});

/** Resolves once `condition` holds, checking every few milliseconds. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}
