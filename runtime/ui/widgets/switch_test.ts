import assert from "node:assert/strict";
import type { HeadlessRenderer } from "../../render/headless.ts";
import type { Signal } from "../../reactive/mod.ts";
import { render } from "../../testing.ts";
import { clickAt, pressKey } from "../../input/person.ts";
import { parseKeybind } from "../../text/keybind.ts";
import { column, component, toggleSwitch } from "../mod.ts";

/** The gallery's switch, "Wi-Fi", on, above a "Bluetooth" switch that is off. */
async function wifiApp(disabled = false) {
  let wifi!: Signal<boolean>;
  const changes: boolean[] = [];
  const app = await render(
    component((cx) => {
      wifi = cx.signal(true, { name: "wifi" });
      return column(
        toggleSwitch({ label: "Wi-Fi", value: wifi, onChange: (on) => changes.push(on) })
          .disabled(disabled),
        toggleSwitch({ label: "Bluetooth", value: false }),
      );
    }),
    { width: 30, height: 4 },
  );
  const screen = () =>
    (app.app.renderer as HeadlessRenderer).screen().map((line) => line.trimEnd());
  return { app, wifi, changes, screen, [Symbol.asyncDispose]: () => app.close() };
}

Deno.test("a switch shows its state by the knob's side and fill; its node by checked", async () => {
  await using test = await wifiApp();
  const { app, screen } = test;
  assert.deepEqual(screen().slice(0, 2), ["Wi-Fi [ ●]", "Bluetooth [○ ]"]);
  assert.match(app.tree(), /\n switch "Wi-Fi" #\d+ checked\n switch "Bluetooth" #\d+\n/);
});

Deno.test("a click, Enter and Space flip a switch; the signal and onChange follow", async () => {
  await using test = await wifiApp();
  const { app, wifi, changes, screen } = test;
  const id = app.get({ role: "switch", name: "Wi-Fi" }).id;
  await app.act(id, { action: "focus" });
  assert.match(app.tree(), /switch "Wi-Fi" #\d+ focused checked\n/, "focus alone flips nothing");
  await app.act(id, { action: "click" });
  assert.equal(wifi.get(), false);
  assert.equal(screen()[0], "Wi-Fi [○ ]");
  assert.match(app.tree(), /switch "Wi-Fi" #\d+ focused\n/);
  await app.act(id, { action: "press_key", keybind: "Enter" });
  assert.equal(wifi.get(), true);
  pressKey(app.app, parseKeybind("Space"));
  await app.settle();
  assert.equal(wifi.get(), false);
  assert.ok(clickAt(app.app, 7, 0), "a person's click on the knob hits the switch");
  await app.settle();
  assert.equal(wifi.get(), true);
  assert.deepEqual(changes, [false, true, false, true]);
  wifi.set(false); // the app sets it
  await app.settle();
  assert.ok(!app.get({ role: "switch", name: "Wi-Fi" }).states.includes("checked"));
  // A plain value is where the switch starts; it keeps its own state after.
  const bluetooth = app.get({ role: "switch", name: "Bluetooth" }).id;
  await app.act(bluetooth, { action: "click" });
  assert.match(app.tree(), /switch "Bluetooth" #\d+ focused checked\n/);
  assert.equal(screen()[1], "Bluetooth [ ●]");
  await assert.rejects(() => app.act(bluetooth, { action: "select", option: "on" }), {
    message: /select works on combo_box, .* not on a switch/,
  });
});

Deno.test("a disabled switch refuses agents and people", async () => {
  await using test = await wifiApp(true);
  const { app, wifi } = test;
  const id = app.get({ role: "switch", name: "Wi-Fi" }).id;
  assert.match(app.tree(), /switch "Wi-Fi" #\d+ checked disabled/);
  await assert.rejects(() => app.act(id, { action: "click" }), { message: /disabled/ });
  await assert.rejects(() => app.act(id, { action: "press_key", keybind: "Space" }), {
    message: /disabled/,
  });
  clickAt(app.app, 7, 0);
  await app.settle();
  assert.equal(wifi.get(), true);
});

Deno.test("toggleSwitch() takes an options object", () => {
  assert.throws(() => toggleSwitch(undefined as never), {
    message: "toggleSwitch() takes { label, value, onChange? }",
  });
});
