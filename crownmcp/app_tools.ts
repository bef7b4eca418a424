/**
 * The selected app's tools as crownmcp keeps them: asked for when the app is selected and
 * again each time it says they changed, so that the agent's `tools/list` is answered from
 * here and never waits on the app.
 *
 * @module
 */

import type { Tool } from "../runtime/agent/sdk.ts";
import type { AppLink } from "./app_link.ts";

/** How long the app may take to list its tools, in milliseconds. */
export const LIST_TOOLS_DEADLINE_MS = 5_000;

/** One app's tools, as it last listed them. */
export class AppTools {
  /** The tools. */
  list: Tool[];
  /** Whether the app said its tools changed since `list` was asked for. */
  #stale = false;
  /** Whether the list is being asked for now. */
  #fetching = false;

  private constructor(list: Tool[]) {
    this.list = list;
  }

  /** Asks the app on `link` for its tools, within `timeoutMs`. */
  static async fetch(link: AppLink, timeoutMs: number): Promise<AppTools> {
    return new AppTools(await listed(link, timeoutMs));
  }

  /**
   * The app said its tools changed: its list is asked for again, once at a time, and once
   * more after that when it said so again meanwhile. Resolves to true when this call ended
   * the asking and the list differs from before; a list that does not come within
   * `LIST_TOOLS_DEADLINE_MS` leaves the last one (what watches the link says why).
   */
  async changed(link: AppLink): Promise<boolean> {
    this.#stale = true;
    if (this.#fetching) return false;
    this.#fetching = true;
    const before = JSON.stringify(this.list);
    try {
      while (this.#stale && !link.closed) {
        this.#stale = false;
        this.list = await listed(link, LIST_TOOLS_DEADLINE_MS);
      }
    } catch {
      // Not answered, or the link closed: the last list stays.
    } finally {
      this.#fetching = false;
    }
    return JSON.stringify(this.list) !== before;
  }
}

async function listed(link: AppLink, timeoutMs: number): Promise<Tool[]> {
  const { tools } = await link.request("tools/list", undefined, timeoutMs);
  return Array.isArray(tools) ? tools as Tool[] : [];
}
