/**
 * The semantic structure that follows the element tree: elements whose children changed are
 * remembered, and at the next frame the semantic children of each affected node are set
 * again from the elements under it (elements without a node of their own pass their
 * children's nodes up).
 *
 * @module
 */

import type { SemanticNode, SemanticTree } from "../semantics/mod.ts";
import type { Widget } from "../ui/widget.ts";

/** The elements whose children changed, and the rebuild of their semantic children. */
export class StructureChanges {
  readonly #dirty = new Set<Widget>();
  /** Elements whose children changed since the offscreen states were last updated. */
  readonly childrenChanged = new Set<Widget>();

  /** True when a rebuild is waiting. */
  get pending(): boolean {
    return this.#dirty.size > 0;
  }

  /** The element's children changed. */
  mark(element: Widget): void {
    // A box without a node that is in no tree yet (a row's box while its children mount):
    // nothing to rebuild around it now, and the parent it joins is marked when it does.
    if (element.parent === null && element.node === null) return;
    this.#dirty.add(element);
    this.childrenChanged.add(element);
  }

  /** Sets the semantic children of every node whose elements' children changed. */
  rebuild(tree: SemanticTree): void {
    if (this.#dirty.size === 0) return;
    const parents = new Set<Widget>();
    this.#dirty.forEach((element) => {
      if (!element.mounted) return;
      const semantic = element.semanticElement;
      if (semantic !== null) parents.add(semantic);
    });
    this.#dirty.clear();
    parents.forEach((parent) => {
      if (!parent.mounted) return;
      const nodes: SemanticNode[] = [];
      collectChildNodes(parent, nodes);
      tree.setChildren(parent.node!, nodes);
    });
  }
}

function collectChildNodes(element: Widget, into: SemanticNode[]): void {
  const children = element.children;
  for (let index = 0; index < children.length; index++) {
    const child = children[index]!;
    if (child.node !== null) into.push(child.node);
    else collectChildNodes(child, into);
  }
}
