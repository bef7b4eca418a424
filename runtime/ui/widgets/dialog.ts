/**
 * `dialog()`: a framed box above the window's content, with its title in its first row. While
 * open it is modal: Tab stays inside it and agents may act only inside it.
 *
 * @module
 */

import type { Keybind } from "../../text/keybind.ts";
import type { Rt } from "../rt.ts";
import { fitFrom, type PaintArea } from "../surface.ts";
import type { MountContext, Prop, View } from "../view.ts";
import { LabelWidget, type Widget } from "../widget.ts";
import { mountChildren, mountWidget, WidgetView } from "../widget_view.ts";

/** A dialog: a framed box with its title in its first row. */
export class DialogWidget extends LabelWidget {
  readonly #onClose: ((rt: Rt) => void) | undefined;

  /** A dialog that calls `onClose` on Escape. */
  constructor(onClose: ((rt: Rt) => void) | undefined) {
    super();
    this.#onClose = onClose;
  }

  override get kind(): "dialog" {
    return "dialog";
  }

  override key(keybind: Keybind, rt: Rt): boolean {
    if (keybind.key !== "Escape" || this.#onClose === undefined) return false;
    this.#onClose(rt);
    return true;
  }

  override paint(area: PaintArea): void {
    // The frame is the shared border's (`runtime/ui/border.ts`), drawn after this.
    area.surface.fill(area.bounds, "dialog", area.clip);
    // The title sits in the header row the layout keeps for it, inside the padding.
    // A window narrower than the title cuts it with … (the node keeps it whole).
    area.surface.write(area.x, area.y, fitFrom(area, area.x, this.label), "dialogTitle", area.clip);
  }
}

/** A dialog: a framed box above the window's content. */
export class DialogView extends WidgetView {
  readonly #title: Prop<string>;
  readonly #children: readonly View[];
  #onClose: ((rt: Rt) => void) | undefined;

  /** Apps call `dialog()` instead. */
  constructor(title: Prop<string>, children: readonly View[]) {
    super();
    this.#title = title;
    this.#children = children;
  }

  /** Calls `fn` when the user presses Escape inside the dialog. */
  onClose(fn: (rt: Rt) => void): this {
    this.#onClose = fn;
    return this;
  }

  /** Makes the widget. */
  protected build(context: MountContext): Widget {
    const widget = mountWidget(context, new DialogWidget(this.#onClose), "dialog");
    widget.setStyle({
      border: true,
      padTop: 1,
      padRight: 1,
      padBottom: 1,
      padLeft: 1,
      overlay: true,
    });
    context.host.addOverlay(widget);
    this.followLabel(context, widget, this.#title);
    mountChildren(context, widget, this.#children);
    return widget;
  }
}

/** A dialog titled `title` (show it with `show()`; give it `.onClose()` for Escape). */
export function dialog(title: Prop<string>, ...children: View[]): DialogView {
  return new DialogView(title, children);
}
