/**
 * What becomes of the selected app's notifications on their way to the agent. Progress goes
 * on as it came; what the agent cannot use (a log message, say) stops here. A change of the app's tools is not passed on: crownmcp asks for the new list
 * and tells the agent itself once it has it (`app_tools.ts`). A resource update reaches the
 * agent only for a resource the agent subscribed to on this app (an app may send any number
 * of uris). Those kinds are coalesced (`coalesce.ts`): per kind, and per uri for updates, one
 * at once and the latest of the rest at the end of each interval.
 *
 * @module
 */

import type { Message } from "./app_link.ts";
import { Coalescer } from "./coalesce.ts";

const TOOLS_CHANGED = "notifications/tools/list_changed";
const RESOURCES_CHANGED = "notifications/resources/list_changed";
const RESOURCE_UPDATED = "notifications/resources/updated";
const PROGRESS = "notifications/progress";

/** Where `AppNotifications` sends what it lets through. */
export interface NotificationSinks {
  /** Writes an app's line to the agent as it came (unless the app is no longer selected). */
  write(line: Uint8Array): void;
  /** The app said its tools changed: ask it for them again. */
  toolsChanged(): void;
}

/** One selected app's notifications and the agent's subscriptions on it. */
export class AppNotifications {
  readonly #subscribed = new Set<string>();
  readonly #coalescer = new Coalescer();
  readonly #sinks: NotificationSinks;

  /** @param sinks where what is let through goes */
  constructor(sinks: NotificationSinks) {
    this.#sinks = sinks;
  }

  /** The app answered the agent's `resources/subscribe` (`on`) or `resources/unsubscribe`. */
  subscribed(uri: string, on: boolean): void {
    if (on) this.#subscribed.add(uri);
    else this.#subscribed.delete(uri);
  }

  /** Takes the app's notification `method` (`message` parsed, `line` its bytes). */
  take(method: string, message: Message, line: Uint8Array): void {
    switch (method) {
      case TOOLS_CHANGED:
        this.#coalescer.push("tools", () => this.#sinks.toolsChanged());
        return;
      case RESOURCES_CHANGED:
        this.#coalescer.push("resources", () => this.#sinks.write(line));
        return;
      case RESOURCE_UPDATED: {
        const uri = message.params?.uri;
        if (typeof uri !== "string" || !this.#subscribed.has(uri)) return;
        this.#coalescer.push(`updated ${uri}`, () => this.#sinks.write(line));
        return;
      }
      case PROGRESS:
        this.#sinks.write(line);
        return;
    }
  }

  /** The app is let go: what waits is dropped. */
  clear(): void {
    this.#coalescer.clear();
  }
}
