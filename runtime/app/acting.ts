/**
 * Acting on the app by node id, as agents and tests do, and on an element, as a person's
 * input does. `act()` checks the arguments, the node, the modal dialog, the node's own guards,
 * the revision and, for an agent, the confirmation a destructive control needs, in that order, scrolls the node into view when it is offscreen, performs
 * the action as input would, runs the frame it caused and answers with that frame's
 * revision.
 *
 * @module
 */

import {
  type Action,
  ActionError,
  type Actor,
  behindModalMessage,
  guardAction,
  guardDestructive,
  type InputEnv,
  isTyping,
  noNodeMessage,
  parseAction,
  performAction,
  staleRevisionMessage,
} from "../input/action.ts";
import { scrollIntoView } from "../layout/visible.ts";
import type { ReactiveRuntime } from "../reactive/mod.ts";
import type { SemanticNode, SemanticTree } from "../semantics/mod.ts";
import type { Widget } from "../ui/widget.ts";
import { type FocusState, isWithin } from "./focus.ts";
import type { FrameLoop } from "./frame_loop.ts";

/** What acting works on: the parts of one app. */
export interface ActingParts {
  /** The app as input sees it; handlers run against it. */
  env: InputEnv;
  runtime: ReactiveRuntime;
  tree: SemanticTree;
  frames: FrameLoop;
  focus: FocusState;
  reportError(error: unknown, where: string): void;
}

/** Node ids a page of the element index covers: ids are handed out in order, so pages fill. */
const PAGE_SIZE = 256;

/** Finds elements by node id and performs actions on them. */
export class Acting {
  readonly #parts: ActingParts;
  /**
   * The element of each node id, in pages of `PAGE_SIZE` consecutive ids (an array slot a
   * node, where a WeakMap entry costs several times that). A page goes when its last
   * element is forgotten.
   */
  readonly #pages: ((Widget | undefined)[] | undefined)[] = [];
  /** How many elements each page holds. */
  readonly #counts: number[] = [];

  /**
   * Creates the acting part of one app.
   *
   * @param parts the app's parts that an action works on
   */
  constructor(parts: ActingParts) {
    this.#parts = parts;
  }

  /** Remembers which element owns a node, so actions by id find it. */
  register(element: Widget): void {
    const node = element.node;
    if (node === null) return;
    const page = Math.floor(node.id / PAGE_SIZE);
    while (this.#pages.length <= page) {
      this.#pages.push(undefined);
      this.#counts.push(0);
    }
    const slots = this.#pages[page] ??= new Array<Widget | undefined>(PAGE_SIZE);
    const slot = node.id % PAGE_SIZE;
    if (slots[slot] === undefined) this.#counts[page]!++;
    slots[slot] = element; // a list row rendered again hands its node to a new element
  }

  /**
   * Forgets the elements of a subtree that left the app, each unless its node went to
   * another element since.
   */
  forget(element: Widget): void {
    // Recursion, not a stack: a list that drops 4,000 rows makes no array for each.
    const children = element.children;
    for (let index = 0; index < children.length; index++) this.forget(children[index]!);
    const node = element.node;
    if (node === null) return;
    const page = Math.floor(node.id / PAGE_SIZE);
    const slots = this.#pages[page];
    const slot = node.id % PAGE_SIZE;
    if (slots === undefined || slots[slot] !== element) return;
    slots[slot] = undefined;
    if (--this.#counts[page]! === 0) this.#pages[page] = undefined;
  }

  /** The element behind a node id, while it is mounted. */
  elementById(id: number): Widget | undefined {
    const node = this.#parts.tree.get(id);
    if (node === undefined) return undefined;
    const element = this.#element(node);
    if (element !== undefined) return element;
    // A node a widget keeps itself (a table's row or cell, a tree's item): the nearest
    // ancestor with a widget says which widget acts for it.
    for (let above = node.parent; above !== null; above = above.parent) {
      const owner = this.#element(above);
      if (owner?.elementFor !== undefined) return owner.elementFor(node);
    }
    return undefined;
  }

  /** The mounted element registered for `node`, if it still has that node. */
  #element(node: SemanticNode): Widget | undefined {
    const element = this.#pages[Math.floor(node.id / PAGE_SIZE)]?.[node.id % PAGE_SIZE];
    return element !== undefined && element.mounted && element.node === node ? element : undefined;
  }

  /** See `App.act()`. */
  act(
    id: number,
    action: Action | unknown,
    revision: number | undefined,
    actor: Actor,
    confirmed = false,
  ): number {
    const { frames, runtime, tree, focus } = this.#parts;
    if (frames.closed) throw new Error("the app has closed");
    if (frames.pending || runtime.pending) frames.run(); // answer between frames
    if (typeof id !== "number" || !Number.isInteger(id)) {
      throw new ActionError("invalid", "invalid arguments: id must be a whole number");
    }
    if (revision !== undefined && (typeof revision !== "number" || !Number.isInteger(revision))) {
      throw new ActionError("invalid", "invalid arguments: revision must be a whole number");
    }
    const parsed = parseAction(action);
    const element = this.elementById(id);
    if (element === undefined) throw new ActionError("no_node", noNodeMessage(id));
    // People reach only the top dialog already: hit testing and focus stop at it.
    const modal = actor === "agent" ? focus.topDialog() : null;
    if (modal !== null && !isWithin(element, modal)) {
      throw new ActionError("modal", behindModalMessage(modal.node?.id ?? 0));
    }
    guardAction(element, parsed, actor);
    if (revision !== undefined && revision !== tree.revision) {
      throw new ActionError("stale_revision", staleRevisionMessage(tree.revision));
    }
    if (actor === "agent") guardDestructive(element, parsed, confirmed);
    if (parsed.action !== "scroll" && !frames.inView(element)) {
      scrollIntoView(element, () => frames.run());
      // The scroll's frame ran the app's effects: the node may have gone with them.
      if (!element.mounted) throw new ActionError("no_node", noNodeMessage(id));
    }
    return this.actOn(element, parsed, actor);
  }

  /** See `App.actOn()`. */
  actOn(element: Widget, action: Action, actor: Actor): number {
    const { frames, tree } = this.#parts;
    if (frames.closed) throw new Error("the app has closed");
    const typing = isTyping(action);
    const secureBefore = frames.secureInput;
    // The frame a keystroke causes would give away its time, to the millisecond.
    if (typing && element.secure) frames.secureInput = true;
    try {
      performAction(this.#parts.env, element, action, actor);
    } catch (error) {
      if (error instanceof ActionError) {
        frames.secureInput = secureBefore; // refused: no frame follows
        throw error;
      }
      this.#parts.reportError(error, `the ${action.action} handler`);
    }
    frames.run();
    return tree.revision;
  }
}
