/**
 * `toggleSwitch()`: an on/off setting that takes effect at once, `Wi-Fi [ ●]` when on and
 * `Wi-Fi [○ ]` when off (role `switch`, `checked` while on): the knob's side and its fill say
 * which, without colour. A click, Enter or Space flips it. It acts as a checkbox does (a
 * checkbox is for a choice a form submits; a switch for a setting applied now), so it is one.
 *
 * @module
 */

import type { Rt } from "../rt.ts";
import { interactiveStyle, labelThatFits, type PaintArea } from "../surface.ts";
import { follow, type MountContext, type Prop } from "../view.ts";
import type { Widget } from "../widget.ts";
import { mountWidget, WidgetView } from "../widget_view.ts";
import { CheckboxWidget } from "./checkbox.ts";

/** What `toggleSwitch()` takes. */
export interface SwitchOptions {
  /** The accessible name, shown before the switch. */
  label: Prop<string>;
  /** On (true) or off: a signal makes the switch two-way; a plain boolean is where it starts. */
  value: Prop<boolean>;
  /** Called with the new state each time a person or an agent flips it. */
  onChange?: (on: boolean, rt: Rt) => void;
}

/** A switch: `label [ ●]` when on, `label [○ ]` when off. */
export class SwitchWidget extends CheckboxWidget {
  override get kind(): "switch" {
    return "switch";
  }

  /** The knob and the empty side of the track, inside the brackets. */
  #knob(): string {
    return this.checked ? " ●" : "○ ";
  }

  override face(): string {
    return `${this.label} [${this.#knob()}]`;
  }

  override paint(area: PaintArea): void {
    const { surface, x, y, clip } = area;
    const style = interactiveStyle(area, "text");
    // Cut, `Dark mo… [on ]`: the switch stays whole, the label ends in `…`.
    const label = labelThatFits(area, this.face(), this.label);
    const after = surface.write(x, y, `${label} [`, style, clip);
    const knob = this.checked && style === "text" ? "checked" : style;
    const track = surface.write(after, y, this.#knob(), knob, clip);
    surface.write(track, y, "]", style, clip);
  }
}

/** An on/off switch. */
export class SwitchView extends WidgetView {
  readonly #options: SwitchOptions;

  /** Apps call `toggleSwitch()` instead. */
  constructor(options: SwitchOptions) {
    super();
    this.#options = options;
  }

  /** Makes the widget. */
  protected build(context: MountContext): Widget {
    const { label, value, onChange } = this.#options;
    const widget = mountWidget(context, new SwitchWidget(value, onChange), "switch");
    this.followLabel(context, widget, label);
    follow(context, value, (on) => widget.show(Boolean(on)), "a switch's value");
    return widget;
  }
}

/**
 * An on/off switch named `label`, for a setting that takes effect at once. (`switch` is a
 * word of the language, hence the name.) A signal as `value` makes it two-way; `onChange` is
 * called with the new state each time it is flipped.
 *
 * @example A person's Space and an agent's click flip it
 * ```ts
 * import assert from "node:assert/strict";
 * import { component, toggleSwitch } from "@crownui/runtime";
 * import { render } from "@crownui/runtime/testing";
 *
 * await using app = await render(component((cx) => {
 *   const wifi = cx.signal(true, { name: "wifi" });
 *   return toggleSwitch({ label: "Wi-Fi", value: wifi });
 * }));
 * const on = () => app.get({ role: "switch", name: "Wi-Fi" }).states.includes("checked");
 * assert.equal(on(), true);
 * await app.act(app.get({ role: "switch" }).id, { action: "click" });
 * assert.equal(on(), false);
 * await app.act(app.get({ role: "switch" }).id, { action: "press_key", keybind: "Space" });
 * assert.equal(on(), true);
 * ```
 */
export function toggleSwitch(options: SwitchOptions): SwitchView {
  if (typeof options !== "object" || options === null || options.value === undefined) {
    throw new TypeError("toggleSwitch() takes { label, value, onChange? }");
  }
  return new SwitchView(options);
}
