/**
 * Secrets stay in secure fields (issue 17 point 5): a binding, memo or effect that read a
 * declared secret may feed a `.secure()` property or a true-or-false state, and nothing else;
 * a signal changed by a computation that read a secret is secret-derived and follows the same
 * rule. Every test hunts for the secret in the tree, the queries and the inspect snapshot.
 */

import assert from "node:assert/strict";
import type { Signal } from "../reactive/mod.ts";
import { isStackLine, setLogSink } from "../app/log.ts";
import { render, type TestApp } from "../testing.ts";
import {
  bind,
  button,
  checkbox,
  column,
  component,
  type Cx,
  list,
  show,
  text,
  textField,
  type View,
  widget,
} from "./mod.ts";

const SECRET = "hunter2-TAINT";

/** The start of every refusal; the rest names the property and the secret signal. */
const REFUSED = /^a secret's value would be shown by a property that is not secure: /;

/** The refusal for `where` reading the declared secret signal "password", in full. */
function refusalFor(where: string): string {
  return `a secret's value would be shown by a property that is not secure: ${where} reads secret signal "password"; show it only in a .secure() field, show what tells little through cx.reveal() (its length, cx.reveal(() => secret.get().length), or a mask), or decide a true or false state with it, such as .disabled(bind(() => secret.get() === ""))`;
}

/** Fails when the secret, or any 6 characters of it, is in what the harness can read. */
function assertHidden(app: TestApp, secret = SECRET): void {
  const texts = [
    app.tree(),
    JSON.stringify(app.query({})),
    JSON.stringify(app.query({ name: secret.slice(0, 6) })),
    JSON.stringify(app.snapshot()),
  ].join("\n");
  for (let at = 0; at + 6 <= secret.length; at++) {
    assert.ok(!texts.includes(secret.slice(at, at + 6)), `the secret shows:\n${texts}`);
  }
}

/** Mounting `setup`'s view must throw the refusal; returns its message. */
async function refusedAtMount(setup: (cx: Cx, password: Signal<string>) => View) {
  const root = component((cx) => setup(cx, cx.secret(SECRET, { name: "password" })));
  // render() throws as it is called, so the call goes inside an async function.
  const error = await (async () => await render(root))().then(
    () => null,
    (thrown: Error) => thrown,
  );
  assert.ok(error instanceof TypeError, `mounting was not refused: ${error}`);
  assert.match(error.message, REFUSED);
  assert.doesNotMatch(`${error.message}\n${error.stack}`, /hunter2/);
  return error.message;
}

/** Runs `fn` with the app's log going to the array it returns. */
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

Deno.test("a binding that reads a secret is refused by a property that is not secure", async (t) => {
  await t.step("a concatenation in a text, with the full message", async () => {
    const message = await refusedAtMount((_cx, password) =>
      text(bind(() => "Password: " + password.get()))
    );
    assert.equal(message, refusalFor("a label binding"));
  });

  await t.step("a template string in a button's label and in a .label()", async () => {
    await refusedAtMount((_cx, password) =>
      button(bind(() => `Sync as ${password.get()}`), () => {})
    );
    const message = await refusedAtMount((_cx, password) =>
      button("Sync", () => {}).label(bind(() => `Sync ${password.get().slice(0, 3)}`))
    );
    assert.equal(message, refusalFor("a name binding"));
  });

  await t.step("a value, a widget's name and content, a list's items", async () => {
    const message = await refusedAtMount((_cx, password) =>
      textField({ label: "Echo", value: bind(() => password.get().toUpperCase()) })
    );
    assert.equal(message, refusalFor("a text field's value"));
    await refusedAtMount((_cx, password) =>
      widget({ role: "text", name: bind(() => password.get().length > 0 ? "set" : "empty") })
    );
    await refusedAtMount((_cx, password) =>
      widget({ role: "text", name: "Code", content: bind(() => `[${password.get()}]`) })
    );
    await refusedAtMount((_cx, password) =>
      list(bind(() => password.get().split("")), (character) => text(character))
    );
  });

  await t.step("a memo, and a memo of a memo, that read the secret", async () => {
    await refusedAtMount((cx, password) => text(cx.memo(() => password.get().trim())));
    await refusedAtMount((cx, password) => {
      const trimmed = cx.memo(() => password.get().trim());
      const shouted = cx.memo(() => trimmed.get().toUpperCase());
      return text(bind(() => `You typed ${shouted.get()}`));
    });
  });

  await t.step("an empty secret is refused too: what it will hold is the same", async () => {
    const root = component((cx) => {
      const password = cx.secret("", { name: "password" });
      return text(bind(() => `[${password.get()}]`));
    });
    await assert.rejects(async () => await render(root), { message: REFUSED });
  });

  await t.step("a state given something else than a boolean is refused", async () => {
    const message = await refusedAtMount((_cx, password) =>
      button("Sync", () => {}).disabled(
        bind(() => password.get().length) as unknown as ReturnType<typeof bind<boolean>>,
      )
    );
    assert.equal(message, refusalFor("a disabled binding"));
  });
});

Deno.test("a signal written by a computation that read a secret is secret-derived", async (t) => {
  await t.step("an effect copying the secret into a plain signal: refused at mount", async () => {
    await refusedAtMount((cx, password) => {
      const copy = cx.signal("", { name: "copy" });
      cx.effect(() => copy.set(password.get()));
      return text(copy);
    });
  });

  await t.step("the refusal names the derived signal and says why it is secret", async () => {
    const message = await refusedAtMount((cx, password) => {
      const status = cx.signal("", { name: "status" });
      cx.effect(() => status.set(password.get() === "" ? "empty" : "set"));
      return text(bind(() => `Password ${status.get()}`));
    });
    assert.match(
      message,
      /: a label binding reads signal "status", which is secret-derived \(a memo or effect that read a secret changed it\); /,
    );
  });

  await t.step("a copy made after mounting is never shown; inspection hides it", async () => {
    let password!: Signal<string>;
    const lines = await captureLog(async () => {
      await using app = await render(component((cx) => {
        password = cx.secret("", { name: "password" });
        const copy = cx.signal("", { name: "copy" });
        const shown = cx.signal("nothing yet", { name: "shown" });
        cx.effect(() => copy.set(password.get()));
        // A chain: an effect reading the copy taints what it writes too.
        cx.effect(() => shown.set(`copy: ${copy.get()}`));
        return column(
          textField({ label: "Password", value: password }).secure(),
          text(bind(() => `Copy ${copy.get()}`)),
          text(shown),
        );
      }));
      assert.equal(app.query({ role: "text" }).map((node) => node.name).join(), "Copy ,copy: ");
      password.set(SECRET);
      await app.settle();
      assert.equal(app.query({ role: "text" }).map((node) => node.name).join(), "Copy ,copy: ");
      assertHidden(app);
      const signals = app.snapshot().signals;
      for (const name of ["copy", "shown"]) {
        const signal = signals.find((signal) => signal.name === name);
        assert.equal(signal?.secret, true, name);
        assert.equal("value" in signal!, false, name);
      }
    });
    assert.ok(lines.length >= 2, lines.join("\n"));
    for (const line of lines) {
      assert.match(line, /^error in a label binding: TypeError: a secret's/);
    }
    assert.doesNotMatch(lines.join("\n"), /hunter2/);
  });

  await t.step("through a memo, and a write made before the read in the same run", async () => {
    await refusedAtMount((cx, password) => {
      const upper = cx.memo(() => password.get().toUpperCase());
      const copy = cx.signal("", { name: "copy" });
      cx.effect(() => copy.set(upper.get()));
      return text(copy);
    });
    let password!: Signal<string>;
    let copy!: Signal<string>;
    await captureLog(async () => {
      await using app = await render(component((cx) => {
        password = cx.secret("", { name: "password" });
        copy = cx.signal("", { name: "copy" });
        let last = "";
        cx.effect(() => {
          copy.set(last); // what the last run read
          last = password.get();
        });
        return text(bind(() => `Last ${copy.get()}`));
      }));
      password.set(SECRET);
      await app.settle();
      password.set("other");
      await app.settle();
      assert.equal(copy.secret, true);
      assertHidden(app);
    });
  });

  await t.step("a secure field may show a secret-derived signal", async () => {
    await using app = await render(component((cx) => {
      const password = cx.secret(SECRET, { name: "password" });
      const trimmed = cx.signal("", { name: "trimmed" });
      cx.effect(() => trimmed.set(password.get().trim()));
      return textField({ label: "Trimmed", value: trimmed }).secure();
    }));
    assert.match(app.tree(), /text_field "Trimmed" #\d+ secure/);
    assertHidden(app);
  });
});

Deno.test("what reads a secret and stays allowed", async (t) => {
  await t.step("true-or-false states, show()'s condition and handlers", async () => {
    let password!: Signal<string>;
    const sent: string[] = [];
    await using app = await render(component((cx) => {
      password = cx.secret("", { name: "password" });
      const empty = bind(() => password.get() === "");
      return column(
        textField({ label: "Password", value: password }).secure(),
        button("Sync", () => sent.push(password.get())).disabled(empty),
        checkbox("Set", bind(() => password.get() !== "")),
        widget({ role: "text", name: "Strength", selected: bind(() => password.get().length > 8) }),
        show(bind(() => password.get() !== ""), () => text("Ready to sync")),
      );
    }));
    assert.match(app.tree(), /button "Sync" #\d+ disabled/);
    password.set(SECRET);
    await app.settle();
    assert.match(app.tree(), /checkbox "Set" #\d+ checked/);
    assert.match(app.tree(), /text "Strength" #\d+ selected/);
    assert.match(app.tree(), /text "Ready to sync"/);
    await app.act(app.get({ role: "button", name: "Sync" }).id, { action: "click" });
    assert.deepEqual(sent, [SECRET], "the handler read the secret to send it");
    assertHidden(app);
  });

  await t.step("cx.reveal() shows a length or a mask; what reads it is not tainted", async () => {
    let password!: Signal<string>;
    await using app = await render(component((cx) => {
      password = cx.secret("", { name: "password" });
      const length = cx.reveal(() => password.get().length);
      const mask = cx.reveal(() => "•".repeat(password.get().length));
      const summary = cx.signal("", { name: "summary" });
      cx.effect(() => summary.set(`${length.get()} characters`));
      return column(
        textField({ label: "Password", value: password }).secure(),
        text(summary),
        text(mask).label("Mask"),
      );
    }));
    password.set(SECRET);
    await app.settle();
    assert.equal(app.get({ role: "text", name: "13 characters" }).name, "13 characters");
    const summary = app.snapshot().signals.find((signal) => signal.name === "summary");
    assert.equal(summary?.value, "13 characters");
    assertHidden(app);
  });

  await t.step("cx.reveal() of the secret, or of a string holding it, is refused", async () => {
    const lines = await captureLog(async () => {
      for (
        const [initial, reveal] of [["", (s: string) => s], [
          "abc",
          (s: string) => `[${s}]`,
        ]] as const
      ) {
        let password!: Signal<string>;
        await using app = await render(component((cx) => {
          password = cx.secret<string>(initial, { name: "password" });
          const shown = cx.reveal(() => reveal(password.get()));
          return text(bind(() => `Shown ${shown.get()}`)).label("Revealed");
        }));
        password.set(SECRET);
        await app.settle();
        assertHidden(app);
      }
    });
    // Once each: "" and "[abc]" tell nothing or hold a secret too short to look for.
    assert.equal(lines.length, 2, lines.join("\n"));
    for (const line of lines) {
      assert.match(
        line,
        /^error in a label binding: TypeError: cx\.reveal\(\) computed a value that holds secret signal "password" as it is: /,
      );
    }
  });
});
