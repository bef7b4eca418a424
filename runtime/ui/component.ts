/**
 * Components and their `cx`: a component is a function run once at mount that creates its
 * state (signals, memos, effects, tools) and returns the view to show. Everything it creates
 * belongs to its scope and goes away when it unmounts.
 *
 * @module
 */

import {
  EffectNode,
  Memo,
  type Owner,
  runWithOwner,
  Signal,
  type SignalOptions,
} from "../reactive/mod.ts";
import type { Host, WindowSize } from "./host.ts";
import { AppKeybind, type KeybindOptions } from "./keybinds.ts";
import type { Widget } from "./widget.ts";
import type { Rt } from "./rt.ts";
import { type AppTool, type ToolOptions, typedTool } from "./tools.ts";
import { type MountContext, View } from "./view.ts";
import { checkNotify, type NotifyOptions } from "./widgets/status.ts";
import { Owner as OwnerClass } from "../reactive/mod.ts";

/**
 * A component's context: creates state owned by the component (signals, memos, effects,
 * tools). Reading and writing those signals does not need it.
 */
export class Cx {
  readonly #owner: Owner;
  readonly #host: Host;
  /** The widget the component mounted, once it has: its bindings apply where it is. */
  #widget: Widget | null = null;
  /** The bindings made before the component's widget existed. */
  #unscoped: AppKeybind[] = [];

  /**
   * Made by `component()` at mount; apps receive it. It takes the reactive graph's scope,
   * which is no part of the package's API, so its docs leave this out.
   *
   * @ignore
   */
  constructor(owner: Owner, host: Host) {
    this.#owner = owner;
    this.#host = host;
  }

  /**
   * The component's view mounted as `widget`: its keybindings apply where it is.
   *
   * @ignore
   */
  mounted(widget: Widget): void {
    this.#widget = widget;
    for (const binding of this.#unscoped) binding.scope = widget;
    this.#unscoped = [];
  }

  #alive(method: string): Owner {
    if (this.#owner.disposed) {
      throw new Error(`cx.${method}() was called after the component unmounted`);
    }
    return this.#owner;
  }

  /** The runtime handle, for code that outlives the component's setup. */
  get rt(): Rt {
    return this.#host.rt;
  }

  /**
   * Creates a signal owned by the component. With `{ secret: true }` it is a declared secret,
   * as `cx.secret()` makes.
   */
  signal<T>(initial: T, options: SignalOptions<T> = {}): Signal<T> {
    return new Signal(this.#alive("signal"), initial, options);
  }

  /**
   * Creates a signal declared secret from the start: nothing the runtime outputs shows its
   * value (inspection, the tree, logs, errors), mounted or not, and a `.secure()` field may be
   * bound to it. A binding, memo or effect that reads it may feed only a `.secure()` property
   * or a true-or-false state (a button disabled while it is empty); one that shows it
   * otherwise (text, name, label, value), even inside a longer string, is refused, and a
   * signal such an effect changes becomes secret too. Event handlers may read it (a Sync
   * button sending it); `cx.reveal()` shows what tells little of it, such as its length.
   *
   * @example A secure field bound to a secret, and a button that reads it
   * ```ts
   * import assert from "node:assert/strict";
   * import { bind, button, column, component, textField } from "@crownui/runtime";
   * import { render } from "@crownui/runtime/testing";
   *
   * await using app = await render(component((cx) => {
   *   const password = cx.secret("hunter2", { name: "sync password" });
   *   return column(
   *     textField({ label: "Sync password", value: password }).secure(),
   *     button("Sync", () => {}).disabled(bind(() => password.get() === "")),
   *   );
   * }));
   * assert.doesNotMatch(app.tree(), /hunter2/);
   * assert.doesNotMatch(JSON.stringify(app.snapshot()), /hunter2/);
   * ```
   */
  secret<T>(initial: T, options: Omit<SignalOptions<T>, "secret"> = {}): Signal<T> {
    return new Signal(this.#alive("secret"), initial, { ...options, secret: true });
  }

  /** Creates a memo: a derived value computed on read and cached until its sources change. */
  memo<T>(fn: (rt: Rt) => T, options: { equals?: (a: T, b: T) => boolean } = {}): Memo<T> {
    const rt = this.#host.rt;
    return new Memo(this.#alive("memo"), () => fn(rt), options.equals);
  }

  /**
   * Creates a memo whose value may be shown although it reads secrets: the app vouches that
   * it tells little of them (a length, a mask, a strength score), so what reads it reads no
   * secret. A value that holds a secret it read as it is (the secret itself, or, inside a
   * string, a secret of 4 characters or more) is refused: reading the memo throws, and a
   * property bound to it reports the error and keeps what it showed.
   *
   * @example A password's length, shown in a text
   * ```ts
   * import assert from "node:assert/strict";
   * import { bind, column, component, text, textField } from "@crownui/runtime";
   * import { render } from "@crownui/runtime/testing";
   *
   * await using app = await render(component((cx) => {
   *   const password = cx.secret("hunter2", { name: "password" });
   *   const length = cx.reveal(() => password.get().length);
   *   return column(
   *     textField({ label: "Password", value: password }).secure(),
   *     text(bind(() => `${length.get()} characters`)),
   *   );
   * }));
   * assert.equal(app.get({ role: "text" }).name, "7 characters");
   * assert.doesNotMatch(app.tree(), /hunter2/);
   * ```
   */
  reveal<T>(fn: (rt: Rt) => T, options: { equals?: (a: T, b: T) => boolean } = {}): Memo<T> {
    const rt = this.#host.rt;
    return new Memo(this.#alive("reveal"), () => fn(rt), options.equals, true);
  }

  /** Runs `fn` now and again at each frame after a signal it read changed. */
  effect(fn: (rt: Rt) => void): void {
    const owner = this.#alive("effect");
    const rt = this.#host.rt;
    const effect = new EffectNode(
      owner,
      () => fn(rt),
      (error) => this.#host.reportError(error, "an effect"),
    );
    effect.update();
  }

  /**
   * Shows a short-lived status message: `text` on a line at the bottom of the app's area, in
   * the theme's colour of `kind` (`info` unless given; `success`, `warning`, `error`), for
   * `durationMs` (5,000 unless given). Agents see it as a `status` node named by the text with
   * the kind as its value, in the tree while it shows and in the receipt of the `ui_act` whose
   * handler showed it. A click takes it away; at most three show at once.
   *
   * @example A Save button that says it saved, to the person and in the agent's receipt
   * ```ts
   * import assert from "node:assert/strict";
   * import { button, component } from "@crownui/runtime";
   * import { render } from "@crownui/runtime/testing";
   *
   * await using app = await render(component((cx) =>
   *   button("Save", () => cx.notify("Saved 3 notes", { kind: "success" }))
   * ), { clock: "manual" });
   * await app.act(app.get({ role: "button" }).id, { action: "click" });
   * assert.match(app.tree(), /status "Saved 3 notes" #\d+ value="success"/);
   * assert.ok(app.screen().find("✓ Saved 3 notes"));
   * await app.advance(5000);
   * assert.equal(app.query({ role: "status" }).length, 0);
   * ```
   */
  notify(text: string, options: NotifyOptions = {}): void {
    this.#alive("notify");
    const { kind, durationMs } = checkNotify(text, options);
    this.#host.notify(text, kind, durationMs);
  }

  /**
   * Binds `keys` (`"Ctrl+S"`, `"F5"`, `"n"`: any spelling `press_key` takes) app-wide while the
   * component is mounted: pressing it runs `handler`, unless the focused widget or one of its
   * ancestors handled the key first (a text field keeps the letters it types; Enter on a
   * button clicks it). With `{ priority: true }` it comes before the focused widget, but
   * never takes a character a focused text field types. While a dialog is open, only the
   * bindings of components inside it apply. The hint line at the bottom of the terminal shows
   * the bindings that apply (`{ hint: false }` leaves one out), `?` or F1 lists them all,
   * and agents find them in `inspect_snapshot`'s `keybinds` and press them with `press_key`
   * on any node. Of two bindings of one key, the one made last applies. A key that cannot be
   * parsed throws TypeError.
   *
   * @example Ctrl+S saves, whatever has focus
   * ```ts
   * import assert from "node:assert/strict";
   * import { bind, column, component, text, textField } from "@crownui/runtime";
   * import { render } from "@crownui/runtime/testing";
   *
   * await using app = await render(component((cx) => {
   *   const draft = cx.signal("");
   *   const saved = cx.signal("nothing");
   *   cx.keybind("Ctrl+S", "Save", () => saved.set(draft.get()));
   *   return column(
   *     textField({ label: "Note", value: draft }).autofocus(),
   *     text(bind(() => `Saved: ${saved.get()}`)),
   *   );
   * }));
   * await app.type("milk");
   * await app.press("Ctrl+S");
   * assert.equal(app.get({ role: "text" }).name, "Saved: milk");
   * assert.deepEqual(app.snapshot().keybinds, [{ key: "Ctrl+S", description: "Save", applies: true }]);
   * ```
   */
  keybind(
    keys: string,
    description: string,
    handler: (rt: Rt) => void,
    options: KeybindOptions = {},
  ): void {
    const owner = this.#alive("keybind");
    const binding = new AppKeybind(keys, description, handler, options);
    if (this.#widget !== null) binding.scope = this.#widget;
    else this.#unscoped.push(binding);
    owner.cleanups.push(this.#host.keybinds.add(binding));
  }

  /**
   * The window's size in cells, `{ columns, rows }`, as a read-only value that follows
   * resizes: a binding or memo that reads it runs again when the window changes size, so a
   * layout can follow it. In the terminal it is the terminal's size less the status line; a
   * headless app has its renderer's size (80 by 24 unless told), and the harness's `resize()`
   * changes it.
   *
   * @example A panel that shows more columns in a wide window
   * ```ts
   * import assert from "node:assert/strict";
   * import { bind, component, text } from "@crownui/runtime";
   * import { render } from "@crownui/runtime/testing";
   *
   * await using app = await render(component((cx) => {
   *   const size = cx.windowSize();
   *   return text(bind(() => size.get().columns >= 100 ? "wide" : "narrow"));
   * }), { width: 80, height: 24 });
   * assert.equal(app.get({ role: "text" }).name, "narrow");
   * await app.resize(120, 40);
   * assert.equal(app.get({ role: "text" }).name, "wide");
   * ```
   */
  windowSize(): Memo<WindowSize> {
    const owner = this.#alive("windowSize");
    const size = this.#host.windowSize();
    return new Memo(owner, () => size.get());
  }

  /** Runs `fn` when the component unmounts (or the app closes). */
  onCleanup(fn: () => void): void {
    this.#alive("onCleanup").cleanups.push(fn);
  }

  /**
   * Registers a tool for agents for as long as the component is mounted. Registering the
   * same name again replaces the earlier tool.
   */
  registerTool(tool: AppTool): void {
    const owner = this.#alive("registerTool");
    owner.cleanups.push(this.#host.tools.register(tool));
  }

  /**
   * Registers a typed tool for as long as the component is mounted: `run` gets the arguments
   * parsed by the zod schema `input`, and a call that does not match it is refused before
   * `run` runs, with each problem's path (`invalid arguments: title: expected string,
   * received number`). Returns the tool.
   *
   * @example A tool that adds a note; a title that is not a string never reaches `run`
   * ```ts
   * import assert from "node:assert/strict";
   * import { z } from "zod";
   * import { bind, component, text } from "@crownui/runtime";
   * import { render } from "@crownui/runtime/testing";
   *
   * await using app = await render(component((cx) => {
   *   const notes = cx.signal<string[]>([]);
   *   cx.tool({
   *     name: "add_note",
   *     description: "Adds a note at the end of the list",
   *     input: z.object({ title: z.string().min(1) }),
   *     run: (_rt, { title }) => {
   *       notes.update((list) => list.push(title));
   *       return { count: notes.with((list) => list.length) };
   *     },
   *   });
   *   return text(bind(() => `${notes.with((list) => list.length)} notes`));
   * }));
   * assert.equal(await app.callTool("add_note", { title: "Milk" }), `{"count":1}`);
   * await assert.rejects(app.callTool("add_note", { title: 3 }), /invalid arguments: title/);
   * assert.equal(app.get({ role: "text" }).name, "1 notes");
   * ```
   */
  tool<Args extends Record<string, unknown>>(options: ToolOptions<Args>): AppTool {
    this.#alive("tool");
    const tool = typedTool(options);
    this.registerTool(tool);
    return tool;
  }
}

/** A component: a view whose setup function runs once per mount. */
export class Component extends View {
  readonly #setup: (cx: Cx) => View;

  /** Apps call `component()` instead. */
  constructor(setup: (cx: Cx) => View) {
    super();
    this.#setup = setup;
  }

  /** Runs the setup in a new scope and mounts the view it returns. */
  mount(context: MountContext): Widget {
    const owner = new OwnerClass(context.host.runtime, context.owner);
    const cx = new Cx(owner, context.host);
    return runWithOwner(owner, () => {
      const view = this.#setup(cx);
      if (!(view instanceof View)) {
        throw new TypeError(
          `a component must return a view (text(), column(), ...), got ${describe(view)}`,
        );
      }
      const widget = view.mount({ host: context.host, owner });
      cx.mounted(widget);
      return widget;
    });
  }
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "object") return value.constructor?.name ?? "an object";
  return typeof value;
}

/**
 * Makes a component from a setup function. The setup runs once each time the component
 * mounts; a component is itself a view, so components nest.
 *
 * @example Two mounts of one component, each with its own count
 * ```ts
 * import assert from "node:assert/strict";
 * import { bind, button, component, row, text } from "@crownui/runtime";
 * import { render } from "@crownui/runtime/testing";
 *
 * const counter = component((cx) => {
 *   const count = cx.signal(0);
 *   return row(
 *     button("+1", () => count.set(count.get() + 1)),
 *     text(bind(() => `${count.get()}`)),
 *   );
 * });
 * await using app = await render(row(counter, counter));
 * const [first] = app.query({ role: "button", name: "+1" });
 * await app.act(first!.id, { action: "click" });
 * assert.deepEqual(app.query({ role: "text" }).map((match) => match.name), ["1", "0"]);
 * ```
 */
export function component(setup: (cx: Cx) => View): Component {
  if (typeof setup !== "function") throw new TypeError("component() takes a function (cx) => view");
  return new Component(setup);
}
