/**
 * `radioGroup()`: one choice among a few options, all in view: its label, then a line per
 * option, `(•) Small` on the chosen one and `( ) Medium` on the others (roles `radio_group`
 * and `radio_button`, `checked` on the chosen one). It is one Tab stop (roving focus): Tab
 * enters at the chosen option, the arrows move and choose, Home and End go to the first and
 * last, Space or a click chooses. Agents choose with `{"action": "select", "option": "Small"}`
 * on the group, or click a radio button.
 *
 * @module
 */

import type { Keybind } from "../../text/keybind.ts";
import type { Rt } from "../rt.ts";
import { fitFrom, interactiveStyle, type PaintArea } from "../surface.ts";
import type { MountContext } from "../view.ts";
import { LabelWidget, type Size, type Widget } from "../widget.ts";
import { mountWidget, WidgetView } from "../widget_view.ts";
import { type ChoiceOptions, Choices, normalise } from "./choices.ts";

/** What `radioGroup()` takes. */
export type RadioGroupOptions<T> = ChoiceOptions<T>;

/** A radio group: its label on a line of its own, then its radio buttons. */
export class RadioGroupWidget<T> extends LabelWidget {
  /** The options and the chosen one. */
  readonly choices: Choices<T>;
  /** Where its radio buttons are mounted; set when it is. */
  context!: MountContext;

  /** A group as `options` describe it (they are followed by its view). */
  constructor(options: RadioGroupOptions<T>) {
    super();
    this.choices = new Choices(options, (optionsChanged) => {
      if (optionsChanged) this.#mountButtons();
      this.#showChosen();
    });
  }

  override get kind(): "radio_group" {
    return "radio_group";
  }

  // No label, no line for it.
  override measure(): Size | null {
    return this.label === "" ? null : super.measure();
  }

  override paint(area: PaintArea): void {
    const style = area.disabled ? "disabled" : "heading";
    area.surface.write(area.x, area.y, this.label, style, area.clip);
  }

  /** The radio buttons, one for each option, in order. */
  get #buttons(): readonly RadioButtonWidget[] {
    return this.children as readonly RadioButtonWidget[];
  }

  // One Tab stop: the radio button with focus, else the chosen one, else the first.
  override tabEntry(): Widget | null {
    const focused = this.host.focused;
    if (focused !== null && focused.parent === this) return focused;
    return this.#buttons[this.choices.index] ?? this.#buttons[0] ?? null;
  }

  /** One radio button for each option; the buttons already there keep their nodes. */
  #mountButtons(): void {
    const entries = this.choices.entries;
    const kept = this.#buttons.slice(0, entries.length);
    for (const button of this.#buttons.slice(entries.length)) this.removeChild(button);
    for (let index = 0; index < entries.length; index++) {
      const label = entries[index]!.label;
      const button = kept[index] ??
        mountWidget(this.context, new RadioButtonWidget(this, index), "radio_button");
      button.setLabel(label);
      this.host.tree.setName(button.node!, label);
      if (kept[index] === undefined) this.append(button);
    }
  }

  #showChosen(): void {
    for (const button of this.#buttons) button.show(button.index === this.choices.index);
  }

  /** Chooses the option at `index` and focuses its radio button. */
  chooseAt(index: number, rt: Rt): void {
    const button = this.#buttons[index];
    if (button === undefined) return;
    this.host.focus(button);
    this.choices.choose(index, rt);
  }

  /** The keys of a radio button that has focus: the arrows, Home and End move and choose. */
  moveFrom(button: RadioButtonWidget, keybind: Keybind, rt: Rt): boolean {
    if (keybind.ctrl || keybind.alt || keybind.meta || keybind.shift) return false;
    const count = this.#buttons.length;
    const at = button.index;
    const next: Record<string, number> = {
      ArrowDown: (at + 1) % count,
      ArrowRight: (at + 1) % count,
      ArrowUp: (at - 1 + count) % count,
      ArrowLeft: (at - 1 + count) % count,
      Home: 0,
      End: count - 1,
    };
    const index = next[keybind.key];
    if (index === undefined) return false;
    this.chooseAt(index, rt);
    return true;
  }

  override choose(option: string, rt: Rt): boolean {
    const index = this.choices.indexOf(option);
    if (index < 0) return false;
    this.chooseAt(index, rt);
    return true;
  }

  override optionNames(): readonly string[] {
    return this.choices.labels();
  }
}

/** What a radio button asks of its group. */
interface ButtonOwner {
  /** Chooses the option at `index` and focuses its radio button. */
  chooseAt(index: number, rt: Rt): void;
  /** Moves from `button` as `keybind` says, and chooses; false for another key. */
  moveFrom(button: RadioButtonWidget, keybind: Keybind, rt: Rt): boolean;
}

/** One option of a radio group: `(•) Small` when chosen, `( ) Medium` when not. */
class RadioButtonWidget extends LabelWidget {
  /** Its index among the group's options. */
  readonly index: number;
  /** True on the chosen option. */
  checked = false;
  readonly #group: ButtonOwner;

  /** The radio button of option `index` in `group`. */
  constructor(group: ButtonOwner, index: number) {
    super();
    this.#group = group;
    this.index = index;
  }

  override get kind(): "radio_button" {
    return "radio_button";
  }

  override get focusable(): boolean {
    return true;
  }

  override face(): string {
    return `(${this.checked ? "•" : " "}) ${this.label}`;
  }

  /** Shows whether it is the chosen one: the dot, and `checked` on its node. */
  show(checked: boolean): void {
    if (checked === this.checked && this.node!.has("checked") === checked) return;
    this.checked = checked;
    this.host.tree.setState(this.node!, "checked", checked);
    this.host.markLayoutDirty(this);
  }

  override paint(area: PaintArea): void {
    const { surface, x, y, clip } = area;
    const style = interactiveStyle(area, "text");
    const after = surface.write(x, y, "(", style, clip);
    const dot = this.checked && style === "text" ? "checked" : style;
    const mark = surface.write(after, y, this.checked ? "•" : " ", dot, clip);
    surface.write(mark, y, fitFrom(area, mark, `) ${this.label}`), style, clip);
  }

  override activate(rt: Rt): void {
    this.#group.chooseAt(this.index, rt);
  }

  override key(keybind: Keybind, rt: Rt): boolean {
    return this.#group.moveFrom(this, keybind, rt);
  }
}

/** A radio group: one choice among options, all in view. */
export class RadioGroupView<T> extends WidgetView {
  readonly #options: RadioGroupOptions<T>;

  /** Apps call `radioGroup()` instead. */
  constructor(options: RadioGroupOptions<T>) {
    super();
    this.#options = options;
  }

  /** Makes the widget. */
  protected build(context: MountContext): Widget {
    const options = this.#options;
    const widget = mountWidget(context, new RadioGroupWidget(options), "radio_group");
    widget.context = context;
    this.followLabel(context, widget, options.label);
    widget.choices.follow(context, options, "radioGroup()");
    return widget;
  }
}

/**
 * A radio group named `label`: one radio button for each of `options` (strings, or
 * `{ label, value }`), `(•)` on the chosen one. A signal as `value` makes it two-way;
 * `onChange` is called with the value each time another option is chosen.
 *
 * @example Tab enters at the chosen option; the arrows move and choose
 * ```ts
 * import assert from "node:assert/strict";
 * import { button, column, component, radioGroup } from "@crownui/runtime";
 * import { render } from "@crownui/runtime/testing";
 *
 * await using app = await render(component((cx) => {
 *   const size = cx.signal("Medium", { name: "size" });
 *   return column(
 *     button("Before", () => {}),
 *     radioGroup({ label: "Size", options: ["Small", "Medium", "Large"], value: size }),
 *   );
 * }));
 * await app.act(app.get({ role: "button" }).id, { action: "press_key", keybind: "Tab" });
 * assert.equal(app.get({ state: "focused" }).name, "Medium");
 * await app.act(app.get({ state: "focused" }).id, { action: "press_key", keybind: "ArrowDown" });
 * assert.deepEqual(app.query({ role: "radio_button", state: "checked" }).map((m) => m.name), ["Large"]);
 * // An agent chooses by name on the group.
 * await app.act(app.get({ role: "radio_group" }).id, { action: "select", option: "Small" });
 * assert.equal(app.get({ role: "radio_button", state: "checked" }).name, "Small");
 * ```
 */
export function radioGroup<T = string>(options: RadioGroupOptions<T>): RadioGroupView<T> {
  if (typeof options !== "object" || options === null || options.options === undefined) {
    throw new TypeError("radioGroup() takes { label, options, value?, onChange? }");
  }
  if (Array.isArray(options.options)) normalise(options.options, "radioGroup()");
  return new RadioGroupView(options);
}
