/**
 * The agent tasks of `bench/peers.ts` done through crownmcp with the UI tools only, as an
 * agent does them: one read, then actions on the ids it read (what it types in one call when
 * it can), each receipt giving the new revision and the ids of what appeared. Each task checks that it did what it says, so a
 * broken feature cannot print a good figure.
 *
 * @module
 */

import type { Client } from "../runtime/agent/transport/sdk.ts";
import { readAnswer, readResultText } from "../runtime/agent/session/untrusted.ts";
import { nodeId } from "../tests/_app_process.ts";
import { Tally } from "./_tokens.ts";

/** The revision a result's header gives. */
function revisionOf(text: string): number {
  const revision = readResultText(text).revision;
  if (revision === undefined) throw new Error(`no revision in ${text}`);
  return revision;
}

/** The id on the first line of `text` that matches `pattern` (which holds `#(\d+)`). */
function idIn(text: string, pattern: RegExp): number {
  const match = pattern.exec(text);
  if (match === null) throw new Error(`${pattern} is not in:\n${text}`);
  return Number(match[1]);
}

/**
 * Types the titles into the Title field in one `type_text`, each followed by a line break
 * (Enter, which adds the note); returns the receipt, checked to show every new row.
 */
async function addNotes(tally: Tally, titles: readonly string[]): Promise<string> {
  const tree = await tally.call("ui_tree");
  const field = nodeId(readResultText(tree).body, "text_field", "Title");
  const added = await tally.call("ui_act", {
    id: field,
    revision: revisionOf(tree),
    action: { action: "type_text", text: titles.map((title) => `${title}\n`).join("") },
  });
  for (const title of titles) {
    if (!added.includes(`+ list_item ${JSON.stringify(title)}`)) {
      throw new Error(`the receipt does not show the note ${title}:\n${added}`);
    }
  }
  return added;
}

/** Adds a note and sees it (the receipt of its Enter shows the new row and the count). */
export async function addAndSee(client: Client): Promise<Tally> {
  const tally = new Tally(client);
  const added = await addNotes(tally, ["Buy milk"]);
  if (!added.includes('"1 note, 0 done"')) {
    throw new Error(`the receipt does not show the count:\n${added}`);
  }
  return tally;
}

/**
 * Adds three notes (one `type_text`), ticks the first, deletes the second, and reads the
 * count from the last receipt.
 */
export async function threeNotes(client: Client): Promise<Tally> {
  const tally = new Tally(client);
  const added = await addNotes(tally, ["Buy milk", "Walk the dog", "Write the README"]);
  const done = idIn(added, /^\+ list_item "Buy milk" #\d+.*\n +checkbox "Done" #(\d+)/m);
  const remove = idIn(
    added,
    /^\+ list_item "Walk the dog" #\d+.*\n.*\n +button "Delete" #(\d+) destructive/m,
  );
  const ticked = await tally.call("ui_act", {
    id: done,
    revision: revisionOf(added),
    action: { action: "click" },
  });
  const deleted = await tally.call("ui_act", {
    id: remove,
    revision: revisionOf(ticked),
    action: { action: "click" },
    confirm: true, // Delete is destructive: the user approved it
  });
  if (!deleted.includes('"2 notes, 1 done"')) {
    throw new Error(`the last receipt does not show the count:\n${deleted}`);
  }
  return tally;
}

/** Finds row 437 of the 1,000-row app and clicks its Open button. */
export async function openRow437(client: Client): Promise<Tally> {
  const tally = new Tally(client);
  const row = readAnswer(await tally.call("ui_query", { role: "list_item", name: "Row 437" }));
  const rowId = (row.nodes as { id: number }[])[0]!.id;
  const open = readAnswer(
    await tally.call("ui_query", { role: "button", name: "Open", within: rowId }),
  );
  const receipt = await tally.call("ui_act", {
    id: (open.nodes as { id: number }[])[0]!.id,
    revision: open.revision,
    action: { action: "click" },
  });
  if (!receipt.includes('"Opened Row 437"')) {
    throw new Error(`the receipt does not show the click's effect:\n${receipt}`);
  }
  return tally;
}

/** A node of `ui://tree.json`: the fields `checkEveryNode()` reads. */
interface JsonNode {
  id: number;
  role: string;
  name?: string;
  children?: JsonNode[];
}

/**
 * Fails unless every node of `ui://tree.json` has its line in the tree text `tree`, but a
 * row's naming text (which the row's line says); returns how many nodes there are.
 */
export async function checkEveryNode(client: Client, tree: string): Promise<number> {
  const read = await client.readResource({ uri: "ui://tree.json" });
  const json = JSON.parse((read.contents[0] as { text: string }).text) as { tree: JsonNode };
  const lines = new Set([...tree.matchAll(/ #(\d+)(?= |$)/gm)].map((match) => Number(match[1])));
  let nodes = 0;
  const walk = (node: JsonNode, parent: JsonNode | null) => {
    nodes++;
    const naming = parent?.role === "list_item" && node.role === "text" &&
      node.name === parent.name;
    if (!lines.has(node.id) && !naming) throw new Error(`node #${node.id} is not in the tree`);
    for (const child of node.children ?? []) walk(child, node);
  };
  walk(json.tree, null);
  return nodes;
}
