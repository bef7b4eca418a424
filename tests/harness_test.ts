import assert from "node:assert/strict";
import { setLogSink } from "../runtime/app/log.ts";
import { type Action, type NodeQuery, render, type TestApp } from "../runtime/testing.ts";
import { notes } from "../examples/notes.ts";
import { largerApp, SETTINGS_TOOL } from "./fixtures/larger_app.ts";

/**
 * Acts as an agent does: queries one node, acts on it at the revision just read, and checks
 * that the revision moved by `steps` — 1 for an action that changed the tree, 0 for a no-op.
 */
async function agentAct(app: TestApp, query: NodeQuery, action: Action, steps: 0 | 1) {
  const node = app.get(query);
  const revision = app.revision;
  const after = await app.act(node.id, action, revision);
  assert.equal(
    after,
    revision + steps,
    `${action.action} on ${node.path} moves the revision by ${steps}`,
  );
  assert.equal(app.revision, after, "the action left no frame pending");
  return node;
}

/** The lines of the tree text, without indent. */
function lines(app: TestApp): string[] {
  return app.tree().trimEnd().split("\n").map((line) => line.trim());
}

/** The tree line of the one node matching `query`. */
function lineOf(app: TestApp, query: NodeQuery): string {
  const { id } = app.get(query);
  return lines(app).find((line) =>
    line.includes(` #${id}`) && new RegExp(`#${id}( |$)`).test(line)
  )!;
}

/** Every id in the tree, the texts that name rows included (they have no line of their own). */
function idsIn(app: TestApp): number[] {
  return app.query({}).map((match) => match.id);
}

Deno.test("the agents page's Notes example", async (t) => {
  const app = await render(notes, { title: "Notes" });

  await t.step("renders its count of notes", () => {
    assert.equal(app.tree(), `window "Notes" #1\n text "0 notes" #2\n`);
    assert.equal(app.revision, 1);
  });

  await t.step("registers note_count as the page describes it", () => {
    const tools = app.tools();
    assert.equal(tools.length, 1);
    assert.equal(tools[0]!.name, "note_count");
    assert.equal(tools[0]!.description, "How many notes the user has");
    assert.deepEqual(tools[0]!.inputSchema, { type: "object", properties: {} });
    assert.equal(tools[0]!.isDestructive, false);
  });

  await t.step("answers note_count without changing the tree", async () => {
    assert.equal(await app.callTool("note_count"), `{"count":0}`);
    assert.equal(app.revision, 1);
  });

  await t.step("is found by query as the page's agent would find it", () => {
    assert.deepEqual(app.query({ role: "text", text: "notes" }), [
      {
        id: 2,
        role: "text",
        name: "0 notes",
        path: `text "0 notes"`,
        states: [],
      },
    ]);
  });

  await app.close();
  await t.step("close() takes its tool away", () => {
    assert.deepEqual(app.tools(), []);
  });
});

Deno.test("an agent drives the larger app with every action", async (t) => {
  const logLines: string[] = [];
  const restoreLog = setLogSink((line) => logLines.push(line));
  const { root, probe } = largerApp(["Buy milk"]);
  const app = await render(root, { title: "Notes" });
  const PASSWORD = "hunter2-correct-horse";
  let everSeen = new Set(idsIn(app));
  const rememberIds = () => {
    for (const id of idsIn(app)) everSeen.add(id);
  };

  try {
    await t.step("the first tree shows every part of the app", () => {
      assert.equal(
        app.tree(),
        [
          `window "Notes" #1`,
          ` menu "File" #2 collapsed`,
          ` text "1 notes" #3`,
          ` text_field "Title" #4`,
          ` slider "Volume" #5 value="50"`,
          ` scroll_view #6`,
          `  list #7`,
          `   list_item "Buy milk" #8`,
          `    checkbox "Done" #9`,
          `    button "Delete" #11`,
          ``,
        ].join("\n"),
      );
      assert.deepEqual(app.tools().map((tool) => tool.name), [
        "add_note",
        "delete_note",
        "note_count",
      ]);
    });

    await t.step("type_text into the title, then Enter adds a row", async () => {
      await agentAct(app, { role: "text_field", name: "Title" }, {
        action: "type_text",
        text: "Walk dog",
      }, 1);
      assert.equal(
        lineOf(app, { name: "Title" }),
        `text_field "Title" #4 value="Walk dog" focused`,
      );
      await agentAct(app, { name: "Title" }, { action: "press_key", keybind: "Enter" }, 1);
      assert.equal(lineOf(app, { role: "text", text: "notes" }), `text "2 notes" #3`);
      assert.equal(lineOf(app, { name: "Title" }), `text_field "Title" #4 focused`);
      assert.match(
        app.tree(),
        /list_item "Walk dog" #12\n {4}checkbox "Done" #13\n {4}button "Delete" #15\n$/,
      );
      rememberIds();
    });

    await t.step("Ctrl+A selects the title, so the typed text replaces it", async () => {
      await agentAct(app, { name: "Title" }, { action: "type_text", text: "Call mom" }, 1);
      await agentAct(app, { name: "Title" }, { action: "press_key", keybind: "Ctrl+A" }, 0);
      await agentAct(app, { name: "Title" }, { action: "type_text", text: "Call dad" }, 1);
      assert.equal(
        lineOf(app, { name: "Title" }),
        `text_field "Title" #4 value="Call dad" focused`,
      );
      await agentAct(app, { name: "Title" }, { action: "press_key", keybind: "Enter" }, 1);
      assert.deepEqual(app.query({ role: "text", text: "Call" }).map((match) => match.name), [
        "Call dad",
      ]);
    });

    await t.step("double_click on the title selects its text, so typing replaces it", async () => {
      await agentAct(app, { name: "Title" }, { action: "type_text", text: "draft" }, 1);
      await agentAct(app, { name: "Title" }, { action: "double_click" }, 0);
      await agentAct(app, { name: "Title" }, { action: "type_text", text: "Pay rent" }, 1);
      assert.equal(
        lineOf(app, { name: "Title" }),
        `text_field "Title" #4 value="Pay rent" focused`,
      );
      await agentAct(app, { name: "Title" }, { action: "press_key", keybind: "Enter" }, 1);
      assert.equal(lineOf(app, { role: "text", text: "notes" }), `text "4 notes" #3`);
      rememberIds();
    });

    await t.step("clicking a plain text is a no-op", async () => {
      await agentAct(app, { role: "text", name: "4 notes" }, { action: "click" }, 0);
      await agentAct(app, { role: "text", name: "Buy milk" }, { action: "hover" }, 1);
      await agentAct(app, { role: "text", name: "Buy milk" }, { action: "hover" }, 0);
    });

    await t.step("click on a row's Done checks only that row, and keeps its ids", async () => {
      const done = app.query({ role: "checkbox", name: "Done" });
      assert.equal(done.length, 4);
      const walkDog = done[1]!;
      // Several match, so an agent picks one by its path, then acts on its id.
      assert.throws(() => app.get({ role: "checkbox", name: "Done" }), /found 4: /);
      assert.match(
        walkDog.path,
        /^scroll_view > list > list_item "Walk dog" > checkbox "Done"$/,
      );
      const revision = app.revision;
      assert.equal(await app.act(walkDog.id, { action: "click" }, revision), revision + 1);
      assert.deepEqual(
        app.tree().split("\n").filter((line) => line.includes("checked")).map((line) =>
          line.trim()
        ),
        [`checkbox "Done" #${walkDog.id} focused checked`],
      );
      assert.equal(walkDog.id, 13);
    });

    await t.step("hover sets hovered on a Delete button", async () => {
      const deleteMilk = app.query({ role: "button", name: "Delete" })[0]!;
      const revision = app.revision;
      assert.equal(await app.act(deleteMilk.id, { action: "hover" }, revision), revision + 1);
      assert.equal(lineOf(app, { role: "list_item", name: "Buy milk" }), `list_item "Buy milk" #8`);
      assert.match(app.tree(), new RegExp(`button "Delete" #${deleteMilk.id} hovered`));
    });

    await t.step("focus, press_key and drag move the volume slider", async () => {
      await agentAct(app, { role: "slider", name: "Volume" }, { action: "focus" }, 1);
      await agentAct(app, { role: "slider" }, { action: "press_key", keybind: "ArrowRight" }, 1);
      assert.equal(lineOf(app, { role: "slider" }), `slider "Volume" #5 value="55" focused`);
      const { id } = app.get({ role: "slider" });
      const place = app.snapshot().layout.find((entry) => entry.id === id)!;
      const trackStart = place.x + "Volume".length + 2; // "Volume ["
      await agentAct(app, { role: "slider" }, {
        action: "drag",
        to: { x: trackStart + 19, y: place.y },
      }, 1);
      assert.equal(lineOf(app, { role: "slider" }), `slider "Volume" #5 value="100" focused`);
      await agentAct(app, { role: "slider" }, {
        action: "drag",
        to: { x: trackStart + 5, y: place.y },
      }, 1);
      assert.equal(lineOf(app, { role: "slider" }), `slider "Volume" #5 value="25" focused`);
    });

    await t.step("Tab and Shift+Tab move focus in tree order", async () => {
      await agentAct(app, { name: "Title" }, { action: "press_key", keybind: "Tab" }, 1);
      assert.match(lineOf(app, { role: "slider" }), / focused$/);
      await agentAct(app, { role: "slider" }, { action: "press_key", keybind: "Shift+Tab" }, 1);
      assert.match(lineOf(app, { name: "Title" }), / focused$/);
    });

    await t.step("app tools add notes; the list overflows and scrolls", async () => {
      const revision = app.revision;
      assert.equal(await app.callTool("add_note", { title: "Fifth" }), `{"count":5}`);
      assert.equal(app.revision, revision + 1);
      assert.equal(await app.callTool("add_note", { title: "Sixth" }), `{"count":6}`);
      assert.equal(await app.callTool("note_count"), `{"count":6}`);
      await assert.rejects(() => app.callTool("add_note", { title: "  " }), {
        message: "expected a title",
      });
      rememberIds();

      const list = app.get({ role: "list" });
      const layout = () => app.snapshot().layout.find((entry) => entry.id === list.id)!;
      const view = app.snapshot().layout.find((entry) => entry.role === "scroll_view")!;
      assert.equal(view.height, 4);
      assert.equal(layout().y, view.y);
      await agentAct(app, { role: "scroll_view" }, { action: "scroll", delta: { x: 0, y: 1 } }, 1);
      assert.equal(layout().y, view.y - 1);
      await agentAct(app, { role: "text", name: "Sixth" }, {
        action: "scroll",
        delta: { x: 0, y: 50 },
      }, 1);
      assert.equal(layout().y, view.y - 2, "six rows in four: two at most");
      await agentAct(app, { role: "scroll_view" }, { action: "scroll", delta: { x: 0, y: 1 } }, 0);
    });

    await t.step("a stale revision is refused with the contract's message", async () => {
      const old = app.revision - 1;
      await assert.rejects(() => app.act(app.get({ name: "Title" }).id, { action: "click" }, old), {
        name: "ActionError",
        message:
          `stale revision: the tree is now at revision ${app.revision}; read ui_tree again and retry`,
      });
    });

    await t.step("the File menu opens the settings dialog, which registers its tool", async () => {
      await agentAct(app, { role: "menu", name: "File" }, { action: "click" }, 1);
      assert.equal(lineOf(app, { role: "menu" }), `menu "File" #2 focused expanded`);
      assert.deepEqual(app.query({ role: "menu_item" }).map((item) => item.name), [
        "Settings",
        "Clear",
      ]);
      await agentAct(app, { role: "menu_item", name: "Settings" }, { action: "click" }, 1);
      assert.equal(app.query({ role: "menu_item" }).length, 0);
      const dialogText = app.tree().slice(app.tree().indexOf(` dialog "Settings"`));
      assert.match(
        dialogText,
        /^ dialog "Settings" #\d+( modal)?\n {2}text_field "Sync password" #\d+ focused secure\n {2}button "Sync" #\d+ disabled\n {2}button "Close" #\d+\n$/,
      );
      assert.deepEqual(app.tools().map((tool) => tool.name), [
        "add_note",
        "delete_note",
        "note_count",
        SETTINGS_TOOL,
      ]);
      assert.equal(await app.callTool(SETTINGS_TOOL), `{"passwordSet":false}`);
    });

    await t.step(
      "agents may not type the password, nor click Sync while it is disabled",
      async () => {
        const revision = app.revision;
        const password = app.get({ name: "Sync password" });
        for (
          const action of [{ action: "type_text", text: "guess" }, {
            action: "press_key",
            keybind: "a",
          }] as const
        ) {
          await assert.rejects(() => app.act(password.id, action, revision), {
            name: "ActionError",
            message: /^the node holds a secret/,
          });
        }
        await assert.rejects(
          () => app.act(app.get({ name: "Sync" }).id, { action: "click" }, revision),
          {
            name: "ActionError",
            message: 'the node is disabled; ui_wait with "state": "enabled" waits for it',
          },
        );
        assert.equal(app.revision, revision, "refused actions change nothing");
        assert.deepEqual(probe.syncs, []);
      },
    );

    await t.step("the person types the password, which enables Sync", async () => {
      const password = app.get({ name: "Sync password" });
      const revision = app.revision;
      assert.equal(
        await app.userAct(password.id, { action: "type_text", text: PASSWORD }),
        revision + 1,
      );
      assert.equal(
        lineOf(app, { name: "Sync password" }),
        `text_field "Sync password" #${password.id} focused secure`,
      );
      assert.equal(lineOf(app, { name: "Sync" }), `button "Sync" #${app.get({ name: "Sync" }).id}`);
      assert.equal(await app.callTool(SETTINGS_TOOL), `{"passwordSet":true}`);
    });

    await t.step("the password appears nowhere an agent can read", async () => {
      const everything = [
        app.tree(),
        JSON.stringify(app.query({})),
        JSON.stringify(app.query({ text: "hunter2" })),
        JSON.stringify(app.snapshot()),
        JSON.stringify(app.tools()),
        await app.callTool(SETTINGS_TOOL),
        ...logLines,
      ].join("\n");
      assert.ok(!everything.includes("hunter2"), "the password leaked");
      assert.deepEqual(app.query({ text: "hunter2" }), []);
      const secret = app.snapshot().signals.find((signal) => signal.name === "sync password")!;
      assert.equal(secret.secret, true);
      assert.equal("value" in secret, false);
    });

    await t.step("an agent clicks Sync; Tab stays inside the dialog", async () => {
      await agentAct(app, { role: "button", name: "Sync" }, { action: "click" }, 1);
      assert.deepEqual(probe.syncs, [PASSWORD]);
      await agentAct(app, { name: "Sync" }, { action: "press_key", keybind: "Tab" }, 1);
      assert.match(lineOf(app, { name: "Close" }), / focused$/);
      await agentAct(app, { name: "Close" }, { action: "press_key", keybind: "Tab" }, 1);
      assert.match(lineOf(app, { name: "Sync password" }), / focused secure$/);
      // The window is behind the dialog: the key goes to the dialog, which passes it on.
      await agentAct(app, { role: "dialog" }, { action: "press_key", keybind: "Shift+Tab" }, 1);
      assert.match(lineOf(app, { name: "Close" }), / focused$/);
    });

    await t.step("Escape closes the dialog through onClose; its tool and cleanup go", async () => {
      const dialogIds = app.query({}).filter((match) => match.path.includes(`dialog "Settings"`));
      await agentAct(app, { role: "dialog" }, { action: "press_key", keybind: "Escape" }, 1);
      assert.equal(probe.closes, 1);
      assert.equal(app.query({ role: "dialog" }).length, 0);
      assert.ok(!app.tools().some((tool) => tool.name === SETTINGS_TOOL));
      assert.ok(probe.cleanups.includes("settings"));
      for (const { id } of dialogIds) {
        await assert.rejects(() => app.act(id, { action: "click" }), {
          message: `no node with id ${id}; read ui_tree again`,
        });
      }
      rememberIds();
    });

    await t.step("delete_note is destructive and removes its row for good", async () => {
      const tool = app.tools().find((candidate) => candidate.name === "delete_note")!;
      assert.equal(tool.isDestructive, true);
      assert.deepEqual(tool.inputSchema.required, ["title"]);
      const milkIds = [8, 9, 10, 11];
      const revision = app.revision;
      assert.equal(await app.callTool("delete_note", { title: "Buy milk" }), `{"count":5}`);
      assert.equal(app.revision, revision + 1);
      assert.deepEqual(probe.cleanups.filter((entry) => entry.startsWith("row")), ["row Buy milk"]);
      for (const id of milkIds) assert.ok(!idsIn(app).includes(id), `#${id} is gone`);
      await assert.rejects(() => app.act(9, { action: "click" }), {
        message: "no node with id 9; read ui_tree again",
      });
    });

    await t.step("a row's Delete button removes that row and keeps the others' ids", async () => {
      const rows = app.query({ role: "list_item" });
      const dad = app.get({ role: "text", name: "Call dad" });
      const revision = app.revision;
      const deleteDad = app.query({ role: "button", name: "Delete" })[1]!;
      assert.equal(await app.act(deleteDad.id, { action: "click" }, revision), revision + 1);
      assert.equal(app.query({ name: "Call dad" }).length, 0);
      assert.deepEqual(
        app.query({ role: "list_item" }).map((match) => match.id),
        rows.filter((_, index) => index !== 1).map((match) => match.id),
      );
      assert.ok(!idsIn(app).includes(dad.id));
      assert.equal(lineOf(app, { role: "text", text: "notes" }), `text "4 notes" #3`);
    });

    await t.step("new nodes never reuse an id", async () => {
      rememberIds();
      const highest = Math.max(...everSeen);
      await app.callTool("add_note", { title: "Fresh" });
      const fresh = app.query({}).filter((match) => !everSeen.has(match.id));
      assert.equal(fresh.length, 4, "a list_item, checkbox, text and button");
      for (const { id } of fresh) assert.ok(id > highest);
      everSeen = new Set([...everSeen, ...fresh.map((match) => match.id)]);
    });

    await t.step("File > Clear empties the list", async () => {
      await agentAct(
        app,
        { role: "menu", name: "File" },
        { action: "press_key", keybind: "Enter" },
        1,
      );
      await agentAct(app, { role: "menu_item", name: "Clear" }, { action: "click" }, 1);
      assert.equal(app.query({ role: "list_item" }).length, 0);
      assert.equal(lineOf(app, { role: "text", text: "notes" }), `text "0 notes" #3`);
      assert.equal(await app.callTool("note_count"), `{"count":0}`);
    });

    await t.step("nodes kept their ids through it all", () => {
      assert.deepEqual(
        ["menu", "text_field", "slider", "scroll_view", "list"].map((role) =>
          app.query({ role })[0]!.id
        ),
        [2, 4, 5, 6, 7],
      );
    });

    await t.step("nothing was logged as an error", () => {
      assert.deepEqual(logLines, []);
    });
  } finally {
    restoreLog();
    await app.close();
  }
  assert.deepEqual(app.tools(), [], "closing took every tool away");
});
