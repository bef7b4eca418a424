import assert from "node:assert/strict";
import { render } from "/work/main/runtime/testing.ts";
import { counter } from "/work/main/examples/counter.ts";
import { notes } from "/work/main/examples/notes.ts";
Deno.test("smoke", async () => {
  const app = await render(counter, { title: "Counter" });
  console.log(app.tree(), app.revision);
  const plus = app.get({ role: "button", name: "+1" });
  const r = await app.act(plus.id, { action: "click" }, app.revision);
  console.log(r, app.tree());
  console.log(JSON.stringify(app.snapshot()).slice(0, 600));
  await assert.rejects(() => app.act(plus.id, { action: "click" }, 0), /stale revision: the tree is now at revision 2; read ui_tree again and retry/);
  await app.close();
  const n = await render(notes, { title: "Notes" });
  console.log(n.tree(), await n.callTool("note_count"));
  await n.close();
});
