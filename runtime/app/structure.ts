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
  // Arrays, not Sets: thousands of rows mounting in one frame are thousands of marks, and a
  // push costs far less than a Set's add. An element may be listed more than once (the
  // rebuild and the offscreen tracker walk each once); one marked twice running is listed once.
  #dirty: Widget[] = [];
  /** Elements whose children changed since the offscreen states were last updated. */
  childrenChanged: Widget[] = [];

  /** True when a rebuild is waiting. */
  get pending(): boolean {
    return this.#dirty.length > 0;
  }

  /** The element's children changed. */
  mark(element: Widget): void {
    // A box without a node that is in no tree yet (a row's box while its children mount):
    // nothing to rebuild around it now, and the parent it joins is marked when it does.
    if (element.parent === null && element.node === null) return;
    const dirty = this.#dirty;
    if (dirty.length === 0 || dirty[dirty.length - 1] !== element) dirty.push(element);
    const changed = this.childrenChanged;
    if (changed.length === 0 || changed[changed.length - 1] !== element) changed.push(element);
  }

  /** Forgets the elements whose children changed, once the offscreen states follow them. */
  offscreenUpdated(): void {
    this.childrenChanged = [];
  }

  /** Sets the semantic children of every node whose elements' children changed. */
  rebuild(tree: SemanticTree): void {
    const dirty = this.#dirty;
    if (dirty.length === 0) return;
    const parents = new Set<Widget>();
    for (let index = 0; index < dirty.length; index++) {
      const element = dirty[index]!;
      if (!element.mounted) continue;
      const semantic = element.semanticElement;
      if (semantic !== null) parents.add(semantic);
    }
    this.#dirty = [];
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
