/**
 * `widget()`: an app's own widget, with the role, name, value, states and input handlers of
 * its choosing.
 *
 * @module
 */

import { settleHandler } from "../handler.ts";
import type { Keybind } from "../../text/keybind.ts";
import { isRole, type Role } from "../../semantics/mod.ts";
import type { Rt } from "../rt.ts";
import { interactiveStyle, type PaintArea } from "../surface.ts";
import { follow, type MountContext, type Prop, type View } from "../view.ts";
import { LabelWidget, type Size, type Widget } from "../widget.ts";
import { followName, mountChildren, mountWidget, WidgetView } from "../widget_view.ts";
import type { Handler } from "./button.ts";

/** What an app's own widget is: its role, name and the input it handles. */
export interface WidgetOptions {
  /** The role; without one (or without a name) the widget is invisible to agents. */
  role?: Role;
  /** The accessible name agents and screen readers know it by. */
  name?: Prop<string>;
  /** The value agents read, such as a progress bar's percentage. */
  value?: Prop<string>;
  /** Whether the node has the `checked` state. */
  checked?: Prop<boolean>;
  /** Whether the node has the `selected` state. */
  selected?: Prop<boolean>;
  /** Whether the node has the `expanded` state. */
  expanded?: Prop<boolean>;
  /** The text it draws on its own line. */
  content?: Prop<string>;
  /** Whether Tab and clicks can focus it; false by default. */
  focusable?: boolean;
  /** Runs on a click, or on Enter or Space while it has focus. */
  onClick?: Handler;
  /** Handles a key while it has focus; returns true when handled, else the parent gets the key. */
  onKey?: (keybind: Keybind, rt: Rt) => boolean;
  /**
   * Takes typed text while it has focus: what a person types (or pastes) and an agent's
   * `type_text`, so a custom editor works for both. Keys that are not text (Enter, arrows)
   * still go to `onKey`.
   */
  onText?: (text: string, rt: Rt) => void;
  /** Lays children out in a row instead of a column. */
  direction?: "row" | "column";
}

/** An app's own widget: its content line, and the input its options handle. */
export class CustomWidget extends LabelWidget {
  readonly #focusable: boolean;
  readonly #content: boolean;

  /** A widget as `options` describe it. */
  constructor(options: WidgetOptions) {
    super();
    this.#focusable = options.focusable ?? false;
    this.#content = options.content !== undefined;
    const onClick = options.onClick;
    if (onClick) this.activate = (rt) => settleHandler(this, "the click handler", onClick(rt));
    if (options.onKey) this.key = options.onKey;
    if (options.onText) this.insertText = options.onText;
  }

  override get kind(): "widget" {
    return "widget";
  }

  override get focusable(): boolean {
    return this.#focusable;
  }

  override measure(): Size | null {
    return this.#content ? super.measure() : null;
  }

  override paint(area: PaintArea): void {
    if (this.label === "") return;
    const style = this.#focusable
      ? interactiveStyle(area, "text")
      : area.disabled
      ? "disabled"
      : "text";
    area.surface.write(area.x, area.y, this.label, style, area.clip);
  }

  // A focusable widget shows focus and hover as the built-in ones do, over what its children
  // drew, so that an app's own widget needs no painting of its own to be seen focused.
  override paintOver(area: PaintArea): void {
    if (!this.#focusable || area.disabled || !(area.focused || area.hovered)) return;
    if (this.children.length === 0 && this.label !== "") return; // its line shows it already
    area.surface.fill(area.clip, area.focused ? "focus" : "hover", area.clip);
  }
}

/** An app's own widget. */
export class CustomView extends WidgetView {
  readonly #options: WidgetOptions;
  readonly #children: readonly View[];

  /** Apps call `widget()` instead. */
  constructor(options: WidgetOptions, children: readonly View[]) {
    super();
    this.#options = options;
    this.#children = children;
  }

  /** Makes the widget. */
  protected build(context: MountContext): Widget {
    const options = this.#options;
    const name = this.nameProp(options.name);
    const visible = options.role !== undefined && name !== undefined;
    const widget = mountWidget(context, new CustomWidget(options), visible ? options.role! : null);
    const node = widget.node;
    const tree = context.host.tree;
    if (options.direction !== undefined) widget.setStyle({ direction: options.direction });
    if (options.content !== undefined) {
      follow(context, options.content, (value) => widget.setLabel(String(value)));
    }
    if (node !== null) {
      followName(context, widget, name);
      if (options.value !== undefined) {
        const secure = this.isSecure;
        follow(
          context,
          options.value,
          (value) => {
            if (!secure) tree.setValue(node, String(value));
          },
          "a widget's value",
          secure,
        );
      }
      for (const state of ["checked", "selected", "expanded"] as const) {
        const prop = options[state];
        if (prop !== undefined) {
          follow(context, prop, (on) => tree.setState(node, state, Boolean(on)));
        }
      }
    }
    mountChildren(context, widget, this.#children);
    return widget;
  }
}

/**
 * An app's own widget with a role and a name of its choosing. One without a role or a name
 * stays invisible to agents, as it would to a screen reader; its children still show.
 */
export function widget(options: WidgetOptions, ...children: View[]): CustomView {
  if (options.role !== undefined && !isRole(options.role)) {
    throw new TypeError(
      `widget() got an unknown role ${
        JSON.stringify(options.role)
      }; use one of the snake_case roles such as button, checkbox, list_item`,
    );
  }
  return new CustomView(options, children);
}
