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

import type { State } from "../../semantics/mod.ts";
import type { Rt } from "../rt.ts";
import { fitFrom, interactiveStyle, type PaintArea } from "../surface.ts";
import type { MountContext } from "../view.ts";
import { LabelWidget, type Size, type Widget } from "../widget.ts";
import { mountWidget, WidgetView } from "../widget_view.ts";
import { type ChoiceOptions, Choices, normalise } from "./choices.ts";
import { RovingGroup, type RovingKeys, RovingOption } from "./roving.ts";

/** What `radioGroup()` takes. */
export type RadioGroupOptions<T> = ChoiceOptions<T>;

/** The arrows of a radio group: its buttons are a column, but either axis moves. */
const RADIO_KEYS: RovingKeys = {
  next: ["ArrowDown", "ArrowRight"],
  previous: ["ArrowUp", "ArrowLeft"],
};

/** A radio group: its label on a line of its own, then its radio buttons. */
export class RadioGroupWidget<T> extends LabelWidget {
  /** The options and the chosen one. */
  readonly choices: Choices<T>;
  /** Where its radio buttons are mounted; set when it is. */
  context!: MountContext;
  /** Its radio buttons' roving focus. */
  readonly #roving: RovingGroup<T, RadioButtonWidget>;

  /** A group as `options` describe it (they are followed by its view). */
  constructor(options: RadioGroupOptions<T>) {
    super();
    this.choices = new Choices(options, (optionsChanged) => {
      if (optionsChanged) this.#roving.mountOptions();
      this.#roving.showChosen();
    });
    const roving: RovingGroup<T, RadioButtonWidget> = new RovingGroup(
      this,
      this.choices,
      RADIO_KEYS,
      (index) => mountWidget(this.context, new RadioButtonWidget(roving, index), "radio_button"),
    );
    this.#roving = roving;
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

  // One Tab stop: the radio button with focus, else the chosen one, else the first.
  override tabEntry(): Widget | null {
    return this.#roving.entry();
  }

  override choose(option: string, rt: Rt): boolean {
    return this.#roving.choose(option, rt);
  }

  override optionNames(): readonly string[] {
    return this.#roving.optionNames();
  }
}

/** One option of a radio group: `(•) Small` when chosen, `( ) Medium` when not. */
class RadioButtonWidget extends RovingOption {
  override get kind(): "radio_button" {
    return "radio_button";
  }

  protected override get chosenState(): State {
    return "checked";
  }

  /** True on the chosen option. */
  get checked(): boolean {
    return this.chosen;
  }

  override face(): string {
    return `(${this.checked ? "•" : " "}) ${this.label}`;
  }

  override paint(area: PaintArea): void {
    const { surface, x, y, clip } = area;
    const style = interactiveStyle(area, "text");
    const after = surface.write(x, y, "(", style, clip);
    const dot = this.checked && style === "text" ? "checked" : style;
    const mark = surface.write(after, y, this.checked ? "•" : " ", dot, clip);
    surface.write(mark, y, fitFrom(area, mark, `) ${this.label}`), style, clip);
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
