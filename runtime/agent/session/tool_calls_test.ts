import assert from "node:assert/strict";
import { z } from "zod";
import { App } from "../../app/app.ts";
import { HeadlessRenderer } from "../../render/headless.ts";
import { component, text } from "../../ui/mod.ts";
import { AppTool } from "../../ui/tools.ts";
import { AppHost } from "../hosts/app_host.ts";
import { TokenBucket } from "./rate_limit.ts";
import type { CallToolResult } from "../transport/sdk.ts";
import { callTool } from "./tool_calls.ts";
import { confirmMessage } from "../../ui/tool_call.ts";

/** An app whose tools record the arguments their code got. */
function toolsApp(seen: string[]): App {
  const root = component((cx) => {
    cx.registerTool(
      new AppTool(
        "set_mode",
        "Sets the mode",
        `{"type":"object","properties":{"mode":{"enum":["list","grid"]}},"required":["mode"]}`,
        (_rt, json) => {
          seen.push(json);
          return "{}";
        },
      ),
    );
    cx.registerTool(
      new AppTool(
        "delete_note",
        "Deletes a note",
        `{"type":"object","properties":{"title":{"type":"string"},"confirm":{"type":"boolean"}},"required":["title","confirm"],"additionalProperties":false}`,
        (_rt, json) => {
          seen.push(json);
          return "{}";
        },
      ).destructive(),
    );
    cx.tool({
      name: "rename",
      description: "Renames",
      input: z.object({ to: z.string().refine((name) => name.trim() !== "", "must have text") }),
      run: (_rt, args) => {
        seen.push(JSON.stringify(args));
        return "renamed";
      },
    });
    return text("tools");
  });
  return new App(root, { title: "Tools", renderer: new HeadlessRenderer() });
}

function plainText(result: CallToolResult): string {
  const [first] = result.content as { type: string; text: string }[];
  return first!.text;
}

Deno.test("callTool() and app tool arguments", async (t) => {
  const seen: string[] = [];
  const app = toolsApp(seen);
  const host = new AppHost(app);
  const bucket = new TokenBucket(20, 20, () => 0); // a clock that stands still: no refill

  await t.step(
    "callTool() refuses arguments the schema does not accept, as plain errors",
    async () => {
      const refusals: [string, Record<string, unknown>, string][] = [
        ["set_mode", { mode: "table" }, 'invalid arguments: mode: expected one of "list"|"grid"'],
        ["set_mode", {}, 'invalid arguments: mode: required, expected one of "list"|"grid"'],
        [
          "delete_note",
          { title: 3, confirm: true },
          "invalid arguments: title: expected string, received number",
        ],
        [
          "delete_note",
          { title: "x", more: 1, confirm: true },
          "invalid arguments: more: unknown property",
        ],
        ["delete_note", { title: "x" }, confirmMessage("delete_note")],
        ["rename", { to: "  " }, "invalid arguments: to: must have text"],
      ];
      for (const [name, args, message] of refusals) {
        const result = await callTool(host, bucket, name, args);
        assert.equal(result.isError, true, `${name} ${JSON.stringify(args)}`);
        assert.equal(plainText(result), message);
      }
      assert.deepEqual(seen, [], "no tool's code ran");
    },
  );

  await t.step("callTool() passes a destructive tool's arguments without confirm", async () => {
    const result = await callTool(host, bucket, "delete_note", { title: "x", confirm: true });
    assert.equal(result.isError, undefined, plainText(result));
    assert.deepEqual(seen, [`{"title":"x"}`]);
  });

  await t.step("callTool() takes no token for a refused call", async () => {
    // Of the 20 tokens, the refusals made by the server took none (the confirm refusal
    // included); the refinement refused in the app took one, the call that went through one.
    let served = 0;
    for (let call = 0; call < 30; call++) {
      const result = await callTool(host, bucket, "set_mode", { mode: "list" });
      if (result.isError !== true) served++;
    }
    assert.equal(served, 18);
  });
  app.close();
});
