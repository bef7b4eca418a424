import assert from "node:assert/strict";
import { bind, button, column, component, tab, tabs, text, textField } from "../../mod.ts";
import { render } from "../../testing.ts";
import type { Signal } from "../../reactive/mod.ts";

/** An app with a button, tabs General / Advanced / About, and a record of what mounted. */
function tabsApp(
  log: string[],
  options: { disabled?: boolean; chosen?: (s: Signal<string>) => void } = {},
) {
  return component((cx) => {
    const chosen = cx.signal("General", { name: "tab" });
    options.chosen?.(chosen);
    const panel = (name: string) => () =>
      component((inner) => {
        log.push(`mount ${name}`);
        inner.onCleanup(() => log.push(`unmount ${name}`));
        return text(`${name} content`);
      });
    return column(
      button("Before", () => {}),
      tabs({
        label: "Settings",
        value: chosen,
        tabs: [
          tab("General", panel("General")),
          tab("Advanced", panel("Advanced")),
          tab("About", panel("About")),
        ],
      }).disabled(options.disabled ?? false),
      button("After", () => {}),
      text(bind(() => `Tab: ${chosen.get()}`)),
    );
  });
}

Deno.test("tabs: the tree has a tab list of tabs and one panel named after the chosen tab", async () => {
  const log: string[] = [];
  await using app = await render(tabsApp(log));
  assert.match(
    app.tree(),
    /tab_list "Settings" #\d+\n {2}tab "General" #\d+ selected\n {2}tab "Advanced" #\d+\n {2}tab "About" #\d+\n tab_panel "General" #\d+\n {2}text "General content" #\d+\n/,
  );
  assert.deepEqual(log, ["mount General"], "only the chosen tab's content is mounted");
  assert.equal(app.screen().lines[1], "[General]  Advanced   About");
});

Deno.test("tabs: one Tab stop; arrows wrap, Home and End; the panel follows at once", async () => {
  const log: string[] = [];
  await using app = await render(tabsApp(log));
  await app.press("Tab"); // Before
  await app.press("Tab"); // the tab list, at the chosen tab
  assert.equal(app.get({ state: "focused" }).name, "General");
  await app.press("ArrowLeft"); // wraps to the last
  assert.equal(app.get({ role: "tab", state: "selected" }).name, "About");
  assert.equal(app.get({ role: "tab_panel" }).name, "About");
  assert.ok(app.query({ role: "text", name: "About content" }).length === 1);
  await app.press("ArrowRight"); // wraps to the first
  assert.equal(app.get({ role: "tab", state: "focused" }).name, "General");
  await app.press("End");
  assert.equal(app.get({ role: "tab", state: "selected" }).name, "About");
  await app.press("Home");
  assert.equal(app.get({ role: "tab", state: "selected" }).name, "General");
  await app.press("ArrowRight");
  assert.match(app.tree(), /text "Tab: Advanced"/);
  await app.press("Tab"); // past the other tabs: one Tab stop
  assert.equal(app.get({ state: "focused" }).name, "After");
  await app.press("Shift+Tab"); // back in at the chosen tab
  assert.equal(app.get({ state: "focused" }).name, "Advanced");
  assert.deepEqual(log, [
    "mount General",
    "unmount General",
    "mount About",
    "unmount About",
    "mount General",
    "unmount General",
    "mount About",
    "unmount About",
    "mount General",
    "unmount General",
    "mount Advanced",
  ]);
});

Deno.test("tabs: the content takes focus after the tab list; a click and Enter choose", async () => {
  await using app = await render(component((cx) => {
    const draft = cx.signal("kept", { name: "draft" });
    return tabs({
      tabs: [
        tab("General", () => textField({ label: "Name", value: draft })),
        tab("Advanced", () => button("Clear cache", () => {})),
      ],
    });
  }));
  await app.press("Tab");
  assert.equal(app.get({ state: "focused" }).name, "General");
  await app.press("Tab");
  assert.equal(app.get({ state: "focused" }).name, "Name");
  await app.act(app.get({ role: "tab", name: "Advanced" }).id, { action: "click" });
  assert.equal(app.get({ role: "tab_panel" }).name, "Advanced");
  assert.equal(app.get({ state: "focused" }).name, "Advanced");
  await app.press("ArrowLeft");
  await app.press("ArrowRight");
  await app.press("Enter"); // on the chosen tab: nothing changes
  assert.equal(app.get({ role: "tab_panel" }).name, "Advanced");
  await app.act(app.get({ role: "tab", name: "General" }).id, {
    action: "press_key",
    keybind: "Enter",
  });
  // The signal outside the panel kept the field's text across the switch.
  assert.equal(app.get({ role: "text_field", name: "Name" }).value, "kept");
});

Deno.test("tabs: an agent selects by name; an unknown name is refused with the tabs named", async () => {
  let chosen: Signal<string> | undefined;
  await using app = await render(tabsApp([], { chosen: (s) => (chosen = s) }));
  const list = app.get({ role: "tab_list" }).id;
  await app.act(list, { action: "select", option: "About" });
  assert.equal(chosen!.get(), "About");
  assert.match(app.tree(), /tab "About" #\d+ focused selected/);
  await assert.rejects(
    () => app.act(list, { action: "select", option: "Network" }),
    /invalid arguments: no option named "Network" in this tab_list; its options are "General", "Advanced", "About"/,
  );
  // The app sets the signal: the tabs follow.
  chosen!.set("Advanced");
  await app.settle();
  assert.equal(app.get({ role: "tab_panel" }).name, "Advanced");
  assert.equal(app.get({ role: "tab", state: "selected" }).name, "Advanced");
});

Deno.test("tabs: focus, hover and disabled looks", async () => {
  {
    await using app = await render(tabsApp([]));
    const at = app.screen().find("[General]")!;
    const plain = app.screen().styleAt(at.x + 12, at.y); // "Advanced"
    assert.match(app.screen().styleAt(at.x + 1, at.y), /bold/, "the chosen tab stands out");
    await app.act(app.get({ role: "tab", name: "Advanced" }).id, { action: "hover" });
    assert.notEqual(app.screen().styleAt(at.x + 12, at.y), plain, "hover shows");
    await app.act(app.get({ role: "tab", name: "Advanced" }).id, { action: "focus" });
    assert.match(app.screen().styleAt(at.x + 12, at.y), /inverse/, "focus shows");
  }
  {
    await using app = await render(tabsApp([], { disabled: true }));
    assert.match(app.tree(), /tab "General" #\d+ selected disabled/);
    const at = app.screen().find("[General]")!;
    assert.match(app.screen().styleAt(at.x + 1, at.y), /fg=/, "muted");
    await assert.rejects(
      () => app.act(app.get({ role: "tab", name: "Advanced" }).id, { action: "click" }),
      /disabled/,
    );
    await app.press("Tab"); // Before
    await app.press("Tab");
    assert.equal(app.get({ state: "focused" }).name, "After", "a disabled tab list is skipped");
  }
});

Deno.test("tabs: repeated labels and bad tabs are refused when made", () => {
  assert.throws(
    () => tabs({ tabs: [tab("A", () => text("a")), tab("A", () => text("b"))] }),
    /labels that differ/,
  );
  assert.throws(() => tabs({ tabs: [{ label: "A" } as never] }), /tab\(label/);
  assert.throws(() => tab("A", "text" as never), /tab\(\) takes a label/);
});
