import assert from "node:assert/strict";
import { setup, startEffect } from "./_test_setup.ts";
import { disposeOwner, Owner } from "./graph.ts";
import { brandCtx, type Ctx, Memo, Signal } from "./signal.ts";

/** A value that is not a ctx, typed as one to reach the runtime check. */
const notCtx = {} as Ctx;

function missingCtxMessage(method: string): RegExp {
  return new RegExp(`^${method.replace(".", "\\.")}\\(\\) needs a context as its first argument`);
}

Deno.test("brandCtx()", async (t) => {
  await t.step("returns the same object, now accepted as a ctx", () => {
    const { owner } = setup();
    const target = { name: "cx" };
    const ctx = brandCtx(target);
    assert.equal(ctx, target);
    assert.equal(new Signal(owner, 1).get(ctx), 1);
  });

  await t.step("adds no enumerable property", () => {
    const ctx = brandCtx({ a: 1 });
    assert.deepEqual(Object.keys(ctx), ["a"]);
    assert.equal(JSON.stringify(ctx), '{"a":1}');
  });
});

Deno.test("Signal reads and writes", async (t) => {
  await t.step("get() returns the initial value, then the last value set", () => {
    const { owner, ctx } = setup();
    const count = new Signal(owner, 0);
    assert.equal(count.get(ctx), 0);
    count.set(ctx, 5);
    count.set(ctx, 6);
    assert.equal(count.get(ctx), 6);
  });

  await t.step("name is the name given at creation", () => {
    const { owner } = setup();
    assert.equal(new Signal(owner, 0, { name: "count" }).name, "count");
    assert.equal(new Signal(owner, 0).name, undefined);
  });

  await t.step("the signal belongs to its owner and its owner's runtime", () => {
    const { runtime, owner } = setup();
    new Signal(owner, 0, { name: "count" });
    assert.deepEqual([...runtime.signals].map((node) => node.name), ["count"]);
    assert.equal(owner.signals.length, 1);
  });

  await t.step("an effect that read it reruns at the flush after set()", () => {
    const { runtime, owner, ctx } = setup();
    const count = new Signal(owner, 0);
    const seen: number[] = [];
    startEffect(owner, () => void seen.push(count.get(ctx)));
    count.set(ctx, 1);
    count.set(ctx, 2);
    runtime.flush();
    assert.deepEqual(seen, [0, 2]);
  });

  await t.step("a signal of its owner's disposed child is gone from runtime.signals", () => {
    const { runtime, owner } = setup();
    const child = new Owner(runtime, owner);
    new Signal(owner, 0, { name: "kept" });
    new Signal(child, 0, { name: "dropped" });
    assert.equal(runtime.signals.size, 2);
    disposeOwner(child);
    assert.deepEqual([...runtime.signals].map((node) => node.name), ["kept"]);
  });
});

Deno.test("Signal equality short-circuit", async (t) => {
  await t.step("set() with an equal value does not rerun effects or schedule", () => {
    const harness = setup();
    const { runtime, owner, ctx } = harness;
    const label = new Signal(owner, "a");
    let runs = 0;
    startEffect(owner, () => {
      label.get(ctx);
      runs++;
    });
    label.set(ctx, "a");
    assert.equal(harness.schedules, 0);
    assert.equal(runtime.pending, false);
    runtime.flush();
    assert.equal(runs, 1);
  });

  await t.step("options.equals decides whether set() changed the value", () => {
    const { runtime, owner, ctx } = setup();
    const point = new Signal(owner, { x: 1, y: 1 }, {
      equals: (a, b) => a.x === b.x && a.y === b.y,
    });
    const first = point.get(ctx);
    let runs = 0;
    startEffect(owner, () => {
      point.get(ctx);
      runs++;
    });
    point.set(ctx, { x: 1, y: 1 });
    runtime.flush();
    assert.equal(runs, 1);
    assert.equal(point.get(ctx), first, "an equal value is not stored");
    point.set(ctx, { x: 2, y: 1 });
    runtime.flush();
    assert.equal(runs, 2);
    assert.deepEqual(point.get(ctx), { x: 2, y: 1 });
  });

  await t.step(
    "the default equality is Object.is, so a new object with equal fields differs",
    () => {
      const { runtime, owner, ctx } = setup();
      const point = new Signal(owner, { x: 1 });
      let runs = 0;
      startEffect(owner, () => {
        point.get(ctx);
        runs++;
      });
      point.set(ctx, { x: 1 });
      runtime.flush();
      assert.equal(runs, 2);
    },
  );
});

Deno.test("Signal.update()", async (t) => {
  await t.step("mutates the value in place and notifies what read it", () => {
    const { runtime, owner, ctx } = setup();
    const notes = new Signal<string[]>(owner, []);
    const original = notes.get(ctx);
    const lengths: number[] = [];
    startEffect(owner, () => void lengths.push(notes.get(ctx).length));
    notes.update(ctx, (list) => list.push("first"));
    assert.equal(notes.get(ctx), original, "the same array, changed in place");
    assert.deepEqual(original, ["first"]);
    assert.equal(runtime.pending, true);
    runtime.flush();
    assert.deepEqual(lengths, [0, 1]);
  });

  await t.step("notifies even when equals would call the value unchanged", () => {
    const { runtime, owner, ctx } = setup();
    const notes = new Signal<string[]>(owner, [], { equals: () => true });
    let runs = 0;
    startEffect(owner, () => {
      notes.get(ctx);
      runs++;
    });
    notes.update(ctx, (list) => list.push("x"));
    runtime.flush();
    assert.equal(runs, 2);
  });

  await t.step("ignores what fn returns", () => {
    const { owner, ctx } = setup();
    const notes = new Signal<string[]>(owner, ["a"]);
    const original = notes.get(ctx);
    notes.update(ctx, () => ["replaced"]);
    assert.equal(notes.get(ctx), original);
    assert.deepEqual(notes.get(ctx), ["a"]);
  });

  await t.step("inside a memo throws before fn runs", () => {
    const { owner, ctx } = setup();
    const notes = new Signal<string[]>(owner, []);
    const memo = new Memo(owner, () => notes.update(ctx, (list) => list.push("x")));
    assert.throws(() => memo.get(ctx), {
      message: "writing a signal inside a memo is not allowed: use an effect",
    });
    assert.deepEqual(notes.get(ctx), []);
  });

  await t.step("does not notify when fn throws", () => {
    const { runtime, owner, ctx } = setup();
    const notes = new Signal<string[]>(owner, []);
    startEffect(owner, () => void notes.get(ctx));
    assert.throws(() =>
      notes.update(ctx, () => {
        throw new Error("boom");
      }), { message: "boom" });
    assert.equal(runtime.pending, false);
  });
});

Deno.test("Signal.with() and Memo.with()", async (t) => {
  await t.step("Signal.with() passes the value itself and returns fn's result", () => {
    const { owner, ctx } = setup();
    const list = [1, 2, 3];
    const numbers = new Signal(owner, list);
    let received: number[] | null = null;
    const length = numbers.with(ctx, (value) => {
      received = value;
      return value.length;
    });
    assert.equal(length, 3);
    assert.equal(received, list);
  });

  await t.step("Signal.with() is tracked like get()", () => {
    const { runtime, owner, ctx } = setup();
    const numbers = new Signal<number[]>(owner, []);
    const lengths: number[] = [];
    startEffect(owner, () => void lengths.push(numbers.with(ctx, (value) => value.length)));
    numbers.update(ctx, (value) => value.push(1));
    runtime.flush();
    assert.deepEqual(lengths, [0, 1]);
  });

  await t.step("Memo.with() passes the memo's value and is tracked", () => {
    const { runtime, owner, ctx } = setup();
    const count = new Signal(owner, 2);
    const range = new Memo(owner, () => Array.from({ length: count.get(ctx) }, (_, i) => i));
    const sums: number[] = [];
    startEffect(owner, () => {
      sums.push(range.with(ctx, (value) => value.reduce((a, b) => a + b, 0)));
    });
    count.set(ctx, 4);
    runtime.flush();
    assert.deepEqual(sums, [1, 6]);
  });
});

Deno.test("Memo", async (t) => {
  await t.step("get() computes from signals and caches until one changes", () => {
    const { owner, ctx } = setup();
    const first = new Signal(owner, "Ada");
    const last = new Signal(owner, "Lovelace");
    let runs = 0;
    const full = new Memo(owner, () => {
      runs++;
      return `${first.get(ctx)} ${last.get(ctx)}`;
    });
    assert.equal(full.get(ctx), "Ada Lovelace");
    assert.equal(full.get(ctx), "Ada Lovelace");
    assert.equal(runs, 1);
    last.set(ctx, "Byron");
    assert.equal(full.get(ctx), "Ada Byron");
    assert.equal(runs, 2);
  });

  await t.step("the equals argument stops an equal result from rerunning effects", () => {
    const { runtime, owner, ctx } = setup();
    const text = new Signal(owner, "abc");
    const length = new Memo(owner, () => ({ n: text.get(ctx).length }), (a, b) => a.n === b.n);
    let runs = 0;
    startEffect(owner, () => {
      length.get(ctx);
      runs++;
    });
    text.set(ctx, "xyz");
    runtime.flush();
    assert.equal(runs, 1);
    text.set(ctx, "wxyz");
    runtime.flush();
    assert.equal(runs, 2);
  });

  await t.step("a memo that reads itself throws the cycle message from get()", () => {
    const { owner, ctx } = setup();
    const self: Memo<number> = new Memo(owner, () => self.get(ctx));
    assert.throws(() => self.get(ctx), {
      message: "a memo read itself while computing: the memos form a cycle",
    });
  });

  await t.step("set() inside a memo throws and leaves the signal unchanged", () => {
    const { owner, ctx } = setup();
    const count = new Signal(owner, 0);
    const memo = new Memo(owner, () => count.set(ctx, 1));
    assert.throws(() => memo.get(ctx), {
      message: "writing a signal inside a memo is not allowed: use an effect",
    });
    assert.equal(count.get(ctx), 0);
  });
});

Deno.test("missing ctx", async (t) => {
  const { owner, ctx } = setup();
  const signal = new Signal(owner, 1);
  const memo = new Memo(owner, () => 1);
  const calls: [string, () => unknown][] = [
    ["Signal.get", () => signal.get(notCtx)],
    ["Signal.set", () => signal.set(notCtx, 2)],
    ["Signal.update", () => signal.update(notCtx, () => {})],
    ["Signal.with", () => signal.with(notCtx, (value) => value)],
    ["Memo.get", () => memo.get(notCtx)],
    ["Memo.with", () => memo.with(notCtx, (value) => value)],
  ];
  for (const [method, call] of calls) {
    await t.step(`${method}() without a ctx throws a TypeError naming the method`, () => {
      assert.throws(call, (error) => {
        assert.ok(error instanceof TypeError);
        assert.match(error.message, missingCtxMessage(method));
        assert.match(error.message, /pass the component's cx or the rt/);
        return true;
      });
    });
  }

  await t.step("null, undefined and primitives are refused too", () => {
    for (const value of [null, undefined, 0, "cx", true]) {
      assert.throws(() => signal.get(value as unknown as Ctx), TypeError);
    }
  });

  await t.step("a refused set() or update() changes nothing", () => {
    let called = false;
    assert.throws(() => signal.set(notCtx, 2));
    assert.throws(() => signal.update(notCtx, () => void (called = true)));
    assert.equal(signal.get(ctx), 1);
    assert.equal(called, false);
  });
});

Deno.test("Signal secret option", async (t) => {
  await t.step("{ secret: true } declares the node secret from the start", () => {
    const { runtime, owner } = setup();
    const token = new Signal(owner, "s3cr3t", { name: "token", secret: true });
    new Signal(owner, "visible", { name: "label" });
    const secretOf = (name: string) =>
      [...runtime.signals].find((node) => node.name === name)?.secret;
    assert.equal(secretOf("token"), true);
    assert.equal(token.secret, true);
    assert.equal(secretOf("label"), false);
  });

  await t.step("a signal made without it is not secret and cannot become one", () => {
    const { owner } = setup();
    const plain = new Signal(owner, "a");
    assert.equal(plain.secret, false);
    assert.equal("markSecret" in plain, false);
  });

  await t.step("leaves the value readable and writable", () => {
    const { runtime, owner, ctx } = setup();
    const token = new Signal(owner, "a", { secret: true });
    const seen: string[] = [];
    startEffect(owner, () => void seen.push(token.get(ctx)));
    token.set(ctx, "b");
    runtime.flush();
    assert.deepEqual(seen, ["a", "b"]);
  });
});
