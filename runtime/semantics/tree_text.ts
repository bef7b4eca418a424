/**
 * The tree as indented text, one node a line, the way agents read it:
 * `  button "Add" #4 disabled`. App strings are JSON-escaped so no name or value can forge a
 * line or an id; a secure node's value is never written.
 *
 * @module
 */

import { type SemanticNode, STATES } from "./node.ts";

const indents: string[] = [""];

function indent(depth: number): string {
  while (indents.length <= depth) indents.push(indents[indents.length - 1] + "  ");
  return indents[depth]!;
}

// JSON.stringify leaves NEL, LINE SEPARATOR and PARAGRAPH SEPARATOR as they are, yet many
// readers (Python's splitlines, JavaScript's multiline regular expressions) end a line there.
const UNICODE_LINE_BREAK = /[\u0085\u2028\u2029]/;
const UNICODE_LINE_BREAKS = /[\u0085\u2028\u2029]/g;

/** An app string as a JSON string that holds no line break of any kind. */
function quote(text: string): string {
  const json = JSON.stringify(text);
  if (!UNICODE_LINE_BREAK.test(json)) return json; // nearly always: keep tree text fast
  return json.replace(
    UNICODE_LINE_BREAKS,
    (character) => "\\u" + character.charCodeAt(0).toString(16).padStart(4, "0"),
  );
}

/** Formats one node's line, without indent. */
export function formatNodeLine(node: SemanticNode): string {
  let line = node.role;
  if (node.name !== undefined) line += " " + quote(node.name);
  line += " #" + node.id;
  const secure = node.has("secure");
  if (node.value !== undefined && node.value !== "" && !secure) {
    line += " value=" + quote(node.value);
  }
  const states = node.states;
  if (states !== 0) {
    for (let index = 0; index < STATES.length; index++) {
      if (states & (1 << index)) line += " " + STATES[index];
    }
  }
  return line;
}

/** Formats the subtree under `root` as indented text, ending with a newline. */
export function formatTree(root: SemanticNode): string {
  const lines: string[] = [];
  const stack: [SemanticNode, number][] = [[root, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    lines.push(indent(depth) + formatNodeLine(node));
    const children = node.children;
    for (let index = children.length - 1; index >= 0; index--) {
      stack.push([children[index]!, depth + 1]);
    }
  }
  return lines.join("\n") + "\n";
}
