import assert from "node:assert/strict";
import { z } from "zod";
import { z as z3 } from "npm:zod@4.6.7/v3";
import type { Signal } from "../reactive/mod.ts";
import { render } from "../testing.ts";
import { AppTool, bind, column, component, show, text, ToolRegistry } from "./mod.ts";
import { argumentsChecker, checkArguments, type ToolOptions, typedTool } from "./tools.ts";
import { button } from "./widgets/mod.ts";
import { unknownToolMessage } from "../app/app_calls.ts";

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
        new AppTool("bump", "Adds to the count", z.object({ by: z.number() }), (_rt, json) => {
          const { by } = JSON.parse(json) as { by: number };
          count.set(count.get() + by);
          return JSON.stringify({ count: count.get() });
        }),
      );
      return text(bind(() => String(count.get())));
    });
    await using app = await render(root);
    const revision = app.revision;
    assert.equal(await app.callTool("bump", { by: 3 }), `{"count":3}`);
    assert.equal(app.revision, revision + 1, "the tool's frame ran");
    assert.equal(app.get({ role: "text" }).name, "3");
  });

  await t.step("cx.registerTool() with the same name replaces the earlier tool", async () => {
    const root = component((cx) => {
      cx.registerTool(tool("status", `"first"`));
      cx.registerTool(tool("status", `"second"`));
      return text("x");
    });
    await using app = await render(root);
    assert.deepEqual(app.tools().map((entry) => entry.name), ["status"]);
    assert.equal(await app.callTool("status"), `"second"`);
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
      await using app = await render(root);
      assert.equal(await app.callTool("status"), `"later"`);
      open!.set(false);
      await app.settle();
      assert.deepEqual(app.tools().map((entry) => entry.name), ["status"]);
      assert.equal(await app.callTool("status"), `"later"`);
    },
  );

  await t.step("a tool registered while open goes when its component unmounts", async () => {
    const root = component((cx) => {
      const open = cx.signal(false);
      cx.registerTool(tool("always"));
      return column(
        button("Open", () => open.set(!open.get())),
        show(open, () =>
          component((panel) => {
            panel.registerTool(tool("while_open"));
            return text("panel");
          })),
      );
    });
    await using app = await render(root);
    const names = () => app.tools().map((entry) => entry.name);
    assert.deepEqual(names(), ["always"]);
    const open = app.get({ name: "Open" }).id;
    await app.act(open, { action: "click" });
    assert.deepEqual(names(), ["always", "while_open"]);
    await app.act(open, { action: "click" });
    assert.deepEqual(names(), ["always"]);
    await assert.rejects(() => app.callTool("while_open"), {
      name: "UnknownToolError",
      message: unknownToolMessage("while_open"),
    });
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

Deno.test("cx.tool(): typed tools", async (t) => {
  /** A Notes-like component with a typed `add_note` that counts how often `run` ran. */
  function notesRoot(runs: { count: number }) {
    return component((cx) => {
      const titles = cx.signal<string[]>([]);
      cx.tool({
        name: "add_note",
        description: "Adds a note",
        input: z.object({
          title: z.string().min(1),
          tags: z.array(z.string()).optional(),
          pinned: z.boolean().default(false),
        }),
        run: (_rt, { title, pinned }) => {
          runs.count++;
          titles.update((list) => list.push(title));
          return { count: titles.get().length, pinned };
        },
      });
      return text(bind(() => titles.get().join(", ")));
    });
  }

  await t.step("cx.tool() runs with parsed arguments and returns JSON", async () => {
    const runs = { count: 0 };
    await using app = await render(notesRoot(runs));
    assert.equal(await app.callTool("add_note", { title: "Milk" }), `{"count":1,"pinned":false}`);
    assert.equal(app.get({ role: "text" }).name, "Milk");
    assert.equal(runs.count, 1);
  });

  await t.step("cx.tool() refuses wrong arguments before run, naming each path", async () => {
    const runs = { count: 0 };
    await using app = await render(notesRoot(runs));
    const refusals: [Record<string, unknown>, string][] = [
      [{ title: 5 }, "invalid arguments: title: expected string, received number"],
      [{}, "invalid arguments: title: required, expected string"],
      [{ title: "" }, "invalid arguments: title: expected string to have >=1 characters"],
      [
        { title: "x", tags: ["a", 2] },
        "invalid arguments: tags[1]: expected string, received number",
      ],
      [{ title: "x", colour: "red" }, "invalid arguments: colour: unknown property"],
      [
        { title: 1, pinned: "yes" },
        "invalid arguments: title: expected string, received number; pinned: expected boolean, received string",
      ],
    ];
    for (const [args, message] of refusals) {
      await assert.rejects(() => app.callTool("add_note", args), {
        name: "ToolArgumentsError",
        message,
      }, JSON.stringify(args));
    }
    assert.equal(runs.count, 0, "run never saw a wrong argument");
  });

  await t.step("cx.tool() advertises the input side without $schema noise", async () => {
    await using app = await render(notesRoot({ count: 0 }));
    assert.deepEqual(app.tools()[0]!.inputSchema, {
      type: "object",
      properties: {
        title: { type: "string", minLength: 1 },
        tags: { type: "array", items: { type: "string" } },
        pinned: { type: "boolean", default: false },
      },
      required: ["title"],
      additionalProperties: false,
    });
  });

  await t.step("a loose object on purpose passes unknown properties to run", async () => {
    let seen: Record<string, unknown> | undefined;
    await using app = await render(component((cx) => {
      cx.tool({
        name: "store",
        description: "Stores anything",
        input: z.looseObject({ key: z.string() }),
        run: (_rt, args) => {
          seen = args;
          return "stored";
        },
      });
      return text("x");
    }));
    assert.equal(await app.callTool("store", { key: "k", extra: 1 }), "stored");
    assert.deepEqual(seen, { key: "k", extra: 1 });
    assert.deepEqual(app.tools()[0]!.inputSchema.additionalProperties, {}, "any property");
  });

  await t.step("a refinement is checked on the UI thread before run", async () => {
    let runs = 0;
    await using app = await render(component((cx) => {
      cx.tool({
        name: "rename",
        description: "Renames",
        input: z.object({ to: z.string().refine((name) => name.trim() !== "", "must have text") }),
        run: () => runs++,
      });
      return text("x");
    }));
    await assert.rejects(() => app.callTool("rename", { to: "  " }), {
      name: "ToolArgumentsError",
      message: "invalid arguments: to: must have text",
    });
    assert.equal(runs, 0);
  });

  await t.step("cx.tool() with destructive marks the tool", async () => {
    await using app = await render(component((cx) => {
      const made = cx.tool({
        name: "wipe",
        description: "Deletes everything",
        input: z.object({}),
        destructive: true,
        run: () => null,
      });
      assert.equal(made.isDestructive, true);
      return text("x");
    }));
    assert.equal(app.tools()[0]!.isDestructive, true);
    assert.equal(await app.callTool("wipe"), "null");
  });

  await t.step("a typed tool goes when its component unmounts", async () => {
    let open: Signal<boolean> | undefined;
    await using app = await render(component((cx) => {
      open = cx.signal(true);
      return show(open, () =>
        component((panel) => {
          panel.tool({ name: "panel_tool", description: "x", input: z.object({}), run: () => 1 });
          return text("panel");
        }));
    }));
    assert.deepEqual(app.tools().map((entry) => entry.name), ["panel_tool"]);
    open!.set(false);
    await app.settle();
    assert.deepEqual(app.tools(), []);
  });

  await t.step("typedTool() refuses an input that is not a zod object schema", () => {
    assert.throws(
      () => typedTool({ name: "x", description: "x", input: z.string() as never, run: () => 1 }),
      { name: "TypeError", message: /"type" must be "object", got "string"$/ },
    );
  });
});

Deno.test("argumentsChecker()", async (t) => {
  await t.step("argumentsChecker() checks a JSON Schema as written", () => {
    const checker = argumentsChecker({
      type: "object",
      properties: { title: { type: "string" }, kind: { enum: ["a", "b"] } },
      required: ["title"],
    });
    assert.deepEqual(checkArguments(checker, { title: "x", other: 1 }), { title: "x", other: 1 });
    assert.throws(() => checkArguments(checker, { title: 2, kind: "c" }), {
      name: "ToolArgumentsError",
      message:
        'invalid arguments: title: expected string, received number; kind: expected one of "a"|"b"',
    });
  });

  await t.step("argumentsChecker() refuses keywords it cannot check", () => {
    assert.throws(() => argumentsChecker({ type: "object", not: { required: ["a"] } }), {
      name: "TypeError",
      message: /^invalid input schema: it cannot be checked: /,
    });
    assert.throws(
      () => new AppTool("x", "x", `{"type":"object","if":{},"then":{}}`, () => "{}"),
      { name: "TypeError", message: /^invalid input schema: it cannot be checked: / },
    );
  });
});

Deno.test("cx.tool() says what is wrong with a schema it cannot serve", async (t) => {
  /** Mounts a component whose one tool has `input`; resolves to the error mounting threw. */
  async function mountError(input: ToolOptions<Record<string, unknown>>["input"]) {
    const root = component((cx) => {
      cx.tool({ name: "t", description: "A tool", input, run: () => null });
      return text("x");
    });
    try {
      await using _app = await render(root);
    } catch (error) {
      return error;
    }
    throw new Error("mounting did not throw");
  }

  await t.step("a zod 3 schema: zod 4 is required", async () => {
    const error = await mountError(z3.object({ a: z3.string() }));
    assert.ok(error instanceof TypeError);
    assert.equal(
      error.message,
      "invalid input schema for t: cx.tool needs a zod 4 schema (npm:zod@4): this one is from zod 3",
    );
  });

  await t.step("a type JSON Schema cannot carry: the tool and the field are named", async () => {
    const cases: [ToolOptions<Record<string, unknown>>["input"], string][] = [
      [z.object({ when: z.date() }), "when: Date"],
      [z.object({ count: z.bigint().optional() }), "count: BigInt"],
      [z.object({ meta: z.object({ tags: z.map(z.string(), z.string()) }) }), "meta.tags: Map"],
      [z.object({ events: z.array(z.object({ at: z.date() })) }), "events[].at: Date"],
    ];
    for (const [input, where] of cases) {
      const error = await mountError(input);
      assert.ok(error instanceof TypeError);
      assert.equal(
        error.message,
        `invalid input schema for t: ${where} cannot be represented in JSON Schema`,
      );
    }
  });
});
