import assert from "node:assert/strict";
import { RefusalLog, REFUSALS_LOGGED_ONE_BY_ONE } from "./refusal_log.ts";

const INTERVAL_MS = 40;

function wait(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Waits until `test()` holds, checking every few ms; fails after a generous bound. */
async function eventually(test: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !test(); waited += 5) {
    assert.ok(waited < 5000, `still waiting for ${what}`);
    await wait(5);
  }
}

Deno.test("RefusalLog", async (t) => {
  await t.step("RefusalLog logs the first refusals one by one, then a summary line", async () => {
    const lines: string[] = [];
    const log = new RefusalLog((line) => lines.push(line), INTERVAL_MS);
    for (let i = 0; i < 100; i++) log.refused(`refused ${i}`);
    assert.deepEqual(
      lines,
      Array.from({ length: REFUSALS_LOGGED_ONE_BY_ONE }, (_, i) => `refused ${i}`),
    );
    await eventually(() => lines.length === REFUSALS_LOGGED_ONE_BY_ONE + 1, "the summary");
    assert.equal(
      lines.at(-1),
      `refused ${
        100 - REFUSALS_LOGGED_ONE_BY_ONE
      } more connections (not logged one by one: one summary line a minute at most)`,
    );
    log.close();
  });

  await t.step("RefusalLog writes one summary an interval while refusals go on", async () => {
    const lines: string[] = [];
    const log = new RefusalLog((line) => lines.push(line), INTERVAL_MS);
    for (let i = 0; i < REFUSALS_LOGGED_ONE_BY_ONE; i++) log.refused("one by one");
    for (let round = 0; round < 3; round++) {
      const before = lines.length;
      for (let i = 0; i < 50; i++) log.refused("counted");
      await eventually(() => lines.length === before + 1, "a summary");
      assert.match(lines.at(-1)!, /^refused 50 more connections/);
    }
    assert.equal(lines.filter((line) => line === "counted").length, 0);
    log.close();
  });

  await t.step("RefusalLog logs one by one again after a quiet interval", async () => {
    const lines: string[] = [];
    const log = new RefusalLog((line) => lines.push(line), INTERVAL_MS);
    for (let i = 0; i <= REFUSALS_LOGGED_ONE_BY_ONE; i++) log.refused("first");
    await eventually(() => lines.length === REFUSALS_LOGGED_ONE_BY_ONE + 1, "the summary");
    // One interval with no refusal at all, then the next one is news again.
    await wait(INTERVAL_MS * 4);
    log.refused("after a quiet while");
    assert.equal(lines.at(-1), "after a quiet while");
    log.close();
  });

  await t.step("RefusalLog.close() writes what it counted", () => {
    const lines: string[] = [];
    const log = new RefusalLog((line) => lines.push(line), 60_000);
    for (let i = 0; i < REFUSALS_LOGGED_ONE_BY_ONE + 1; i++) log.refused("refused");
    log.close();
    assert.equal(
      lines.at(-1),
      "refused 1 more connection (not logged one by one: one summary line a minute at most)",
    );
    log.close(); // safe twice
    assert.equal(lines.length, REFUSALS_LOGGED_ONE_BY_ONE + 1);
  });
});
