/**
 * Finding nodes: by role (exact), name (whole name, exact) and text (a substring of the name
 * or the value). A secure node's value is never matched.
 *
 * @module
 */

import type { Role, SemanticNode } from "./node.ts";
import { isRole } from "./node.ts";

/** What to look for; every given key must match. */
export interface NodeQuery {
  /** The role the node must have, such as `button`; an unknown role is a TypeError. */
  role?: string | undefined;
  /** The node's whole accessible name, exactly. */
  name?: string | undefined;
  /** Text the name, or the value of a node that is not secure, must contain. */
  text?: string | undefined;
}

/** One node a query found. */
export interface QueryMatch {
  /** The node's id, to act on it with. */
  id: number;
  /** What kind of widget the node stands for. */
  role: Role;
  /** The accessible name; null when the node has none. */
  name: string | null;
  /** From the window down to the node: `window "Notes" > list > list_item > button "Delete"`. */
  path: string;
}

/** Throws a TypeError when a query's keys are not strings or the role is unknown. */
export function validateQuery(query: NodeQuery): void {
  for (const key of ["role", "name", "text"] as const) {
    const value = query[key];
    if (value !== undefined && typeof value !== "string") {
      throw new TypeError(`invalid query: ${key} must be a string, got ${typeof value}`);
    }
  }
  if (query.role !== undefined && !isRole(query.role)) {
    throw new TypeError(
      `invalid query: unknown role ${
        JSON.stringify(query.role)
      }; roles are snake_case, such as button, text_field, checkbox, menu_item`,
    );
  }
}

/** True when `node` matches every key of `query`. */
export function matchesQuery(node: SemanticNode, query: NodeQuery): boolean {
  if (query.role !== undefined && node.role !== query.role) return false;
  if (query.name !== undefined && node.name !== query.name) return false;
  if (query.text !== undefined) {
    const inName = node.name !== undefined && node.name.includes(query.text);
    const inValue = !inName && node.value !== undefined && !node.has("secure") &&
      node.value.includes(query.text);
    if (!inName && !inValue) return false;
  }
  return true;
}

function step(node: SemanticNode): string {
  return node.name === undefined ? node.role : `${node.role} ${JSON.stringify(node.name)}`;
}

/** The path of a node from the root down to it. */
export function nodePath(node: SemanticNode): string {
  const steps: string[] = [];
  for (let current: SemanticNode | null = node; current !== null; current = current.parent) {
    steps.push(step(current));
  }
  return steps.reverse().join(" > ");
}

/** Finds every node under `root` (itself included) that matches, in tree order. */
export function queryTree(root: SemanticNode, query: NodeQuery): QueryMatch[] {
  validateQuery(query);
  const matches: QueryMatch[] = [];
  const stack: SemanticNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (matchesQuery(node, query)) {
      matches.push({ id: node.id, role: node.role, name: node.name ?? null, path: nodePath(node) });
    }
    for (let index = node.children.length - 1; index >= 0; index--) {
      stack.push(node.children[index]!);
    }
  }
  return matches;
}
