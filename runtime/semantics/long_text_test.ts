import assert from "node:assert/strict";
import { longestFor, quoteLongAppText } from "./long_text.ts";

Deno.test("longestFor() shows an eighth of the budget, between 64 and 1,000 characters", () => {
  assert.equal(longestFor(32_768), 1000);
  assert.equal(longestFor(2000), 250);
  assert.equal(longestFor(100), 64);
});

Deno.test("quoteLongAppText() cuts a longer string with a marker for the rest", () => {
  assert.equal(quoteLongAppText("abcdef", 2), '"ab"…(+4 chars)');
  assert.equal(quoteLongAppText("abc", 3), '"abc"');
});
