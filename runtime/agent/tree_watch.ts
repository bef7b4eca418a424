/**
 * `TreeWatch`: the reads both hosts answer from a tree mirror with history — queries, changes
 * since a revision, action receipts, and `ui_wait`. Each applied update settles the waits
 * whose condition now holds, so a wait answers at the first frame where it does. The worker's
 * `MirrorHost` and the same-thread `AppHost` share it: the UI thread pays nothing for it.
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
  TreeHistory,
  type TreeMirror,
  type TreeUpdate,
  validateQuery,
} from "../semantics/mod.ts";
import { HostError } from "./host.ts";

/** The longest a `ui_wait` may last, in milliseconds. */
export const MAX_WAIT_MS = 30_000;

/** How long a `ui_wait` lasts when it says nothing, in milliseconds. */
export const DEFAULT_WAIT_MS = 5000;

/** What a `ui_wait` waits for. */
export interface WaitCondition {
  /** The query that must match (or, with `gone`, match nothing): role, name, text, within, state. */
  query: NodeQuery;
  /** One node by id: it must exist (with `query.state`, have that state). */
  id?: number | undefined;
  /** True to wait until nothing matches. */
  gone?: boolean | undefined;
  /** Answer only at a revision after this one. */
  since?: number | undefined;
  /** How long to wait before giving up, in ms. */
  timeoutMs: number;
}

/** What a `ui_wait` answers: the revision where the condition held and the nodes matching. */
export interface WaitAnswer {
  /** The revision at which the condition held. */
  revision: number;
  /** The nodes that matched (none for `gone` and for a wait on `since` alone). */
  nodes: NodeMatch[];
  /** How many more nodes matched than `nodes` lists; absent when none. */
  more?: number;
}

interface Waiter {
  condition: WaitCondition;
  settle: (answer: WaitAnswer | null, error?: Error) => void;
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

  /** Applies an update, then answers every wait whose condition now holds. */
  apply(update: TreeUpdate): MirrorChanges {
    const changes = this.history.apply(update);
    for (const waiter of [...this.#waiters]) {
      try {
        const answer = this.#evaluate(waiter.condition);
        if (answer !== null) waiter.settle(answer);
      } catch (error) {
        waiter.settle(null, error as Error);
      }
    }
    return changes;
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
  changesSince(since: number, maxBytes?: number): ChangesAnswer | null {
    try {
      return changesAnswer(this.history, since, maxBytes);
    } catch (error) {
      if (error instanceof RangeError) throw new HostError("invalid", error.message);
      throw error;
    }
  }

  /** The change text from `since` to now, capped for a receipt; undefined when none. */
  receipt(since: number): string | undefined {
    return receiptText(this.history, since);
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
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        condition,
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
      if (query.within !== undefined) {
        let inside = false;
        for (let current = node.parent; current !== null; current = current.parent) {
          if (current.id === query.within) inside = true;
        }
        if (!inside) return { nodes: [] };
      }
      return { nodes: [nodeMatch(node)] };
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
    if (query.state !== undefined) {
      const close = this.#matches({
        ...condition,
        query: { ...query, state: undefined, limit: 3 },
      });
      if (close.nodes.length > 0) {
        const verb = close.nodes.length + (close.more ?? 0) === 1 ? "is" : "are";
        return `${prefix}${describeIds(close.nodes, close.more ?? 0)} ${verb} still ${
          missingState(query.state)
        }`;
      }
    }
    return `${prefix}no node matches`;
  }
}
