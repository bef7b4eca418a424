import assert from "node:assert/strict";
import { ACTION_NAMES } from "../runtime/input/action.ts";
import { parseCliAction, parseQuery, UsageError } from "./parse.ts";

/** Asserts that `parse` throws a `UsageError` whose message matches `message`. */
function assertUsageError(parse: () => unknown, message: RegExp): void {
  assert.throws(parse, (error: unknown) => {
    assert.ok(error instanceof UsageError, `expected a UsageError, got ${error}`);
    assert.equal(error.name, "UsageError");
    assert.match(error.message, message);
    return true;
  });
}

Deno.test("parseQuery()", async (t) => {
  await t.step("parseQuery() takes any one key", () => {
    assert.deepEqual(parseQuery("role=button"), { role: "button" });
    assert.deepEqual(parseQuery("name=+1"), { name: "+1" });
    assert.deepEqual(parseQuery("text=Count"), { text: "Count" });
  });

  await t.step("parseQuery() takes any two keys, in any order", () => {
    assert.deepEqual(parseQuery("role=button,name=+1"), { role: "button", name: "+1" });
    assert.deepEqual(parseQuery("name=+1,role=button"), { role: "button", name: "+1" });
    assert.deepEqual(parseQuery("role=text,text=Count"), { role: "text", text: "Count" });
    assert.deepEqual(parseQuery("text=milk,name=Title"), { name: "Title", text: "milk" });
  });

  await t.step("parseQuery() takes all three keys", () => {
    assert.deepEqual(parseQuery("role=text_field,name=Title,text=mi"), {
      role: "text_field",
      name: "Title",
      text: "mi",
    });
  });

  await t.step("parseQuery() allows spaces after the commas and around the keys", () => {
    assert.deepEqual(parseQuery("role=button, name=+1"), { role: "button", name: "+1" });
    assert.deepEqual(parseQuery(" role=button,  text=Sa"), { role: "button", text: "Sa" });
  });

  await t.step("parseQuery() keeps commas inside a value", () => {
    assert.deepEqual(parseQuery("name=Hello, world"), { name: "Hello, world" });
    assert.deepEqual(parseQuery("role=text,name=Hello, world"), {
      role: "text",
      name: "Hello, world",
    });
    assert.deepEqual(parseQuery("name=Hello, world,role=text"), {
      role: "text",
      name: "Hello, world",
    });
    assert.deepEqual(parseQuery("text=a,b,c"), { text: "a,b,c" });
  });

  await t.step("parseQuery() keeps = and spaces inside a value", () => {
    assert.deepEqual(parseQuery("name=a=b"), { name: "a=b" });
    assert.deepEqual(parseQuery("text= two words "), { text: " two words " });
  });

  await t.step("parseQuery() refuses a key given twice", () => {
    assertUsageError(() => parseQuery("role=button,role=text"), /gives role twice/);
    assertUsageError(() => parseQuery("name=a,name=b"), /gives name twice/);
  });

  await t.step("parseQuery() refuses an unknown key", () => {
    assertUsageError(() => parseQuery("colour=red"), /invalid query part "colour=red"/);
    assertUsageError(() => parseQuery("Role=button"), /invalid query part "Role=button"/);
    assertUsageError(() => parseQuery("id=3"), /expected role=..., name=... or text=.../);
  });

  await t.step("parseQuery() refuses a part without =", () => {
    assertUsageError(() => parseQuery("button"), /invalid query part "button"/);
    assertUsageError(() => parseQuery("role"), /invalid query part "role"/);
  });

  await t.step("parseQuery() refuses an empty query", () => {
    assertUsageError(() => parseQuery(""), /the query is empty/);
    assertUsageError(() => parseQuery("   "), /the query is empty/);
  });

  await t.step("parseQuery() refuses an unknown role, naming the snake_case roles", () => {
    assertUsageError(() => parseQuery("role=btn"), /unknown role "btn": roles are snake_case/);
    assertUsageError(() => parseQuery("role=Button"), /unknown role "Button"/);
    assertUsageError(() => parseQuery("role=textField"), /unknown role "textField"/);
    // A misspelt key after a role becomes part of the role's value, so it is still caught.
    assertUsageError(() => parseQuery("role=button,colour=red"), /unknown role/);
  });

  await t.step("parseQuery() accepts every role of the protocol", () => {
    for (const role of ["window", "text_field", "menu_item", "radio_button", "tab_list"]) {
      assert.deepEqual(parseQuery(`role=${role}`), { role });
    }
  });
});

Deno.test("parseCliAction()", async (t) => {
  await t.step("parseCliAction() takes the actions without an argument by name", () => {
    for (const action of ["click", "double_click", "hover", "focus"]) {
      assert.deepEqual(parseCliAction(action), { action });
    }
  });

  await t.step("parseCliAction() knows every action name of the protocol", () => {
    const examples: Record<string, string> = {
      type_text: "type_text=hello",
      press_key: "press_key=Ctrl+A",
      scroll: "scroll=0,120",
      drag: "drag=40,300",
    };
    for (const name of ACTION_NAMES) {
      assert.equal(parseCliAction(examples[name] ?? name).action, name);
    }
  });

  await t.step("parseCliAction() turns type_text=hello into the text to type", () => {
    assert.deepEqual(parseCliAction("type_text=hello"), { action: "type_text", text: "hello" });
    assert.deepEqual(parseCliAction("type_text=a=b, c"), { action: "type_text", text: "a=b, c" });
    assert.deepEqual(parseCliAction("type_text="), { action: "type_text", text: "" });
  });

  await t.step("parseCliAction() types spaces at either end of the text", () => {
    assert.deepEqual(parseCliAction("type_text=hello "), { action: "type_text", text: "hello " });
    assert.deepEqual(parseCliAction("type_text= x"), { action: "type_text", text: " x" });
  });

  await t.step("parseCliAction() turns press_key=Ctrl+A into a keybind", () => {
    assert.deepEqual(parseCliAction("press_key=Ctrl+A"), {
      action: "press_key",
      keybind: "Ctrl+A",
    });
    assert.deepEqual(parseCliAction("press_key=Ctrl+Shift+K"), {
      action: "press_key",
      keybind: "Ctrl+Shift+K",
    });
    assert.deepEqual(parseCliAction("press_key=Enter"), { action: "press_key", keybind: "Enter" });
  });

  await t.step("parseCliAction() turns scroll=0,120 into a delta", () => {
    assert.deepEqual(parseCliAction("scroll=0,120"), {
      action: "scroll",
      delta: { x: 0, y: 120 },
    });
    assert.deepEqual(parseCliAction("scroll=-3, 2.5"), {
      action: "scroll",
      delta: { x: -3, y: 2.5 },
    });
  });

  await t.step("parseCliAction() turns drag=40,300 into a target point", () => {
    assert.deepEqual(parseCliAction("drag=40,300"), { action: "drag", to: { x: 40, y: 300 } });
    assert.deepEqual(parseCliAction("drag= 1 , 2 "), { action: "drag", to: { x: 1, y: 2 } });
  });

  await t.step("parseCliAction() passes a raw JSON action object through as it is", () => {
    const raw = { action: "type_text", text: "milk", extra: [1, 2] };
    assert.deepEqual(parseCliAction(JSON.stringify(raw)), raw);
    assert.deepEqual(parseCliAction(' {"action":"click"} '), { action: "click" });
    // The app, not crowndev, judges what the object says.
    assert.deepEqual(parseCliAction('{"action":"teleport"}'), { action: "teleport" });
  });

  await t.step("parseCliAction() refuses raw JSON that is not an object", () => {
    assertUsageError(() => parseCliAction("{action: click}"), /the action is not valid JSON/);
    assertUsageError(() => parseCliAction('{"action":"click"'), /the action is not valid JSON/);
    assertUsageError(() => parseCliAction('["click"]'), /unknown action/);
    assertUsageError(() => parseCliAction("null"), /unknown action "null"/);
  });

  await t.step("parseCliAction() refuses coordinates that are not two numbers", () => {
    for (const bad of ["0", "0,", ",120", "a,b", "1,2,3", "1;2", "NaN,1", "1,Infinity", ""]) {
      assertUsageError(() => parseCliAction(`scroll=${bad}`), /scroll takes two numbers x,y/);
      assertUsageError(() => parseCliAction(`drag=${bad}`), /drag takes two numbers x,y/);
    }
  });

  await t.step("parseCliAction() refuses a missing argument, showing an example", () => {
    assertUsageError(() => parseCliAction("type_text"), /type_text needs an argument.*hello/);
    assertUsageError(() => parseCliAction("press_key"), /press_key needs an argument.*Ctrl\+A/);
    assertUsageError(() => parseCliAction("scroll"), /scroll needs an argument.*0,120/);
    assertUsageError(() => parseCliAction("drag"), /drag needs an argument.*40,300/);
  });

  await t.step("parseCliAction() refuses an argument to an action that takes none", () => {
    assertUsageError(() => parseCliAction("click=1"), /click takes no argument/);
    assertUsageError(() => parseCliAction("focus="), /focus takes no argument/);
    assertUsageError(() => parseCliAction("hover=2,3"), /hover takes no argument/);
  });

  await t.step("parseCliAction() refuses an unknown action, listing the known ones", () => {
    assertUsageError(() => parseCliAction("tap"), /unknown action "tap": expected one of click/);
    assertUsageError(() => parseCliAction("Click"), /unknown action "Click"/);
    assertUsageError(() => parseCliAction("type-text=hi"), /unknown action "type-text"/);
    assertUsageError(() => parseCliAction(""), /unknown action ""/);
  });
});
