import assert from "node:assert/strict";
import { z } from "zod";
import type { Signal } from "../reactive/mod.ts";
import { render } from "../testing.ts";
import { AppTool, bind, column, component, show, text, ToolRegistry } from "./mod.ts";
import { button } from "./widgets.ts";

const EMPTY = `{"type":"object","properties":{}}`;

function tool(name: string, result = "{}"): AppTool {
  return new AppTool(name, `The ${name} tool`, EMPTY, () => result);
}

Deno.test("AppTool input schemas", async (t) => {
  await t.step("AppTool parses a schema given as JSON text", () => {
    const made = new AppTool(
      "add_note",
      "Adds a note with the given title",
      `{"type":"object","properties":{"title":{"type":"string"}},"required":["title"]}`,
      () => "{}",
    );
    assert.deepEqual(made.inputSchema, {
      type: "object",
      properties: { title: { type: "string" } },
      required: ["title"],
    });
    assert.equal(made.name, "add_note");
    assert.equal(made.description, "Adds a note with the given title");
    assert.equal(made.isDestructive, false);
  });

  await t.step("AppTool turns a zod object schema into JSON Schema", () => {
    const made = new AppTool(
      "add_note",
      "Adds a note",
      z.object({ title: z.string(), pinned: z.boolean().optional() }),
      () => "{}",
    );
    assert.equal(made.inputSchema.type, "object");
    assert.deepEqual(made.inputSchema.properties, {
      title: { type: "string" },
      pinned: { type: "boolean" },
    });
    assert.deepEqual(made.inputSchema.required, ["title"]);
  });

  await t.step("AppTool refuses schema text that is not JSON", () => {
    assert.throws(() => new AppTool("x", "x", "{type: object}", () => "{}"), {
      name: "TypeError",
      message: /^invalid input schema: not JSON: /,
    });
  });

  await t.step("AppTool refuses JSON that is not an object", () => {
    for (const schema of ["[]", "null", `"object"`, "3"]) {
      assert.throws(() => new AppTool("x", "x", schema, () => "{}"), {
        name: "TypeError",
        message: `invalid input schema: expected a JSON object such as {"type":"object"}`,
      }, schema);
    }
  });

  await t.step("AppTool refuses a schema whose type is not object", () => {
    assert.throws(() => new AppTool("x", "x", `{"type":"array"}`, () => "{}"), {
      name: "TypeError",
      message:
        `invalid input schema: a tool's arguments are an object, so "type" must be "object", got "array"`,
    });
    assert.throws(() => new AppTool("x", "x", `{}`, () => "{}"), {
      message: /"type" must be "object", got undefined$/,
    });
  });

  await t.step("AppTool refuses a zod schema that is not an object", () => {
    assert.throws(() => new AppTool("x", "x", z.string(), () => "{}"), {
      name: "TypeError",
      message: /"type" must be "object", got "string"$/,
    });
  });

  await t.step("AppTool refuses names agents cannot call", () => {
    for (const name of ["", "two words", "a/b", "x".repeat(65)]) {
      assert.throws(() => tool(name), {
        name: "TypeError",
        message: `invalid tool name ${
          JSON.stringify(name)
        }: use 1 to 64 letters, digits, "_", "-" or "."`,
      });
    }
    assert.equal(tool("ok_name-1.2").name, "ok_name-1.2");
  });

  await t.step("destructive() marks the tool and returns it", () => {
    const made = tool("delete_note");
    assert.equal(made.destructive(), made);
    assert.equal(made.isDestructive, true);
  });
});

Deno.test("ToolRegistry", async (t) => {
  await t.step("register() adds tools in order and its return value removes one", () => {
    const registry = new ToolRegistry();
    const removeA = registry.register(tool("a"));
    registry.register(tool("b"));
    assert.deepEqual(registry.list().map((entry) => entry.name), ["a", "b"]);
    removeA();
    assert.deepEqual(registry.list().map((entry) => entry.name), ["b"]);
    assert.equal(registry.get("a"), undefined);
  });

  await t.step("register() with a name again replaces the tool and moves it to the end", () => {
    const registry = new ToolRegistry();
    const first = tool("a", "1");
    const second = tool("a", "2");
    const removeFirst = registry.register(first);
    registry.register(tool("b"));
    registry.register(second);
    assert.deepEqual(registry.list().map((entry) => entry.name), ["b", "a"]);
    assert.equal(registry.get("a"), second);
    removeFirst(); // the replaced registration no longer owns the name
    assert.equal(registry.get("a"), second);
  });

  await t.step("onChange() hears adds, replacements and removals until unsubscribed", () => {
    const registry = new ToolRegistry();
    let changes = 0;
    const stop = registry.onChange(() => changes++);
    const remove = registry.register(tool("a"));
    registry.register(tool("a"));
    remove(); // replaced already: nothing changes
    assert.equal(changes, 2);
    stop();
    registry.register(tool("b"));
    assert.equal(changes, 2);
  });
});

Deno.test("cx.registerTool()", async (t) => {
  await t.step("cx.registerTool() makes the tool callable with the component's state", async () => {
    const root = component((cx) => {
      const count = cx.signal(0);
      cx.registerTool(
        new AppTool("bump", "Adds to the count", z.object({ by: z.number() }), (rt, json) => {
          const { by } = JSON.parse(json) as { by: number };
          count.set(rt, count.get(rt) + by);
          return JSON.stringify({ count: count.get(rt) });
        }),
      );
      return text(bind((rt) => String(count.get(rt))));
    });
    const app = await render(root);
    const revision = app.revision;
    assert.equal(await app.callTool("bump", { by: 3 }), `{"count":3}`);
    assert.equal(app.revision, revision + 1, "the tool's frame ran");
    assert.equal(app.get({ role: "text" }).name, "3");
    await app.close();
  });

  await t.step("cx.registerTool() with the same name replaces the earlier tool", async () => {
    const root = component((cx) => {
      cx.registerTool(tool("status", `"first"`));
      cx.registerTool(tool("status", `"second"`));
      return text("x");
    });
    const app = await render(root);
    assert.deepEqual(app.tools().map((entry) => entry.name), ["status"]);
    assert.equal(await app.callTool("status"), `"second"`);
    await app.close();
  });

  await t.step(
    "a replaced tool stays when the component that registered it first unmounts",
    async () => {
      let open: Signal<boolean> | undefined;
      const root = component((cx) => {
        open = cx.signal(true);
        return column(
          show(open, () =>
            component((panel) => {
              panel.registerTool(tool("status", `"panel"`));
              return text("panel");
            })),
          component((later) => {
            later.registerTool(tool("status", `"later"`));
            return text("later");
          }),
        );
      });
      const app = await render(root);
      assert.equal(await app.callTool("status"), `"later"`);
      open!.set(app.app.rt, false);
      await app.settle();
      assert.deepEqual(app.tools().map((entry) => entry.name), ["status"]);
      assert.equal(await app.callTool("status"), `"later"`);
      await app.close();
    },
  );

  await t.step("a tool registered while open goes when its component unmounts", async () => {
    const root = component((cx) => {
      const open = cx.signal(false);
      cx.registerTool(tool("always"));
      return column(
        button("Open", (rt) => open.set(rt, !open.get(rt))),
        show(open, () =>
          component((panel) => {
            panel.registerTool(tool("while_open"));
            return text("panel");
          })),
      );
    });
    const app = await render(root);
    const names = () => app.tools().map((entry) => entry.name);
    assert.deepEqual(names(), ["always"]);
    const open = app.get({ name: "Open" }).id;
    await app.act(open, { action: "click" });
    assert.deepEqual(names(), ["always", "while_open"]);
    await app.act(open, { action: "click" });
    assert.deepEqual(names(), ["always"]);
    await assert.rejects(() => app.callTool("while_open"), {
      message: `no tool named "while_open"`,
    });
    await app.close();
  });
});

Deno.test("AppTool refuses the names of built-in tools", () => {
  for (const name of ["ui_tree", "ui_act", "inspect_snapshot", "list_apps", "select_app"]) {
    assert.throws(
      () => new AppTool(name, "shadows a built-in", `{"type":"object"}`, () => "{}"),
      {
        name: "TypeError",
        message: `invalid tool name "${name}": it is reserved for a built-in tool`,
      },
    );
  }
});
