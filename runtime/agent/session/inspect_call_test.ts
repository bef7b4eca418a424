/**
 * `inspect_snapshot`'s arguments and budget, on snapshots made up here; the socket test is
 * `tests/agent_budgets_test.ts`.
 *
 * @module
 */

import assert from "node:assert/strict";
import type { PartialSnapshot } from "../../app/inspect.ts";
import { HostError } from "../hosts/host.ts";
import { budgetSnapshot, inspectArguments } from "./inspect_call.ts";

function bytes(value: unknown): number {
  return new TextEncoder().encode(JSON.stringify(value)).length;
}

/** A snapshot with a small tree, `count` layout entries and `count / 2` signals. */
function snapshot(count: number): PartialSnapshot {
  return {
    revision: 7,
    tree: { id: 1, role: "window", name: "W", states: [], bounds: NO_BOUNDS, children: [] },
    layout: Array.from({ length: count }, (_, id) => ({
      id,
      role: "text" as const,
      x: 0,
      y: id,
      width: 10,
      height: 1,
    })),
    signals: Array.from(
      { length: count / 2 },
      (_, id) => ({ id, name: `s${id}`, value: id, secret: false, observers: 1 }),
    ),
    frames: [],
  };
}
const NO_BOUNDS = { x: 0, y: 0, width: 0, height: 0 };

Deno.test("budgetSnapshot()", async (t) => {
  await t.step("gives a snapshot that fits as it is, without cut", () => {
    const whole = snapshot(10);
    assert.deepEqual(budgetSnapshot(whole, inspectArguments({})), whole);
  });

  await t.step("cuts every list to the largest common length that fits", () => {
    const answer = budgetSnapshot(snapshot(400), inspectArguments({ max_bytes: 4096 }));
    assert.ok(bytes(answer) <= 4096, `${bytes(answer)} bytes`);
    assert.ok(answer.tree !== undefined, "the small tree is kept");
    const kept = answer.layout!.length;
    assert.equal(answer.signals!.length, kept);
    const larger = budgetSnapshot(snapshot(400), inspectArguments({ max_bytes: 4096 + 400 }));
    assert.ok(larger.layout!.length > kept, "a larger budget keeps more");
    assert.deepEqual(answer.cut, [
      `… ${
        400 - kept
      } more layout entries: inspect_snapshot {"sections":["layout"],"from":${kept},"max_bytes":4096}`,
      `… ${
        200 - kept
      } more signals: inspect_snapshot {"sections":["signals"],"from":${kept},"max_bytes":4096}`,
    ]);
  });

  await t.step("following the cut lines lists each entry once", () => {
    const whole = snapshot(300);
    const seen: number[] = [];
    let args: Record<string, unknown> | undefined = { sections: ["layout"], max_bytes: 1024 };
    while (args !== undefined) {
      const answer = budgetSnapshot(whole, inspectArguments(args));
      assert.ok(bytes(answer) <= 1024);
      seen.push(...answer.layout!.map((entry) => entry.id));
      const line = answer.cut?.[0];
      args = line === undefined
        ? undefined
        : JSON.parse(/inspect_snapshot (\{.*\})$/.exec(line)![1]!);
    }
    assert.deepEqual(seen, whole.layout!.map((entry) => entry.id));
  });

  await t.step("leaves out a tree that does not fit, naming the budget that holds it", () => {
    const whole = snapshot(0);
    whole.tree!.name = "x".repeat(5000);
    const answer = budgetSnapshot(whole, inspectArguments({ max_bytes: 2048 }));
    assert.equal(answer.tree, undefined);
    const size = bytes({ revision: 7, tree: whole.tree });
    assert.deepEqual(answer.cut, [
      `… the tree (${size} bytes): inspect_snapshot {"sections":["tree"],"max_bytes":${size}}`,
    ]);
  });
});

Deno.test("inspectArguments() refuses what inspect_snapshot does not take", () => {
  for (
    const args of [
      { depth: 1 },
      { sections: [] },
      { sections: ["tree", "nope"] },
      { sections: "tree" },
      { max_bytes: 1023 },
      { max_bytes: 3_500_001 },
      { from: -1 },
      { root: 0 },
    ]
  ) {
    assert.throws(() => inspectArguments(args), (error: unknown) => {
      assert.ok(error instanceof HostError);
      assert.match(error.message, /^invalid arguments: /);
      return true;
    }, JSON.stringify(args));
  }
  assert.deepEqual(inspectArguments({ sections: ["frames", "tree"] }).sections, ["tree", "frames"]);
});
