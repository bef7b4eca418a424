import assert from "node:assert/strict";
import { setup, startEffect } from "./_test_setup.ts";
import { EffectNode, MemoNode } from "./computed.ts";
import {
  CHECK,
  CLEAN,
  type Consumer,
  createSignalNode,
  DIRTY,
  disposeConsumer,
  DISPOSED,
  disposeOwner,
  getObserver,
  getOwner,
  notifyChanged,
  Owner,
  ReactiveRuntime,
  readSignal,
  runWithOwner,
  untracked,
  writeSignal,
} from "./graph.ts";

Deno.test("createSignalNode()", async (t) => {
  await t.step("registers the node with its owner and runtime", () => {
    const { runtime, owner } = setup();
    const node = createSignalNode<unknown>(owner, 1, "count");
    assert.ok(runtime.signals.has(node));
    assert.deepEqual(owner.signals, [node]);
    assert.equal(node.name, "count");
    assert.equal(node.value, 1);
    assert.equal(node.version, 0);
    assert.equal(node.secret, false);
    assert.equal(node.disposed, false);
  });

  await t.step("gives each node a new id, never reused after disposal", () => {
    const { runtime, owner } = setup();
    const first = createSignalNode(owner, 0);
    const child = new Owner(runtime, owner);
    const second = createSignalNode(child, 0);
    disposeOwner(child);
    const third = createSignalNode(owner, 0);
    assert.equal(new Set([first.id, second.id, third.id]).size, 3);
    assert.ok(third.id > second.id && second.id > first.id);
  });

  await t.step("numbers ids per runtime", () => {
    const a = setup();
    const b = setup();
    assert.equal(createSignalNode(a.owner, 0).id, createSignalNode(b.owner, 0).id);
  });
});

Deno.test("readSignal() and writeSignal()", async (t) => {
  await t.step("read returns the last value written", () => {
    const { owner } = setup();
    const node = createSignalNode(owner, "a");
    writeSignal(node, "b");
    assert.equal(readSignal(node), "b");
  });

  await t.step("a write of a new value increases the version", () => {
    const { owner } = setup();
    const node = createSignalNode(owner, 1);
    writeSignal(node, 2);
    writeSignal(node, 3);
    assert.equal(node.version, 2);
  });

  await t.step("a write of an equal value changes nothing and marks no one", () => {
    const { owner } = setup();
    const node = createSignalNode(owner, 1);
    let runs = 0;
    const effect = startEffect(owner, () => {
      readSignal(node);
      runs++;
    });
    writeSignal(node, 1);
    assert.equal(node.version, 0);
    assert.equal(effect.state, CLEAN);
    assert.equal(owner.runtime.pending, false);
    assert.equal(runs, 1);
  });

  await t.step("equality uses Object.is by default: NaN equals NaN, -0 differs from 0", () => {
    const { owner } = setup();
    const node = createSignalNode(owner, NaN);
    writeSignal(node, NaN);
    assert.equal(node.version, 0);
    writeSignal(node, 0);
    writeSignal(node, -0);
    assert.equal(node.version, 2);
  });

  await t.step("a custom equals decides whether the value changed", () => {
    const { owner } = setup();
    const node = createSignalNode(
      owner,
      { id: 1, label: "a" },
      undefined,
      (a, b) => a.id === b.id,
    );
    const original = node.value;
    writeSignal(node, { id: 1, label: "b" });
    assert.equal(node.value, original);
    assert.equal(node.version, 0);
    writeSignal(node, { id: 2, label: "c" });
    assert.deepEqual(node.value, { id: 2, label: "c" });
    assert.equal(node.version, 1);
  });
});

Deno.test("notifyChanged()", async (t) => {
  await t.step("increases the version and marks direct consumers DIRTY", () => {
    const { owner } = setup();
    const node = createSignalNode(owner, [1]);
    const effect = startEffect(owner, () => void readSignal(node));
    node.value.push(2);
    notifyChanged(node);
    assert.equal(node.version, 1);
    assert.equal(effect.state, DIRTY);
  });

  await t.step("marks consumers behind a memo CHECK, not DIRTY", () => {
    const { owner } = setup();
    const node = createSignalNode(owner, 1);
    const memo = new MemoNode(owner, () => readSignal(node) * 2);
    const effect = startEffect(owner, () => void memo.read());
    writeSignal(node, 2);
    assert.equal(memo.state, DIRTY);
    assert.equal(effect.state, CHECK);
  });

  await t.step("throws when called while a memo computes, and changes nothing", () => {
    const { owner } = setup();
    const node = createSignalNode(owner, 1);
    const memo = new MemoNode(owner, () => notifyChanged(node));
    assert.throws(() => memo.read(), {
      message: "writing a signal inside a memo is not allowed: use an effect",
    });
    assert.equal(node.version, 0);
  });

  await t.step("writeSignal() inside a memo throws and leaves the value unchanged", () => {
    const { owner } = setup();
    const node = createSignalNode(owner, 1);
    const memo = new MemoNode(owner, () => writeSignal(node, 2));
    assert.throws(() => memo.read(), {
      message: "writing a signal inside a memo is not allowed: use an effect",
    });
    assert.equal(node.value, 1);
    assert.equal(node.version, 0);
  });

  await t.step("writes are allowed again once the memo has finished", () => {
    const { owner } = setup();
    const node = createSignalNode(owner, 1);
    const failing = new MemoNode(owner, () => writeSignal(node, 2));
    assert.throws(() => failing.read());
    writeSignal(node, 3);
    assert.equal(node.value, 3);
  });
});

Deno.test("ReactiveRuntime", async (t) => {
  await t.step("enqueue() calls onSchedule only when the queue was empty", () => {
    const harness = setup();
    const { runtime, owner } = harness;
    const first = new EffectNode(owner, () => {}, () => {});
    const second = new EffectNode(owner, () => {}, () => {});
    runtime.enqueue(first);
    runtime.enqueue(second);
    assert.equal(harness.schedules, 1);
    assert.equal(runtime.pending, true);
    runtime.flush();
    assert.equal(runtime.pending, false);
    runtime.enqueue(first);
    assert.equal(harness.schedules, 2);
  });

  await t.step("onSchedule defaults to doing nothing", () => {
    const runtime = new ReactiveRuntime();
    const owner = new Owner(runtime, null);
    const node = createSignalNode(owner, 0);
    let runs = 0;
    startEffect(owner, () => {
      readSignal(node);
      runs++;
    });
    writeSignal(node, 1);
    runtime.flush();
    assert.equal(runs, 2);
  });

  await t.step("flush() runs queued consumers in the order they were queued", () => {
    const { runtime } = setup();
    const order: string[] = [];
    const fake = (name: string): Consumer => ({
      state: DIRTY,
      sources: new Map(),
      runtime,
      isEffect: true,
      update: () => void order.push(name),
    });
    runtime.enqueue(fake("a"));
    runtime.enqueue(fake("b"));
    runtime.enqueue(fake("c"));
    runtime.flush();
    assert.deepEqual(order, ["a", "b", "c"]);
  });

  await t.step("flush() runs effects queued during the flush in the same call", () => {
    const { runtime, owner } = setup();
    const source = createSignalNode(owner, 0);
    const derived = createSignalNode(owner, 0);
    const seen: number[] = [];
    startEffect(owner, () => writeSignal(derived, readSignal(source) * 10));
    startEffect(owner, () => void seen.push(readSignal(derived)));
    writeSignal(source, 1);
    runtime.flush();
    assert.deepEqual(seen, [0, 10]);
    assert.equal(runtime.pending, false);
  });

  await t.step("flush() with an empty queue does nothing", () => {
    const harness = setup();
    harness.runtime.flush();
    assert.equal(harness.runtime.pending, false);
    assert.equal(harness.schedules, 0);
  });

  await t.step("flush(maxRounds) names the limit it stopped at", () => {
    const { runtime, owner } = setup();
    const a = createSignalNode(owner, 0);
    const b = createSignalNode(owner, 0);
    startEffect(owner, () => writeSignal(b, readSignal(a) + 1));
    startEffect(owner, () => writeSignal(a, readSignal(b) + 1));
    assert.throws(() => runtime.flush(5), {
      message: "effects kept changing signals they read: stopped after 5 rounds",
    });
    assert.equal(runtime.pending, false);
  });

  await t.step("flush() allows a chain of effects as long as maxRounds", () => {
    const { runtime, owner } = setup();
    const nodes = Array.from({ length: 5 }, () => createSignalNode(owner, 0));
    for (let i = 0; i < nodes.length - 1; i++) {
      const from = nodes[i]!;
      const to = nodes[i + 1]!;
      startEffect(owner, () => writeSignal(to, readSignal(from)));
    }
    writeSignal(nodes[0]!, 7);
    runtime.flush(4);
    assert.equal(nodes[4]!.value, 7);
  });
});

Deno.test("tracking", async (t) => {
  await t.step("getObserver() is the running consumer, null outside", () => {
    const { owner } = setup();
    assert.equal(getObserver(), null);
    let inside: Consumer | null = null;
    const effect = startEffect(owner, () => {
      inside = getObserver();
    });
    assert.equal(inside, effect);
    assert.equal(getObserver(), null);
  });

  await t.step("a consumer records each producer it read with the version it saw", () => {
    const { owner } = setup();
    const a = createSignalNode(owner, 0);
    const b = createSignalNode(owner, 0);
    writeSignal(b, 1);
    const effect = startEffect(owner, () => {
      readSignal(a);
      readSignal(b);
    });
    assert.deepEqual([...effect.sources], [[a, 0], [b, 1]]);
    assert.ok(a.observers.has(effect));
    assert.ok(b.observers.has(effect));
  });

  await t.step("untracked() reads without recording, and restores tracking after", () => {
    const { runtime, owner } = setup();
    const hidden = createSignalNode(owner, 0);
    const seen = createSignalNode(owner, 0);
    let observerInside: Consumer | null = null;
    let runs = 0;
    const effect = startEffect(owner, () => {
      runs++;
      untracked(() => {
        observerInside = getObserver();
        readSignal(hidden);
      });
      readSignal(seen);
    });
    assert.equal(observerInside, null);
    assert.deepEqual([...effect.sources.keys()], [seen]);
    writeSignal(hidden, 1);
    runtime.flush();
    assert.equal(runs, 1);
    writeSignal(seen, 1);
    runtime.flush();
    assert.equal(runs, 2);
  });

  await t.step("untracked() restores the observer when fn throws", () => {
    const { owner } = setup();
    let after: Consumer | null = null;
    const effect = startEffect(owner, () => {
      assert.throws(() =>
        untracked(() => {
          throw new Error("boom");
        })
      );
      after = getObserver();
    });
    assert.equal(after, effect);
  });

  await t.step("runWithOwner() sets the owner, clears the observer and restores both", () => {
    const { runtime, owner } = setup();
    const other = new Owner(runtime, null);
    const node = createSignalNode(owner, 0);
    let ownerInside: Owner | null = null;
    let observerInside: Consumer | null = null;
    let ownerAfter: Owner | null = null;
    let observerAfter: Consumer | null = null;
    const effect = startEffect(owner, () => {
      runWithOwner(other, () => {
        ownerInside = getOwner();
        observerInside = getObserver();
        readSignal(node);
      });
      ownerAfter = getOwner();
      observerAfter = getObserver();
    });
    assert.equal(ownerInside, other);
    assert.equal(observerInside, null);
    assert.equal(ownerAfter, owner);
    assert.equal(observerAfter, effect);
    assert.equal(effect.sources.size, 0);
    assert.equal(getOwner(), null);
  });

  await t.step("runWithOwner() returns fn's value and restores the owner when fn throws", () => {
    const { owner } = setup();
    assert.equal(runWithOwner(owner, () => 42), 42);
    assert.throws(() =>
      runWithOwner(owner, () => {
        throw new Error("boom");
      }), { message: "boom" });
    assert.equal(getOwner(), null);
  });

  await t.step("a consumer runs with its owner as the current owner", () => {
    const { runtime, owner } = setup();
    const child = new Owner(runtime, owner);
    let ownerInside: Owner | null = null;
    startEffect(child, () => {
      ownerInside = getOwner();
    });
    assert.equal(ownerInside, child);
    assert.equal(getOwner(), null);
  });
});

Deno.test("disposeOwner()", async (t) => {
  await t.step("stops the owner's effects", () => {
    const { runtime, owner } = setup();
    const node = createSignalNode(owner, 0);
    const child = new Owner(runtime, owner);
    let runs = 0;
    const effect = startEffect(child, () => {
      readSignal(node);
      runs++;
    });
    disposeOwner(child);
    assert.equal(effect.state, DISPOSED);
    assert.equal(node.observers.size, 0);
    writeSignal(node, 1);
    assert.equal(runtime.pending, false);
    runtime.flush();
    assert.equal(runs, 1);
  });

  await t.step("an effect disposed while queued does not run at the flush", () => {
    const { runtime, owner } = setup();
    const node = createSignalNode(owner, 0);
    const child = new Owner(runtime, owner);
    let runs = 0;
    startEffect(child, () => {
      readSignal(node);
      runs++;
    });
    writeSignal(node, 1);
    assert.equal(runtime.pending, true);
    disposeOwner(child);
    runtime.flush();
    assert.equal(runs, 1);
  });

  await t.step("removes the owner's signals from runtime.signals and marks them disposed", () => {
    const { runtime, owner } = setup();
    const kept = createSignalNode(owner, 0);
    const child = new Owner(runtime, owner);
    const dropped = createSignalNode(child, 0);
    const grandchild = new Owner(runtime, child);
    const deep = createSignalNode(grandchild, 0);
    disposeOwner(child);
    assert.deepEqual([...runtime.signals], [kept]);
    assert.equal(dropped.disposed, true);
    assert.equal(deep.disposed, true);
    assert.equal(kept.disposed, false);
    assert.equal(child.signals.length, 0);
  });

  await t.step("disposes child owners first, then runs cleanups last first", () => {
    const { runtime, owner } = setup();
    const order: string[] = [];
    const child = new Owner(runtime, owner);
    const grandchild = new Owner(runtime, child);
    const sibling = new Owner(runtime, owner);
    owner.cleanups.push(() => order.push("root 1"), () => order.push("root 2"));
    child.cleanups.push(() => order.push("child 1"), () => order.push("child 2"));
    grandchild.cleanups.push(() => order.push("grandchild"));
    sibling.cleanups.push(() => order.push("sibling"));
    disposeOwner(owner);
    assert.deepEqual(order, ["grandchild", "child 2", "child 1", "sibling", "root 2", "root 1"]);
    assert.ok(owner.disposed && child.disposed && grandchild.disposed && sibling.disposed);
    assert.equal(owner.children.size, 0);
    assert.equal(owner.cleanups.length, 0);
  });

  await t.step("detaches the owner from its parent", () => {
    const { runtime, owner } = setup();
    const child = new Owner(runtime, owner);
    assert.ok(owner.children.has(child));
    disposeOwner(child);
    assert.equal(owner.children.has(child), false);
    assert.equal(owner.disposed, false);
  });

  await t.step("disposes consumers before running cleanups", () => {
    const { owner } = setup();
    const effect = startEffect(owner, () => {});
    let stateInCleanup: number | null = null;
    owner.cleanups.push(() => {
      stateInCleanup = effect.state;
    });
    disposeOwner(owner);
    assert.equal(stateInCleanup, DISPOSED);
  });

  await t.step("is safe to call twice: cleanups run once", () => {
    const { owner } = setup();
    let runs = 0;
    owner.cleanups.push(() => runs++);
    disposeOwner(owner);
    disposeOwner(owner);
    assert.equal(runs, 1);
  });

  await t.step("an error in one cleanup does not stop the others and is rethrown", () => {
    const { owner } = setup();
    const order: string[] = [];
    const failure = new Error("cleanup failed");
    owner.cleanups.push(
      () => order.push("first"),
      () => {
        throw failure;
      },
      () => order.push("last"),
    );
    assert.throws(() => disposeOwner(owner), (error) => error === failure);
    assert.deepEqual(order, ["last", "first"]);
    assert.equal(owner.disposed, true);
    assert.equal(owner.cleanups.length, 0);
  });

  await t.step("several failing cleanups are rethrown together in an AggregateError", () => {
    const { owner } = setup();
    const first = new Error("first");
    const second = new Error("second");
    let ran = false;
    owner.cleanups.push(
      () => {
        throw first;
      },
      () => {
        ran = true;
      },
      () => {
        throw second;
      },
    );
    assert.throws(() => disposeOwner(owner), (error) => {
      assert.ok(error instanceof AggregateError);
      assert.equal(error.message, "several cleanups failed");
      assert.deepEqual(error.errors, [second, first]);
      return true;
    });
    assert.equal(ran, true);
  });

  await t.step("an error in a child's cleanup does not stop the parent's disposal", () => {
    const { runtime, owner } = setup();
    const node = createSignalNode(owner, 0);
    const child = new Owner(runtime, owner);
    const sibling = new Owner(runtime, owner);
    const failure = new Error("child cleanup failed");
    const order: string[] = [];
    child.cleanups.push(() => {
      throw failure;
    });
    sibling.cleanups.push(() => order.push("sibling"));
    owner.cleanups.push(() => order.push("root"));
    let runs = 0;
    const effect = startEffect(owner, () => {
      readSignal(node);
      runs++;
    });
    assert.throws(() => disposeOwner(owner), (error) => error === failure);
    assert.deepEqual(order, ["sibling", "root"]);
    assert.equal(effect.state, DISPOSED);
    assert.equal(runtime.signals.size, 0);
    assert.ok(sibling.disposed);
  });
});

Deno.test("disposeConsumer()", async (t) => {
  await t.step("stops observing every source and never runs again", () => {
    const { runtime, owner } = setup();
    const node = createSignalNode(owner, 0);
    let runs = 0;
    const effect = startEffect(owner, () => {
      readSignal(node);
      runs++;
    });
    disposeConsumer(effect);
    assert.equal(effect.sources.size, 0);
    assert.equal(node.observers.size, 0);
    effect.update();
    writeSignal(node, 1);
    runtime.flush();
    assert.equal(runs, 1);
  });

  await t.step("an effect that disposes its owner while running stops tracking", () => {
    const { runtime, owner } = setup();
    const child = new Owner(runtime, owner);
    const before = createSignalNode(owner, 0);
    const after = createSignalNode(owner, 0);
    const effect = startEffect(child, () => {
      readSignal(before);
      disposeOwner(child);
      readSignal(after);
    });
    assert.equal(effect.state, DISPOSED);
    assert.equal(before.observers.size, 0);
    assert.equal(after.observers.size, 0);
    assert.equal(effect.sources.size, 0);
  });
});
