/**
 * The semantic tree of one app and its revision. Every change goes through a method here,
 * which records the node as added, changed or removed; `commit()` at the end of a frame turns
 * the recorded changes into one {@link TreeUpdate} and one new revision, or into nothing when
 * the frame changed nothing.
 *
 * A `list_item` the app gave no name is named by its content, as ARIA names from content: by
 * its first descendant with role `text` (and a name). The derived name is the node's `name`,
 * so every reader (tree text, JSON, queries, paths, the agent thread's mirror) sees it; it is
 * worked out again at each commit for the rows whose content changed.
 *
 * @module
 */

import {
  type Bounds,
  NO_CHILDREN,
  type NodeData,
  nodeData,
  type Role,
  SemanticNode,
  type State,
  STATE_BIT,
} from "./node.ts";

/** The changes of one frame, as a consumer (the agent thread's mirror) applies them. */
export interface TreeUpdate {
  /** The revision the tree reached with these changes. */
  revision: number;
  /** The root node's id. */
  root: number;
  /** Nodes added or changed, as their whole new data. */
  nodes: NodeData[];
  /** Ids of nodes removed. */
  removed: number[];
}

/** A semantic tree with change tracking. */
export class SemanticTree {
  /** The window node: every other attached node descends from it. */
  readonly root: SemanticNode;
  readonly #nodes = new NodeIndex();
  #nextId = 1;
  #revision = 0;
  /** The nodes created before the last commit that changed since: new ones are found by id. */
  #touched = new Set<SemanticNode>();
  /** How many nodes created since the last commit are still in the tree. */
  #created = 0;
  /**
   * The first id handed out since the last commit: nodes from it on were created since, and
   * no consumer has seen them yet (ids are handed out in order, so no Set is needed).
   */
  #firstCreatedId = 1;
  #removed: number[] = [];
  /** Rows whose name was derived from their content, not set by the app. */
  readonly #derived = new Set<SemanticNode>();
  /** Nodes whose change may change the derived name of a row above them (or of themselves). */
  #nameSources = new Set<SemanticNode>();

  /** Creates a tree whose root is a window named `title`. */
  constructor(title: string) {
    this.root = this.createNode("window");
    this.setName(this.root, title);
  }

  /** The revision: increases by one with each frame that changed the tree. */
  get revision(): number {
    return this.#revision;
  }

  /** How many nodes the tree holds. */
  get size(): number {
    return this.#nodes.size;
  }

  /** True when changes wait for the next `commit()`. */
  get hasChanges(): boolean {
    return this.#touched.size > 0 || this.#removed.length > 0 || this.#created > 0;
  }

  /** The node with `id`, if it is in the tree. */
  get(id: number): SemanticNode | undefined {
    return this.#nodes.get(id);
  }

  /**
   * Creates a detached node with a fresh id; attach it with `setChildren`.
   *
   * @ignore the runtime's own: an app changes the tree through its views
   */
  createNode(role: Role): SemanticNode {
    const node = new SemanticNode(this.#nextId++, role);
    this.#nodes.add(node);
    this.#created++; // reported as new at the next commit, found by id: no entry in #touched
    return node;
  }

  /**
   * Sets the accessible name. On a `list_item`, `undefined` means "named by its content"
   * and any string wins over the content.
   *
   * @ignore the runtime's own: an app changes the tree through its views
   */
  setName(node: SemanticNode, name: string | undefined): void {
    if (this.#derived.has(node)) {
      if (name === undefined) return; // still named by its content
      this.#derived.delete(node);
    }
    if (node.role === "text" || node.role === "list_item") this.#nameSources.add(node);
    if (node.name === name) return;
    node.name = name;
    this.#touch(node);
  }

  /**
   * Sets the value; a secure node keeps none.
   *
   * @ignore the runtime's own: an app changes the tree through its views
   */
  setValue(node: SemanticNode, value: string | undefined): void {
    if (node.has("secure")) value = undefined;
    if (node.value === value) return;
    node.value = value;
    this.#touch(node);
  }

  /**
   * Sets the description (an invalid field's message, a hint); undefined for none.
   *
   * @ignore the runtime's own: an app changes the tree through its views
   */
  setDescription(node: SemanticNode, description: string | undefined): void {
    if (node.description === description) return;
    node.description = description;
    this.#touch(node);
  }

  /**
   * Sets the role.
   *
   * @ignore the runtime's own: an app changes the tree through its views
   */
  setRole(node: SemanticNode, role: Role): void {
    if (node.role === role) return;
    if (this.#derived.delete(node)) node.name = undefined; // only rows are named by content
    node.role = role;
    this.#nameSources.add(node);
    this.#touch(node);
  }

  /**
   * Turns one state on or off. Turning `secure` on drops the value.
   *
   * @ignore the runtime's own: an app changes the tree through its views
   */
  setState(node: SemanticNode, state: State, on: boolean): void {
    const bit = STATE_BIT[state];
    const states = on ? node.states | bit : node.states & ~bit;
    if (states === node.states) return;
    node.states = states;
    if (state === "secure" && on) node.value = undefined;
    this.#touch(node);
  }

  /**
   * Sets bounds relative to the parent node.
   *
   * @ignore the runtime's own: an app changes the tree through its views
   */
  setBounds(node: SemanticNode, bounds: Bounds): void {
    this.placeNode(node, bounds.x, bounds.y, bounds.width, bounds.height);
  }

  /**
   * Sets bounds relative to the parent node from four numbers (layout's way: no object to
   * make for each node it places).
   *
   * @ignore the runtime's own: an app changes the tree through its views
   */
  placeNode(node: SemanticNode, x: number, y: number, width: number, height: number): void {
    if (node.isAt(x, y, width, height)) return;
    node.setBounds(x, y, width, height);
    this.#touch(node);
  }

  /**
   * Replaces a node's children. Nodes no longer listed are detached, not removed: call
   * `remove` for those that are gone for good.
   *
   * @ignore the runtime's own: an app changes the tree through its views
   */
  setChildren(node: SemanticNode, children: SemanticNode[]): void {
    const old = node.children;
    if (old.length === children.length && sameNodes(old, children)) return;
    // Check every child before changing anything, so that a refusal leaves the tree as it was.
    for (let index = 0; index < children.length; index++) {
      const child = children[index]!;
      if (!child.attached) {
        throw new Error(
          `node #${child.id} was removed from the tree: create a new node instead of reusing it`,
        );
      }
      if (child.parent !== null && child.parent !== node) {
        throw new Error(
          `node #${child.id} is already a child of node #${child.parent.id}: remove it there first`,
        );
      }
    }
    for (let index = 0; index < old.length; index++) {
      if (old[index]!.parent === node) old[index]!.parent = null;
    }
    for (let index = 0; index < children.length; index++) children[index]!.parent = node;
    // A copy of exactly the right length: an array built with push() keeps room for 16 more.
    node.children = children.length === 0 ? NO_CHILDREN : children.slice();
    this.#nameSources.add(node);
    this.#touch(node);
  }

  /**
   * Removes a node and all its descendants for good; their ids are never used again.
   *
   * @ignore the runtime's own: an app changes the tree through its views
   */
  remove(node: SemanticNode): void {
    if (!node.attached) return;
    const parent = node.parent;
    if (parent !== null) {
      this.setChildren(parent, parent.children.filter((child) => child !== node));
    }
    this.#forget(node);
  }

  /** Records a change of `node` for the next commit (a node made since is reported anyway). */
  #touch(node: SemanticNode): void {
    if (node.id < this.#firstCreatedId) this.#touched.add(node);
  }

  #forget(node: SemanticNode): void {
    const was = node.attached;
    node.attached = false;
    node.parent = null;
    this.#nodes.delete(node);
    this.#touched.delete(node);
    this.#derived.delete(node);
    this.#nameSources.delete(node);
    // A node created and removed within one frame was never seen: it is no change to report.
    if (node.id < this.#firstCreatedId) this.#removed.push(node.id);
    else if (was) this.#created--;
    const children = node.children;
    for (let index = 0; index < children.length; index++) this.#forget(children[index]!);
  }

  /**
   * Ends a frame: when anything changed, bumps the revision by one and returns the update;
   * otherwise returns null and leaves the revision.
   *
   * @ignore the runtime's own: an app changes the tree through its views
   */
  commit(): TreeUpdate | null {
    this.#deriveRowNames();
    if (!this.hasChanges) return null;
    this.#revision++;
    const nodes: NodeData[] = [];
    this.#touched.forEach((node) => {
      if (node.attached) nodes.push(nodeData(node));
    });
    // Then the nodes created since the last commit that are still in the tree, in the order
    // they were made.
    for (let id = this.#firstCreatedId; id < this.#nextId; id++) {
      const node = this.#nodes.get(id);
      if (node !== undefined) nodes.push(nodeData(node));
    }
    const update: TreeUpdate = {
      revision: this.#revision,
      root: this.root.id,
      nodes,
      removed: this.#removed,
    };
    this.#touched = new Set();
    this.#created = 0;
    this.#firstCreatedId = this.#nextId;
    this.#removed = [];
    return update;
  }

  /** Names the rows without a name of their own whose content may have changed. */
  #deriveRowNames(): void {
    if (this.#nameSources.size === 0) return;
    // Each node is walked once, so the rows found are each listed once.
    const rows: SemanticNode[] = [];
    // Ancestors shared by many sources (a list's, when 1,000 rows mount) are walked once.
    const walked = new Set<SemanticNode>();
    this.#nameSources.forEach((source) => {
      for (let node: SemanticNode | null = source; node !== null; node = node.parent) {
        const size = walked.size;
        walked.add(node);
        if (walked.size === size) break; // walked already, and so is everything above it
        if (node.role === "list_item" && node.attached) rows.push(node);
      }
    });
    this.#nameSources = new Set();
    for (let index = 0; index < rows.length; index++) {
      const row = rows[index]!;
      if (row.name !== undefined && !this.#derived.has(row)) continue; // the app named it
      const name = contentName(row);
      if (name === undefined) this.#derived.delete(row);
      else this.#derived.add(row);
      if (row.name === name) continue;
      row.name = name;
      this.#touch(row);
    }
  }

  /** Visits every node depth-first, parents before children. */
  *walk(from: SemanticNode = this.root): Generator<SemanticNode> {
    const stack: SemanticNode[] = [from];
    while (stack.length > 0) {
      const node = stack.pop()!;
      yield node;
      for (let index = node.children.length - 1; index >= 0; index--) {
        stack.push(node.children[index]!);
      }
    }
  }
}

/** True when two arrays of the same length hold the same nodes in the same order. */
function sameNodes(a: readonly SemanticNode[], b: readonly SemanticNode[]): boolean {
  for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false;
  return true;
}

/** How many ids a page of {@link NodeIndex} holds. */
const PAGE_SIZE = 256;

/**
 * The nodes of a tree by id. Ids are handed out in order and never reused, so the index is
 * an array of pages of consecutive ids rather than a `Map` (which costs about 40 bytes a node
 * against 8): a page is dropped once every node on it was removed, so a list whose rows come
 * and go does not keep the ids it used up.
 */
class NodeIndex {
  readonly #pages: ((SemanticNode | undefined)[] | undefined)[] = [];
  readonly #counts: number[] = [];
  #size = 0;

  /** How many nodes it holds. */
  get size(): number {
    return this.#size;
  }

  /** The node with `id`, if it holds it. */
  get(id: number): SemanticNode | undefined {
    if (!Number.isSafeInteger(id) || id < 0) return undefined;
    return this.#pages[Math.floor(id / PAGE_SIZE)]?.[id % PAGE_SIZE];
  }

  /** Adds `node`, whose id it does not hold yet. */
  add(node: SemanticNode): void {
    const page = Math.floor(node.id / PAGE_SIZE);
    while (this.#pages.length <= page) {
      this.#pages.push(undefined);
      this.#counts.push(0);
    }
    const slots = this.#pages[page] ??= new Array<SemanticNode | undefined>(PAGE_SIZE);
    slots[node.id % PAGE_SIZE] = node;
    this.#counts[page]!++;
    this.#size++;
  }

  /** Removes `node`, if it holds it. */
  delete(node: SemanticNode): void {
    const page = Math.floor(node.id / PAGE_SIZE);
    const slots = this.#pages[page];
    const slot = node.id % PAGE_SIZE;
    if (slots === undefined || slots[slot] !== node) return;
    slots[slot] = undefined;
    this.#size--;
    if (--this.#counts[page]! === 0) this.#pages[page] = undefined;
  }
}

/** The name of the first descendant of `row` with role `text` and a name that is not empty. */
export function contentName(row: SemanticNode): string | undefined {
  // Depth first by recursion: no stack to make for each of the rows a frame names.
  const children = row.children;
  for (let index = 0; index < children.length; index++) {
    const node = children[index]!;
    if (node.role === "text" && node.name !== undefined && node.name !== "") return node.name;
    const below = node.children.length === 0 ? undefined : contentName(node);
    if (below !== undefined) return below;
  }
  return undefined;
}
