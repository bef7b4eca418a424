/**
 * Fairness between connections on the app's server thread, through a real app process and
 * sockets: a burst of pipelined reads from one client does not hold another client's read
 * until the whole burst has been answered. The server hands on one request of a connection
 * per turn of its event loop, so other connections' requests interleave with a burst.
 *
 * Latencies are never asserted: the test counts how many of the burst's answers came before
 * the other client's, an order that does not depend on the machine's speed.
 *
 * @module
 */

import assert from "node:assert/strict";
import { MAX_PENDING_REQUESTS } from "../../runtime/agent/transport/line_transport.ts";
import { PROCESS_TIMEOUT_MS } from "../_app_process.ts";
import { rawToolText, withScene } from "./_shared.ts";

/**
 * Each of the burst's reads walks the whole tree of 5,000 rows to find the few on screen: a
 * small answer that takes a while to make. Each asks a budget of its own, so that no two are
 * the same view (the server keeps the last view it wrote).
 */
function visibleView(index: number): Record<string, unknown> {
  return { visible: true, max_bytes: 32_768 + index };
}
const BURST = 2 * MAX_PENDING_REQUESTS;

Deno.test("fairness: another client's read is answered within a burst of pipelined reads", async () => {
  await withScene(async (scene) => {
    const { socket } = await scene.app("bench/_tasks_app.ts", { args: ["5000"] });
    const burst = await scene.raw(socket);
    const other = await scene.raw(socket);
    await burst.initialize();
    await other.initialize();
    const ids = Array.from({ length: BURST }, () => burst.nextId());
    await burst.sendLines(ids.map((id, index) =>
      JSON.stringify({
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: { name: "ui_tree", arguments: visibleView(index) },
      })
    ));
    // Once the burst is being answered, the other client asks for something small.
    await burst.answer(ids[0], PROCESS_TIMEOUT_MS);
    const asked = other.request("tools/call", {
      name: "ui_query",
      arguments: { role: "button", name: "Prepare" },
    });
    const answer = await other.answer(asked, PROCESS_TIMEOUT_MS);
    const before = ids.filter((id) => burst.answersTo(id).length > 0).length;
    assert.equal(rawToolText(answer).isError, false);
    // The server used to make a whole window's answers (64) in one go, and the next window's
    // before it read the other connection: the other answer came after at least 64.
    assert.ok(
      before < MAX_PENDING_REQUESTS / 2,
      `${before} of the burst's ${BURST} answers came before the other client's`,
    );
    for (const id of ids) await burst.answer(id, PROCESS_TIMEOUT_MS);
    assert.equal(burst.answeredIds().length, BURST + 1); // and initialize
  });
});
