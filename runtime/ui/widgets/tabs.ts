/**
 * `tabs()`: a row of tabs over one panel, `[General]  Advanced ` (roles `tab_list`, its `tab`s
 * with `selected` on the chosen one, and a `tab_panel` named after it holding the chosen
 * tab's content). The tab list is one Tab stop (roving focus): Tab enters at the chosen tab,
 * ArrowLeft and ArrowRight move and choose (wrapping), Home and End go to the first and last,
 * a click, Enter or Space chooses; the next Tab goes into the panel. Agents choose with
 * `{"action": "select", "option": "Advanced"}` on the tab list, or click a tab.
 *
 * A tab's content is mounted when the tab is first shown, and unmounted when another tab is
 * chosen: only the chosen panel costs anything, and its tools, effects and cleanups live as
 * long as it shows. What should outlive a switch (a draft, a setting) belongs in signals
 * made outside the panel, which the panel's widgets bind to.
 *
 * @module
 */

import { disposeOwner, Owner, runWithOwner } from "../../reactive/mod.ts";
import type { State } from "../../semantics/mod.ts";
import type { Rt } from "../rt.ts";
import { interactiveStyle, type PaintArea } from "../surface.ts";
import { type MountContext, type Prop, View } from "../view.ts";
import { BoxWidget, Widget } from "../widget.ts";
import { followName, mountWidget, WidgetView } from "../widget_view.ts";
import { type ChoiceOptions, Choices, normalise } from "./choices.ts";
import { RovingGroup, type RovingKeys, RovingOption } from "./roving.ts";

/** One tab of `tabs()`: its label, and the function that makes its content when first shown. */
export interface TabSpec {
  /** What the tab shows, and its name (and its panel's) for screen readers and agents. */
  readonly label: string;
  /** Makes the tab's content; called each time the tab is chosen after another one. */
  readonly render: () => View;
}

/** What `tabs()` takes. */
export interface TabsOptions {
  /** The tab list's accessible name (not shown); none by default. */
  label?: Prop<string>;
  /** The tabs, in order; their labels must differ (agents choose by label). */
  tabs: readonly TabSpec[];
  /**
   * The chosen tab's label: a signal makes the tabs two-way, a plain value is where they start.
   * The first tab unless given.
   */
  value?: Prop<string>;
  /** Called with the label each time a person or an agent chooses another tab. */
  onChange?: (label: string, rt: Rt) => void;
}

/** The arrows of a tab list: a row, ArrowLeft and ArrowRight. */
const TAB_KEYS: RovingKeys = { next: ["ArrowRight"], previous: ["ArrowLeft"] };

/**
 * The tab list: a row of tabs, one Tab stop. It holds the choice; the panel follows it.
 */
export class TabListWidget extends Widget {
  /** The tabs' labels and the chosen one. */
  readonly choices: Choices<string>;
  /** Where its tabs are mounted; set when it is. */
  context!: MountContext;
  /** Shows the chosen tab's content; set when mounted. */
  panel!: TabPanelWidget;
  /** Its tabs' roving focus. */
  readonly #roving: RovingGroup<string, TabWidget>;

  /** A tab list as `options` describe it (followed by its view). */
  constructor(options: ChoiceOptions<string>) {
    super();
    this.choices = new Choices(options, (optionsChanged) => {
      if (optionsChanged) this.#roving.mountOptions();
      this.#roving.showChosen();
      this.panel?.show(this.choices.index);
    });
    const roving: RovingGroup<string, TabWidget> = new RovingGroup(
      this,
      this.choices,
      TAB_KEYS,
      (index) => mountWidget(this.context, new TabWidget(roving, index), "tab"),
    );
    this.#roving = roving;
  }

  override get kind(): "tab_list" {
    return "tab_list";
  }

  /** The tabs, one for each label, in order. */
  get tabs(): readonly TabWidget[] {
    return this.#roving.options;
  }

  // One Tab stop: the tab with focus, else the chosen one, else the first.
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

/** One tab: `[General]` when chosen, ` General ` when not. */
export class TabWidget extends RovingOption {
  override get kind(): "tab" {
    return "tab";
  }

  protected override get chosenState(): State {
    return "selected";
  }

  /** True on the chosen tab. */
  get selected(): boolean {
    return this.chosen;
  }

  override face(): string {
    return this.selected ? `[${this.label}]` : ` ${this.label} `;
  }

  override paint(area: PaintArea): void {
    const style = interactiveStyle(area, this.selected ? "heading" : "text");
    area.surface.write(area.x, area.y, this.face(), style, area.clip);
  }
}

/** The panel: the chosen tab's content, mounted when shown and unmounted when left. */
export class TabPanelWidget extends Widget {
  readonly #tabs: readonly TabSpec[];
  /** The index of the tab whose content is mounted, or -1. */
  #shown = -1;
  /** What the mounted content's render created. */
  #owner: Owner | null = null;
  /** Where the content is mounted; set when it is. */
  context!: MountContext;

  /** A panel for `tabs`. */
  constructor(tabs: readonly TabSpec[]) {
    super();
    this.#tabs = tabs;
  }

  override get kind(): "tab_panel" {
    return "tab_panel";
  }

  /** The index of the tab whose content shows, or -1 for none. */
  get shown(): number {
    return this.#shown;
  }

  /** Shows the content of tab `index` (none for -1): the old content unmounts first. */
  show(index: number): void {
    if (index === this.#shown) return;
    const host = this.host;
    if (this.#owner !== null) {
      for (const child of [...this.children]) this.removeChild(child);
      const owner = this.#owner;
      this.#owner = null;
      disposeOwner(owner);
    }
    this.#shown = index;
    const spec = this.#tabs[index];
    host.tree.setName(this.node!, spec?.label);
    if (spec === undefined) return;
    const owner = (this.#owner = new Owner(host.runtime, this.context.owner));
    try {
      const content = runWithOwner(owner, () => {
        const view = spec.render();
        if (!(view instanceof View)) {
          throw new TypeError(`tab ${JSON.stringify(spec.label)}'s render must return a view`);
        }
        return view.mount({ host, owner });
      });
      this.append(content);
    } catch (error) {
      host.reportError(error, `the content of tab ${JSON.stringify(spec.label)}`);
    }
  }
}

/** Tabs over one panel. */
export class TabsView extends WidgetView {
  readonly #options: TabsOptions;

  /** Apps call `tabs()` instead. */
  constructor(options: TabsOptions) {
    super();
    this.#options = options;
  }

  /** Makes the widget: a column of the tab list and the panel. */
  protected build(context: MountContext): Widget {
    const options = this.#options;
    const holder = mountWidget(context, new BoxWidget("tabs"), null);
    const labels = options.tabs.map((spec) => spec.label);
    const choice: ChoiceOptions<string> = {
      label: options.label ?? "",
      options: labels,
      value: options.value ?? labels[0] ?? "",
      ...(options.onChange === undefined ? {} : { onChange: options.onChange }),
    };
    const list = mountWidget(context, new TabListWidget(choice), "tab_list");
    list.context = context;
    list.setStyle({ direction: "row", gap: 1 });
    const panel = mountWidget(context, new TabPanelWidget(options.tabs), "tab_panel");
    panel.context = context;
    panel.setStyle({ grow: 1 });
    list.panel = panel;
    holder.append(list);
    holder.append(panel);
    if (options.label !== undefined) followName(context, list, options.label);
    list.choices.follow(context, choice, "tabs()");
    return holder;
  }
}

/**
 * One tab for `tabs()`: `label` shows on the tab and names it and its panel; `render` makes
 * its content each time it is chosen (the content unmounts when another tab is).
 */
export function tab(label: string, render: () => View): TabSpec {
  if (typeof label !== "string" || typeof render !== "function") {
    throw new TypeError("tab() takes a label and a function () => view");
  }
  return Object.freeze({ label, render });
}

/**
 * Tabs over one panel: a `tab_list` of `tab`s, the chosen one `selected`, and a `tab_panel`
 * with its content. A signal as `value` makes them two-way; `onChange` gets the label of
 * each tab chosen. A tab's content is mounted when first shown and unmounted when another
 * tab is chosen: keep what must outlive that in signals outside it.
 *
 * @example Tab enters at the chosen tab; the arrows choose; an agent selects by name
 * ```ts
 * import assert from "node:assert/strict";
 * import { button, column, component, tab, tabs, text } from "@crownui/runtime";
 * import { render } from "@crownui/runtime/testing";
 *
 * await using app = await render(component(() =>
 *   column(
 *     button("Before", () => {}),
 *     tabs({
 *       label: "Settings",
 *       tabs: [
 *         tab("General", () => text("Name and language")),
 *         tab("Advanced", () => text("Cache and logs")),
 *       ],
 *     }),
 *   )
 * ));
 * assert.equal(app.get({ role: "tab_panel" }).name, "General");
 * await app.press("Tab");
 * await app.press("Tab");
 * assert.equal(app.get({ state: "focused" }).name, "General");
 * await app.press("ArrowRight");
 * assert.equal(app.get({ role: "tab", state: "selected" }).name, "Advanced");
 * assert.equal(app.query({ role: "text", name: "Name and language" }).length, 0);
 * await app.act(app.get({ role: "tab_list" }).id, { action: "select", option: "General" });
 * assert.equal(app.get({ role: "tab_panel" }).name, "General");
 * assert.ok(app.screen().find("[General]"));
 * ```
 */
export function tabs(options: TabsOptions): TabsView {
  if (typeof options !== "object" || options === null || !Array.isArray(options.tabs)) {
    throw new TypeError(
      "tabs() takes { label?, tabs: [tab(label, render), ...], value?, onChange? }",
    );
  }
  for (const spec of options.tabs) {
    if (typeof spec?.label !== "string" || typeof spec.render !== "function") {
      throw new TypeError("tabs()'s tabs are made with tab(label, () => view)");
    }
  }
  normalise(options.tabs.map((spec) => spec.label), "tabs()");
  return new TabsView(options);
}
