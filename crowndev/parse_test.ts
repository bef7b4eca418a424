import assert from "node:assert/strict";
import { ACTION_NAMES } from "../runtime/input/action.ts";
import {
  parseCliAction,
  parseQuery,
  parseWhole,
  treeArguments,
  UsageError,
  waitArguments,
} from "./parse.ts";

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

  await t.step("parseQuery() takes #id alone or beside other keys", () => {
    assert.deepEqual(parseQuery("#12"), { id: 12 });
    assert.deepEqual(parseQuery(" #0 "), { id: 0 });
    assert.deepEqual(parseQuery("#31,state=enabled"), { id: 31, state: "enabled" });
    assert.deepEqual(parseQuery("role=button, #7"), { role: "button", id: 7 });
  });

  await t.step("parseQuery() takes within=#id (or a bare number) and state=", () => {
    assert.deepEqual(parseQuery("role=button,within=#7"), { role: "button", within: 7 });
    assert.deepEqual(parseQuery("within=7"), { within: 7 });
    assert.deepEqual(parseQuery("state=checked,role=checkbox"), {
      role: "checkbox",
      state: "checked",
    });
    for (const state of ["enabled", "disabled", "offscreen", "modal", "focused"]) {
      assert.deepEqual(parseQuery(`state=${state}`), { state });
    }
  });

  await t.step("parseQuery() ends a value at a comma only before a key or a whole #id", () => {
    assert.deepEqual(parseQuery("name=Item #5"), { name: "Item #5" });
    assert.deepEqual(parseQuery("name=a,#5b"), { name: "a,#5b" });
    assert.deepEqual(parseQuery("name=Hello, world,#5"), { name: "Hello, world", id: 5 });
    assert.deepEqual(parseQuery("text=a,within=#3"), { text: "a", within: 3 });
  });

  await t.step("parseQuery() refuses a bad id, within or state", () => {
    assertUsageError(() => parseQuery("#"), /an id must be a node id such as #12, got "#"/);
    assertUsageError(() => parseQuery("#-1"), /an id must be a node id/);
    assertUsageError(() => parseQuery("#1.5"), /an id must be a node id/);
    assertUsageError(() => parseQuery("#1,#2"), /the query gives #id twice/);
    assertUsageError(() => parseQuery("within=Row"), /within must be a node id.*"Row"/);
    assertUsageError(() => parseQuery("within="), /within must be a node id/);
    assertUsageError(
      () => parseQuery("state=on"),
      /unknown state "on": states are enabled, focused, checked/,
    );
    assertUsageError(() => parseQuery("state=Enabled"), /unknown state "Enabled"/);
    assertUsageError(() => parseQuery("state=enabled,state=modal"), /gives state twice/);
    assertUsageError(() => parseQuery("within=#1,within=#2"), /gives within twice/);
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
      select: "select=Green",
    };
    for (const name of ACTION_NAMES) {
      assert.equal(parseCliAction(examples[name] ?? name).action, name);
    }
    assert.deepEqual(parseCliAction("select=Dark blue"), { action: "select", option: "Dark blue" });
    assert.throws(() => parseCliAction("select"), /select needs an argument, as in select=Green/);
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

Deno.test("flag values", async (t) => {
  await t.step("parseWhole() takes digits within the range", () => {
    assert.equal(parseWhole("--depth", "0", 0), 0);
    assert.equal(parseWhole("--depth", " 12 ", 0), 12);
    assert.equal(parseWhole("--timeout", "30000", 0, 30000), 30000);
  });

  await t.step("parseWhole() refuses anything else, naming the flag and the range", () => {
    for (const bad of ["", "-1", "1.5", "1e3", "0x10", "ten", "99999999999999999999"]) {
      assertUsageError(
        () => parseWhole("--depth", bad, 0),
        new RegExp(`--depth takes a whole number of at least 0, got ${JSON.stringify(bad)}`),
      );
    }
    assertUsageError(
      () => parseWhole("--timeout", "30001", 0, 30000),
      /--timeout takes a whole number from 0 to 30000, got "30001"/,
    );
    assertUsageError(() => parseWhole("--max-bytes", "0", 1, 10), /from 1 to 10, got "0"/);
  });

  await t.step("treeArguments() gives ui_tree's arguments for the flags given", () => {
    assert.deepEqual(treeArguments({}), {});
    assert.deepEqual(
      treeArguments({
        root: "#7",
        depth: "1",
        from: "20",
        visible: true,
        maxBytes: "4096",
      }),
      { root: 7, depth: 1, from: 20, visible: true, max_bytes: 4096 },
    );
    assert.deepEqual(treeArguments({ root: "7", visible: false }), { root: 7 });
    assert.deepEqual(treeArguments({ since: "12" }), { since: 12 });
    assert.deepEqual(treeArguments({ since: "0", maxBytes: "300" }), {
      since: 0,
      max_bytes: 300,
    });
  });

  await t.step("treeArguments() refuses bad numbers and --since beside a view", () => {
    assertUsageError(() => treeArguments({ root: "x" }), /--root must be a node id/);
    assertUsageError(() => treeArguments({ depth: "-1" }), /--depth takes a whole number/);
    assertUsageError(() => treeArguments({ from: "a" }), /--from takes a whole number/);
    assertUsageError(() => treeArguments({ since: "r3" }), /--since takes a whole number/);
    assertUsageError(
      () => treeArguments({ maxBytes: "3500001" }),
      /--max-bytes takes a whole number from 1 to 3500000/,
    );
    assertUsageError(
      () => treeArguments({ since: "3", maxBytes: "255" }),
      /--max-bytes takes a whole number from 256 to 3500000, got "255"/,
    );
    assertUsageError(
      () => treeArguments({ since: "3", root: "1", visible: true }),
      /--since takes only --max-bytes beside it, got --root, --visible/,
    );
  });

  await t.step("waitArguments() gives ui_wait's arguments", () => {
    assert.deepEqual(waitArguments(parseQuery("#31"), { state: "enabled" }), {
      id: 31,
      state: "enabled",
    });
    assert.deepEqual(
      waitArguments(parseQuery("role=dialog"), { gone: true, timeout: "2000" }),
      { role: "dialog", gone: true, timeout_ms: 2000 },
    );
    assert.deepEqual(waitArguments(parseQuery("name=Ok,state=checked"), { gone: false }), {
      name: "Ok",
      state: "checked",
    });
  });

  await t.step("waitArguments() refuses a state given twice or unknown, and bad timeouts", () => {
    assertUsageError(
      () => waitArguments(parseQuery("state=modal"), { state: "enabled" }),
      /the state is given twice/,
    );
    assertUsageError(() => waitArguments({ id: 1 }, { state: "on" }), /unknown state "on"/);
    assertUsageError(
      () => waitArguments({ id: 1 }, { timeout: "30001" }),
      /--timeout takes a whole number from 0 to 30000/,
    );
    assertUsageError(() => waitArguments({ id: 1 }, { timeout: "5s" }), /--timeout/);
  });
});
