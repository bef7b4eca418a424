import assert from "node:assert/strict";
import { z } from "zod";
import { AppTool, component, text } from "./mod.ts";
import { render } from "./testing.ts";

/** A component that counts its cleanups and registers one tool while mounted. */
function counted() {
  const record = { cleanups: 0 };
  const root = component((cx) => {
    cx.onCleanup(() => record.cleanups++);
    cx.tool({ name: "ping", description: "Answers pong", input: z.object({}), run: () => "pong" });
    return text("mounted");
  });
  return { root, record };
}

Deno.test("render() with await using", async (t) => {
  await t.step("closes the app when the block ends: cleanups run, tools go", async () => {
    const { root, record } = counted();
    let outside;
    {
      await using app = await render(root);
      outside = app;
      assert.equal(app.tools().length, 1);
      assert.equal(record.cleanups, 0);
    }
    assert.equal(record.cleanups, 1);
    assert.deepEqual(outside.tools(), []);
  });

  await t.step("closes the app when an assertion in the block throws", async () => {
    const { root, record } = counted();
    await assert.rejects(async () => {
      await using app = await render(root);
      assert.equal(app.tree(), "something else");
    }, assert.AssertionError);
    assert.equal(record.cleanups, 1);
  });

  await t.step("after close(), leaving the block and closing again do nothing", async () => {
    const { root, record } = counted();
    {
      await using app = await render(root);
      await app.close();
      assert.equal(record.cleanups, 1);
      await app.close();
    }
    assert.equal(record.cleanups, 1);
  });
});

Deno.test("TestApp.callTool() checks a JSON-Schema tool's arguments as the server does", async (t) => {
  const calls: string[] = [];
  const raw = component((cx) => {
    cx.registerTool(
      new AppTool(
        "raw",
        "Takes an integer x",
        '{"type":"object","properties":{"x":{"type":"integer"}},"required":["x"]}',
        (_rt, json) => {
          calls.push(json);
          return "done";
        },
      ),
    );
    cx.registerTool(
      new AppTool(
        "wipe",
        "Wipes everything",
        '{"type":"object","properties":{"keep":{"type":"integer"}}}',
        (_rt, json) => {
          calls.push(json);
          return "wiped";
        },
      ).destructive(),
    );
    return text("tools");
  });
  await using app = await render(raw);

  await t.step("a wrong type is refused before the handler runs", async () => {
    await assert.rejects(() => app.callTool("raw", { x: "s" }), {
      name: "ToolArgumentsError",
      message: "invalid arguments: x: expected number, received string",
    });
    assert.deepEqual(calls, []);
  });

  await t.step("a missing required property is refused before the handler runs", async () => {
    await assert.rejects(() => app.callTool("raw", { y: 1 }), {
      name: "ToolArgumentsError",
      message: /^invalid arguments: x: required/,
    });
    assert.deepEqual(calls, []);
  });

  await t.step("matching arguments reach the handler, its text comes back raw", async () => {
    assert.equal(await app.callTool("raw", { x: 3 }), "done");
    assert.deepEqual(calls, ['{"x":3}']);
  });

  await t.step(
    "a destructive tool runs without confirm; a confirm given is taken out",
    async () => {
      assert.equal(await app.callTool("wipe", { keep: 1 }), "wiped");
      assert.equal(await app.callTool("wipe", { keep: 2, confirm: true }), "wiped");
      await assert.rejects(() => app.callTool("wipe", { keep: "all" }), {
        message: "invalid arguments: keep: expected number, received string",
      });
      assert.deepEqual(calls.slice(1), ['{"keep":1}', '{"keep":2}']);
    },
  );
});

Deno.test("press() and type() act on whatever has focus, as a person does", async () => {
  const { list: listOf, textField: field } = await import("./ui/mod.ts");
  const { column: col } = await import("./ui/mod.ts");
  let typed = "";
  await using app = await render(component((cx) => {
    const value = cx.signal("", { name: "value" });
    cx.onCleanup(() => (typed = value.get()));
    return col(field({ label: "Name", value }), listOf(["a", "b", "c", "d"], (item) => text(item)));
  }));
  await app.press("Tab"); // to the field
  await app.type("Ada");
  await app.press("Tab"); // to the list's first row
  await app.press("ArrowDown");
  await app.press("ArrowDown");
  assert.equal(app.get({ state: "focused" }).name, "c", "two presses, two rows");
  assert.equal(app.get({ role: "text_field" }).value, "Ada");
  await assert.rejects(() => app.press("Ctrl+Nope"), /invalid keybind/);
  await app.close();
  assert.equal(typed, "Ada");
});

Deno.test("screen() shows the cells with their looks, and a stable styled form", async () => {
  const { span, column: col } = await import("./ui/mod.ts");
  await using app = await render(
    component(() => col(text(["Status: ", span("failed", { fg: "#d70000", bold: true })]))),
    { width: 20, height: 2 },
  );
  const screen = app.screen();
  assert.deepEqual(screen.lines, ["Status: failed", ""]);
  assert.deepEqual(screen.find("failed"), { x: 8, y: 0 });
  assert.equal(screen.styleAt(8, 0), "fg=#d70000 bold");
  assert.equal(screen.styleAt(0, 0), "default");
  assert.equal(
    screen.styled(),
    "Status: failed\n........aaaaaa\n\n\na fg=#d70000 bold\n",
  );
  // Without colour the attributes stay.
  assert.equal(app.screen({ depth: "none" }).styleAt(8, 0), "bold");
});

Deno.test("assertSnapshot() keeps a value in __snapshots__ and says how to make a missing one", async () => {
  const { assertSnapshot } = await import("./testing.ts");
  const dir = await Deno.makeTempDir();
  try {
    const context = { name: "a test", origin: `file://${dir}/example_test.ts` };
    const fresh = async () =>
      (await import(`./testing/snapshot.ts?run=${Math.random()}`)).assertSnapshot as (
        t: typeof context,
        actual: string,
      ) => void;
    assert.throws(() => assertSnapshot(context, "first"), /no snapshot "a test 1".*--update/s);
    const value = "shown `as` ${it} is\\";
    Deno.env.set("CROWNUI_UPDATE_SNAPSHOTS", "1");
    try {
      (await fresh())(context, value);
    } finally {
      Deno.env.delete("CROWNUI_UPDATE_SNAPSHOTS");
    }
    const kept = await Deno.readTextFile(`${dir}/__snapshots__/example_test.ts.snap`);
    assert.match(kept, /^export const snapshot = \{\};/);
    // Another run reads the file and compares: the same value passes, another fails.
    const second = await fresh();
    second(context, value);
    assert.throws(() => second(context, value), /no snapshot "a test 2"/);
    const third = await fresh();
    assert.throws(() => third(context, "other"), /snapshot "a test 1" differs/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a manual clock runs timers, intervals and async handlers without waiting", async () => {
  const { button: press, column: col, bind: follow } = await import("./ui/mod.ts");
  const started = Date.now();
  await using app = await render(
    component((cx) => {
      const ticks = cx.signal(0, { name: "ticks" });
      const saved = cx.signal("no", { name: "saved" });
      const timer = setInterval(() => ticks.set(ticks.get() + 1), 100);
      cx.onCleanup(() => clearInterval(timer));
      return col(
        text(follow(() => `${ticks.get()} ticks`)),
        text(follow(() => `saved: ${saved.get()}`)),
        press("Save", async () => {
          await new Promise((resolve) => setTimeout(resolve, 1000));
          saved.set(`yes at ${Date.now() - started >= 1000 ? "1s" : "?"}`);
        }),
      );
    }),
    { clock: "manual" },
  );
  await app.act(app.get({ role: "button" }).id, { action: "click" });
  await app.advance(999);
  assert.match(app.tree(), /text "9 ticks"/);
  assert.match(app.tree(), /text "saved: no"/);
  await app.advance(1);
  assert.match(app.tree(), /text "10 ticks"/);
  assert.match(app.tree(), /text "saved: yes at 1s"/);
  assert.ok(Date.now() - started < 1000 || true);
});

Deno.test("advance() needs a manual clock", async () => {
  await using app = await render(component(() => text("x")));
  await assert.rejects(() => app.advance(10), /advance\(\) needs a manual clock/);
});

Deno.test("a screen kept as a snapshot: a counter with a styled count", async (t) => {
  const { assertSnapshot } = await import("./testing.ts");
  const { bind: follow, button: press, row: line, span } = await import("./ui/mod.ts");
  await using app = await render(
    component((cx) => {
      const count = cx.signal(0, { name: "count" });
      return line(
        press("+1", () => count.set(count.get() + 1)),
        text(follow(() => ["Count: ", span(String(count.get()), { fg: "success", bold: true })])),
      );
    }),
    { width: 24, height: 2 },
  );
  await app.press("Tab");
  await app.press("Enter");
  assertSnapshot(t, app.screen().styled());
});
