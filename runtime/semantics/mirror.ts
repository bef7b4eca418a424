/**
 * A mirror of a semantic tree kept from its updates: the agent thread applies each frame's
 * `TreeUpdate` and answers tree reads and queries from the mirror, without waiting on the UI
 * thread. `snapshotUpdate()` makes the update that brings an empty mirror up to date.
 *
 * @module
 */

import {
  NO_CHILDREN,
  type NodeData,
  nodeData,
  type Role,
  SemanticNode,
  STATE_BIT,
} from "./node.ts";
import type { SemanticTree, TreeUpdate } from "./tree.ts";

/** An update that carries the whole tree: what a new mirror starts from. */
export function snapshotUpdate(tree: SemanticTree): TreeUpdate {
  const nodes: NodeData[] = [];
  for (const node of tree.walk()) nodes.push(nodeData(node));
  return { revision: tree.revision, root: tree.root.id, nodes, removed: [] };
}

/** What a node showed before an update changed it: the fields its tree line is made of. */
export interface NodeContent {
  /** The node's id. */
  id: number;
  /** The role before the update. */
  role: Role;
  /** The name before the update. */
  name: string | undefined;
  /** The value before the update (never a secure node's: the mirror holds none). */
  value: string | undefined;
  /** The description before the update. */
  description: string | undefined;
  /** The state bit mask before the update. */
  states: number;
}

/**
 * What applying an update changed: for resource notifications, and for the change history
 * (`changes.ts`), which needs what a changed node showed before and where a removed one was.
 */
export interface MirrorChanges {
  /** Ids of nodes the update added. */
  added: number[];
  /** Ids of nodes the update carried that the mirror held already (bounds-only included). */
  changed: number[];
  /** Ids of nodes the update removed. */
  removed: number[];
  /** For each id in `removed`, at the same index, its parent's id then (0 for none). */
  removedParents: number[];
  /** Nodes whose role, name, value or states the update changed, as they were before. */
  before: NodeContent[];
}

/** A tree rebuilt from updates. */
export class TreeMirror {
  readonly #nodes = new Map<number, SemanticNode>();
  #root: SemanticNode | null = null;
  #revision = 0;
  #maxId = 0;

  /** The revision of the last update applied. */
  get revision(): number {
    return this.#revision;
  }

  /** The root node; throws before the first update. */
  get root(): SemanticNode {
    if (this.#root === null) throw new Error("the tree mirror has received no update yet");
    return this.#root;
  }

  /** True once an update carried the root. */
  get ready(): boolean {
    return this.#root !== null;
  }

  /** The node with `id`. */
  get(id: number): SemanticNode | undefined {
    return this.#nodes.get(id);
  }

  /** The highest id any update has carried: ids above it were never used. */
  get maxId(): number {
    return this.#maxId;
  }

  /** How many nodes the mirror holds. */
  get size(): number {
    return this.#nodes.size;
  }

  /** Applies one update and reports what it added, changed and removed. */
  apply(update: TreeUpdate): MirrorChanges {
    const changes: MirrorChanges = {
      added: [],
      changed: [],
      removed: [],
      removedParents: [],
      before: [],
    };
    for (const id of update.removed) {
      const node = this.#nodes.get(id);
      if (node === undefined) continue;
      node.attached = false;
      this.#nodes.delete(id);
      changes.removed.push(id);
      changes.removedParents.push(node.parent?.id ?? 0);
    }
    for (const data of update.nodes) {
      let node = this.#nodes.get(data.id);
      const added = node === undefined;
      if (node === undefined) {
        node = new SemanticNode(data.id, data.role);
        this.#nodes.set(data.id, node);
        changes.added.push(data.id);
        if (data.id > this.#maxId) this.#maxId = data.id;
      } else {
        changes.changed.push(data.id);
      }
      const states = data.states.reduce((mask, state) => mask | STATE_BIT[state], 0);
      if (
        !added &&
        (node.role !== data.role || node.name !== data.name || node.value !== data.value ||
          node.description !== data.description || node.states !== states)
      ) {
        changes.before.push({
          id: node.id,
          role: node.role,
          name: node.name,
          value: node.value,
          description: node.description,
          states: node.states,
        });
      }
      node.role = data.role;
      node.name = data.name;
      node.value = data.value;
      node.description = data.description;
      node.states = states;
      node.bounds = data.bounds;
    }
    // Children last: an update may name a child that comes later in its list.
    for (const data of update.nodes) {
      const node = this.#nodes.get(data.id)!;
      const children: SemanticNode[] = [];
      for (const childId of data.children) {
        const child = this.#nodes.get(childId);
        if (child === undefined) continue;
        child.parent = node;
        children.push(child);
      }
      // Of exactly the right length (see SemanticTree.setChildren).
      node.children = children.length === 0 ? NO_CHILDREN : children.slice();
    }
    const root = this.#nodes.get(update.root);
    if (root !== undefined) {
      root.parent = null;
      this.#root = root;
    }
    this.#revision = update.revision;
    return changes;
  }
}
