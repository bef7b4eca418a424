import assert from "node:assert/strict";
import { ACTIONS, actionsMarkdown } from "../runtime/input/actions.ts";

/** The cells of each row of a Markdown table, trimmed (deno fmt pads them). */
function tableCells(markdown: string): string[][] {
  return markdown.split("\n")
    .filter((line) => line.trim().startsWith("|"))
    .map((line) => line.trim().slice(1, -1).split("|").map((cell) => cell.trim()))
    .filter((cells) => !cells.every((cell) => /^:?-+:?$/.test(cell)));
}

Deno.test("docs/agents.md's action table is the one runtime/input/actions.ts describes", async () => {
  const docs = await Deno.readTextFile(new URL("../docs/agents.md", import.meta.url));
  const start = docs.indexOf("<!-- actions:");
  const end = docs.indexOf("<!-- /actions -->");
  assert.ok(start >= 0 && end > start, "docs/agents.md lacks the <!-- actions --> markers");
  const documented = tableCells(docs.slice(start, end));
  const expected = tableCells(actionsMarkdown());
  assert.deepEqual(
    documented,
    expected,
    `the table in docs/agents.md is out of date; put this between its markers:\n${actionsMarkdown()}`,
  );
  // Every action has a row, so the test cannot pass on an empty table.
  assert.equal(documented.length, ACTIONS.length + 1);
});
