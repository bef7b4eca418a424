import assert from "node:assert/strict";
import { formatKeybind, isCharacterKey, type Keybind, parseKeybind } from "./keybind.ts";

function keybind(key: string, held: Partial<Omit<Keybind, "key">> = {}): Keybind {
  return { key, ctrl: false, alt: false, shift: false, meta: false, ...held };
}

function assertInvalid(text: string, message: string): void {
  assert.throws(() => parseKeybind(text), { name: "TypeError", message });
}

const KEY_HINT = "expected a name such as Enter, Tab, ArrowDown, F5 or a single character";

Deno.test("parseKeybind() modifiers", async (t) => {
  await t.step("parseKeybind() accepts Ctrl+Shift+K", () => {
    assert.deepEqual(parseKeybind("Ctrl+Shift+K"), keybind("K", { ctrl: true, shift: true }));
  });

  await t.step("parseKeybind() accepts modifiers in any order and case", () => {
    const expected = keybind("K", { ctrl: true, alt: true, shift: true, meta: true });
    assert.deepEqual(parseKeybind("meta+SHIFT+alt+ctrl+K"), expected);
    assert.deepEqual(parseKeybind("Shift+Meta+Ctrl+Alt+k"), expected);
  });

  await t.step("parseKeybind() accepts modifier aliases", () => {
    assert.deepEqual(parseKeybind("Control+S"), keybind("S", { ctrl: true }));
    assert.deepEqual(parseKeybind("Option+S"), keybind("S", { alt: true }));
    for (const alias of ["Cmd", "Command", "Super", "Win", "meta"]) {
      assert.deepEqual(parseKeybind(`${alias}+S`), keybind("S", { meta: true }), alias);
    }
  });

  await t.step("parseKeybind() ignores spaces around names", () => {
    assert.deepEqual(
      parseKeybind(" Ctrl + Shift + Tab "),
      keybind("Tab", { ctrl: true, shift: true }),
    );
  });
});

Deno.test("parseKeybind() keys", async (t) => {
  await t.step("parseKeybind() accepts every canonical key name", () => {
    const names = [
      "Enter",
      "Tab",
      "Escape",
      "Backspace",
      "Delete",
      "Space",
      "ArrowUp",
      "ArrowDown",
      "ArrowLeft",
      "ArrowRight",
      "Home",
      "End",
      "PageUp",
      "PageDown",
      "Insert",
      "F1",
      "F5",
      "F12",
    ];
    for (const name of names) {
      assert.deepEqual(parseKeybind(name), keybind(name));
      assert.deepEqual(parseKeybind(name.toLowerCase()), keybind(name));
      assert.deepEqual(parseKeybind(name.toUpperCase()), keybind(name));
    }
  });

  await t.step("parseKeybind() accepts key aliases", () => {
    const aliases: Array<[string, string]> = [
      ["Esc", "Escape"],
      ["Return", "Enter"],
      ["Del", "Delete"],
      ["Up", "ArrowUp"],
      ["down", "ArrowDown"],
      ["LEFT", "ArrowLeft"],
      ["Right", "ArrowRight"],
      [" ", "Space"],
      ["Spacebar", "Space"],
      ["Plus", "+"],
    ];
    for (const [alias, key] of aliases) assert.deepEqual(parseKeybind(alias), keybind(key), alias);
    assert.deepEqual(parseKeybind("Shift+ "), keybind("Space", { shift: true }));
  });

  await t.step("parseKeybind() accepts the + key", () => {
    assert.deepEqual(parseKeybind("+"), keybind("+"));
    assert.deepEqual(parseKeybind("Ctrl++"), keybind("+", { ctrl: true }));
    assert.deepEqual(parseKeybind("Ctrl+Shift++"), keybind("+", { ctrl: true, shift: true }));
    assert.deepEqual(parseKeybind("Ctrl+Plus"), keybind("+", { ctrl: true }));
  });

  await t.step("parseKeybind() upper-cases a letter held with Ctrl, Alt or Meta", () => {
    assert.deepEqual(parseKeybind("Ctrl+a"), keybind("A", { ctrl: true }));
    assert.deepEqual(parseKeybind("Alt+x"), keybind("X", { alt: true }));
    assert.deepEqual(parseKeybind("Cmd+z"), keybind("Z", { meta: true }));
  });

  await t.step("parseKeybind() keeps a letter as typed without Ctrl, Alt or Meta", () => {
    assert.deepEqual(parseKeybind("a"), keybind("a"));
    assert.deepEqual(parseKeybind("A"), keybind("A"));
    assert.deepEqual(parseKeybind("Shift+a"), keybind("a", { shift: true }));
  });

  await t.step("parseKeybind() accepts a single grapheme as a key", () => {
    assert.deepEqual(parseKeybind("é"), keybind("é"));
    assert.deepEqual(parseKeybind("e\u0301"), keybind("e\u0301"));
    assert.deepEqual(parseKeybind("Ctrl+字"), keybind("字", { ctrl: true }));
    assert.deepEqual(parseKeybind("👨\u200D👩\u200D👧"), keybind("👨\u200D👩\u200D👧"));
    assert.deepEqual(parseKeybind("Alt+ß"), keybind("ß", { alt: true }));
    assert.deepEqual(parseKeybind("Ctrl+1"), keybind("1", { ctrl: true }));
  });
});

Deno.test("parseKeybind() errors", async (t) => {
  await t.step("parseKeybind() rejects empty text", () => {
    assertInvalid("", `invalid keybind "": the text is empty; ${KEY_HINT}`);
    assertInvalid("   ", `invalid keybind "   ": the text is empty; ${KEY_HINT}`);
  });

  await t.step("parseKeybind() rejects an unknown key name", () => {
    assertInvalid("Ctrl+Foo", `invalid keybind "Ctrl+Foo": unknown key "Foo"; ${KEY_HINT}`);
    assertInvalid("F13", `invalid keybind "F13": unknown key "F13"; ${KEY_HINT}`);
    assertInvalid("ab", `invalid keybind "ab": unknown key "ab"; ${KEY_HINT}`);
  });

  await t.step("parseKeybind() rejects a control character as a key", () => {
    assertInvalid("\t", `invalid keybind "\\t": unknown key "\\t"; ${KEY_HINT}`);
    assert.throws(() => parseKeybind("Ctrl+\x1b"), TypeError);
  });

  await t.step("parseKeybind() rejects modifiers without a key", () => {
    assertInvalid("Ctrl+", `invalid keybind "Ctrl+": no key after the modifiers; ${KEY_HINT}`);
    assertInvalid("Ctrl", `invalid keybind "Ctrl": "Ctrl" is a modifier, not a key; ${KEY_HINT}`);
    assertInvalid(
      "Ctrl+Shift",
      `invalid keybind "Ctrl+Shift": "Shift" is a modifier, not a key; ${KEY_HINT}`,
    );
  });

  await t.step("parseKeybind() rejects a repeated modifier", () => {
    assertInvalid("Ctrl+Ctrl+K", `invalid keybind "Ctrl+Ctrl+K": modifier Ctrl appears twice`);
    assertInvalid("Cmd+Meta+K", `invalid keybind "Cmd+Meta+K": modifier Meta appears twice`);
  });

  await t.step("parseKeybind() rejects an unknown or empty modifier", () => {
    assertInvalid(
      "Hyper+K",
      `invalid keybind "Hyper+K": unknown modifier "Hyper"; expected Ctrl, Alt, Shift or Meta`,
    );
    const emptyModifier = "a modifier name is empty; write Plus for the + key, as in Ctrl+Plus";
    assertInvalid("Ctrl++K", `invalid keybind "Ctrl++K": ${emptyModifier}`);
    assertInvalid("+K", `invalid keybind "+K": ${emptyModifier}`);
  });

  await t.step("parseKeybind() rejects a value that is not a string", () => {
    assert.throws(() => parseKeybind(42 as unknown as string), {
      name: "TypeError",
      message: "invalid keybind: expected a string, got number",
    });
  });
});

Deno.test("formatKeybind()", async (t) => {
  await t.step("formatKeybind() writes modifiers as Ctrl+Alt+Shift+Meta", () => {
    const all = keybind("K", { ctrl: true, alt: true, shift: true, meta: true });
    assert.equal(formatKeybind(all), "Ctrl+Alt+Shift+Meta+K");
    assert.equal(formatKeybind(keybind("Tab", { shift: true })), "Shift+Tab");
    assert.equal(formatKeybind(keybind("F5")), "F5");
  });

  await t.step("formatKeybind() writes canonical text for any spelling", () => {
    assert.equal(formatKeybind(parseKeybind("shift+control+k")), "Ctrl+Shift+K");
    assert.equal(formatKeybind(parseKeybind("cmd+esc")), "Meta+Escape");
    assert.equal(formatKeybind(parseKeybind("ctrl+plus")), "Ctrl++");
  });

  await t.step("formatKeybind() output parses back to the same keybind", () => {
    const texts = ["Ctrl+Shift+K", "Ctrl++", "+", "Alt+Space", "Meta+ArrowDown", "a", "Shift+é"];
    for (const text of texts) {
      const parsed = parseKeybind(text);
      assert.deepEqual(parseKeybind(formatKeybind(parsed)), parsed, text);
    }
  });
});

Deno.test("isCharacterKey()", async (t) => {
  await t.step("isCharacterKey() accepts one printable grapheme", () => {
    assert.equal(isCharacterKey("a"), true);
    assert.equal(isCharacterKey("+"), true);
    assert.equal(isCharacterKey("e\u0301"), true);
    assert.equal(isCharacterKey("🇺🇸"), true);
  });

  await t.step("isCharacterKey() rejects names, controls and several graphemes", () => {
    assert.equal(isCharacterKey("Enter"), false);
    assert.equal(isCharacterKey("F1"), false);
    assert.equal(isCharacterKey(""), false);
    assert.equal(isCharacterKey("\n"), false);
    assert.equal(isCharacterKey("ab"), false);
  });
});
