import assert from "node:assert/strict";
import { checkPng, pngProblem } from "./png.ts";

/** A 1×1 PNG, base64 (the reference compositor's). */
const TINY_PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

function bytesOf(base64: string): Uint8Array {
  return Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
}

function base64Of(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes));
}

Deno.test("pngProblem() accepts a real PNG", () => {
  assert.equal(pngProblem(TINY_PNG), null);
  assert.equal(checkPng(TINY_PNG, "the data"), TINY_PNG);
});

Deno.test("pngProblem() says what is wrong with data that is not a PNG", () => {
  const tiny = bytesOf(TINY_PNG);
  const wrongCrc = tiny.slice();
  wrongCrc[32] = wrongCrc[32]! ^ 1;
  const noHeight = tiny.slice();
  noHeight.set([0, 0, 0, 0], 20);
  const otherChunk = tiny.slice();
  otherChunk.set([0x49, 0x44, 0x41, 0x54], 12); // IDAT first
  const cases: [string, string][] = [
    ["", "it does not start with the PNG signature"],
    ["not base64!", "it is not valid base64"],
    [TINY_PNG.slice(0, -1), "it is not valid base64"],
    [TINY_PNG.slice(0, 8) + "=" + TINY_PNG.slice(9), "it is not valid base64"],
    [TINY_PNG.replace(/=+$/, "") + "\n", "it is not valid base64"],
    [btoa("GIF89a and so on"), "it does not start with the PNG signature"],
    [base64Of(tiny.slice(0, 8)), "it ends before its IHDR chunk does"],
    [base64Of(tiny.slice(0, 32)), "it ends before its IHDR chunk does"],
    [base64Of(otherChunk), "its first chunk is not an IHDR"],
    [base64Of(noHeight), "its IHDR gives a width or height of 0"],
    [base64Of(wrongCrc), "its IHDR chunk has a wrong CRC"],
  ];
  for (const [data, problem] of cases) {
    assert.equal(pngProblem(data), problem, JSON.stringify(data));
  }
});

Deno.test("checkPng() throws with what the data was and why it is refused", () => {
  assert.throws(
    () => checkPng(btoa("<html>"), "the compositor sent a screenshot"),
    {
      message:
        "the compositor sent a screenshot that is not a PNG: it does not start with the PNG signature",
    },
  );
});

Deno.test("pngProblem() says why data is not a base64 PNG", () => {
  assert.equal(pngProblem("aGVsbG8="), "it does not start with the PNG signature");
  assert.equal(pngProblem("not base64!"), "it is not valid base64");
});
