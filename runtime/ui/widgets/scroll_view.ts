/**
 * `scrollView()`: a viewport onto a taller (or wider) child, scrolled by the wheel, PageUp
 * and PageDown, or agents, with a scroll bar when the child is taller.
 *
 * @module
 */

import { insetY, scrollContent } from "../../layout/node.ts";
import type { Keybind } from "../../text/keybind.ts";
import type { Rect } from "../../text/rect.ts";
import type { PaintArea, Surface } from "../surface.ts";
import type { MountContext, View } from "../view.ts";
import { Widget } from "../widget.ts";
import { followName, mountChildren, mountWidget, WidgetView } from "../widget_view.ts";

/** A viewport that scrolls its one child, with a scroll bar when the child is taller. */
export class ScrollWidget extends Widget {
  override get kind(): "scroll_view" {
    return "scroll_view";
  }

  override scroll(dx: number, dy: number): boolean {
    const before = this.layout.scroll;
    if (!scrollContent(this, dx, dy)) return false;
    if (this.layout.scroll !== before) this.host.markLayoutDirty(this);
    return true;
  }

  override key(keybind: Keybind): boolean {
    if (keybind.ctrl || keybind.alt || keybind.meta) return false;
    // A page is the rows that show inside its border and padding, less one kept in sight.
    const page = Math.max(1, this.layout.height - insetY(this.layout.style) - 1);
    if (keybind.key === "PageDown") return this.scroll(0, page);
    if (keybind.key === "PageUp") return this.scroll(0, -page);
    return false;
  }

  /**
   * A scroll bar in the last column, when the content is taller than the view and narrower,
   * so that the bar covers nothing.
   */
  override paintOver(area: PaintArea): void {
    const content = this.children[0];
    if (content === undefined) return;
    // Inside its border and padding, if it has them.
    const { clip, surface, height, width } = area;
    const total = content.layout.height;
    if (total <= height || content.layout.width >= width || height < 1) return;
    const bar = { x: area.x + width - 1, y: area.y, height };
    paintScrollBar(surface, clip, bar, total, this.layout.scroll.y, false);
  }
}

/**
 * Paints a vertical scroll bar down `bar` (a column of `bar.height` rows) for content of
 * `total` rows scrolled `offset` rows down: a thumb (`┃`) on a track (`│`), greyed when
 * `disabled`. For a scroll view and the widgets that scroll their own content (a text area).
 *
 * @ignore
 */
export function paintScrollBar(
  surface: Surface,
  clip: Rect,
  bar: { x: number; y: number; height: number },
  total: number,
  offset: number,
  disabled: boolean,
): void {
  const { height } = bar;
  if (total <= height || height < 1) return;
  const thumbSize = Math.max(1, Math.round((height * height) / total));
  const thumbStart = Math.round((offset / (total - height)) * (height - thumbSize));
  for (let row = 0; row < height; row++) {
    const onThumb = row >= thumbStart && row < thumbStart + thumbSize;
    const style = disabled ? "disabled" : onThumb ? "thumb" : "track";
    surface.write(bar.x, bar.y + row, onThumb ? "┃" : "│", style, clip);
  }
}

/** A viewport onto a taller (or wider) child, scrolled by the wheel, keys or agents. */
export class ScrollView extends WidgetView {
  readonly #child: View;

  /** Apps call `scrollView()` instead. */
  constructor(child: View) {
    super();
    this.#child = child;
  }

  /** Makes the widget. */
  protected build(context: MountContext): Widget {
    const widget = mountWidget(context, new ScrollWidget(), "scroll_view");
    widget.setStyle({ grow: 1, scrolls: true }); // fill the room left, unless given a height
    followName(context, widget, this.nameProp(undefined));
    mountChildren(context, widget, [this.#child]);
    return widget;
  }
}

/** Shows `child` through a viewport that scrolls; fills the room its parent has left. */
export function scrollView(child: View): ScrollView {
  return new ScrollView(child);
}
