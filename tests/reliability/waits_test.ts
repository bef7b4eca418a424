/**
 * `ui_wait` within bounds, through a real app process and sockets: an app holds at most
 * `MAX_PENDING_WAITS` pending waits over all its connections; past them a wait that does
 * not hold at once is refused at once with a message the agent can act on, a wait that
 * holds is still answered, and a wait that ends frees its place.
 *
 * @module
 */

import assert from "node:assert/strict";
import { MAX_PENDING_REQUESTS } from "../../runtime/agent/transport/line_transport.ts";
import { MAX_PENDING_WAITS } from "../../runtime/agent/hosts/tree_watch.ts";
import { PROCESS_TIMEOUT_MS } from "../_app_process.ts";
import { type RawClient, rawToolText, unwrap, withScene } from "./_shared.ts";

/** Waits that never end by themselves (within the test), each for a text of its own. */
async function pendingWaits(client: RawClient, count: number, tag: string): Promise<number[]> {
  const ids = Array.from({ length: count }, () => client.nextId());
  await client.sendLines(ids.map((id, index) =>
    JSON.stringify({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: {
        name: "ui_wait",
        arguments: { text: `no such text ${tag} ${index}`, timeout_ms: 30_000 },
      },
    })
  ));
  return ids;
}

Deno.test("waits: an app holds at most 256 pending waits; past them a wait is refused at once", async () => {
  await withScene(async (scene) => {
    const { socket } = await scene.app("bench/_tasks_app.ts", { args: ["1000"] });
    const perConnection = MAX_PENDING_REQUESTS - 4;
    const connections = Math.ceil(MAX_PENDING_WAITS / perConnection);
    const waiting: { client: RawClient; ids: number[] }[] = [];
    let left = MAX_PENDING_WAITS;
    for (let index = 0; index < connections; index++) {
      const client = await scene.raw(socket);
      await client.initialize();
      const ids = await pendingWaits(client, Math.min(perConnection, left), `c${index}`);
      left -= ids.length;
      waiting.push({ client, ids });
    }
    // A read after them on each connection is answered once they have all started.
    for (const { client } of waiting) {
      const read = await client.callTool("ui_query", { name: "Prepare" }, PROCESS_TIMEOUT_MS);
      assert.equal(rawToolText(read).isError, false);
    }
    const { revision } = unwrap(
      rawToolText(await waiting[0]!.client.callTool("ui_tree", { max_bytes: 256 })).text,
    ) as { revision: number };

    const probe = await scene.raw(socket);
    await probe.initialize();
    const refused = rawToolText(
      await probe.callTool("ui_wait", { text: "no such text at all", timeout_ms: 2000 }),
    );
    assert.equal(refused.isError, true);
    assert.equal(
      refused.text,
      `too many waits pending in this app: at most ${MAX_PENDING_WAITS} at once; wait again once one has ended, or read ui_tree {"since": ${revision}}`,
    );
    // A wait whose condition holds already is answered all the same: it never waits.
    const holds = rawToolText(
      await probe.callTool("ui_wait", { role: "button", name: "Prepare", timeout_ms: 2000 }),
    );
    assert.equal(holds.isError, false, holds.text);

    // A cancelled wait frees its place: the next wait waits (and times out) instead.
    const { client, ids } = waiting[0]!;
    await client.sendLines([
      JSON.stringify({
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId: ids[0] },
      }),
    ]);
    const read = await client.callTool("ui_query", { name: "Prepare" }, PROCESS_TIMEOUT_MS);
    assert.equal(rawToolText(read).isError, false);
    const waited = rawToolText(
      await probe.callTool("ui_wait", { text: "no such text at all", timeout_ms: 200 }),
    );
    assert.equal(waited.isError, true);
    assert.match(waited.text, /^timed out after 200 ms: /);
    for (const { client } of waiting) assert.equal(client.isClosed, false);
  });
});
