import assert from "node:assert/strict";
import { render } from "../testing.ts";
import { bind, column, component, type Cx, row, show, text, textField, View } from "./mod.ts";
import { button } from "./widgets/mod.ts";
import { nodeOf } from "./_test_tree.ts";

Deno.test("component() nesting", async (t) => {
  await t.step("component() nests: an inner component's nodes hang from the outer's", async () => {
    const inner = component(() => row(text("inner a"), text("inner b")));
    const outer = component(() => column(text("outer"), inner, component(() => inner)));
    await using app = await render(outer, { title: "Nest" });
    assert.equal(
      app.tree(),
      [
        `window "Nest" #1`,
        ` text "outer" #2`,
        ` text "inner a" #3`,
        ` text "inner b" #4`,
        ` text "inner a" #5`,
        ` text "inner b" #6`,
        ``,
      ].join("\n"),
    );
  });

  await t.step("component() runs its setup once per mount, not per change", async () => {
    let setups = 0;
    const root = component((cx) => {
      setups++;
      const count = cx.signal(0);
      return button(bind(() => `n=${count.get()}`), () => count.set(count.get() + 1));
    });
    await using app = await render(root);
    const id = app.get({ role: "button" }).id;
    await app.act(id, { action: "click" });
    await app.act(id, { action: "click" });
    assert.equal(app.get({ role: "button" }).name, "n=2");
    assert.equal(setups, 1);
  });

  await t.step("component() refuses a setup that returns something other than a view", async () => {
    const root = component(() => 42 as unknown as View);
    await assert.rejects(async () => await render(root), {
      name: "TypeError",
      message: "a component must return a view (text(), column(), ...), got number",
    });
  });

  await t.step("component() refuses something other than a function", () => {
    assert.throws(() => component("nope" as unknown as (cx: Cx) => View), {
      name: "TypeError",
      message: "component() takes a function (cx) => view",
    });
  });

  await t.step("cx refuses to create state after its component unmounted", async () => {
    let saved: Cx | undefined;
    const root = component((cx) => {
      const open = cx.signal(true);
      return column(
        button("Hide", () => open.set(false)),
        show(open, () =>
          component((innerCx) => {
            saved = innerCx;
            return text("inner");
          })),
      );
    });
    await using app = await render(root);
    await app.act(app.get({ name: "Hide" }).id, { action: "click" });
    assert.throws(() => saved!.signal(1), {
      message: "cx.signal() was called after the component unmounted",
    });
    assert.throws(() => saved!.onCleanup(() => {}), {
      message: "cx.onCleanup() was called after the component unmounted",
    });
  });
});

Deno.test("following signals, memos and bindings", async (t) => {
  await t.step("a bound text updates its node in place and keeps its id", async () => {
    const root = component((cx) => {
      const count = cx.signal(0);
      return column(
        button("+1", () => count.set(count.get() + 1)),
        text(bind(() => `Count: ${count.get()}`)),
      );
    });
    await using app = await render(root);
    const before = app.get({ role: "text" });
    assert.equal(before.name, "Count: 0");
    const plus = app.get({ name: "+1" }).id;
    await app.act(plus, { action: "click" });
    await app.act(plus, { action: "click" });
    const after = app.get({ role: "text" });
    assert.equal(after.name, "Count: 2");
    assert.equal(after.id, before.id);
    assert.equal(app.query({ name: "Count: 0" }).length, 0);
  });

  await t.step("a signal given as a property is followed", async () => {
    let setLabel: ((label: string) => void) | undefined;
    const root = component((cx) => {
      const label = cx.signal("first");
      setLabel = (value) => label.set(value);
      return text(label);
    });
    await using app = await render(root);
    const { id } = app.get({ role: "text" });
    const revision = app.revision;
    setLabel!("second");
    await app.settle();
    assert.equal(app.revision, revision + 1);
    assert.deepEqual(app.get({ role: "text" }), {
      id,
      role: "text",
      name: "second",
      path: `text "second"`,
      states: [],
    });
  });

  await t.step(
    "a memo given as a property is followed, and an equal result changes nothing",
    async () => {
      let setCount: ((count: number) => void) | undefined;
      let memoRuns = 0;
      const root = component((cx) => {
        const count = cx.signal(1);
        setCount = (value) => count.set(value);
        const parity = cx.memo<string>(() => {
          memoRuns++;
          return count.get() % 2 === 0 ? "even" : "odd";
        });
        return text(parity);
      });
      await using app = await render(root);
      const { id } = app.get({ name: "odd" });
      const revision = app.revision;
      setCount!(3); // still odd: the memo reruns, the node does not change
      await app.settle();
      assert.equal(app.revision, revision);
      setCount!(4);
      await app.settle();
      assert.equal(app.revision, revision + 1);
      assert.equal(app.get({ role: "text" }).id, id);
      assert.equal(app.get({ role: "text" }).name, "even");
      assert.equal(memoRuns, 3);
    },
  );

  await t.step("several writes before a frame make one frame and one revision", async () => {
    let bump: (() => void) | undefined;
    const root = component((cx) => {
      const a = cx.signal(0);
      const b = cx.signal(0);
      bump = () => {
        a.set(a.get() + 1);
        b.set(b.get() + 1);
        a.set(a.get() + 1);
      };
      return column(text(bind(() => `a=${a.get()}`)), text(bind(() => `b=${b.get()}`)));
    });
    await using app = await render(root);
    const revision = app.revision;
    bump!();
    assert.equal(app.revision, revision + 1);
    assert.match(app.tree(), /text "a=2" #2\n text "b=1" #3\n$/);
  });

  await t.step("a text field bound to a signal shows the signal's new value", async () => {
    let setValue: ((value: string) => void) | undefined;
    const root = component((cx) => {
      const value = cx.signal("one");
      setValue = (next) => value.set(next);
      return textField({ label: "Field", value });
    });
    await using app = await render(root);
    const { id } = app.get({ role: "text_field" });
    assert.equal(nodeOf(app, "text_field").value, "one");
    setValue!("two");
    await app.settle();
    assert.equal(nodeOf(app, "text_field").value, "two");
    assert.equal(nodeOf(app, "text_field").id, id);
  });
});

Deno.test("cx.effect() and cx.onCleanup()", async (t) => {
  await t.step(
    "an effect runs at once and again at the frame after what it read changed",
    async () => {
      const seen: number[] = [];
      let setCount: ((count: number) => void) | undefined;
      const root = component((cx) => {
        const count = cx.signal(0);
        setCount = (value) => count.set(value);
        cx.effect(() => {
          seen.push(count.get());
        });
        return text("x");
      });
      await using app = await render(root);
      assert.deepEqual(seen, [0]);
      setCount!(5);
      assert.deepEqual(seen, [0], "effects wait for the frame");
      await app.settle();
      assert.deepEqual(seen, [0, 5]);
    },
  );

  await t.step("cleanups of nested components run on unmount, the inner's first", async () => {
    const cleanups: string[] = [];
    const root = component((cx) => {
      const open = cx.signal(true);
      return column(
        button("Toggle", () => open.set(!open.get())),
        show(open, () =>
          component((outer) => {
            outer.onCleanup(() => cleanups.push("outer"));
            return component((inner) => {
              inner.onCleanup(() => cleanups.push("inner"));
              return text("shown");
            });
          })),
      );
    });
    const app = await render(root);
    await app.act(app.get({ name: "Toggle" }).id, { action: "click" });
    assert.deepEqual(cleanups, ["inner", "outer"]);
    assert.equal(app.query({ name: "shown" }).length, 0);
    await app.close();
    assert.deepEqual(cleanups, ["inner", "outer"], "an unmounted component cleans up once");
  });

  await t.step("an effect of an unmounted component no longer runs", async () => {
    const seen: number[] = [];
    const root = component((cx) => {
      const open = cx.signal(true);
      const count = cx.signal(0);
      return column(
        button("Hide", () => open.set(false)),
        button("+1", () => count.set(count.get() + 1)),
        show(open, () =>
          component((inner) => {
            inner.effect(() => {
              seen.push(count.get());
            });
            return text("shown");
          })),
      );
    });
    await using app = await render(root);
    await app.act(app.get({ name: "+1" }).id, { action: "click" });
    await app.act(app.get({ name: "Hide" }).id, { action: "click" });
    await app.act(app.get({ name: "+1" }).id, { action: "click" });
    assert.deepEqual(seen, [0, 1]);
  });
});
