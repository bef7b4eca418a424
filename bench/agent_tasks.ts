/**
 * What agent tasks cost, in calls and bytes of results, through `crownmcp` as agents use
 * it (issue 12's goals):
 *
 * - the whole tree of a 1,000-row app (checkbox, text and button per row): bytes per row
 *   (goal: at most 75), the default `ui_tree` (its budget) and `ui_tree {"visible": true}`;
 * - "find row 437 and click its button" (goal: at most 3 calls and 4 KB of results);
 * - "wait for a button to become enabled" (goal: 1 call under 1 KB);
 * - "add a note and read the new count" in the Notes demo (goal: 2 calls, act and its
 *   receipt, under 1 KB), the ids coming from a read the agent made before.
 *
 * Beside each, the obvious way of the old interface (read the whole tree, act, read again)
 * for comparison. Run: `deno task bench:agent`. Prints figures; asserts nothing, except
 * that each task really did what it says (so a broken feature cannot print a good figure).
 *
 * @module
 */

import { readAnswer, readResultText } from "../runtime/agent/session/untrusted.ts";
import type { Client } from "../runtime/agent/transport/sdk.ts";
import { makeRuntimeDir, removeDir, startApp } from "../tests/_app_process.ts";
import { launchCrownmcp, untilAppSelected } from "./_act.ts";

const ROWS = 1000;
const TASKS_APP = new URL("./_tasks_app.ts", import.meta.url).pathname;
const NOTES_APP = new URL("../examples/notes.ts", import.meta.url).pathname;

/** The calls an agent made for one task and the bytes their results held. */
class Tally {
  calls = 0;
  bytes = 0;
  readonly #client: Client;
  constructor(client: Client) {
    this.#client = client;
  }
  /** Calls a tool, counts it, and returns its text; a tool error throws. */
  async call(name: string, args: Record<string, unknown> = {}): Promise<string> {
    const result = await this.#client.callTool({ name, arguments: args });
    const text = (result.content as { type: string; text?: string }[])
      .map((block) => block.text ?? "").join("");
    this.calls++;
    this.bytes += new TextEncoder().encode(text).length;
    if (result.isError) throw new Error(`${name} failed: ${text}`);
    return text;
  }
}

/** The content of a result: its header's revision, then its JSON's fields or its text (`tree`). */
function content(text: string): Record<string, unknown> {
  const answer = readAnswer(text);
  return "text" in answer ? { ...answer, tree: answer.text } : answer;
}

function firstId(text: string): { id: number; revision: number } {
  const answer = content(text) as { revision: number; nodes: { id: number }[] };
  const node = answer.nodes[0];
  if (node === undefined) throw new Error(`no node matched: ${text}`);
  return { id: node.id, revision: answer.revision };
}

function receiptText(text: string): string {
  return readResultText(text).body;
}

function report(label: string, tally: Tally, goal: string): void {
  const kb = (tally.bytes / 1024).toFixed(2);
  console.log(
    `${label.padEnd(44)} ${String(tally.calls).padStart(2)} calls ${
      kb.padStart(8)
    } KB   (goal: ${goal})`,
  );
}

/** Runs `script` with `args` and a crownmcp for it during `body`. */
async function withApp(
  script: string,
  args: string[],
  body: (client: Client) => Promise<void>,
): Promise<void> {
  const runtimeDir = await makeRuntimeDir();
  const app = startApp(script, { env: { XDG_RUNTIME_DIR: runtimeDir }, args });
  try {
    await app.listening();
    const { client } = await launchCrownmcp(runtimeDir);
    try {
      await untilAppSelected(client);
      await body(client);
    } finally {
      await client.close();
    }
  } finally {
    await app.close();
    await removeDir(runtimeDir);
  }
}

await withApp(TASKS_APP, [String(ROWS)], async (client) => {
  const whole = new Tally(client);
  const tree = content(await whole.call("ui_tree", { max_bytes: 3_500_000 })).tree as string;
  console.log(
    `whole tree, ${ROWS} rows: ${tree.length} bytes, ${
      (new TextEncoder().encode(tree).length / ROWS).toFixed(1)
    } bytes a row (goal: at most 75)`,
  );
  const budgeted = new Tally(client);
  const defaultTree = content(await budgeted.call("ui_tree")).tree as string;
  report(
    "ui_tree with no arguments (default budget)",
    budgeted,
    `tree text at most 32 KB: ${
      (new TextEncoder().encode(defaultTree).length / 1024).toFixed(2)
    } KB`,
  );
  const visible = new Tally(client);
  await visible.call("ui_tree", { visible: true });
  report("ui_tree {visible: true}", visible, "what is on screen");

  // Find row 437 and click its button.
  const find = new Tally(client);
  const rowId = firstId(await find.call("ui_query", { role: "list_item", name: "Row 437" })).id;
  const open = firstId(
    await find.call("ui_query", { role: "button", name: "Open", within: rowId }),
  );
  const receipt = await find.call("ui_act", {
    id: open.id,
    revision: open.revision,
    action: { action: "click" },
  });
  if (!receiptText(receipt).includes("Opened Row 437")) {
    throw new Error(`the receipt does not show the click's effect: ${receipt}`);
  }
  report("find row 437 and click its button", find, "at most 3 calls, 4 KB");

  const oldFind = new Tally(client);
  const full = content(await oldFind.call("ui_tree", { max_bytes: 3_500_000 }));
  const lines = (full.tree as string).split("\n");
  const at = lines.findIndex((line) => line.includes('"Row 437"'));
  const button = lines.slice(at).find((line) => line.includes('button "Open"'))!;
  await oldFind.call("ui_act", {
    id: Number(/#(\d+)/.exec(button)![1]),
    revision: full.revision,
    action: { action: "click" },
  });
  await oldFind.call("ui_tree", { max_bytes: 3_500_000 });
  report("  the same the old way (tree, act, tree)", oldFind, "for comparison");

  // Wait for a button to become enabled.
  const prepare = firstId(
    await new Tally(client).call("ui_query", { role: "button", name: "Prepare" }),
  );
  await new Tally(client).call("ui_act", {
    id: prepare.id,
    revision: prepare.revision,
    action: { action: "click" },
  });
  const wait = new Tally(client);
  const waited = content(
    await wait.call("ui_wait", {
      role: "button",
      name: "Download",
      state: "enabled",
      timeout_ms: 10_000,
    }),
  ) as { nodes: { states: string[] }[] };
  if (waited.nodes.length !== 1 || waited.nodes[0]!.states.includes("disabled")) {
    throw new Error(`ui_wait answered before Download was enabled: ${JSON.stringify(waited)}`);
  }
  report("wait for a button to become enabled", wait, "1 call under 1 KB");
  console.log(
    `  the old way: ui_tree once a second for 3 s is 4 reads of ${
      (budgeted.bytes / 1024).toFixed(1)
    } KB (the default view) or ${(whole.bytes / 1024).toFixed(1)} KB (whole)`,
  );
});

await withApp(NOTES_APP, [], async (client) => {
  const setup = new Tally(client);
  const field = firstId(await setup.call("ui_query", { role: "text_field", name: "Title" }));
  const add = firstId(await setup.call("ui_query", { role: "button", name: "Add" }));
  const task = new Tally(client);
  const typed = readAnswer(
    await task.call("ui_act", {
      id: field.id,
      revision: Math.max(field.revision, add.revision),
      action: { action: "type_text", text: "Buy milk" },
    }),
  ) as { revision: number };
  const added = await task.call("ui_act", {
    id: add.id,
    revision: typed.revision,
    action: { action: "click" },
  });
  if (!/1 note\b/.test(receiptText(added))) {
    throw new Error(`the receipt does not show the new count: ${added}`);
  }
  report("add a note and read the new count (Notes)", task, "2 calls under 1 KB");
  const tools = await client.listTools();
  console.log(
    `tools/list of the Notes app through crownmcp: ${
      (new TextEncoder().encode(JSON.stringify(tools)).length / 1024).toFixed(2)
    } KB (goal: at most 5 KB)`,
  );
});
