/**
 * The renderer conformance suite: what every renderer must do, run by each renderer's own
 * test file (`runRendererConformance("HeadlessRenderer", create)`). A renderer reports its
 * size, lets the app lay out inside it, changes nothing agents see (the same actions give
 * the same tree and revisions), stays fast on a 10,000-row list, and closes safely twice.
 * A renderer that draws also shows, when the harness can read its screen back, each node's
 * name where its bounds say, dialogs above the content, and wide characters whole.
 *
 * @module
 */

import assert from "node:assert/strict";
import { App } from "../app/app.ts";
import type { Renderer } from "../app/renderer.ts";
import { absoluteBounds, formatTree, layoutEntries, type SemanticNode } from "../semantics/mod.ts";
import {
  bind,
  button,
  checkbox,
  column,
  component,
  dialog,
  heading,
  list,
  menu,
  menuItem,
  progressBar,
  radioGroup,
  row,
  scrollView,
  select,
  show,
  slider,
  spinner,
  tab,
  table,
  tabs,
  text,
  textArea,
  textField,
  toggleSwitch,
  treeView,
  type View,
  widget,
} from "../ui/mod.ts";

/** One renderer made for one test, with what the suite may ask of it. */
export interface RendererHarness {
  /** The renderer under test. */
  renderer: Renderer;
  /** Called once the app exists (the terminal renderer starts here). */
  attach?(app: App): void;
  /** The screen's rows as text, for a renderer that draws and can be read back. */
  screen?(): Promise<string[]>;
  /** Releases what the harness holds (an emulator). */
  dispose?(): void | Promise<void>;
}

/** Makes a harness whose app area is `width` by `height` cells. */
export type CreateRenderer = (size: { width: number; height: number }) => RendererHarness;

/** A row count that makes a list long enough to need drawing only what is visible. */
export const LONG_LIST_ROWS = 10_000;

/** An app with one widget of every kind the runtime has, and a dialog to open. */
export function everyWidget(): View {
  return component((cx) => {
    const open = cx.signal(false, { name: "open" });
    const items = cx.signal(["Alpha", "Beta", "Gamma"], { name: "items" });
    return column(
      text("Plain text 漢字"),
      row(
        button("Open", () => open.set(true)),
        checkbox("Check", true),
        menu("Menu", menuItem("Item", () => {})),
      ),
      textField({ label: "Field", value: "typed" }),
      slider({ label: "Level", value: 30, min: 0, max: 100 }),
      scrollView(list(items, (item) => text(item))).height(2),
      row(
        select({ label: "Colour", options: ["Red", "Green", "Blue"], value: "Red" }),
        radioGroup({ label: "Size", options: ["Small", "Medium", "Large"], value: "Small" }),
        toggleSwitch({ label: "Wi-Fi", value: true }),
      ).gap(1),
      row(progressBar({ label: "Download", value: 50 }), spinner({ label: "Syncing" })),
      row(
        tabs({
          label: "Tabs",
          tabs: [tab("General", () => text("Panel")), tab("Advanced", () => text("More"))],
        }),
        table({
          label: "Files",
          columns: [
            { header: "Name", cell: (file: string) => file },
            { header: "Size", cell: (file: string) => file.length, align: "right" },
          ],
          rows: ["a.txt", "notes.md", "zz.log"],
        }).height(3),
        treeView({
          label: "Folders",
          items: ["src", "docs"],
          children: (folder) => [`${folder}/a`],
        }).height(3),
      ).gap(2),
      show(open, () =>
        dialog(
          "Dialog",
          text("Inside"),
          button("Close", () => open.set(false)),
        ).onClose(() => open.set(false))),
    );
  });
}

/** A counter: a button and the count it changes. */
function counter(): View {
  return component((cx) => {
    const count = cx.signal(0, { name: "count" });
    return column(
      button("+1", () => count.set(count.get() + 1)),
      text(bind(() => `Count: ${count.get()}`)),
    );
  });
}

/** A list of `rows` rows in a scroll view, each a checkbox and a text. */
export function longList(rows: number): View {
  return component((cx) => {
    const items = cx.signal(Array.from({ length: rows }, (_, index) => index), { name: "rows" });
    return column(
      text(`${rows} rows`),
      scrollView(list(items, (index) => row(checkbox("Done", false), text(`Row ${index}`)))),
    );
  });
}

/** One of each leaf widget, and what each must draw: its whole line, as wide as measured. */
export const WIDGET_FACES: readonly { role: string; name: string; face: string }[] = [
  { role: "button", name: "Open", face: "[ Open ]" },
  { role: "checkbox", name: "Check", face: "[x] Check" },
  { role: "menu", name: "Menu", face: "Menu ▾" },
  { role: "text_field", name: "Field", face: "Field: [typed   ]" },
  { role: "slider", name: "Level", face: `Level [●${"─".repeat(19)}] 0` },
  { role: "text", name: "Plain", face: "Plain" },
  { role: "heading", name: "Title", face: "Title" },
  { role: "progress_bar", name: "Custom", face: "Custom line" },
  { role: "combo_box", name: "Colour", face: "Colour [Red    ▾]" },
  { role: "radio_button", name: "Small", face: "(•) Small" },
  { role: "radio_button", name: "Medium", face: "( ) Medium" },
  { role: "switch", name: "Wi-Fi", face: "Wi-Fi [ ●]" },
  { role: "switch", name: "Bluetooth", face: "Bluetooth [○ ]" },
  { role: "progress_bar", name: "Download", face: "Download [██████████░░░░░░░░░░]  50%" },
  { role: "tab", name: "General", face: "[General]" },
  { role: "tab", name: "Advanced", face: " Advanced " },
];

function widgetFaces(): View {
  return component(() =>
    column(
      heading("Title"),
      text("Plain"),
      button("Open", () => {}),
      checkbox("Check", true),
      menu("Menu", menuItem("Item", () => {})),
      textField({ label: "Field", value: "typed", columns: 8 }),
      slider({ label: "Level", value: 0, min: 0, max: 100 }),
      widget({ role: "progress_bar", name: "Custom", content: "Custom line" }),
      select({ label: "Colour", options: ["Red", "Green", "Blue"], value: "Red" }),
      radioGroup({ label: "Size", options: ["Small", "Medium"], value: "Small" }),
      toggleSwitch({ label: "Wi-Fi", value: true }),
      toggleSwitch({ label: "Bluetooth", value: false }),
      progressBar({ label: "Download", value: 50 }),
      // A third tab, so that the one the faces check does not end the line.
      tabs({
        tabs: [
          tab("General", () => text("Panel")),
          tab("Advanced", () => text("More")),
          tab("About", () => text("About")),
        ],
      }),
    )
  );
}

/** A text area whose text wraps into more rows than it shows, and what it must draw. */
export const TEXT_AREA_CASE = {
  view: () =>
    column(
      text("Above"),
      textArea({
        label: "Notes",
        value: "Buy milk\nCall Anna about the trip to the coast\nPack\nBook",
        columns: 16,
        rows: 3,
      }),
    ),
  /** The label line and the box's rows, as drawn from the area's top-left corner. */
  drawn: [
    "Notes:",
    "Buy milk        ┃",
    "Call Anna about ┃",
    "the trip to the │",
  ],
} as const;

/** Starts an app on a harness; returns it with a function that tears both down. */
function start(create: CreateRenderer, root: View, width = 60, height = 16) {
  const harness = create({ width, height });
  const app = new App(root, { title: "Conformance", renderer: harness.renderer });
  harness.attach?.(app);
  app.frame();
  return {
    app,
    harness,
    async stop() {
      app.close();
      await harness.dispose?.();
    },
  };
}

function nodeId(app: App, role: string, name: string): number {
  const entry = [...walk(app)].find((node) => node.role === role && node.name === name);
  if (entry === undefined) {
    throw new Error(`no ${role} "${name}" in:\n${formatTree(app.tree.root)}`);
  }
  return entry.id;
}

function* walk(app: App) {
  const stack = [app.tree.root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    yield node;
    stack.push(...node.children);
  }
}

/** True when a node lies wholly inside each of its ancestors (none scrolls it away). */
function shownWhole(node: SemanticNode): boolean {
  const inner = absoluteBounds(node);
  for (let parent = node.parent; parent !== null; parent = parent.parent) {
    const outer = absoluteBounds(parent);
    if (
      inner.x < outer.x || inner.y < outer.y || inner.x + inner.width > outer.x + outer.width ||
      inner.y + inner.height > outer.y + outer.height
    ) return false;
  }
  return true;
}

/** Registers the suite's tests for the renderer that `create` makes. */
export function runRendererConformance(name: string, create: CreateRenderer): void {
  Deno.test(`${name} conformance: reports its kind and the size it was made with`, async () => {
    const harness = create({ width: 50, height: 12 });
    try {
      assert.ok(["headless", "terminal"].includes(harness.renderer.kind));
      assert.deepEqual(harness.renderer.size(), { width: 50, height: 12 });
    } finally {
      harness.renderer.close();
      await harness.dispose?.();
    }
  });

  Deno.test(`${name} conformance: every node of every widget kind lies in the window`, async () => {
    const { app, stop } = start(create, everyWidget());
    try {
      app.act(nodeId(app, "button", "Open"), { action: "click" });
      assert.ok(app.overlays.length === 1, "the dialog opened");
      for (const entry of layoutEntries(app.tree.root)) {
        if (entry.width === 0 && entry.height === 0) continue;
        assert.ok(entry.x >= 0 && entry.y >= 0, `node #${entry.id} starts inside the window`);
        assert.ok(entry.x + entry.width <= 60, `node #${entry.id} ends inside the width`);
      }
    } finally {
      await stop();
    }
  });

  Deno.test(`${name} conformance: actions give the tree and revisions they give headless`, async () => {
    const { app, stop } = start(create, counter());
    try {
      const plus = nodeId(app, "button", "+1");
      const revision = app.tree.revision;
      assert.equal(app.act(plus, { action: "click" }, revision), revision + 1);
      assert.equal(
        formatTree(app.tree.root),
        `window "Conformance" #1\n button "+1" #2 focused\n text "Count: 1" #3\n`,
      );
      assert.throws(() => app.act(plus, { action: "click" }, revision), /stale revision/);
    } finally {
      await stop();
    }
  });

  Deno.test(`${name} conformance: a 10,000-row list scrolls in a few milliseconds a frame`, async () => {
    const { app, harness, stop } = start(create, longList(LONG_LIST_ROWS), 60, 20);
    try {
      const view = [...walk(app)].find((node) => node.role === "scroll_view")!;
      app.act(view.id, { action: "scroll", delta: { x: 0, y: 5000 } });
      const frames = 50;
      const begin = performance.now();
      for (let step = 0; step < frames; step++) {
        app.act(view.id, { action: "scroll", delta: { x: 0, y: 1 } });
      }
      const perFrame = (performance.now() - begin) / frames;
      // Generous for a shared CI machine; the benchmark gives the real figure.
      assert.ok(perFrame < 25, `a scroll frame took ${perFrame.toFixed(2)} ms`);
      const screen = await harness.screen?.();
      if (screen !== undefined) {
        assert.ok(screen.some((line) => line.includes("Row 5050")), screen.join("\n"));
        assert.ok(
          !screen.some((line) => line.includes("Row 4999 ")),
          "rows above the view are hidden",
        );
      }
    } finally {
      await stop();
    }
  });

  Deno.test(`${name} conformance: close() is safe twice and later frames draw nothing`, async () => {
    const { app, harness, stop } = start(create, counter());
    await stop();
    harness.renderer.close();
    assert.equal(app.frame(), null);
    harness.renderer.render(app); // a stray frame after close must not throw
  });

  Deno.test(`${name} conformance: what is drawn matches the tree`, async (t) => {
    const { app, harness, stop } = start(create, everyWidget());
    try {
      const screen = await harness.screen?.();
      if (screen === undefined) return; // draws nothing: nothing to compare
      await t.step("each named leaf is drawn where its bounds say", () => {
        const named = new Set([
          "text",
          "button",
          "checkbox",
          "text_field",
          "slider",
          "menu",
          "combo_box",
          "radio_group",
          "radio_button",
          "switch",
          "tab",
          "progress_bar",
          "column_header",
          "cell",
          "tree_item",
        ]);
        for (const entry of layoutEntries(app.tree.root)) {
          const node = app.tree.get(entry.id)!;
          if (!named.has(node.role) || node.name === undefined) continue;
          if (!shownWhole(node)) continue; // scrolled out of view
          const line = screen[entry.y] ?? "";
          const shown = line.slice(entry.x);
          assert.ok(
            shown.includes(node.name.split(" ")[0]!),
            `${node.role} "${node.name}" at ${entry.x},${entry.y}; the line is ${
              JSON.stringify(line)
            }`,
          );
        }
      });
      await t.step("wide characters are drawn whole", () => {
        assert.ok(screen.some((line) => line.includes("Plain text 漢字")), screen.join("\n"));
      });
      await t.step("a dialog is drawn above the content", async () => {
        app.act(nodeId(app, "button", "Open"), { action: "click" });
        const after = await harness.screen!();
        const dialogNode = [...walk(app)].find((node) => node.role === "dialog")!;
        const entry = layoutEntries(app.tree.root).find((e) => e.id === dialogNode.id)!;
        assert.match(after[entry.y]!.slice(entry.x), /^┌─+┐/);
        assert.ok(after.some((line) => line.includes("Inside")), after.join("\n"));
      });
    } finally {
      await stop();
    }
  });

  Deno.test(`${name} conformance: a text area draws its wrapped lines and scroll bar in its bounds`, async () => {
    const { app, harness, stop } = start(create, TEXT_AREA_CASE.view(), 40, 8);
    try {
      const node = [...walk(app)].find((n) => n.role === "text_area")!;
      const entry = layoutEntries(app.tree.root).find((e) => e.id === node.id)!;
      assert.deepEqual([entry.x, entry.y, entry.width, entry.height], [0, 1, 17, 4]);
      assert.equal(node.value, "Buy milk\nCall Anna about the trip to the coast\nPack\nBook");
      const screen = await harness.screen?.();
      if (screen === undefined) return; // draws nothing: nothing to compare
      const drawn = screen.slice(entry.y, entry.y + entry.height)
        .map((line) => line.slice(entry.x, entry.x + entry.width).trimEnd());
      assert.deepEqual(drawn, TEXT_AREA_CASE.drawn);
    } finally {
      await stop();
    }
  });

  Deno.test(`${name} conformance: each widget draws its line as wide as it measured`, async () => {
    const { app, harness, stop } = start(create, widgetFaces());
    try {
      const screen = await harness.screen?.();
      if (screen === undefined) return; // draws nothing: nothing to compare
      for (const { role, name: widgetName, face } of WIDGET_FACES) {
        const node = [...walk(app)].find((n) => n.role === role && n.name === widgetName)!;
        const entry = layoutEntries(app.tree.root).find((e) => e.id === node.id)!;
        assert.equal(entry.width, face.length, `${role} "${widgetName}" measured ${entry.width}`);
        const drawn = (screen[entry.y] ?? "").slice(entry.x, entry.x + entry.width);
        assert.equal(drawn, face, `${role} "${widgetName}" at ${entry.x},${entry.y}`);
      }
    } finally {
      await stop();
    }
  });
}
