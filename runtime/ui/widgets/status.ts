/**
 * Status messages: what `cx.notify(text, { kind })` shows. Each is a short-lived line at the
 * bottom of the app's area, above its content (`✓ Saved 3 notes`), in the colour the theme
 * gives the kind's meaning (`info`, `success`, `warning`, `error`), its mark saying the kind
 * without colour too. For agents each is a node with role `status`, named by its text, its
 * kind as its value (`status "Saved 3 notes" #40 value="success"`), first under the window:
 * it is in the tree while it shows, and in the receipt of the `ui_act` whose handler showed
 * it. A message goes after its time (5 s unless told), or when a person clicks it; at most
 * three show at once, the newest at the bottom, so a fourth pushes the oldest out.
 *
 * @module
 */

import type { Owner } from "../../reactive/mod.ts";
import type { Host } from "../host.ts";
import type { Rt } from "../rt.ts";
import type { MeaningColour, TextStyle } from "../style.ts";
import type { PaintArea } from "../surface.ts";
import { LabelWidget, Widget } from "../widget.ts";
import { mountWidget } from "../widget_view.ts";

/** The kinds of status message, each shown in the theme's colour of that meaning. */
export const STATUS_KINDS = ["info", "success", "warning", "error"] as const;

/** A status message's kind. */
export type StatusKind = typeof STATUS_KINDS[number];

/** What `cx.notify()` takes besides the text. */
export interface NotifyOptions {
  /** The kind: `info` (the default), `success`, `warning` or `error`. */
  kind?: StatusKind;
  /** How long it shows, in ms; 5,000 by default. */
  durationMs?: number;
}

/** How long a status message shows unless told otherwise, in ms. */
export const STATUS_DURATION_MS = 5000;

/** The most status messages shown at once. */
export const STATUS_SHOWN = 3;

/** The mark before each kind's text: the kind shows without colour too. */
const MARKS: Readonly<Record<StatusKind, string>> = {
  info: "i",
  success: "✓",
  warning: "!",
  error: "✗",
};

/** The colour of each kind: the theme's meaning of the same name. */
const COLOURS: Readonly<Record<StatusKind, Readonly<TextStyle>>> = Object.freeze({
  info: Object.freeze({ fg: "info" as MeaningColour }),
  success: Object.freeze({ fg: "success" as MeaningColour }),
  warning: Object.freeze({ fg: "warning" as MeaningColour }),
  error: Object.freeze({ fg: "error" as MeaningColour, bold: true }),
});

/** Wider than any window: a status line spans the app's width. */
const SPAN_WINDOW = 100_000;

/** One status message: ` ✓ Saved 3 notes`, across the window's width. */
export class StatusMessageWidget extends LabelWidget {
  /** Its kind. */
  readonly statusKind: StatusKind;
  readonly #dismiss: () => void;

  /** A message of `kind`; `dismiss` takes it away. */
  constructor(kind: StatusKind, dismiss: () => void) {
    super();
    this.statusKind = kind;
    this.#dismiss = dismiss;
  }

  override get kind(): "status" {
    return "status";
  }

  override face(): string {
    return ` ${MARKS[this.statusKind]} ${this.label}`;
  }

  override paint(area: PaintArea): void {
    const { surface, bounds, clip, x, y } = area;
    const over = COLOURS[this.statusKind];
    surface.fill(bounds, "status", clip, over);
    surface.write(x, y, this.face(), "status", clip, over);
  }

  /** A click takes the message away. */
  override activate(_rt: Rt): void {
    this.#dismiss();
  }
}

/** Where the status messages show: a column laid over the bottom of the app's area. */
class StatusAreaWidget extends Widget {
  override get kind(): "status_area" {
    return "status_area";
  }
}

/**
 * The status messages of one app: it mounts the area under the window when a message comes,
 * times each message out, and takes the area away when the last one goes.
 */
export class StatusMessages {
  readonly #host: Host;
  readonly #root: Widget;
  readonly #owner: Owner;
  #area: StatusAreaWidget | null = null;
  readonly #timers = new Map<StatusMessageWidget, ReturnType<typeof setTimeout>>();

  /** The messages of the app whose window element is `root`, mounted with `host`. */
  constructor(host: Host, root: Widget, owner: Owner) {
    this.#host = host;
    this.#root = root;
    this.#owner = owner;
  }

  /** The messages showing, oldest first. */
  get shown(): readonly StatusMessageWidget[] {
    return (this.#area?.children ?? []) as readonly StatusMessageWidget[];
  }

  /** Shows `text` as a message of `kind` for `durationMs`. */
  show(text: string, kind: StatusKind, durationMs: number): void {
    const area = this.#area ?? this.#openArea();
    while (area.children.length >= STATUS_SHOWN) {
      this.#remove(area.children[0] as StatusMessageWidget);
    }
    const context = { host: this.#host, owner: this.#owner };
    const message: StatusMessageWidget = mountWidget(
      context,
      new StatusMessageWidget(kind, () => this.#remove(message)),
      "status",
    );
    message.setStyle({ width: SPAN_WINDOW });
    // One line: what would start another is shown as a space (the name keeps it all).
    message.setLabel(text.replace(/[\r\n\u2028\u2029]+/g, " "));
    const tree = this.#host.tree;
    tree.setName(message.node!, text);
    tree.setValue(message.node!, kind);
    area.append(message);
    this.#timers.set(message, setTimeout(() => this.#remove(message), durationMs));
  }

  #openArea(): StatusAreaWidget {
    const area = mountWidget(
      { host: this.#host, owner: this.#owner },
      new StatusAreaWidget(),
      null,
    );
    area.setStyle({ overlay: true, anchored: true, width: SPAN_WINDOW });
    // First under the window: a tree cut to a budget still shows the messages.
    this.#root.setChildren([area, ...this.#root.children]);
    // Laid out as a popup of the window is: below it, kept inside, so on its last rows. Focus
    // going elsewhere leaves it open; it goes when its last message does.
    this.#host.addPopup(area, () => {});
    this.#area = area;
    return area;
  }

  #remove(message: StatusMessageWidget): void {
    clearTimeout(this.#timers.get(message));
    this.#timers.delete(message);
    const area = this.#area;
    if (area === null || message.parent !== area) return;
    area.removeChild(message);
    if (area.children.length === 0) {
      this.#area = null;
      this.#root.removeChild(area);
    }
  }

  /** Clears every timer (the app closed). */
  close(): void {
    for (const timer of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
  }
}

/** Checks `cx.notify()`'s arguments; returns the kind and the duration. */
export function checkNotify(
  text: unknown,
  options: NotifyOptions | undefined,
): { kind: StatusKind; durationMs: number } {
  if (typeof text !== "string" || text === "") {
    throw new TypeError('cx.notify() takes a text to show, such as cx.notify("Saved")');
  }
  const kind = options?.kind ?? "info";
  if (!(STATUS_KINDS as readonly string[]).includes(kind)) {
    throw new TypeError(
      `cx.notify()'s kind is one of ${STATUS_KINDS.join(", ")}, got ${JSON.stringify(kind)}`,
    );
  }
  const durationMs = options?.durationMs ?? STATUS_DURATION_MS;
  if (!(typeof durationMs === "number" && Number.isFinite(durationMs) && durationMs > 0)) {
    throw new RangeError(
      `cx.notify()'s durationMs must be a number of ms above 0, got ${durationMs}`,
    );
  }
  return { kind, durationMs };
}
