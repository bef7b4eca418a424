/**
 * Helpers the ui tests share for reading a rendered app's tree as data: finding nodes in the
 * JSON tree and listing a list's rows with the ids of what each holds.
 *
 * @module
 */

import type { TreeJson } from "../semantics/mod.ts";
import type { TestApp } from "../testing.ts";

/** Every node of the JSON tree, depth first. */
export function allNodes(node: TreeJson): TreeJson[] {
  return [node, ...node.children.flatMap(allNodes)];
}

/** The one node with `role` (and `name`, when given) in the app's JSON tree. */
export function nodeOf(app: TestApp, role: string, name?: string): TreeJson {
  const found = allNodes(app.snapshot().tree).filter((node) =>
    node.role === role && (name === undefined || node.name === name)
  );
  if (found.length !== 1) {
    throw new Error(`expected one ${role} ${name ?? ""}, found ${found.length}`);
  }
  return found[0]!;
}

/** One row of a list: its list_item's id and the names and ids of the nodes inside it. */
export interface RowIds {
  item: number;
  /** The names of the nodes inside the row, in tree order. */
  names: string[];
  /** The ids of the nodes inside the row, in tree order. */
  ids: number[];
}

/** The rows of the app's only list, in order. */
export function rowsOf(app: TestApp): RowIds[] {
  return nodeOf(app, "list").children.map((item) => {
    const inside = item.children.flatMap(allNodes);
    return {
      item: item.id,
      names: inside.map((node) => node.name ?? ""),
      ids: inside.map((node) => node.id),
    };
  });
}
