import assert from "node:assert/strict";
import { ACTIONS_PER_SECOND, rateLimitMessage, TokenBucket } from "./rate_limit.ts";

/** A bucket on a clock the test moves by hand. */
function fakeBucket() {
  const clock = { now: 1_000 };
  const bucket = new TokenBucket(undefined, undefined, () => clock.now);
  return { bucket, clock };
}

function takeMany(bucket: TokenBucket, count: number): number[] {
  return Array.from({ length: count }, () => bucket.take());
}

Deno.test("TokenBucket", async (t) => {
  await t.step("TokenBucket allows 20 a second by default", () => {
    assert.equal(ACTIONS_PER_SECOND, 20);
  });

  await t.step("TokenBucket allows a burst of 20, then refuses with the wait", () => {
    const { bucket } = fakeBucket();
    assert.deepEqual(takeMany(bucket, 20), Array(20).fill(0));
    assert.equal(bucket.take(), 50);
    assert.equal(bucket.take(), 50, "a refused take costs nothing");
  });

  await t.step("TokenBucket refills continuously at 20 a second", () => {
    const { bucket, clock } = fakeBucket();
    takeMany(bucket, 20);
    clock.now += 10; // a fifth of a token
    assert.equal(bucket.take(), 40);
    clock.now += 30;
    assert.equal(bucket.take(), 10);
    clock.now += 10;
    assert.equal(bucket.take(), 0);
    assert.equal(bucket.take(), 50);
  });

  await t.step("TokenBucket rounds the wait up to a whole millisecond", () => {
    const { bucket, clock } = fakeBucket();
    takeMany(bucket, 20);
    clock.now += 0.5;
    assert.equal(bucket.take(), 50); // 49.5 ms left
  });

  await t.step("TokenBucket gives back 20 after a second, never more than the burst", () => {
    const { bucket, clock } = fakeBucket();
    takeMany(bucket, 20);
    clock.now += 1000;
    assert.deepEqual(takeMany(bucket, 21), [...Array(20).fill(0), 50]);
    clock.now += 60_000;
    assert.deepEqual(takeMany(bucket, 21), [...Array(20).fill(0), 50]);
  });

  await t.step("TokenBucket spaced at the rate never refuses", () => {
    const { bucket, clock } = fakeBucket();
    takeMany(bucket, 20);
    for (let index = 0; index < 100; index++) {
      clock.now += 50;
      assert.equal(bucket.take(), 0, `take ${index}`);
    }
  });

  await t.step("TokenBucket honours its own rate and burst", () => {
    let now = 0;
    const bucket = new TokenBucket(2, 3, () => now);
    assert.deepEqual(takeMany(bucket, 4), [0, 0, 0, 500]);
    now += 500;
    assert.deepEqual(takeMany(bucket, 2), [0, 500]);
  });
});

Deno.test("rateLimitMessage() starts with the contract's phrase and says when to retry", () => {
  const message = rateLimitMessage(37);
  assert.ok(message.startsWith("rate limit exceeded"), message);
  assert.match(message, /retry in 37 ms/);
  assert.match(message, /20 actions a second/);
});
