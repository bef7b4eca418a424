/**
 * `TreeWatch`: the reads both hosts answer from a tree mirror with history — queries, changes
 * since a revision, action receipts, and `ui_wait`. Each applied update settles the waits
 * whose condition now holds, so a wait answers at the first frame where it does. The worker's
 * `MirrorHost` and the same-thread `AppHost` share it: the UI thread pays nothing for it.
 *
 * What a frame costs the waits follows what the frame changed, not the size of the tree: a
 * pending wait is looked at again only when a node the update added, changed or removed
 * could change its answer, waits with the same condition share one look, and an app holds
 * at most 256 pending waits (`MAX_PENDING_WAITS`).
 *
 * @module
 */

import {
  type ChangesAnswer,
  changesAnswer,
  findNodes,
  type FoundNodes,
  hasQueryState,
  matchesQuery,
  type MirrorChanges,
  type NodeMatch,
  nodeMatch,
  type NodeQuery,
  noNodeMessage,
  receiptText,
  type SemanticNode,
  TreeHistory,
  type TreeMirror,
  type TreeUpdate,
  validateQuery,
} from "../../semantics/mod.ts";
import { HostError, type WaitAnswer, type WaitCondition } from "./host.ts";

/** The longest a `ui_wait` may last, in milliseconds. */
export const MAX_WAIT_MS = 30_000;

/** How long a `ui_wait` lasts when it says nothing, in milliseconds. */
export const DEFAULT_WAIT_MS = 5000;

/** How many waits an app holds pending at once, over all its connections. */
export const MAX_PENDING_WAITS = 256;

/** The refusal of a wait past `MAX_PENDING_WAITS`, with the revision to read changes since. */
export function tooManyWaitsMessage(revision: number): string {
  return `too many waits pending in this app: at most ${MAX_PENDING_WAITS} at once; wait again once one has ended, or read ui_tree {"since": ${revision}}`;
}

interface Waiter {
  condition: WaitCondition;
  /** The condition as a key: waits with the same key share one look at each update. */
  key: string;
  settle: (answer: WaitAnswer | null, error?: Error) => void;
}

/** The ids an update touched, gathered once per update. */
interface Touched {
  changes: MirrorChanges;
  /** Every id added, carried or removed. */
  ids: Set<number>;
}

/** True when the query's answer for a node may change with its ancestors alone. */
function dependsOnAncestors(condition: WaitCondition): boolean {
  return condition.query.state === "offscreen" ||
    (condition.query.within !== undefined && condition.id !== undefined);
}

function isUnderId(node: SemanticNode, ancestor: number): boolean {
  for (let current = node.parent; current !== null; current = current.parent) {
    if (current.id === ancestor) return true;
  }
  return false;
}

function describeIds(nodes: readonly NodeMatch[], more: number): string {
  const ids = nodes.map((node) => `#${node.id}`);
  if (more > 0) return `${ids.join(", ")} and ${more} more`;
  if (ids.length <= 2) return ids.join(" and ");
  return `${ids.slice(0, -1).join(", ")} and ${ids.at(-1)}`;
}

function missingState(state: string): string {
  return state === "enabled" ? "disabled" : `not ${state}`;
}

/** Queries, changes, receipts and waits over one mirror with history. */
export class TreeWatch {
  /** The mirror and its history. */
  readonly history: TreeHistory = new TreeHistory();
  readonly #waiters = new Set<Waiter>();

  /** The mirror the watch reads. */
  get mirror(): TreeMirror {
    return this.history.mirror;
  }

  /**
   * Applies an update, then answers every wait whose condition now holds. Only the waits
   * the update may concern are evaluated (see `#mayConcern`), once per distinct condition.
   */
  apply(update: TreeUpdate): MirrorChanges {
    const before = this.history.revision;
    const changes = this.history.apply(update);
    if (this.#waiters.size === 0) return changes;
    const touched: Touched = {
      changes,
      ids: new Set([...changes.added, ...changes.changed, ...changes.removed]),
    };
    const looks = new Map<string, { answer: WaitAnswer | null } | { error: Error }>();
    for (const waiter of [...this.#waiters]) {
      let look = looks.get(waiter.key);
      if (look === undefined) {
        try {
          const answer = this.#mayConcern(waiter.condition, before, touched)
            ? this.#evaluate(waiter.condition)
            : null;
          look = { answer };
        } catch (error) {
          look = { error: error as Error };
        }
        looks.set(waiter.key, look);
      }
      if ("error" in look) waiter.settle(null, look.error);
      else if (look.answer !== null) waiter.settle(look.answer);
    }
    return changes;
  }

  /**
   * False when the update cannot have made the condition hold (it did not before): no node
   * it added or changed matches the query, and for `gone`, it removed nothing and changed no
   * node's content. A condition that depends on ancestors (`offscreen`, or an `id` inside
   * `within`) is looked at whenever anything changed, and a condition on `since` when the
   * revision first passes it.
   */
  #mayConcern(condition: WaitCondition, before: number, touched: Touched): boolean {
    const { query, id, gone, since } = condition;
    if (since !== undefined && before <= since) return true;
    if (touched.ids.size === 0) return false;
    if (dependsOnAncestors(condition)) return true;
    if (id !== undefined) return touched.ids.has(id);
    const { changes } = touched;
    if (gone) return changes.removed.length > 0 || changes.before.length > 0;
    for (const list of [changes.added, changes.changed]) {
      for (const candidate of list) {
        const node = this.history.mirror.get(candidate);
        if (node === undefined || !node.attached || !matchesQuery(node, query)) continue;
        if (query.within === undefined || isUnderId(node, query.within)) return true;
      }
    }
    return false;
  }

  #lookup = (id: number) => this.history.mirror.get(id);

  /** Finds nodes: at most the query's limit, with how many more matched. */
  query(query: NodeQuery): { revision: number } & FoundNodes {
    return { revision: this.history.revision, ...this.#find(query) };
  }

  #find(query: NodeQuery): FoundNodes {
    try {
      return findNodes(this.history.mirror.root, query, this.#lookup);
    } catch (error) {
      if (error instanceof RangeError) throw new HostError("no_node", error.message);
      throw error;
    }
  }

  /** The answer to `ui_tree {"since": since}`; null when `since` is no longer kept. */
  changesSince(since: number, maxBytes?: number, reserve?: number): ChangesAnswer | null {
    try {
      return changesAnswer(this.history, since, maxBytes, reserve);
    } catch (error) {
      if (error instanceof RangeError) throw new HostError("invalid", error.message);
      throw error;
    }
  }

  /** The change text from `since` to now, capped for a receipt; undefined when none. */
  receipt(since: number, reserve?: number, acted?: number): string | undefined {
    return receiptText(this.history, since, reserve, acted);
  }

  /** How many waits are pending. */
  get waiting(): number {
    return this.#waiters.size;
  }

  /**
   * Waits until `condition` holds: at once when it does now, else at the first applied
   * update where it does. Rejects with a HostError on timeout (naming ids and states only),
   * for an unknown id or bad query at once, and when `signal` aborts.
   */
  wait(condition: WaitCondition, signal?: AbortSignal): Promise<WaitAnswer> {
    try {
      validateQuery(condition.query);
      if (condition.id !== undefined && this.history.mirror.get(condition.id) === undefined) {
        // Ids are never reused: a node that is gone stays gone.
        if (!condition.gone || condition.id > this.history.mirror.maxId) {
          throw new HostError("no_node", noNodeMessage(condition.id));
        }
      }
      const within = condition.query.within;
      if (within !== undefined && this.history.mirror.get(within) === undefined) {
        if (!condition.gone || within > this.history.mirror.maxId) {
          throw new HostError("no_node", noNodeMessage(within));
        }
      }
      if (condition.since !== undefined && condition.since > this.history.revision) {
        throw new HostError(
          "invalid",
          `invalid arguments: since ${condition.since} is after the current revision ${this.history.revision}`,
        );
      }
      const now = this.#evaluate(condition);
      if (now !== null) return Promise.resolve(now);
    } catch (error) {
      return Promise.reject(error);
    }
    if (signal?.aborted) {
      return Promise.reject(new HostError("cancelled", "the wait was cancelled"));
    }
    if (this.#waiters.size >= MAX_PENDING_WAITS) {
      return Promise.reject(new HostError("busy", tooManyWaitsMessage(this.history.revision)));
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        condition,
        key: JSON.stringify([condition.query, condition.id, condition.gone, condition.since]),
        settle: (answer, error) => {
          this.#waiters.delete(waiter);
          clearTimeout(timer);
          signal?.removeEventListener("abort", onAbort);
          if (answer !== null) resolve(answer);
          else reject(error);
        },
      };
      const onAbort = () =>
        waiter.settle(null, new HostError("cancelled", "the wait was cancelled"));
      const timer = setTimeout(
        () => waiter.settle(null, new HostError("timeout", this.#timeoutMessage(condition))),
        condition.timeoutMs,
      );
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#waiters.add(waiter);
    });
  }

  /** The nodes the condition's query matches now (`id` narrows it to that node). */
  #matches(condition: WaitCondition): FoundNodes {
    const { query, id } = condition;
    if (id !== undefined) {
      const node = this.history.mirror.get(id);
      if (node === undefined || !matchesQuery(node, query)) return { nodes: [] };
      let within: SemanticNode | null = null;
      if (query.within !== undefined) {
        for (let current = node.parent; current !== null; current = current.parent) {
          if (current.id === query.within) within = current;
        }
        if (within === null) return { nodes: [] };
      }
      return { nodes: [nodeMatch(node, undefined, within)] };
    }
    try {
      return this.#find(query);
    } catch (error) {
      // The `within` node went away during the wait: nothing under it matches any more.
      if (error instanceof HostError && error.kind === "no_node") return { nodes: [] };
      throw error;
    }
  }

  #evaluate(condition: WaitCondition): WaitAnswer | null {
    const revision = this.history.revision;
    if (condition.since !== undefined && revision <= condition.since) return null;
    const onlySince = condition.id === undefined &&
      Object.values(condition.query).every((value) => value === undefined);
    if (onlySince) return { revision, nodes: [] };
    const found = this.#matches(condition);
    if (condition.gone) return found.nodes.length === 0 ? { revision, nodes: [] } : null;
    if (found.nodes.length === 0) return null;
    return { revision, ...found };
  }

  /** Says why the wait did not end, with ids and states only: never app text. */
  #timeoutMessage(condition: WaitCondition): string {
    const prefix = `timed out after ${condition.timeoutMs} ms: `;
    const { query, id, gone } = condition;
    const onlySince = id === undefined &&
      Object.values(query).every((value) => value === undefined);
    if (onlySince) return `${prefix}the revision is still ${condition.since}`;
    if (id !== undefined) {
      const node = this.history.mirror.get(id);
      if (gone) {
        return query.state === undefined
          ? `${prefix}#${id} still exists`
          : `${prefix}#${id} is still ${query.state}`;
      }
      if (node === undefined) return `${prefix}#${id} no longer exists`;
      if (query.state !== undefined && !hasQueryState(node, query.state)) {
        return `${prefix}#${id} is still ${missingState(query.state)}`;
      }
      return `${prefix}#${id} still does not match`;
    }
    if (gone) {
      const found = this.#matches({ ...condition, query: { ...query, limit: 3 } });
      const verb = found.nodes.length + (found.more ?? 0) === 1 ? "matches" : "match";
      return `${prefix}${describeIds(found.nodes, found.more ?? 0)} still ${verb}`;
    }
    // The query's keys by name: its values may be app text, and listing the nodes that
    // match all but `state` says little when they are hundreds.
    const keys = Object.entries(query).filter(([, value]) => value !== undefined)
      .map(([key]) => key);
    return `${prefix}no node matches the query (${keys.join(", ")})`;
  }
}
