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

/** Formats one node's line, without indent. */
export function formatNodeLine(node: SemanticNode): string {
  let line = node.role;
  if (node.name !== undefined) line += " " + JSON.stringify(node.name);
  line += " #" + node.id;
  const secure = node.has("secure");
  if (node.value !== undefined && node.value !== "" && !secure) {
    line += " value=" + JSON.stringify(node.value);
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
