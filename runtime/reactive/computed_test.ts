import assert from "node:assert/strict";
import { setup, startEffect } from "./_test_setup.ts";
import { EffectNode, MemoNode } from "./computed.ts";
import {
  CHECK,
  CLEAN,
  createSignalNode,
  DIRTY,
  DISPOSED,
  disposeOwner,
  getOwner,
  Owner,
  readSignal,
  writeSignal,
} from "./graph.ts";

const CYCLE_MESSAGE = "a memo read itself while computing: the memos form a cycle";

Deno.test("MemoNode caching", async (t) => {
  await t.step("does not compute until first read", () => {
    const { owner } = setup();
    let runs = 0;
    const memo = new MemoNode(owner, () => ++runs);
    assert.equal(runs, 0);
    assert.equal(memo.read(), 1);
    assert.equal(runs, 1);
  });

  await t.step("reads the cached value while no source changed", () => {
    const { owner } = setup();
    const node = createSignalNode(owner, 2);
    let runs = 0;
    const memo = new MemoNode(owner, () => {
      runs++;
      return readSignal(node) * 10;
    });
    assert.equal(memo.read(), 20);
    assert.equal(memo.read(), 20);
    assert.equal(memo.read(), 20);
    assert.equal(runs, 1);
    assert.equal(memo.state, CLEAN);
  });

  await t.step("recomputes on the next read after a source changed, and only then", () => {
    const { owner } = setup();
    const node = createSignalNode(owner, 2);
    let runs = 0;
    const memo = new MemoNode(owner, () => {
      runs++;
      return readSignal(node) * 10;
    });
    memo.read();
    writeSignal(node, 3);
    writeSignal(node, 4);
    assert.equal(runs, 1, "writes alone do not recompute a memo");
    assert.equal(memo.read(), 40);
    assert.equal(runs, 2);
  });

  await t.step("does not recompute for a signal it did not read", () => {
    const { owner } = setup();
    const read = createSignalNode(owner, 1);
    const other = createSignalNode(owner, 1);
    let runs = 0;
    const memo = new MemoNode(owner, () => {
      runs++;
      return readSignal(read);
    });
    memo.read();
    writeSignal(other, 2);
    memo.read();
    assert.equal(runs, 1);
  });

  await t.step("does not recompute when a source memo recomputed to an equal value", () => {
    const { owner } = setup();
    const node = createSignalNode(owner, 2);
    const parity = new MemoNode(owner, () => readSignal(node) % 2);
    let runs = 0;
    const label = new MemoNode(owner, () => {
      runs++;
      return parity.read() === 0 ? "even" : "odd";
    });
    assert.equal(label.read(), "even");
    writeSignal(node, 4);
    assert.equal(label.read(), "even");
    assert.equal(runs, 1);
    writeSignal(node, 5);
    assert.equal(label.read(), "odd");
    assert.equal(runs, 2);
  });

  await t.step("increases its version only when its value changes", () => {
    const { owner } = setup();
    const node = createSignalNode(owner, 2);
    const parity = new MemoNode(owner, () => readSignal(node) % 2);
    parity.read();
    const first = parity.version;
    writeSignal(node, 4);
    parity.read();
    assert.equal(parity.version, first);
    writeSignal(node, 5);
    parity.read();
    assert.equal(parity.version, first + 1);
  });

  await t.step("a custom equals decides whether the value changed", () => {
    const { runtime, owner } = setup();
    const node = createSignalNode(owner, [1, 2]);
    const copy = new MemoNode(
      owner,
      () => [...readSignal(node)],
      (a, b) => a.length === b.length && a.every((item, i) => item === b[i]),
    );
    let runs = 0;
    startEffect(owner, () => {
      copy.read();
      runs++;
    });
    const firstCopy = copy.read();
    writeSignal(node, [1, 2]);
    runtime.flush();
    assert.equal(runs, 1);
    assert.equal(copy.read(), firstCopy, "an equal result keeps the cached value");
    writeSignal(node, [1, 3]);
    runtime.flush();
    assert.equal(runs, 2);
    assert.deepEqual(copy.read(), [1, 3]);
  });

  await t.step("a chain of memos recomputes each link once per change", () => {
    const { owner } = setup();
    const node = createSignalNode(owner, 1);
    const runs = [0, 0, 0];
    const a = new MemoNode(owner, () => (runs[0]!++, readSignal(node) + 1));
    const b = new MemoNode(owner, () => (runs[1]!++, a.read() + 1));
    const c = new MemoNode(owner, () => (runs[2]!++, b.read() + 1));
    assert.equal(c.read(), 4);
    writeSignal(node, 10);
    assert.equal(c.read(), 13);
    assert.equal(c.read(), 13);
    assert.deepEqual(runs, [2, 2, 2]);
  });

  await t.step("runs with its own owner as the current owner, not its reader's", () => {
    const { runtime, owner } = setup();
    const memoOwner = new Owner(runtime, owner);
    let ownerInside: Owner | null = null;
    const memo = new MemoNode(memoOwner, () => {
      ownerInside = getOwner();
    });
    startEffect(owner, () => memo.read());
    assert.equal(ownerInside, memoOwner);
  });
});

Deno.test("diamond dependencies", async (t) => {
  await t.step("a memo below a diamond computes once per flush", () => {
    const { runtime, owner } = setup();
    const node = createSignalNode(owner, 1);
    const double = new MemoNode(owner, () => readSignal(node) * 2);
    const triple = new MemoNode(owner, () => readSignal(node) * 3);
    let sumRuns = 0;
    const sum = new MemoNode(owner, () => {
      sumRuns++;
      return double.read() + triple.read();
    });
    let effectRuns = 0;
    startEffect(owner, () => {
      sum.read();
      effectRuns++;
    });
    assert.equal(sumRuns, 1);
    writeSignal(node, 2);
    runtime.flush();
    assert.equal(sumRuns, 2);
    assert.equal(effectRuns, 2);
    assert.equal(sum.read(), 10);
  });

  await t.step("an effect never sees one side of a diamond updated and not the other", () => {
    const { runtime, owner } = setup();
    const node = createSignalNode(owner, 1);
    const left = new MemoNode(owner, () => readSignal(node));
    const right = new MemoNode(owner, () => readSignal(node));
    const seen: [number, number][] = [];
    startEffect(owner, () => void seen.push([left.read(), right.read()]));
    const sum = new MemoNode(owner, () => left.read() + right.read());
    const sums: number[] = [];
    startEffect(owner, () => void sums.push(sum.read()));
    for (const value of [2, 3, 4]) {
      writeSignal(node, value);
      runtime.flush();
    }
    assert.deepEqual(seen, [[1, 1], [2, 2], [3, 3], [4, 4]]);
    assert.deepEqual(sums, [2, 4, 6, 8]);
  });

  await t.step("an effect that reads a signal and a memo of it sees both fresh", () => {
    const { runtime, owner } = setup();
    const node = createSignalNode(owner, 1);
    const double = new MemoNode(owner, () => readSignal(node) * 2);
    const seen: [number, number][] = [];
    startEffect(owner, () => void seen.push([readSignal(node), double.read()]));
    writeSignal(node, 5);
    runtime.flush();
    assert.deepEqual(seen, [[1, 2], [5, 10]]);
  });
});

Deno.test("EffectNode batching", async (t) => {
  await t.step("the constructor does not run the effect; the first update() does", () => {
    const { runtime, owner } = setup();
    let runs = 0;
    const effect = new EffectNode(owner, () => void runs++, () => {});
    assert.equal(runs, 0);
    assert.equal(effect.state, DIRTY);
    assert.equal(runtime.pending, false);
    effect.update();
    assert.equal(runs, 1);
    assert.equal(effect.state, CLEAN);
    effect.update();
    assert.equal(runs, 1, "an up-to-date effect does not run again");
  });

  await t.step("a write queues the effect; it runs at the flush, not before", () => {
    const { runtime, owner } = setup();
    const node = createSignalNode(owner, 0);
    const seen: number[] = [];
    startEffect(owner, () => void seen.push(readSignal(node)));
    writeSignal(node, 1);
    assert.deepEqual(seen, [0]);
    assert.equal(runtime.pending, true);
    runtime.flush();
    assert.deepEqual(seen, [0, 1]);
  });

  await t.step("runs once per flush however many writes happened", () => {
    const { runtime, owner } = setup();
    const a = createSignalNode(owner, 0);
    const b = createSignalNode(owner, 0);
    const seen: [number, number][] = [];
    startEffect(owner, () => void seen.push([readSignal(a), readSignal(b)]));
    writeSignal(a, 1);
    writeSignal(b, 1);
    writeSignal(a, 2);
    writeSignal(b, 2);
    runtime.flush();
    runtime.flush();
    assert.deepEqual(seen, [[0, 0], [2, 2]]);
  });

  await t.step("an effect marked by many writes is queued once", () => {
    const { runtime, owner } = setup();
    const a = createSignalNode(owner, 0);
    const b = createSignalNode(owner, 0);
    const effect = startEffect(owner, () => void (readSignal(a) + readSignal(b)));
    writeSignal(a, 1);
    writeSignal(b, 1);
    writeSignal(a, 2);
    assert.deepEqual(runtime.queue, [effect]);
  });

  await t.step("onSchedule is called once per batch of writes", () => {
    const harness = setup();
    const { runtime, owner } = harness;
    const a = createSignalNode(owner, 0);
    const b = createSignalNode(owner, 0);
    startEffect(owner, () => void readSignal(a));
    startEffect(owner, () => void readSignal(b));
    assert.equal(harness.schedules, 0);
    writeSignal(a, 1);
    writeSignal(b, 1);
    writeSignal(a, 2);
    assert.equal(harness.schedules, 1);
    runtime.flush();
    writeSignal(b, 2);
    writeSignal(b, 3);
    assert.equal(harness.schedules, 2);
  });

  await t.step("a write that changes nothing schedules nothing", () => {
    const harness = setup();
    const node = createSignalNode(harness.owner, 0);
    startEffect(harness.owner, () => void readSignal(node));
    writeSignal(node, 0);
    assert.equal(harness.schedules, 0);
    assert.equal(harness.runtime.pending, false);
  });

  await t.step("does not rerun when the memo it reads recomputed to an equal value", () => {
    const { runtime, owner } = setup();
    const node = createSignalNode(owner, 2);
    let memoRuns = 0;
    const parity = new MemoNode(owner, () => (memoRuns++, readSignal(node) % 2));
    let runs = 0;
    const effect = startEffect(owner, () => {
      parity.read();
      runs++;
    });
    writeSignal(node, 4);
    assert.equal(effect.state, CHECK);
    runtime.flush();
    assert.equal(memoRuns, 2);
    assert.equal(runs, 1);
    assert.equal(effect.state, CLEAN);
  });

  await t.step("effects queued by an effect's write run in the same flush", () => {
    const { runtime, owner } = setup();
    const input = createSignalNode(owner, 1);
    const output = createSignalNode(owner, 0);
    const seen: number[] = [];
    startEffect(owner, () => writeSignal(output, readSignal(input) + 100));
    startEffect(owner, () => void seen.push(readSignal(output)));
    writeSignal(input, 2);
    runtime.flush();
    assert.deepEqual(seen, [101, 102]);
    assert.equal(runtime.pending, false);
  });
});

Deno.test("dynamic dependencies", async (t) => {
  await t.step("an effect that stops reading a signal no longer reruns for it", () => {
    const { runtime, owner } = setup();
    const showDetail = createSignalNode(owner, true);
    const detail = createSignalNode(owner, "a");
    let runs = 0;
    const effect = startEffect(owner, () => {
      runs++;
      if (readSignal(showDetail)) readSignal(detail);
    });
    writeSignal(detail, "b");
    runtime.flush();
    assert.equal(runs, 2);
    writeSignal(showDetail, false);
    runtime.flush();
    assert.equal(runs, 3);
    writeSignal(detail, "c");
    assert.equal(runtime.pending, false);
    runtime.flush();
    assert.equal(runs, 3);
    assert.equal(detail.observers.has(effect), false);
  });

  await t.step("an effect that starts reading a signal reruns for it from then on", () => {
    const { runtime, owner } = setup();
    const showDetail = createSignalNode(owner, false);
    const detail = createSignalNode(owner, "a");
    const seen: string[] = [];
    startEffect(owner, () => {
      seen.push(readSignal(showDetail) ? readSignal(detail) : "-");
    });
    writeSignal(detail, "b");
    runtime.flush();
    writeSignal(showDetail, true);
    runtime.flush();
    writeSignal(detail, "c");
    runtime.flush();
    assert.deepEqual(seen, ["-", "b", "c"]);
  });

  await t.step("a memo that stops reading a signal no longer recomputes for it", () => {
    const { owner } = setup();
    const useFallback = createSignalNode(owner, false);
    const primary = createSignalNode(owner, 1);
    let runs = 0;
    const memo = new MemoNode(owner, () => {
      runs++;
      return readSignal(useFallback) ? 0 : readSignal(primary);
    });
    memo.read();
    writeSignal(useFallback, true);
    memo.read();
    writeSignal(primary, 2);
    memo.read();
    assert.equal(runs, 2);
    assert.equal(primary.observers.has(memo), false);
  });
});

Deno.test("cycles", async (t) => {
  await t.step("a memo that reads itself throws the cycle message", () => {
    const { owner } = setup();
    const memo: MemoNode<number> = new MemoNode(owner, () => memo.read() + 1);
    assert.throws(() => memo.read(), { message: CYCLE_MESSAGE });
    assert.throws(() => memo.read(), { message: CYCLE_MESSAGE });
  });

  await t.step("two memos that read each other throw the cycle message", () => {
    const { owner } = setup();
    const a: MemoNode<number> = new MemoNode(owner, () => b.read() + 1);
    const b: MemoNode<number> = new MemoNode(owner, () => a.read() + 1);
    assert.throws(() => a.read(), { message: CYCLE_MESSAGE });
    assert.throws(() => b.read(), { message: CYCLE_MESSAGE });
  });

  await t.step("a cycle closed through a memo marked CHECK throws the cycle message", () => {
    const { owner } = setup();
    const closeLoop = createSignalNode(owner, false);
    const outer: MemoNode<number> = new MemoNode(
      owner,
      () => readSignal(closeLoop) ? inner.read() : 1,
    );
    const inner = new MemoNode(owner, () => outer.read() + 1);
    assert.equal(inner.read(), 2);
    writeSignal(closeLoop, true);
    assert.equal(inner.state, CHECK);
    assert.throws(() => outer.read(), { message: CYCLE_MESSAGE });
    writeSignal(closeLoop, false);
    assert.equal(outer.read(), 1, "opening the loop again recovers");
    assert.equal(inner.read(), 2);
  });

  await t.step("a memo cycle does not stop other memos from working", () => {
    const { owner } = setup();
    const loop: MemoNode<number> = new MemoNode(owner, () => loop.read());
    const node = createSignalNode(owner, 1);
    const fine = new MemoNode(owner, () => readSignal(node) + 1);
    assert.throws(() => loop.read());
    assert.equal(fine.read(), 2);
    writeSignal(node, 2);
    assert.equal(fine.read(), 3);
  });

  await t.step("an effect that keeps writing what it reads stops the flush", () => {
    const { runtime, owner } = setup();
    const node = createSignalNode(owner, 0);
    let runs = 0;
    startEffect(owner, () => {
      runs++;
      writeSignal(node, readSignal(node) + 1);
    });
    assert.equal(runtime.pending, true);
    assert.throws(() => runtime.flush(), {
      message: "effects kept changing signals they read: stopped after 100 rounds",
    });
    assert.equal(runs, 101, "the first run, then one per round");
    assert.equal(runtime.pending, false, "the queue is emptied");
    assert.equal(runtime.queue.length, 0);
  });

  await t.step("an effect that writes what it read but settles is not a cycle", () => {
    const { runtime, owner } = setup();
    const node = createSignalNode(owner, 0);
    startEffect(owner, () => writeSignal(node, Math.min(readSignal(node) + 1, 3)));
    runtime.flush();
    assert.equal(node.value, 3);
    assert.equal(runtime.pending, false);
  });
});

Deno.test("writing inside a memo", async (t) => {
  await t.step("throws, and the memo's read rethrows it", () => {
    const { owner } = setup();
    const node = createSignalNode(owner, 0);
    const memo = new MemoNode(owner, () => {
      writeSignal(node, 1);
      return 1;
    });
    assert.throws(() => memo.read(), {
      message: "writing a signal inside a memo is not allowed: use an effect",
    });
    assert.equal(node.value, 0);
  });

  await t.step("throws even when the value written equals the current one", () => {
    const { owner } = setup();
    const node = createSignalNode(owner, 0);
    const memo = new MemoNode(owner, () => writeSignal(node, 0));
    assert.throws(() => memo.read(), {
      message: "writing a signal inside a memo is not allowed: use an effect",
    });
  });

  await t.step("throws also when the memo is pulled by an effect", () => {
    const { owner } = setup();
    const node = createSignalNode(owner, 0);
    const memo = new MemoNode(owner, () => writeSignal(node, 1));
    const errors: unknown[] = [];
    startEffect(owner, () => memo.read(), (error) => errors.push(error));
    assert.equal(errors.length, 1);
    assert.match(String(errors[0]), /writing a signal inside a memo is not allowed/);
    assert.equal(node.value, 0);
  });
});

Deno.test("errors", async (t) => {
  await t.step("a memo that throws rethrows the same error on each read without rerunning", () => {
    const { owner } = setup();
    const failure = new Error("bad input");
    let runs = 0;
    const memo = new MemoNode(owner, () => {
      runs++;
      throw failure;
    });
    assert.throws(() => memo.read(), (error) => error === failure);
    assert.throws(() => memo.read(), (error) => error === failure);
    assert.equal(runs, 1);
  });

  await t.step("a memo that threw recovers after its source changes", () => {
    const { owner } = setup();
    const node = createSignalNode(owner, -1);
    const root = new MemoNode(owner, () => {
      const value = readSignal(node);
      if (value < 0) throw new RangeError(`negative: ${value}`);
      return Math.sqrt(value);
    });
    assert.throws(() => root.read(), { name: "RangeError", message: "negative: -1" });
    writeSignal(node, 9);
    assert.equal(root.read(), 3);
    writeSignal(node, -4);
    assert.throws(() => root.read(), { message: "negative: -4" });
  });

  await t.step("a memo that recovers to its old value still tells its consumers", () => {
    const { runtime, owner } = setup();
    const node = createSignalNode(owner, 1);
    const memo = new MemoNode(owner, () => {
      const value = readSignal(node);
      if (value === 0) throw new Error("zero");
      return 1;
    });
    const seen: string[] = [];
    startEffect(owner, () => {
      try {
        seen.push(String(memo.read()));
      } catch (error) {
        seen.push((error as Error).message);
      }
    });
    writeSignal(node, 0);
    runtime.flush();
    writeSignal(node, 2);
    runtime.flush();
    assert.deepEqual(seen, ["1", "zero", "1"]);
  });

  await t.step("an effect's error goes to its onError, not out of the flush", () => {
    const { runtime, owner } = setup();
    const node = createSignalNode(owner, 0);
    const errors: unknown[] = [];
    const failure = new Error("effect failed");
    startEffect(owner, () => {
      if (readSignal(node) === 1) throw failure;
    }, (error) => errors.push(error));
    assert.deepEqual(errors, []);
    writeSignal(node, 1);
    runtime.flush();
    assert.deepEqual(errors, [failure]);
  });

  await t.step("an effect that threw still reruns for what it read before throwing", () => {
    const { runtime, owner } = setup();
    const node = createSignalNode(owner, 0);
    const errors: unknown[] = [];
    let runs = 0;
    startEffect(owner, () => {
      runs++;
      if (readSignal(node) % 2 === 0) throw new Error(`even: ${node.value}`);
    }, (error) => errors.push((error as Error).message));
    writeSignal(node, 1);
    runtime.flush();
    writeSignal(node, 2);
    runtime.flush();
    assert.equal(runs, 3);
    assert.deepEqual(errors, ["even: 0", "even: 2"]);
  });

  await t.step("one effect's error does not stop the other effects of the flush", () => {
    const { runtime, owner } = setup();
    const node = createSignalNode(owner, 0);
    const errors: unknown[] = [];
    const seen: number[] = [];
    startEffect(owner, () => {
      if (readSignal(node) > 0) throw new Error("failed");
    }, (error) => errors.push(error));
    startEffect(owner, () => void seen.push(readSignal(node)));
    writeSignal(node, 1);
    runtime.flush();
    assert.equal(errors.length, 1);
    assert.deepEqual(seen, [0, 1]);
  });

  await t.step("an effect that reads a throwing memo gets the memo's error", () => {
    const { owner } = setup();
    const failure = new Error("memo failed");
    const memo = new MemoNode(owner, () => {
      throw failure;
    });
    const errors: unknown[] = [];
    startEffect(owner, () => memo.read(), (error) => errors.push(error));
    assert.deepEqual(errors, [failure]);
  });
});

Deno.test("disposal of consumers", async (t) => {
  await t.step("a disposed memo stops observing and never computes again", () => {
    const { runtime, owner } = setup();
    const node = createSignalNode(owner, 1);
    let runs = 0;
    const memo = new MemoNode(owner, () => (runs++, readSignal(node)));
    memo.read();
    disposeOwner(owner);
    assert.equal(memo.state, DISPOSED);
    assert.equal(node.observers.size, 0);
    writeSignal(node, 2);
    memo.read();
    assert.equal(runs, 1);
    assert.equal(runtime.pending, false);
  });

  await t.step("disposing an owner stops the effects of its child owners", () => {
    const { runtime, owner } = setup();
    const child = new Owner(runtime, owner);
    const node = createSignalNode(owner, 0);
    let runs = 0;
    startEffect(child, () => {
      readSignal(node);
      runs++;
    });
    disposeOwner(owner);
    writeSignal(node, 1);
    runtime.flush();
    assert.equal(runs, 1);
  });

  await t.step("an effect that disposes its own owner mid-flush does not run again", () => {
    const { runtime, owner } = setup();
    const node = createSignalNode(owner, 0);
    let runs = 0;
    const effect = startEffect(owner, () => {
      runs++;
      if (readSignal(node) === 1) disposeOwner(owner);
    });
    writeSignal(node, 1);
    runtime.flush();
    assert.equal(effect.state, DISPOSED);
    writeSignal(node, 2);
    runtime.flush();
    assert.equal(runs, 2);
  });
});
