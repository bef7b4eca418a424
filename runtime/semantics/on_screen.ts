/**
 * Which nodes are on screen, from the bounds in the tree alone: a node is on screen when its
 * bounds, in window cells, meet the window and the viewport of every scroll view above it (a
 * node without size counts as the cell at its corner).
 * Works on the app's tree and on the agent thread's mirror alike; a walk from the top carries
 * one {@link ScreenPlace} down, so a whole tree costs one step a node.
 *
 * @module
 */

import { intersectRects, isEmptyRect } from "../text/rect.ts";
import type { Bounds, SemanticNode } from "./node.ts";

/** Where a node is on screen. */
export interface ScreenPlace {
  /** The node's bounds in window cells. */
  readonly bounds: Bounds;
  /** The part of the window its descendants can be seen in: the window cut by scroll views. */
  readonly clip: Bounds;
  /** True when some cell of the node can be seen. */
  readonly onScreen: boolean;
}

// Every coordinate stays a small integer (V8's Smi, below 2^30): one rectangle holding a
// number outside that range makes V8 box the fields of every object of the same shape (all
// bounds and layout boxes), which costs each of them 64 bytes more.
const FAR = 2 ** 29;
const EVERYWHERE: Bounds = { x: -FAR, y: -FAR, width: 2 * FAR - 1, height: 2 * FAR - 1 };

/** The roles whose nodes show their content only within their own bounds. */
const CLIPPING_ROLES: ReadonlySet<string> = new Set(["scroll_view", "table", "tree"]);

/**
 * The place of `child` given its parent's place; `parent` is null for the window (the root).
 */
export function childPlace(parent: ScreenPlace | null, child: SemanticNode): ScreenPlace {
  const origin = parent?.bounds ?? { x: 0, y: 0 };
  const own = child.bounds;
  const bounds = { x: origin.x + own.x, y: origin.y + own.y, width: own.width, height: own.height };
  const clip = parent?.clip ?? EVERYWHERE;
  // A node with no size shows as the cell at its corner, as `offscreen` judges it.
  const cell = { ...bounds, width: Math.max(1, own.width), height: Math.max(1, own.height) };
  const onScreen = !isEmptyRect(intersectRects(cell, clip));
  // The window, each scroll view, and each table and tree (which show a window onto their
  // lines) show their content only within themselves.
  const clips = parent === null || CLIPPING_ROLES.has(child.role);
  // ... and so does what is inside it, when it clips.
  return { bounds, clip: clips ? intersectRects(cell, clip) : clip, onScreen };
}

/** The place of any node, worked out from the root down through its ancestors. */
export function screenPlace(node: SemanticNode): ScreenPlace {
  const chain: SemanticNode[] = [];
  for (let current: SemanticNode | null = node; current !== null; current = current.parent) {
    chain.push(current);
  }
  let place: ScreenPlace | null = null;
  for (let index = chain.length - 1; index >= 0; index--) place = childPlace(place, chain[index]!);
  return place!;
}

/** True when some cell of `node` can be seen: it meets the window and every scroll view above. */
export function isOnScreen(node: SemanticNode): boolean {
  return screenPlace(node).onScreen;
}
