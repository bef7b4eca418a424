/**
 * `row()` and `column()`: lay views out left to right or top to bottom. They have no role, so
 * agents see only their children; one with a titled border (`.border("rounded", { title })`)
 * is a `group` named by its title.
 *
 * @module
 */

import { LAYOUT_DEFAULTS, type LayoutStyle } from "../../layout/node.ts";
import type { MountContext, View } from "../view.ts";
import { BoxWidget, type Widget } from "../widget.ts";
import { followName, mountChildren, mountWidget, WidgetView } from "../widget_view.ts";

/** The style of every row: one object for all of them, as a style is replaced, never changed. */
const ROW_STYLE: Readonly<LayoutStyle> = Object.freeze({
  ...LAYOUT_DEFAULTS,
  direction: "row",
  gap: 1,
});

/** A row or column of views; it has no role, so agents see only its children. */
export class StackView extends WidgetView {
  readonly #direction: "row" | "column";
  readonly #children: readonly View[];

  /** Apps call `row()` or `column()` instead. */
  constructor(direction: "row" | "column", children: readonly View[]) {
    super();
    this.#direction = direction;
    this.#children = children;
  }

  /** Makes the widget. */
  protected build(context: MountContext): Widget {
    // With a titled border, a group named by the title (or by `.label()`): the pane people see.
    const role = this.titled ? "group" : null;
    const widget = mountWidget(context, new BoxWidget(this.#direction), role);
    if (this.#direction === "row") widget.layout.style = ROW_STYLE;
    if (role !== null) followName(context, widget, this.nameProp(undefined));
    mountChildren(context, widget, this.#children);
    return widget;
  }
}

/** Lays views out left to right, one cell apart. */
export function row(...children: View[]): StackView {
  return new StackView("row", children);
}

/** Lays views out top to bottom. */
export function column(...children: View[]): StackView {
  return new StackView("column", children);
}
