/**
 * The tree as nested JSON data (`ui://tree.json`) and as a flat layout list with window
 * coordinates (the layout section of an inspect snapshot).
 *
 * @module
 */

import { type Bounds, type SemanticNode, type State, statesOf } from "./node.ts";
import type { Role } from "./node.ts";

/** One node and its children as nested JSON-ready data. */
export interface TreeJson {
  /** The node's id: unique for the life of the app. */
  id: number;
  /** What kind of widget the node stands for. */
  role: Role;
  /** The accessible name; absent when the node has none. */
  name?: string;
  /** The current value; absent when the node has none, and always on secure nodes. */
  value?: string;
  /** The description (an invalid field's message); absent when the node has none. */
  description?: string;
  /** The states the node has, in tree-text order. */
  states: State[];
  /** Relative to the parent node, in cells. */
  bounds: Bounds;
  /** The child nodes, in reading order. */
  children: TreeJson[];
}

/** Converts the subtree under `node` to nested data; secure values are left out. */
export function treeToJson(node: SemanticNode): TreeJson {
  const json: Partial<TreeJson> = { id: node.id, role: node.role };
  if (node.name !== undefined) json.name = node.name;
  if (node.value !== undefined && !node.has("secure")) json.value = node.value;
  if (node.description !== undefined) json.description = node.description;
  json.states = statesOf(node.states);
  json.bounds = node.bounds;
  json.children = node.children.map(treeToJson);
  return json as TreeJson;
}

/** One node's place on screen, in window cells. */
export interface LayoutEntry {
  /** The node's id. */
  id: number;
  /** What kind of widget the node stands for. */
  role: Role;
  /** The column of the left edge in the window: the sum of the node's and its ancestors' x. */
  x: number;
  /** The row of the top edge in the window: the sum of the node's and its ancestors' y. */
  y: number;
  /** The width in cells. */
  width: number;
  /** The height in cells. */
  height: number;
}

/** Lists every node with its bounds in window coordinates, in tree order. */
export function layoutEntries(root: SemanticNode): LayoutEntry[] {
  const entries: LayoutEntry[] = [];
  const stack: [SemanticNode, number, number][] = [[root, 0, 0]];
  while (stack.length > 0) {
    const [node, parentX, parentY] = stack.pop()!;
    const x = parentX + node.bounds.x;
    const y = parentY + node.bounds.y;
    entries.push({
      id: node.id,
      role: node.role,
      x,
      y,
      width: node.bounds.width,
      height: node.bounds.height,
    });
    for (let index = node.children.length - 1; index >= 0; index--) {
      stack.push([node.children[index]!, x, y]);
    }
  }
  return entries;
}

/** The bounds of one node in window coordinates. */
export function absoluteBounds(node: SemanticNode): Bounds {
  let x = 0;
  let y = 0;
  for (let current: SemanticNode | null = node; current !== null; current = current.parent) {
    x += current.bounds.x;
    y += current.bounds.y;
  }
  return { x, y, width: node.bounds.width, height: node.bounds.height };
}
