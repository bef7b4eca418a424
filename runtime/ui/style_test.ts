import assert from "node:assert/strict";
import { HeadlessRenderer } from "../render/headless.ts";
import { render } from "../testing.ts";
import { bind, column, component, row, span, text } from "./mod.ts";
import { checkStyle } from "./style.ts";
import { DARK_THEME, defineTheme, LIGHT_THEME } from "./theme.ts";
import type { Signal } from "../reactive/mod.ts";

/** The look of the cell at (x, y) of the app's last frame, in words, at 24-bit colour. */
function lookAt(app: { app: { renderer: unknown } }, x: number, y: number): string {
  const screen = (app.app.renderer as HeadlessRenderer).paint("truecolor");
  return screen.palette.describe(screen.styles[y * screen.width + x]!);
}

Deno.test("a span colours a word; the node's name is the plain text", async () => {
  await using app = await render(
    component(() => text(["Sync ", span("failed", { fg: "error", bold: true }), " now"])),
  );
  assert.equal(app.get({ role: "text" }).name, "Sync failed now");
  assert.equal(lookAt(app, 0, 0), "default");
  assert.equal(lookAt(app, 5, 0), "fg=1 bold", "the dark theme's error is palette colour 1");
  assert.equal(lookAt(app, 11, 0), "default");
  assert.doesNotMatch(app.tree(), /error|bold/, "styles never reach the tree");
});

Deno.test(".style() colours a view and its children, bound like any property", async () => {
  let failed: Signal<boolean> | undefined;
  await using app = await render(component((cx) => {
    failed = cx.signal(false, { name: "failed" });
    const state = failed;
    return column(
      row(text("Job"), text("ok")).style(
        bind(() => state.get() ? { fg: "#ff0000", underline: true } : {}),
      ),
      text("plain"),
    );
  }));
  assert.equal(lookAt(app, 0, 0), "default");
  failed!.set(true);
  await app.settle();
  assert.equal(lookAt(app, 0, 0), "fg=#ff0000 underline", "a child inherits its row's style");
  assert.equal(lookAt(app, 4, 0), "fg=#ff0000 underline");
  assert.equal(lookAt(app, 0, 1), "default");
});

Deno.test("themes map meanings to colours; defineTheme() checks what it is given", () => {
  const ember = defineTheme(DARK_THEME, {
    name: "ember",
    colours: { accent: "#ff8700" },
    styles: { heading: { fg: "accent", bold: true, underline: true } },
  });
  assert.equal(ember.colours.accent, "#ff8700");
  assert.deepEqual(ember.styles.heading, { fg: "accent", bold: true, underline: true });
  assert.equal(LIGHT_THEME.colours.error, "#d70000");
  assert.throws(() => defineTheme(DARK_THEME, { name: "x", colours: { acent: 1 } as never }), {
    message: /"acent" is not a meaning; meanings are text, muted, accent/,
  });
  assert.throws(
    () => defineTheme(DARK_THEME, { name: "x", colours: { accent: "orange" } as never }),
    {
      message: /is not a colour: "orange"/,
    },
  );
  assert.throws(() => checkStyle({ fg: "error", blink: true }), {
    message:
      'style() has no field "blink"; a style has fg, bg, bold, dim, italic, underline, strikethrough, inverse',
  });
  assert.throws(() => text(["a", span("b", { fg: 300 })]), {
    message: /span\(\)'s fg is not a colour: 300/,
  });
});

Deno.test("the app's theme draws its looks: a light theme's accent", async () => {
  const { App } = await import("../app/app.ts");
  const renderer = new HeadlessRenderer(20, 2);
  const { button } = await import("./mod.ts");
  const app = new App(component(() => button("Go", () => {})), {
    title: "T",
    renderer,
    theme: LIGHT_THEME,
  });
  try {
    const screen = renderer.paint("truecolor");
    assert.equal(screen.palette.describe(screen.styles[0]!), "fg=#005f87");
  } finally {
    app.close();
  }
});
