import assert from "node:assert/strict";
import { setup, startEffect } from "./_test_setup.ts";
import { disposeOwner, Owner, ReactiveRuntime } from "./graph.ts";
import { Memo, Signal } from "./signal.ts";

Deno.test("Signal reads and writes", async (t) => {
  await t.step("get() returns the initial value, then the last value set", () => {
    const { owner } = setup();
    const count = new Signal(owner, 0);
    assert.equal(count.get(), 0);
    count.set(5);
    count.set(6);
    assert.equal(count.get(), 6);
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
    const { runtime, owner } = setup();
    const count = new Signal(owner, 0);
    const seen: number[] = [];
    startEffect(owner, () => void seen.push(count.get()));
    count.set(1);
    count.set(2);
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
    const { runtime, owner } = harness;
    const label = new Signal(owner, "a");
    let runs = 0;
    startEffect(owner, () => {
      label.get();
      runs++;
    });
    label.set("a");
    assert.equal(harness.schedules, 0);
    assert.equal(runtime.pending, false);
    runtime.flush();
    assert.equal(runs, 1);
  });

  await t.step("options.equals decides whether set() changed the value", () => {
    const { runtime, owner } = setup();
    const point = new Signal(owner, { x: 1, y: 1 }, {
      equals: (a, b) => a.x === b.x && a.y === b.y,
    });
    const first = point.get();
    let runs = 0;
    startEffect(owner, () => {
      point.get();
      runs++;
    });
    point.set({ x: 1, y: 1 });
    runtime.flush();
    assert.equal(runs, 1);
    assert.equal(point.get(), first, "an equal value is not stored");
    point.set({ x: 2, y: 1 });
    runtime.flush();
    assert.equal(runs, 2);
    assert.deepEqual(point.get(), { x: 2, y: 1 });
  });

  await t.step(
    "the default equality is Object.is, so a new object with equal fields differs",
    () => {
      const { runtime, owner } = setup();
      const point = new Signal(owner, { x: 1 });
      let runs = 0;
      startEffect(owner, () => {
        point.get();
        runs++;
      });
      point.set({ x: 1 });
      runtime.flush();
      assert.equal(runs, 2);
    },
  );
});

Deno.test("Signal.update()", async (t) => {
  await t.step("mutates the value in place and notifies what read it", () => {
    const { runtime, owner } = setup();
    const notes = new Signal<string[]>(owner, []);
    const original = notes.get();
    const lengths: number[] = [];
    startEffect(owner, () => void lengths.push(notes.get().length));
    notes.update((list) => list.push("first"));
    assert.equal(notes.get(), original, "the same array, changed in place");
    assert.deepEqual(original, ["first"]);
    assert.equal(runtime.pending, true);
    runtime.flush();
    assert.deepEqual(lengths, [0, 1]);
  });

  await t.step("notifies even when equals would call the value unchanged", () => {
    const { runtime, owner } = setup();
    const notes = new Signal<string[]>(owner, [], { equals: () => true });
    let runs = 0;
    startEffect(owner, () => {
      notes.get();
      runs++;
    });
    notes.update((list) => list.push("x"));
    runtime.flush();
    assert.equal(runs, 2);
  });

  await t.step("ignores what fn returns", () => {
    const { owner } = setup();
    const notes = new Signal<string[]>(owner, ["a"]);
    const original = notes.get();
    notes.update(() => ["replaced"]);
    assert.equal(notes.get(), original);
    assert.deepEqual(notes.get(), ["a"]);
  });

  await t.step("inside a memo throws before fn runs", () => {
    const { owner } = setup();
    const notes = new Signal<string[]>(owner, []);
    const memo = new Memo(owner, () => notes.update((list) => list.push("x")));
    assert.throws(() => memo.get(), {
      message: "writing a signal inside a memo is not allowed: use an effect",
    });
    assert.deepEqual(notes.get(), []);
  });

  await t.step("does not notify when fn throws", () => {
    const { runtime, owner } = setup();
    const notes = new Signal<string[]>(owner, []);
    startEffect(owner, () => void notes.get());
    assert.throws(() =>
      notes.update(() => {
        throw new Error("boom");
      }), { message: "boom" });
    assert.equal(runtime.pending, false);
  });
});

Deno.test("Signal.with() and Memo.with()", async (t) => {
  await t.step("Signal.with() passes the value itself and returns fn's result", () => {
    const { owner } = setup();
    const list = [1, 2, 3];
    const numbers = new Signal(owner, list);
    let received: number[] | null = null;
    const length = numbers.with((value) => {
      received = value;
      return value.length;
    });
    assert.equal(length, 3);
    assert.equal(received, list);
  });

  await t.step("Signal.with() is tracked like get()", () => {
    const { runtime, owner } = setup();
    const numbers = new Signal<number[]>(owner, []);
    const lengths: number[] = [];
    startEffect(owner, () => void lengths.push(numbers.with((value) => value.length)));
    numbers.update((value) => value.push(1));
    runtime.flush();
    assert.deepEqual(lengths, [0, 1]);
  });

  await t.step("Memo.with() passes the memo's value and is tracked", () => {
    const { runtime, owner } = setup();
    const count = new Signal(owner, 2);
    const range = new Memo(owner, () => Array.from({ length: count.get() }, (_, i) => i));
    const sums: number[] = [];
    startEffect(owner, () => {
      sums.push(range.with((value) => value.reduce((a, b) => a + b, 0)));
    });
    count.set(4);
    runtime.flush();
    assert.deepEqual(sums, [1, 6]);
  });
});

Deno.test("Memo", async (t) => {
  await t.step("get() computes from signals and caches until one changes", () => {
    const { owner } = setup();
    const first = new Signal(owner, "Ada");
    const last = new Signal(owner, "Lovelace");
    let runs = 0;
    const full = new Memo(owner, () => {
      runs++;
      return `${first.get()} ${last.get()}`;
    });
    assert.equal(full.get(), "Ada Lovelace");
    assert.equal(full.get(), "Ada Lovelace");
    assert.equal(runs, 1);
    last.set("Byron");
    assert.equal(full.get(), "Ada Byron");
    assert.equal(runs, 2);
  });

  await t.step("the equals argument stops an equal result from rerunning effects", () => {
    const { runtime, owner } = setup();
    const text = new Signal(owner, "abc");
    const length = new Memo(owner, () => ({ n: text.get().length }), (a, b) => a.n === b.n);
    let runs = 0;
    startEffect(owner, () => {
      length.get();
      runs++;
    });
    text.set("xyz");
    runtime.flush();
    assert.equal(runs, 1);
    text.set("wxyz");
    runtime.flush();
    assert.equal(runs, 2);
  });

  await t.step("a memo that reads itself throws the cycle message from get()", () => {
    const { owner } = setup();
    const self: Memo<number> = new Memo(owner, () => self.get());
    assert.throws(() => self.get(), {
      message: "a memo read itself while computing: the memos form a cycle",
    });
  });

  await t.step("set() inside a memo throws and leaves the signal unchanged", () => {
    const { owner } = setup();
    const count = new Signal(owner, 0);
    const memo = new Memo(owner, () => count.set(1));
    assert.throws(() => memo.get(), {
      message: "writing a signal inside a memo is not allowed: use an effect",
    });
    assert.equal(count.get(), 0);
  });
});

/** The start of the message for `method` used after its owner went, as `kind` `name`. */
function afterDisposal(method: string, what: string, when: string): string {
  return `${method}() was called on ${what} after ${when}: `;
}

Deno.test("use after disposal", async (t) => {
  const unmounted = "the component that made it unmounted";
  const unmountedSetup = () => {
    const { runtime, owner } = setup();
    const component = new Owner(runtime, owner);
    const count = new Signal(component, 1, { name: "count" });
    const memo = new Memo(component, () => count.get() * 2);
    assert.equal(memo.get(), 2);
    disposeOwner(component);
    return { count, memo };
  };
  const calls: [string, string, (s: ReturnType<typeof unmountedSetup>) => unknown][] = [
    ["Signal.get", 'signal "count"', ({ count }) => count.get()],
    ["Signal.set", 'signal "count"', ({ count }) => count.set(2)],
    ["Signal.update", 'signal "count"', ({ count }) => count.update(() => {})],
    ["Signal.with", 'signal "count"', ({ count }) => count.with((value) => value)],
    ["Memo.get", "a memo", ({ memo }) => memo.get()],
    ["Memo.with", "a memo", ({ memo }) => memo.with((value) => value)],
  ];
  for (const [method, what, call] of calls) {
    await t.step(`${method}() after its component unmounted throws, naming it and the fix`, () => {
      const signals = unmountedSetup();
      assert.throws(() => call(signals), (error) => {
        assert.ok(error instanceof Error);
        assert.ok(
          error.message.startsWith(afterDisposal(method, what, unmounted)),
          error.message,
        );
        assert.match(error.message, /cx\.onCleanup\(\)/);
        return true;
      });
    });
  }

  await t.step("after its app closed (its root owner disposed) the message says so", () => {
    const { owner } = setup();
    const label = new Signal(owner, "a");
    const memo = new Memo(owner, () => label.get());
    disposeOwner(owner);
    assert.throws(() => label.set("b"), {
      message: new RegExp(`^${escape(afterDisposal("Signal.set", "a signal", "its app closed"))}`),
    });
    assert.throws(() => memo.get(), {
      message: new RegExp(`^${escape(afterDisposal("Memo.get", "a memo", "its app closed"))}`),
    });
  });

  await t.step("the message never shows the value, even of a secret", () => {
    const { owner } = setup();
    const token = new Signal(owner, "s3cr3t", { name: "token", secret: true });
    disposeOwner(owner);
    assert.throws(() => token.get(), (error) => {
      assert.ok(error instanceof Error);
      assert.doesNotMatch(error.message, /s3cr3t/);
      assert.match(error.message, /signal "token"/);
      return true;
    });
  });

  await t.step("a refused set() or update() changes nothing and notifies nothing", () => {
    const { runtime, owner } = setup();
    const component = new Owner(runtime, owner);
    const notes = new Signal<string[]>(component, ["a"]);
    const list = notes.get();
    const seen: number[] = [];
    startEffect(owner, () => void seen.push(notes.get().length));
    disposeOwner(component);
    let called = false;
    assert.throws(() => notes.set(["b"]));
    assert.throws(() => notes.update(() => void (called = true)));
    assert.equal(called, false);
    assert.deepEqual(list, ["a"]);
    assert.equal(runtime.pending, false);
    assert.deepEqual(seen, [1]);
  });

  await t.step("a cleanup of the component may still read its signals", () => {
    const { runtime, owner } = setup();
    const component = new Owner(runtime, owner);
    const draft = new Signal(component, "unsaved text");
    let saved = "";
    component.cleanups.push(() => void (saved = draft.get()));
    disposeOwner(component);
    assert.equal(saved, "unsaved text");
    assert.throws(() => draft.get(), /after the component that made it unmounted/);
  });

  await t.step("the signals of a component still mounted keep working", () => {
    const { runtime, owner } = setup();
    const kept = new Signal(owner, 1);
    disposeOwner(new Owner(runtime, owner));
    kept.set(2);
    assert.equal(kept.get(), 2);
  });
});

Deno.test("a call that still passes a context first", async (t) => {
  const { owner } = setup();
  const rt = { quit() {} };
  // Casts stand in for JavaScript callers and code that was not type-checked.
  const signal = new Signal<unknown>(owner, 1);
  const loose = signal as unknown as {
    set(...args: unknown[]): void;
    update(...args: unknown[]): void;
    with(...args: unknown[]): unknown;
  };
  const memo = new Memo(owner, () => 1) as unknown as { with(...args: unknown[]): unknown };

  await t.step("set(rt, value) throws a TypeError and stores nothing", () => {
    assert.throws(() => loose.set(rt, 2), {
      name: "TypeError",
      message:
        "Signal.set() takes one argument, the new value, got 2: call signal.set(value), with no rt or cx before it",
    });
    assert.equal(signal.get(), 1);
  });

  await t.step("set() with no argument throws too, rather than storing undefined", () => {
    assert.throws(() => loose.set(), { name: "TypeError", message: /got 0/ });
    assert.equal(signal.get(), 1);
  });

  await t.step("update(rt, fn), with(rt, fn) and memo.with(rt, fn) name the method", () => {
    assert.throws(() => loose.update(rt, () => {}), {
      name: "TypeError",
      message:
        "Signal.update() takes a function, got object: call signal.update((value) => ...), with no rt or cx before it",
    });
    assert.throws(() => loose.with(rt, () => {}), {
      name: "TypeError",
      message: /^Signal\.with\(\) takes a function, got object: /,
    });
    assert.throws(() => memo.with(rt, () => {}), {
      name: "TypeError",
      message: /^Memo\.with\(\) takes a function, got object: /,
    });
  });
});

Deno.test("frame scheduling", async (t) => {
  await t.step("writes ask their runtime for one frame until it flushes", () => {
    const harness = setup();
    const { runtime, owner } = harness;
    const count = new Signal(owner, 0);
    startEffect(owner, () => void count.get());
    count.set(1);
    count.set(2);
    count.update(() => {});
    assert.equal(harness.schedules, 1);
    runtime.flush();
    count.set(3);
    assert.equal(harness.schedules, 2);
  });

  await t.step("a write with nothing reading it schedules nothing", () => {
    const harness = setup();
    new Signal(harness.owner, 0).set(1);
    assert.equal(harness.schedules, 0);
  });

  await t.step("a write schedules the frame of the app its readers belong to, not another", () => {
    const scheduled: string[] = [];
    const first = new Owner(new ReactiveRuntime(() => scheduled.push("first")), null);
    const second = new Owner(new ReactiveRuntime(() => scheduled.push("second")), null);
    const a = new Signal(first, 0);
    const b = new Signal(second, 0);
    startEffect(first, () => void a.get());
    startEffect(second, () => void b.get());
    b.set(1);
    assert.deepEqual(scheduled, ["second"]);
    assert.equal(first.runtime.pending, false);
    assert.equal(second.runtime.pending, true);
  });

  await t.step("a memo read through with() wakes the effect that read it", () => {
    const { runtime, owner } = setup();
    const count = new Signal(owner, 1);
    const doubled = new Memo(owner, () => count.get() * 2);
    const seen: number[] = [];
    startEffect(owner, () => void seen.push(doubled.with((value) => value + 1)));
    count.set(2);
    runtime.flush();
    assert.deepEqual(seen, [3, 5]);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

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
    const { runtime, owner } = setup();
    const token = new Signal(owner, "a", { secret: true });
    const seen: string[] = [];
    startEffect(owner, () => void seen.push(token.get()));
    token.set("b");
    runtime.flush();
    assert.deepEqual(seen, ["a", "b"]);
  });
});
