import assert from "node:assert/strict";
import { TypeAhead } from "./type_ahead.ts";

const NAMES = ["Red", "Black", "Blue", "Brown", "Green", "Grey", "Row 3", "Row 32"];
const nameOf = (index: number) => NAMES[index];

/** Types `keys` one after another (within a second), starting at `at`; the names reached. */
function typeKeys(keys: string[], at = -1): (string | undefined)[] {
  const typeAhead = new TypeAhead();
  return keys.map((key) => {
    const index = typeAhead.find(key, at, NAMES.length, nameOf);
    if (index >= 0) at = index;
    return index < 0 ? undefined : NAMES[index];
  });
}

Deno.test("type-ahead goes to the next name starting with what was typed", () => {
  assert.deepEqual(typeKeys(["b"]), ["Black"]);
  assert.deepEqual(typeKeys(["b"], 1), ["Blue"], "from the item after the current one");
  assert.deepEqual(typeKeys(["G", "r", "e", "y"]), ["Green", "Green", "Green", "Grey"]);
  assert.deepEqual(typeKeys(["r", "o", "w", "Space", "3", "2"]), [
    "Red",
    "Row 3",
    "Row 3",
    "Row 3",
    "Row 3",
    "Row 32",
  ]);
});

Deno.test("the same letter again goes on; a prefix that matches nothing starts again", () => {
  assert.deepEqual(typeKeys(["b", "b", "b", "b"]), ["Black", "Blue", "Brown", "Black"]);
  assert.deepEqual(typeKeys(["b", "b", "g"]), ["Black", "Blue", "Green"]);
  assert.deepEqual(typeKeys(["x"]), [undefined]);
});

Deno.test("type-ahead leaves Space alone, and keys that are not characters", () => {
  assert.deepEqual(typeKeys(["Space", "Enter", "ArrowDown"]), [undefined, undefined, undefined]);
});
