/**
 * One adapter performs actions and tool calls for the test harness, `AppHost` and the agent
 * bridge (`runtime/app/app_calls.ts`): the same frame after a tool call, the same refusals,
 * the same snapshot between frames, whoever calls.
 */

import assert from "node:assert/strict";
import { z } from "zod";
import { AppCalls, refusalOf, UnknownToolError } from "../runtime/app/app_calls.ts";
import { AppHost, HostError } from "../runtime/agent/mod.ts";
import { ActionError, bind, button, component, text, typedTool } from "../runtime/mod.ts";
import { render } from "../runtime/testing.ts";

const failing = component((cx) => {
  const count = cx.signal(0, { name: "count" });
  cx.registerTool(
    typedTool({
      name: "bump_then_fail",
      description: "Counts one, then throws",
      input: z.object({ by: z.number() }),
      run: (_rt, { by }) => {
        count.set(count.get() + by);
        throw new Error("the handler failed");
      },
    }),
  );
  return text(bind(() => `Count: ${count.get()}`));
});

Deno.test("the harness runs the frame a tool call caused, also when its handler throws", async () => {
  await using app = await render(failing);
  await assert.rejects(() => app.callTool("bump_then_fail", { by: 2 }), {
    message: "the handler failed",
  });
  // The harness used to skip the frame after a handler that threw.
  assert.equal(app.app.framePending, false);
  assert.match(app.tree(), /text "Count: 2"/);
});

Deno.test("AppHost refuses an unknown tool with the server's message", async () => {
  await using app = await render(failing);
  const host = new AppHost(app.app);
  await assert.rejects(() => host.callTool("nope", "{}"), (error: unknown) => {
    assert.ok(error instanceof HostError);
    assert.equal(error.kind, "unknown_tool");
    assert.equal(
      error.message,
      `unknown tool "nope": call tools/list for the tools this app offers now`,
    );
    return true;
  });
  await assert.rejects(() => host.callTool("bump_then_fail", `{"by": "two"}`), (error) => {
    assert.ok(error instanceof HostError);
    assert.equal(error.kind, "invalid");
    return true;
  });
});

Deno.test("AppHost's inspect snapshot includes the frame that was waiting", async () => {
  const counter = component((cx) => {
    const count = cx.signal(0, { name: "count" });
    return button(bind(() => `Count ${count.get()}`), () => count.set(count.get() + 1));
  });
  await using app = await render(counter);
  const host = new AppHost(app.app);
  const before = app.app.tree.revision;
  app.app.rt.requestFrame();
  assert.equal(app.app.framePending, true);
  await host.inspect();
  assert.equal(app.app.framePending, false);
  assert.ok(app.app.tree.revision >= before);
});

Deno.test("refusalOf() tells refusals from errors thrown by app code", async () => {
  await using app = await render(failing);
  const calls = new AppCalls(app.app);
  assert.throws(() => calls.act(999, { action: "click" }), ActionError);
  try {
    calls.act(999, { action: "click" });
  } catch (error) {
    assert.deepEqual(refusalOf(error), {
      kind: "no_node",
      message: (error as Error).message,
    });
  }
  await assert.rejects(() => calls.callTool("nope", "{}"), UnknownToolError);
  assert.equal(refusalOf(new UnknownToolError("nope"))?.kind, "unknown_tool");
  assert.equal(refusalOf(new Error("app text")), null);
});
