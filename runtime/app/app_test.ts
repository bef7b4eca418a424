import assert from "node:assert/strict";
import { HeadlessRenderer } from "../render/headless.ts";
import { render } from "../testing.ts";
import type { TreeUpdate } from "../semantics/mod.ts";
import {
  AppTool,
  bind,
  button,
  column,
  component,
  dialog,
  list,
  row,
  scrollView,
  show,
  text,
  textField,
  View,
  widget,
} from "../ui/mod.ts";
import type { Signal } from "../reactive/mod.ts";
import { App, RECENT_FRAMES } from "./app.ts";
import { isStackLine, setLogSink } from "./log.ts";
import type { Renderer, RenderSource } from "./renderer.ts";

/** Runs `fn` with log lines captured; returns them. */
async function captureLog(fn: () => Promise<void>): Promise<string[]> {
  const lines: string[] = [];
  const restore = setLogSink((line) => isStackLine(line) || lines.push(line));
  try {
    await fn();
  } finally {
    restore();
  }
  return lines;
}

function busyWait(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // Spin: the time must land inside the phase being measured.
  }
}

/** A headless renderer that takes `ms` to draw each frame and records that it closed. */
class SlowRenderer implements Renderer {
  readonly kind = "headless";
  readonly #inner = new HeadlessRenderer();
  slowMs = 0;
  closed = 0;
  size() {
    return this.#inner.size();
  }
  render(_source: RenderSource): void {
    busyWait(this.slowMs);
  }
  close(): void {
    this.closed++;
  }
}

const counter = () =>
  component((cx) => {
    const count = cx.signal(0, { name: "count" });
    return column(
      button("+1", () => count.set(count.get() + 1)),
      text(bind(() => `Count: ${count.get()}`)),
    );
  });

Deno.test("App frames", async (t) => {
  await t.step("the first frame is recorded with its revision and timings", async () => {
    const before = Date.now();
    await using app = await render(counter());
    const frames = app.app.frames;
    assert.equal(frames.length, 1);
    const [first] = frames;
    assert.equal(first!.revision, 1);
    assert.equal(first!.changed, true);
    for (const key of ["effectsMs", "layoutMs", "renderMs", "totalMs"] as const) {
      assert.ok(Number.isFinite(first![key]) && first![key] >= 0, key);
    }
    assert.ok(first!.totalMs >= first!.effectsMs + first!.layoutMs + first!.renderMs - 1e-9);
    assert.ok(first!.at >= before && first!.at <= Date.now());
  });

  await t.step("each phase's time is recorded in its own field", () => {
    const renderer = new SlowRenderer();
    let slowBinding = false;
    const root = component((cx) => {
      const count = cx.signal(0);
      return column(
        button("+1", () => count.set(count.get() + 1)),
        text(bind(() => {
          const value = count.get();
          if (slowBinding) busyWait(15);
          return `Count: ${value}`;
        })),
      );
    });
    const app = new App(root, { title: "Timed", renderer });
    const plus = app.tree.root.children[0]!.id;
    renderer.slowMs = 15;
    app.act(plus, { action: "focus" });
    const rendered = app.frames.at(-1)!;
    assert.ok(rendered.renderMs >= 14, `render took ${rendered.renderMs}ms`);
    assert.ok(rendered.effectsMs < 14, `effects took ${rendered.effectsMs}ms`);
    renderer.slowMs = 0;
    slowBinding = true;
    app.act(plus, { action: "click" });
    const effects = app.frames.at(-1)!;
    assert.ok(effects.effectsMs >= 14, `effects took ${effects.effectsMs}ms`);
    assert.ok(effects.renderMs < 14, `render took ${effects.renderMs}ms`);
    assert.ok(effects.totalMs >= effects.effectsMs);
    app.close();
  });

  await t.step("a frame that changes nothing is recorded and leaves the revision", async () => {
    await using app = await render(counter());
    const revision = app.revision;
    assert.equal(app.app.frame(), null);
    assert.equal(app.revision, revision);
    const last = app.app.frames.at(-1)!;
    assert.equal(last.changed, false);
    assert.equal(last.revision, revision);
  });

  await t.step("a frame with many changes raises the revision by exactly one", async () => {
    await using app = await render(counter());
    const updates: TreeUpdate[] = [];
    app.app.onTreeUpdate((update) => updates.push(update));
    const revision = app.revision;
    const plus = app.get({ name: "+1" }).id;
    assert.equal(await app.act(plus, { action: "click" }), revision + 1); // focus and the count
    assert.equal(updates.length, 1);
    assert.equal(updates[0]!.revision, revision + 1);
    assert.deepEqual(updates[0]!.nodes.map((node) => node.name).sort(), ["+1", "Count: 1"]);
  });

  await t.step(`only the last ${RECENT_FRAMES} frames are kept`, async () => {
    await using app = await render(counter());
    for (let index = 0; index < RECENT_FRAMES + 10; index++) app.app.frame();
    assert.equal(app.app.frames.length, RECENT_FRAMES);
    assert.ok(app.app.frames.every((frame) => !frame.changed), "the first frame was dropped");
    assert.deepEqual(app.snapshot().frames, app.app.frames);
  });

  await t.step("the snapshot's frames are a copy", async () => {
    await using app = await render(counter());
    const frames = app.snapshot().frames;
    app.app.frame();
    assert.equal(frames.length, 1);
    assert.equal(app.app.frames.length, 2);
  });
});

Deno.test("App errors from app code", async (t) => {
  await t.step(
    "an error thrown in a click handler is logged and the app keeps working",
    async () => {
      const lines = await captureLog(async () => {
        const root = component((cx) => {
          const count = cx.signal(0);
          return column(
            button("Boom", () => {
              throw new Error("boom");
            }),
            button("+1", () => count.set(count.get() + 1)),
            text(bind(() => `Count: ${count.get()}`)),
          );
        });
        await using app = await render(root);
        const revision = app.revision;
        assert.equal(
          await app.act(app.get({ name: "Boom" }).id, { action: "click" }),
          revision + 1,
        );
        assert.match(app.tree(), /button "Boom" #2 focused/);
        await app.act(app.get({ name: "+1" }).id, { action: "click" });
        assert.equal(app.get({ role: "text" }).name, "Count: 1");
      });
      assert.deepEqual(lines, ["error in the click handler: Error: boom"]);
    },
  );

  await t.step(
    "an error thrown in a binding is logged and shown: ⚠ error, invalid, until it recovers",
    async () => {
      const lines = await captureLog(async () => {
        const root = component((cx) => {
          const count = cx.signal(0);
          return column(
            button("+1", () => count.set(count.get() + 1)),
            text(bind(() => {
              if (count.get() === 1) throw new RangeError("one is not allowed");
              return `Count: ${count.get()}`;
            })),
          );
        });
        await using app = await render(root);
        const plus = app.get({ name: "+1" }).id;
        await app.act(plus, { action: "click" });
        const failed = app.get({ role: "text" });
        assert.equal(failed.name, "⚠ error", "no stale Count: 0");
        assert.deepEqual(failed.states, ["invalid"]);
        assert.equal(failed.description, "a label binding failed: one is not allowed");
        assert.ok(app.screen().find("⚠ error"));
        await app.act(plus, { action: "click" });
        const recovered = app.get({ role: "text" });
        assert.equal(recovered.name, "Count: 2", "the binding recovers");
        assert.deepEqual(recovered.states, []);
        assert.equal(recovered.description, undefined);
      });
      assert.ok(lines.length >= 1);
      for (const line of lines) {
        assert.match(line, /^error in a (name |label )?binding: RangeError: one is not allowed$/);
      }
    },
  );

  await t.step("an error thrown in an effect or a key handler is logged", async () => {
    const lines = await captureLog(async () => {
      const root = component((cx) => {
        const count = cx.signal(0);
        cx.effect(() => {
          if (count.get() > 0) throw new Error("effect failed");
        });
        return column(
          button("+1", () => count.set(count.get() + 1)),
          widget({
            role: "button",
            name: "Keys",
            focusable: true,
            onKey: () => {
              throw new Error("key failed");
            },
          }),
        );
      });
      await using app = await render(root);
      await app.act(app.get({ name: "+1" }).id, { action: "click" });
      await app.act(app.get({ name: "Keys" }).id, { action: "press_key", keybind: "x" });
      assert.match(app.tree(), /button "Keys" #3 focused/);
    });
    assert.deepEqual(lines, [
      "error in an effect: Error: effect failed",
      "error in the press_key handler: Error: key failed",
    ]);
  });

  await t.step("log lines stay on one line", async () => {
    const lines = await captureLog(async () => {
      const root = component(() =>
        button("Boom", () => {
          throw new Error("two\nlines");
        })
      );
      await using app = await render(root);
      await app.act(2, { action: "click" });
    });
    assert.deepEqual(lines, ["error in the click handler: Error: two\\nlines"]);
  });

  await t.step("App refuses a root that is not a view", () => {
    assert.throws(
      () => new App("root" as unknown as View, { title: "x", renderer: new HeadlessRenderer() }),
      { name: "TypeError", message: "the root must be a view, such as component((cx) => ...)" },
    );
  });
});

Deno.test("App.close()", async (t) => {
  await t.step("close() runs cleanups, removes tools and releases the renderer once", async () => {
    const cleanups: string[] = [];
    const renderer = new SlowRenderer();
    const root = component((cx) => {
      cx.onCleanup(() => cleanups.push("root"));
      cx.registerTool(new AppTool("ping", "Answers pong", `{"type":"object"}`, () => `"pong"`));
      return component((inner) => {
        inner.onCleanup(() => cleanups.push("inner"));
        return text("x");
      });
    });
    const app = new App(root, { title: "Closing", renderer });
    let toolChanges = 0;
    app.tools.onChange(() => toolChanges++);
    let quit = false;
    void app.quitRequested.then(() => (quit = true));
    app.close();
    assert.deepEqual(cleanups, ["inner", "root"]);
    assert.deepEqual(app.tools.list(), []);
    assert.equal(toolChanges, 1);
    assert.equal(renderer.closed, 1);
    assert.equal(app.closed, true);
    app.close();
    assert.equal(renderer.closed, 1, "close() is safe to call twice");
    assert.deepEqual(cleanups, ["inner", "root"]);
    await Promise.resolve();
    assert.equal(quit, true, "closing settles quitRequested");
  });

  await t.step("after close() frames do nothing and actions are refused", async () => {
    const app = await render(counter());
    const frames = app.app.frames.length;
    await app.close();
    assert.equal(app.app.frame(), null);
    assert.equal(app.app.frames.length, frames);
    await assert.rejects(() => app.act(2, { action: "click" }), { message: "the app has closed" });
  });

  await t.step("a cleanup that throws is logged and the others still run", async () => {
    const cleanups: string[] = [];
    const lines = await captureLog(async () => {
      const root = component((cx) => {
        cx.onCleanup(() => cleanups.push("first"));
        cx.onCleanup(() => {
          throw new Error("cleanup failed");
        });
        return text("x");
      });
      const app = await render(root);
      await app.close();
    });
    assert.deepEqual(cleanups, ["first"]);
    assert.deepEqual(lines, ["error in a cleanup: Error: cleanup failed"]);
  });

  await t.step("rt.quit() settles quitRequested without closing", async () => {
    const root = component(() => button("Quit", (rt) => rt.quit()));
    await using app = await render(root);
    await app.act(2, { action: "click" });
    await app.app.quitRequested;
    assert.equal(app.app.closed, false);
  });
});

Deno.test("App frames: typing into a secure node leaves no frame to time", async (t) => {
  const form = () =>
    component((cx) => {
      const password = cx.secret("", { name: "password" });
      const title = cx.signal("", { name: "title" });
      return column(
        textField({ label: "Title", value: title }),
        textField({ label: "Password", value: password }).secure(),
        button("Sync", () => {}).disabled(bind(() => password.get() === "")),
      );
    });

  await t.step("the person's keys into a secure field add no frame", async () => {
    await using app = await render(form());
    const field = app.get({ name: "Password" }).id;
    await app.userAct(field, { action: "click" });
    const before = app.app.frames.length;
    for (const key of "hunter2-KEYS") {
      await app.userAct(field, { action: "type_text", text: key });
      await app.userAct(field, { action: "press_key", keybind: "ArrowLeft" });
    }
    await app.userAct(field, { action: "press_key", keybind: "Backspace" });
    await app.settle();
    assert.equal(app.app.frames.length, before);
    assert.deepEqual(app.snapshot().frames, app.app.frames);
  });

  await t.step("keys into a plain field still add one frame each", async () => {
    await using app = await render(form());
    const field = app.get({ name: "Title" }).id;
    const before = app.app.frames.length;
    for (const key of "abc") await app.userAct(field, { action: "type_text", text: key });
    assert.equal(app.app.frames.length, before + 3);
  });

  await t.step("an agent's refused keys hide no later frame", async () => {
    await using app = await render(form());
    const field = app.get({ name: "Password" }).id;
    await assert.rejects(async () => await app.act(field, { action: "type_text", text: "x" }), {
      name: "ActionError",
      kind: "secret",
    });
    const before = app.app.frames.length;
    await app.act(app.get({ name: "Title" }).id, { action: "click" });
    assert.equal(app.app.frames.length, before + 1);
  });
});

/**
 * A scroll view of `rows` rows (each a text and an "Open n" button, the first one's button
 * disabled) above a dialog that opens with "Show dialog"; clicks are recorded in `clicks`.
 */
async function rowsAndDialog(rows = 40) {
  const clicks: string[] = [];
  let open!: Signal<boolean>;
  const app = await render(
    component((cx) => {
      open = cx.signal(false, { name: "open" });
      return column(
        button("Show dialog", () => open.set(true)),
        scrollView(
          list(Array.from({ length: rows }, (_, index) => index), (index) =>
            row(
              text(`Row ${index}`),
              button(`Open ${index}`, () => clicks.push(`open ${index}`)).disabled(index === 0),
            )),
        ).height(10),
        show(open, () =>
          dialog(
            "Confirm",
            text("Sure?"),
            button("Close", () => open.set(false)),
            button("Later", () => {}).disabled(),
          )),
      );
    }),
    { width: 40, height: 20 },
  );
  const states = (id: number) => app.app.tree.get(id)!.states;
  const has = (id: number, state: "offscreen" | "modal") => app.app.tree.get(id)!.has(state);
  return { app, clicks, open: () => open.set(true), states, has };
}

Deno.test("App.act(): where things are", async (t) => {
  await t.step("offscreen is on the outermost node out of view only", async () => {
    const { app, has } = await rowsAndDialog();
    const items = app.query({ role: "list_item" });
    // Ten rows fit the view: the rest carry offscreen, their contents do not.
    assert.deepEqual(items.map((item) => has(item.id, "offscreen")).indexOf(true), 10);
    assert.ok(items.slice(10).every((item) => has(item.id, "offscreen")));
    for (const child of app.app.tree.get(items[20]!.id)!.children) {
      assert.equal(child.has("offscreen"), false, `#${child.id} is offscreen through its row`);
    }
    assert.equal(has(app.get({ role: "scroll_view" }).id, "offscreen"), false);
    assert.equal(has(1, "offscreen"), false);
    await app.close();
  });

  await t.step("scrolling moves offscreen to the rows that left the view", async () => {
    const { app, has } = await rowsAndDialog();
    const view = app.get({ role: "scroll_view" });
    await app.act(view.id, { action: "scroll", delta: { x: 0, y: 15 } });
    const items = app.query({ role: "list_item" });
    const shown = items.map((item) => !has(item.id, "offscreen"));
    assert.deepEqual(shown.indexOf(true), 15);
    assert.deepEqual(shown.lastIndexOf(true), 24);
    // Back to the start: every row agrees with the first layout again.
    await app.act(view.id, { action: "scroll", delta: { x: 0, y: -15 } });
    assert.deepEqual(
      app.query({ role: "list_item" }).map((item) => has(item.id, "offscreen")),
      items.map((_, index) => index >= 10),
    );
    await app.close();
  });

  await t.step("acting on an offscreen node scrolls it into view, then acts", async () => {
    const { app, clicks, has } = await rowsAndDialog();
    const target = app.get({ role: "button", name: "Open 30" });
    const row30 = app.query({ role: "list_item" })[30]!;
    assert.ok(has(row30.id, "offscreen"));
    const before = app.revision;
    const after = await app.act(target.id, { action: "click" }, before);
    assert.deepEqual(clicks, ["open 30"]);
    assert.equal(after, app.revision, "the answer is after the scroll and the click");
    assert.ok(after > before + 1, "the scroll and the click are frames of their own");
    assert.equal(has(row30.id, "offscreen"), false);
    assert.equal(has(target.id, "offscreen"), false);
    // Scrolled as little as shows it: row 30 is now the last row in view.
    assert.equal(has(app.query({ role: "list_item" })[21]!.id, "offscreen"), false);
    assert.equal(has(app.query({ role: "list_item" })[20]!.id, "offscreen"), true);
    await app.close();
  });

  await t.step("modal is on the topmost open dialog; acting behind it is refused", async () => {
    const { app, clicks, open, has } = await rowsAndDialog();
    open();
    await app.settle();
    const dialogId = app.get({ role: "dialog" }).id;
    assert.ok(has(dialogId, "modal"));
    const revision = app.revision;
    for (const id of [app.get({ name: "Open 3" }).id, app.get({ name: "Show dialog" }).id, 1]) {
      await assert.rejects(() => app.act(id, { action: "click" }, revision), {
        name: "ActionError",
        kind: "modal",
        message:
          `the node is behind a modal dialog; act inside dialog #${dialogId} or close it first`,
      });
    }
    assert.deepEqual(clicks, []);
    assert.equal(app.revision, revision, "nothing changed");
    await app.act(app.get({ name: "Close" }).id, { action: "click" }, revision);
    assert.equal(app.query({ role: "dialog" }).length, 0);
    await app.act(app.get({ name: "Open 3" }).id, { action: "click" });
    assert.deepEqual(clicks, ["open 3"]);
    await app.close();
  });

  await t.step("checks run in order: arguments, node, modal, disabled, revision", async () => {
    const { app, open } = await rowsAndDialog();
    const stale = app.revision - 1;
    const disabledRow = app.get({ name: "Open 0" }).id;
    const messageOf = async (id: number, action: unknown, revision?: number) => {
      try {
        await app.act(id, action as never, revision);
      } catch (error) {
        return (error as Error).message;
      }
      throw new Error("the action was not refused");
    };
    // A bad argument outranks a missing node and a stale revision.
    assert.match(
      await messageOf(99_999, { action: "click", force: true }, stale),
      /^invalid arguments: unknown field "force" in a click action/,
    );
    assert.match(await messageOf(99_999, { action: "click" }, stale), /^no node with id 99999; /);
    assert.match(
      await messageOf(disabledRow, { action: "click" }, stale),
      /^the node is disabled; /,
    );
    // A node's own refusal (plain text takes no focus) comes before the revision too.
    const plain = app.get({ name: "Row 1", role: "text" }).id;
    assert.match(await messageOf(plain, { action: "focus" }, stale), /^invalid arguments: a text /);
    open();
    await app.settle();
    const current = app.revision;
    assert.match(
      await messageOf(disabledRow, { action: "click" }, stale),
      /^the node is behind a modal dialog; /,
      "modal comes before disabled and revision",
    );
    const later = app.get({ name: "Later" }).id;
    assert.match(await messageOf(later, { action: "click" }, stale), /^the node is disabled; /);
    assert.match(
      await messageOf(app.get({ name: "Close" }).id, { action: "click" }, stale),
      /^stale revision: the tree is now at revision \d+; /,
    );
    assert.equal(app.revision, current, "no refusal changed anything");
    await app.close();
  });
});
