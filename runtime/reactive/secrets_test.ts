import assert from "node:assert/strict";
import { MemoNode } from "./computed.ts";
import { runWithOwner } from "./graph.ts";
import { secretRead, signalsRead } from "./secrets.ts";
import { Memo, Signal } from "./signal.ts";
import { setup, startEffect } from "./_test_setup.ts";

Deno.test("secretRead()", async (t) => {
  await t.step("finds a secret read directly or through memos, not through a reveal", () => {
    const { owner } = setup();
    const token = new Signal(owner, "s3cr3t", { name: "token", secret: true });
    const plain = new Signal(owner, "x", { name: "plain" });
    const upper = new Memo(owner, () => token.get().toUpperCase());
    const length = new Memo(owner, () => token.get().length, undefined, true);
    const direct = startEffect(owner, () => void (plain.get() + token.get()));
    const viaMemo = startEffect(owner, () => void upper.get());
    const viaReveal = startEffect(owner, () => void (length.get() + plain.get()));
    assert.equal(secretRead(direct)?.name, "token");
    assert.equal(secretRead(viaMemo)?.name, "token");
    assert.equal(secretRead(viaReveal), null);
    // A secure field still sees every signal behind a reveal.
    assert.deepEqual(signalsRead(viaReveal).secret.map((signal) => signal.name), ["token"]);
  });

  await t.step("a memo read twice is searched once, and a cycle-free diamond works", () => {
    const { owner } = setup();
    const token = new Signal(owner, "s3cr3t", { secret: true });
    const base = new MemoNode(owner, () => token.get());
    const left = new Memo(owner, () => base.read() + "l");
    const right = new Memo(owner, () => base.read() + "r");
    const effect = startEffect(owner, () => void (left.get() + right.get()));
    assert.equal(secretRead(effect)?.secret, true);
  });
});

Deno.test("signals written by a run that read a secret become secret-derived", async (t) => {
  await t.step("an effect's writes, and what follows from them, stay secret", () => {
    const { owner, runtime } = setup();
    const token = new Signal(owner, "", { secret: true });
    const copy = new Signal(owner, "", { name: "copy" });
    const summary = new Signal(owner, "", { name: "summary" });
    const untouched = new Signal(owner, 0, { name: "untouched" });
    startEffect(owner, () => copy.set(token.get()));
    startEffect(owner, () => summary.set(`copy ${copy.get()}`));
    assert.equal(copy.secret, false, "an equal write changes nothing");
    assert.equal(summary.secret, false, "the first run read no secret");
    token.set("s3cr3t");
    runtime.flush();
    assert.equal(copy.secret, true);
    assert.equal(summary.secret, true, "the taint follows the copy");
    assert.equal(untouched.secret, false);
    const node = [...runtime.signals].find((signal) => signal.name === "copy")!;
    assert.equal(node.derived, true);
    copy.set("plain again"); // a handler's write does not clear it
    assert.equal(copy.secret, true);
  });

  await t.step("a component set up inside the run is not part of it", () => {
    const { owner } = setup();
    const token = new Signal(owner, "s3cr3t", { secret: true });
    const made = new Signal(owner, 0, { name: "made" });
    startEffect(owner, () => {
      if (token.get() !== "") runWithOwner(owner, () => made.set(made.get() + 1));
    });
    assert.equal(made.get(), 1);
    assert.equal(made.secret, false);
  });

  await t.step("writes outside any run are the app's own: a handler is not tracked", () => {
    const { owner } = setup();
    const token = new Signal(owner, "s3cr3t", { secret: true });
    const sent = new Signal(owner, "", { name: "sent" });
    sent.set(`sent ${token.get().length} characters`);
    assert.equal(sent.secret, false);
  });
});
