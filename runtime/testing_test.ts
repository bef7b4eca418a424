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
