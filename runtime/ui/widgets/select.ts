/**
 * `select()`: a drop-down choice, `Colour [Green ▾]` (role `combo_box`, its value the chosen
 * option's label). Enter, Space, a click or an arrow opens a popup of its options (role
 * `option`, `selected` on the chosen one) below the box: a disclosure, as the menu's is.
 * There the arrows, PageUp, PageDown, Home and End move, typed letters go to the next option
 * starting with them, Enter or a click chooses and closes, and Escape closes without choosing;
 * focus goes back to the select either way. Agents choose with
 * `{"action": "select", "option": "Green"}`, open or closed, or click an option while open.
 *
 * @module
 */

import { insetLeft } from "../../layout/node.ts";
import { cellWidth } from "../../text/cell_width.ts";
import type { Keybind } from "../../text/keybind.ts";
import { Disclosure } from "../disclosure.ts";
import type { Rt } from "../rt.ts";
import { interactiveStyle, type PaintArea } from "../surface.ts";
import { TypeAhead } from "../type_ahead.ts";
import type { MountContext } from "../view.ts";
import { BoxWidget, LabelWidget, type Widget } from "../widget.ts";
import { mountWidget, WidgetView } from "../widget_view.ts";
import { type ChoiceOptions, Choices, normalise } from "./choices.ts";
import { ScrollWidget } from "./scroll_view.ts";

/** What `select()` takes: the choice's options, and what the box shows while none is chosen. */
export interface SelectOptions<T> extends ChoiceOptions<T> {
  /** What the box shows while no option is chosen; `Select` by default. */
  placeholder?: string;
}

/** The most options a select's popup shows at once; more scroll. */
export const SELECT_SHOWN_OPTIONS = 10;

/** A select: `label [chosen ▾]`, with its options in a popup below the box while open. */
export class SelectWidget<T> extends LabelWidget {
  /** The options and the chosen one. */
  readonly choices: Choices<T>;
  /** Opens and closes the options' popup. */
  disclosure!: Disclosure;
  /** What the box shows while no option is chosen. */
  readonly placeholder: string;
  readonly #typeAhead = new TypeAhead();

  /** A select as `options` describe it (they are followed by its view). */
  constructor(options: SelectOptions<T>) {
    super();
    this.placeholder = options.placeholder ?? "Select";
    this.choices = new Choices(options, (optionsChanged) => {
      this.#showChosen();
      if (optionsChanged) this.#optionsChanged();
    });
  }

  override get kind(): "select" {
    return "select";
  }

  override get focusable(): boolean {
    return true;
  }

  /** True while the options show. */
  get open(): boolean {
    return this.disclosure.open;
  }

  /** The label and the space after it: where the box starts. */
  #lead(): string {
    return this.label === "" ? "" : `${this.label} `;
  }

  /** The cells of the widest label, or of the placeholder if it is wider. */
  #widest(): number {
    let width = cellWidth(this.placeholder);
    for (const entry of this.choices.entries) width = Math.max(width, cellWidth(entry.label));
    return width;
  }

  /** The box: the chosen label (or the placeholder), as wide as the widest, and `▾` or `▴`. */
  #box(): string {
    const shown = this.choices.chosenLabel ?? this.placeholder;
    return `[${padTo(shown, this.#widest())} ${this.open ? "▴" : "▾"}]`;
  }

  override face(): string {
    return this.#lead() + this.#box();
  }

  override paint(area: PaintArea): void {
    const { surface, x, y, clip, disabled, focused } = area;
    const labelStyle = disabled ? "disabled" : focused ? "heading" : "text";
    const after = surface.write(x, y, this.#lead(), labelStyle, clip);
    surface.write(after, y, this.#box(), interactiveStyle(area, "field"), clip);
  }

  /** The chosen option changed, or the options did: the box, the node and the popup show it. */
  #showChosen(): void {
    if (this.node === null) return; // not mounted yet: the view shows it once it is
    const label = this.choices.chosenLabel;
    this.host.tree.setValue(this.node, label);
    this.host.markLayoutDirty(this);
    for (const option of this.disclosure?.items() ?? []) {
      if (option instanceof SelectOptionWidget) option.show(option.index === this.choices.index);
    }
  }

  /** Options changed while open: the popup is mounted again from them, focus on the chosen. */
  #optionsChanged(): void {
    if (this.disclosure === undefined || !this.open) return;
    this.disclosure.close();
    this.openAtChosen();
  }

  /** Opens the popup with focus on the chosen option (the first when none is). */
  openAtChosen(): void {
    this.disclosure.focusItem(Math.max(0, this.choices.index));
  }

  override activate(): void {
    if (this.open) this.disclosure.close();
    else this.openAtChosen();
  }

  /** Chooses the option at `index` (a click or Enter on it): closes, then tells the app. */
  chooseAt(index: number, rt: Rt): void {
    this.disclosure.close();
    this.choices.choose(index, rt, this);
  }

  // Keys reach the select from its focused option too (they bubble up to it).
  override key(keybind: Keybind): boolean {
    if (keybind.ctrl || keybind.alt || keybind.meta) return false;
    if (this.disclosure.key(keybind)) return true;
    if (keybind.shift && keybind.key.length !== 1) return false;
    const focused = this.host.focused;
    const at = focused instanceof SelectOptionWidget ? focused.index : this.choices.index;
    if (this.open && (keybind.key === "PageDown" || keybind.key === "PageUp")) {
      const page = keybind.key === "PageDown" ? SELECT_SHOWN_OPTIONS : -SELECT_SHOWN_OPTIONS;
      return this.disclosure.focusItem(Math.max(0, at + page));
    }
    const entries = this.choices.entries;
    const match = this.#typeAhead.find(keybind.key, at, entries.length, (i) => entries[i]?.label);
    if (match < 0) return false;
    this.disclosure.focusItem(match);
    return true;
  }

  override choose(option: string, rt: Rt): boolean {
    const index = this.choices.indexOf(option);
    if (index < 0) return false;
    if (this.open) this.disclosure.close();
    this.choices.choose(index, rt, this);
    return true;
  }

  override optionNames(): readonly string[] {
    return this.choices.labels();
  }

  /** Mounts the options into the open popup (a scrolling view of them when there are many). */
  mountOptions(context: MountContext, popup: Widget): void {
    const entries = this.choices.entries;
    let parent = popup;
    if (entries.length > SELECT_SHOWN_OPTIONS) {
      const view = mountWidget(context, new OptionsScroll(), null);
      view.setStyle({ scrolls: true, height: SELECT_SHOWN_OPTIONS });
      parent = mountWidget(context, new BoxWidget("column"), null);
      view.append(parent);
      popup.append(view);
    }
    const width = this.#widest();
    entries.forEach((entry, index) => {
      const option = mountWidget(context, new SelectOptionWidget(this, index), "option");
      option.setLabel(padTo(entry.label, width)); // every line of the popup as wide
      context.host.tree.setName(option.node!, entry.label);
      option.show(index === this.choices.index);
      parent.append(option);
    });
  }
}

/** The popup's view of many options: it scrolls, and leaves PageUp and PageDown to the select. */
class OptionsScroll extends ScrollWidget {
  override key(): boolean {
    return false;
  }
}

/** `text` and the spaces that make it `width` cells wide. */
function padTo(text: string, width: number): string {
  return text + " ".repeat(Math.max(0, width - cellWidth(text)));
}

/** What an option asks of its select. */
interface OptionOwner {
  /** Chooses the option at `index`, and closes the popup. */
  chooseAt(index: number, rt: Rt): void;
}

/** One option in an open select's popup: ` ✓ Green ` on the chosen one, `   Blue ` else. */
class SelectOptionWidget extends LabelWidget {
  /** Its index among the select's options. */
  readonly index: number;
  /** True on the chosen option. */
  chosen = false;
  readonly #select: OptionOwner;

  /** The option at `index` of `select`. */
  constructor(select: OptionOwner, index: number) {
    super();
    this.#select = select;
    this.index = index;
  }

  override get kind(): "option" {
    return "option";
  }

  override get focusable(): boolean {
    return true;
  }

  override face(): string {
    return ` ${this.chosen ? "✓" : " "} ${this.label} `;
  }

  /** Shows whether it is the chosen option: the mark, and `selected` on its node. */
  show(chosen: boolean): void {
    this.chosen = chosen;
    this.host.tree.setState(this.node!, "selected", chosen);
    this.host.markLayoutDirty(this);
  }

  override paint(area: PaintArea): void {
    const { surface, bounds, clip, x, y } = area;
    const style = interactiveStyle(area, "text");
    if (style !== "text") surface.fill(bounds, style, clip); // the whole line shows focus
    const after = surface.write(x, y, " ", style, clip);
    const mark = surface.write(
      after,
      y,
      this.chosen ? "✓" : " ",
      style === "text" ? "checked" : style,
      clip,
    );
    surface.write(mark, y, ` ${this.label} `, style, clip);
  }

  override activate(rt: Rt): void {
    this.#select.chooseAt(this.index, rt);
  }
}

/** A drop-down choice among options. */
export class SelectView<T> extends WidgetView {
  readonly #options: SelectOptions<T>;

  /** Apps call `select()` instead. */
  constructor(options: SelectOptions<T>) {
    super();
    this.#options = options;
  }

  /** Makes the widget. */
  protected build(context: MountContext): Widget {
    const options = this.#options;
    const widget = mountWidget(context, new SelectWidget(options), "combo_box");
    widget.disclosure = new Disclosure(widget, context, {
      content: (inner, popup) => widget.mountOptions(inner, popup),
      changed: () => context.host.markLayoutDirty(widget), // ▾ becomes ▴
      current: () => widget.choices.index,
      // The popup opens under the box, after the label (inside the select's border, padding).
      indent: () =>
        insetLeft(widget.layout.style) +
        cellWidth(widget.label === "" ? "" : `${widget.label} `),
    });
    this.followLabel(context, widget, options.label);
    widget.choices.follow(context, options, "select()");
    return widget;
  }
}

/**
 * A drop-down choice among `options` (strings, or `{ label, value }`), named `label`: its
 * box shows the chosen label and `▾`, and opens a popup of the options. A signal as `value`
 * makes it two-way; `onChange` is called with the value each time another option is chosen.
 *
 * @example A select an agent and a person both choose with
 * ```ts
 * import assert from "node:assert/strict";
 * import { component, select } from "@crownui/runtime";
 * import { render } from "@crownui/runtime/testing";
 *
 * let colour = "";
 * await using app = await render(component((cx) => {
 *   const chosen = cx.signal("Red", { name: "colour" });
 *   return select({
 *     label: "Colour",
 *     options: ["Red", "Green", "Blue"],
 *     value: chosen,
 *     onChange: (value) => colour = value,
 *   });
 * }));
 * const box = app.get({ role: "combo_box", name: "Colour" });
 * assert.equal(box.value, "Red");
 * await app.act(box.id, { action: "select", option: "Green" });
 * assert.equal(colour, "Green");
 * assert.equal(app.get({ role: "combo_box" }).value, "Green");
 * // Enter opens the popup, on the chosen option; ArrowDown and Enter choose the next one.
 * await app.act(box.id, { action: "press_key", keybind: "Enter" });
 * assert.deepEqual(app.query({ role: "option" }).map((option) => option.name), ["Red", "Green", "Blue"]);
 * assert.equal(app.get({ role: "option", state: "focused" }).name, "Green");
 * await app.act(app.get({ state: "focused" }).id, { action: "press_key", keybind: "ArrowDown" });
 * await app.act(app.get({ state: "focused" }).id, { action: "press_key", keybind: "Enter" });
 * assert.equal(colour, "Blue");
 * assert.deepEqual(app.query({ role: "option" }), [], "choosing closed the popup");
 * ```
 */
export function select<T = string>(options: SelectOptions<T>): SelectView<T> {
  if (typeof options !== "object" || options === null || options.options === undefined) {
    throw new TypeError("select() takes { label, options, value?, onChange?, placeholder? }");
  }
  // Plain options are checked here, where the app's code calls it; reactive ones as they come.
  if (Array.isArray(options.options)) normalise(options.options, "select()");
  return new SelectView(options);
}
