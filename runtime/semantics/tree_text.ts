/**
 * The tree as indented text, one node a line, the way agents read it:
 * ` button "Add" #4 disabled`, one space of indent per level. App strings are JSON-escaped,
 * and so are the characters JSON leaves alone that could still forge a line or reorder what a
 * terminal shows (Unicode line breaks, C1 controls, bidi controls), so no name or value can
 * forge a line or an id; a secure node's value is never written. A row named by its text
 * does not repeat that text as a child line. A `tree_item` line says its level
 * (`level=2`), from how its node nests in other items.
 *
 * @module
 */

import { type SemanticNode, STATE_BIT, STATES } from "./node.ts";

const SECURE = STATE_BIT.secure;
const OFFSCREEN = STATE_BIT.offscreen;

const indents: string[] = [""];

/** The indent of a line `depth` levels below the top: one space a level. */
export function treeIndent(depth: number): string {
  while (indents.length <= depth) indents.push(indents[indents.length - 1] + " ");
  return indents[depth]!;
}

// JSON.stringify leaves these as they are. NEL, LINE SEPARATOR and PARAGRAPH SEPARATOR end a
// line for many readers (Python's splitlines, JavaScript's multiline regular expressions); C1
// controls act on terminals (U+009B is CSI); bidi controls reorder what a reader sees.
const UNSAFE_CHARACTER = /[\u0080-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const UNSAFE_CHARACTERS = new RegExp(UNSAFE_CHARACTER.source, "g");
// A string with none of these is its own JSON text between quotes: no quote, backslash or
// control character (JSON escapes them), no lone surrogate (JSON escapes it), and none of the
// characters above. Testing for them is quicker than JSON.stringify and a test of its result.
const NEEDS_ESCAPE =
  // deno-lint-ignore no-control-regex -- control characters are what it looks for
  /["\\\u0000-\u001f\u0080-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]/;

/**
 * An app string as a JSON string that holds no line break of any kind, no C1 control and no
 * bidi control: those are written as `\uXXXX`.
 */
export function quoteAppText(text: string): string {
  if (!NEEDS_ESCAPE.test(text)) return '"' + text + '"'; // nearly always: keep tree text fast
  return escapeUnsafeCharacters(JSON.stringify(text));
}

/**
 * JSON text with the characters JSON leaves alone that could still end a line or act on a
 * terminal (Unicode line breaks, C1 controls, bidi controls) written as `\uXXXX`: the same
 * value to `JSON.parse`, on one line for every reader.
 */
export function escapeUnsafeCharacters(json: string): string {
  if (!UNSAFE_CHARACTER.test(json)) return json;
  return json.replace(
    UNSAFE_CHARACTERS,
    (character) => "\\u" + character.charCodeAt(0).toString(16).padStart(4, "0"),
  );
}

/**
 * Formats one node's line, without indent. `quote` writes the name and value (answers with a
 * budget pass one that cuts long strings, see `long_text.ts`). `alone` says the line is read
 * without its parent's (the first line of a view, a change line): only then does it carry the
 * node's own `offscreen`, which the parent's line otherwise says (see {@link offscreenRuns}).
 */
export function formatNodeLine(
  node: SemanticNode,
  quote: (text: string) => string = quoteAppText,
  alone = true,
): string {
  return appendNodeLine("", node, quote, alone);
}

/** `text` followed by the line of `node` (see {@link formatNodeLine}). */
function appendNodeLine(
  text: string,
  node: SemanticNode,
  quote: (text: string) => string,
  alone: boolean,
): string {
  text += node.role;
  if (node.name !== undefined) text += " " + quote(node.name);
  text += " #";
  text += node.id;
  const states = alone ? node.states : node.states & ~OFFSCREEN;
  if (node.value !== undefined && node.value !== "" && (states & SECURE) === 0) {
    text += " value=" + quote(node.value);
  }
  if (node.description !== undefined) text += " description=" + quote(node.description);
  if (node.role === "tree_item") text += " level=" + treeLevel(node);
  if (states !== 0) {
    for (let index = 0; index < STATES.length; index++) {
      if (states & (1 << index)) text += " " + STATES[index];
    }
  }
  return text + offscreenRuns(node);
}

/**
 * The level of a `tree_item`: 1 for an item at the top of its tree, one more for each item
 * it is inside. The nodes nest as the items do, so the level is worked out, not stored.
 */
export function treeLevel(node: SemanticNode): number {
  let level = 1;
  for (let above = node.parent; above !== null; above = above.parent) {
    if (above.role === "tree_item") level++;
  }
  return level;
}

/**
 * Which children of `node` are offscreen, as its line says it once for all of them:
 * ` offscreen=#12..#96,#140`, each run of consecutive children (among all the node's children)
 * by its first and last id, a lone one by its id; empty when none is. When the children in
 * view make fewer runs than those out of it, the line names them instead, ` onscreen=#97..#139`,
 * and every other child is offscreen: a long list scrolled to its middle is one run, not two.
 * The children's own lines then carry no `offscreen` (what is under them is offscreen with them).
 */
export function offscreenRuns(node: SemanticNode): string {
  const offscreen = childRuns(node.children, true);
  if (offscreen === "") return "";
  const onscreen = childRuns(node.children, false);
  return onscreen !== "" && runCount(onscreen) < runCount(offscreen)
    ? ` onscreen=${onscreen}`
    : ` offscreen=${offscreen}`;
}

function runCount(runs: string): number {
  return runs.split(",").length;
}

/** The runs of `children` that are offscreen (or, with `offscreen` false, in view). */
function childRuns(children: readonly SemanticNode[], offscreen: boolean): string {
  const wanted = (child: SemanticNode) => ((child.states & OFFSCREEN) !== 0) === offscreen;
  let runs = "";
  for (let index = 0; index < children.length; index++) {
    if (!wanted(children[index]!)) continue;
    let last = index;
    while (last + 1 < children.length && wanted(children[last + 1]!)) last++;
    runs += (runs === "" ? "#" : ",#") + children[index]!.id;
    if (last > index) runs += "..#" + children[last]!.id;
    index = last;
  }
  return runs;
}

/**
 * The child of a `list_item` whose line the tree text leaves out because the row's own line
 * says all of it: the first child that is a plain `text` node (no value, no states, no
 * children) whose name is the row's name. Undefined when there is none. Queries still find
 * the node.
 */
export function namingTextChild(node: SemanticNode): SemanticNode | undefined {
  if (node.role !== "list_item" || node.name === undefined) return undefined;
  for (const child of node.children) {
    if (
      child.role === "text" && child.name === node.name && !child.value &&
      child.description === undefined && child.states === 0 && child.children.length === 0
    ) return child;
  }
  return undefined;
}

/** Formats the subtree under `root` as indented text, ending with a newline. */
export function formatTree(root: SemanticNode): string {
  // One string appended to, part by part: no line strings, no array of them to join, and two
  // stacks instead of a pair per node. About a third quicker on 200,000 nodes.
  let text = "";
  const nodes: SemanticNode[] = [root];
  const depths: number[] = [0];
  while (nodes.length > 0) {
    const node = nodes.pop()!;
    const depth = depths.pop()!;
    text = appendNodeLine(text + treeIndent(depth), node, quoteAppText, node === root) + "\n";
    const children = node.children;
    if (children.length === 0) continue;
    const skipped = namingTextChild(node);
    for (let index = children.length - 1; index >= 0; index--) {
      const child = children[index]!;
      if (child === skipped) continue;
      nodes.push(child);
      depths.push(depth + 1);
    }
  }
  return text;
}
