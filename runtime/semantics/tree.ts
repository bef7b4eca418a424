/**
 * The semantic tree of one app and its revision. Every change goes through a method here,
 * which records the node as added, changed or removed; `commit()` at the end of a frame turns
 * the recorded changes into one {@link TreeUpdate} and one new revision, or into nothing when
 * the frame changed nothing.
 *
 * @module
 */

import {
  type Bounds,
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
  readonly #nodes = new Map<number, SemanticNode>();
  #nextId = 1;
  #revision = 0;
  #touched = new Set<SemanticNode>();
  /** Nodes created since the last commit: no consumer has seen them yet. */
  #created = new Set<SemanticNode>();
  #removed: number[] = [];

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
    return this.#touched.size > 0 || this.#removed.length > 0;
  }

  /** The node with `id`, if it is in the tree. */
  get(id: number): SemanticNode | undefined {
    return this.#nodes.get(id);
  }

  /** Creates a detached node with a fresh id; attach it with `setChildren`. */
  createNode(role: Role): SemanticNode {
    const node = new SemanticNode(this.#nextId++, role);
    this.#nodes.set(node.id, node);
    this.#touched.add(node);
    this.#created.add(node);
    return node;
  }

  /** Sets the accessible name. */
  setName(node: SemanticNode, name: string | undefined): void {
    if (node.name === name) return;
    node.name = name;
    this.#touched.add(node);
  }

  /** Sets the value; a secure node keeps none. */
  setValue(node: SemanticNode, value: string | undefined): void {
    if (node.has("secure")) value = undefined;
    if (node.value === value) return;
    node.value = value;
    this.#touched.add(node);
  }

  /** Sets the role. */
  setRole(node: SemanticNode, role: Role): void {
    if (node.role === role) return;
    node.role = role;
    this.#touched.add(node);
  }

  /** Turns one state on or off. Turning `secure` on drops the value. */
  setState(node: SemanticNode, state: State, on: boolean): void {
    const bit = STATE_BIT[state];
    const states = on ? node.states | bit : node.states & ~bit;
    if (states === node.states) return;
    node.states = states;
    if (state === "secure" && on) node.value = undefined;
    this.#touched.add(node);
  }

  /** Sets bounds relative to the parent node. */
  setBounds(node: SemanticNode, bounds: Bounds): void {
    const old = node.bounds;
    if (
      old.x === bounds.x && old.y === bounds.y && old.width === bounds.width &&
      old.height === bounds.height
    ) return;
    node.bounds = bounds;
    this.#touched.add(node);
  }

  /**
   * Replaces a node's children. Nodes no longer listed are detached, not removed: call
   * `remove` for those that are gone for good.
   */
  setChildren(node: SemanticNode, children: SemanticNode[]): void {
    const old = node.children;
    if (old.length === children.length && old.every((child, index) => child === children[index])) {
      return;
    }
    // Check every child before changing anything, so that a refusal leaves the tree as it was.
    for (const child of children) {
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
    for (const child of old) if (child.parent === node) child.parent = null;
    for (const child of children) child.parent = node;
    node.children = children;
    this.#touched.add(node);
  }

  /** Removes a node and all its descendants for good; their ids are never used again. */
  remove(node: SemanticNode): void {
    if (!node.attached) return;
    const parent = node.parent;
    if (parent !== null) {
      this.setChildren(parent, parent.children.filter((child) => child !== node));
    }
    this.#forget(node);
  }

  #forget(node: SemanticNode): void {
    node.attached = false;
    node.parent = null;
    this.#nodes.delete(node.id);
    this.#touched.delete(node);
    // A node created and removed within one frame was never seen: it is no change to report.
    if (!this.#created.delete(node)) this.#removed.push(node.id);
    for (const child of node.children) this.#forget(child);
  }

  /**
   * Ends a frame: when anything changed, bumps the revision by one and returns the update;
   * otherwise returns null and leaves the revision.
   */
  commit(): TreeUpdate | null {
    if (!this.hasChanges) return null;
    this.#revision++;
    const nodes: NodeData[] = [];
    for (const node of this.#touched) if (node.attached) nodes.push(nodeData(node));
    const update: TreeUpdate = {
      revision: this.#revision,
      root: this.root.id,
      nodes,
      removed: this.#removed,
    };
    this.#touched = new Set();
    this.#created = new Set();
    this.#removed = [];
    return update;
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
