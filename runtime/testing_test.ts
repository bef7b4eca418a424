import assert from "node:assert/strict";
import { z } from "zod";
import { component, text } from "./mod.ts";
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
