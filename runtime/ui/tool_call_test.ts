import assert from "node:assert/strict";
import { z } from "zod";
import { render } from "../testing.ts";
import { component, text } from "./mod.ts";
import { AppTool } from "./tools.ts";
import { type ToolProgress, ToolTimeoutError, toolTimeoutMessage } from "./tool_call.ts";

/** A promise and the function that settles it, for a handler the test lets finish. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

Deno.test("app tool deadlines", async (t) => {
  await t.step("a deadline is 1 to 60,000 ms; the default is 5,000", () => {
    const tool = () => new AppTool("export", "Exports", `{"type":"object"}`, () => "");
    assert.equal(tool().timeoutMs, 5000);
    assert.equal(tool().timeout(60_000).timeoutMs, 60_000);
    for (const bad of [60_001, 0, 2.5, Number.NaN]) {
      assert.throws(() => tool().timeout(bad), {
        name: "RangeError",
        message:
          `invalid timeout for export: ${bad} ms; an app tool's deadline is a whole number of ms from 1 to 60000 (60 seconds), 5000 when it declares none`,
      });
    }
  });

  await t.step("cx.tool() with a deadline over 60 s is refused when it registers", async () => {
    const root = component((cx) => {
      cx.tool({
        name: "export",
        description: "Exports",
        input: z.object({}),
        timeoutMs: 61_000,
        run: () => null,
      });
      return text("x");
    });
    await assert.rejects(async () => await render(root), {
      name: "RangeError",
      message: /^invalid timeout for export: 61000 ms; /,
    });
  });

  await t.step("past its deadline a call throws the message naming it", async () => {
    const { opened, open } = gate();
    const reports: ToolProgress[] = [];
    await using app = await render(component((cx) => {
      cx.tool({
        name: "export",
        description: "Exports",
        input: z.object({}),
        timeoutMs: 50,
        run: async (_rt, _args, call) => {
          await opened;
          call.progress(1); // after the deadline: dropped
          return "late";
        },
      });
      return text("x");
    }));
    await assert.rejects(
      app.callTool("export", {}, { onProgress: (report) => reports.push(report) }),
      (error: Error) => {
        assert.ok(error instanceof ToolTimeoutError);
        assert.equal(
          error.message,
          "the app did not answer within 0.05 seconds, the deadline of export (an app tool has 5 seconds unless it declares a longer one, up to 60 seconds); it may still be running: read the app before calling it again",
        );
        return true;
      },
    );
    open();
    await app.settle();
    assert.deepEqual(reports, []);
  });

  await t.step("the message says 1 second and 5 seconds as a person would", () => {
    assert.match(toolTimeoutMessage("a", 1000), /^the app did not answer within 1 second, /);
    assert.match(toolTimeoutMessage("a", 5000), /^the app did not answer within 5 seconds, /);
  });
});

Deno.test("app tool progress through the harness", async (t) => {
  await t.step("each report reaches onProgress, message cut to 200 characters", async () => {
    await using app = await render(component((cx) => {
      cx.registerTool(
        new AppTool("sync", "Syncs", `{"type":"object"}`, async (_rt, _json, call) => {
          call.progress(1, 3, "first");
          await Promise.resolve();
          call.progress(2.5, 3);
          call.progress(3, 3, "x".repeat(500));
          return "synced";
        }).timeout(10_000),
      );
      return text("x");
    }));
    const reports: ToolProgress[] = [];
    const result = await app.callTool("sync", {}, { onProgress: (r) => reports.push(r) });
    assert.equal(result, "synced");
    assert.deepEqual(reports, [
      { progress: 1, total: 3, message: "first" },
      { progress: 2.5, total: 3 },
      { progress: 3, total: 3, message: "x".repeat(200) },
    ]);
    assert.equal(await app.callTool("sync"), "synced", "without onProgress reports go nowhere");
  });

  await t.step("a report that does not grow, or is not a number, is refused", async () => {
    await using app = await render(component((cx) => {
      cx.tool({
        name: "count",
        description: "Counts",
        input: z.object({ again: z.number() }),
        run: (_rt, { again }, call) => {
          call.progress(2);
          call.progress(again === 0 ? Number.NaN : again);
          return "counted";
        },
      });
      return text("x");
    }));
    await assert.rejects(app.callTool("count", { again: 2 }), {
      name: "RangeError",
      message: "call.progress() must report more than last time: got 2 after 2",
    });
    await assert.rejects(app.callTool("count", { again: 0 }), {
      name: "RangeError",
      message: "call.progress() takes a finite number of what is done, got NaN",
    });
  });
});
