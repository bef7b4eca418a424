/**
 * Backpressure on a connection's output, through a real app process and socket: a client
 * that asks for many large answers at once is served at its own pace, whether it reads as
 * fast as it can or pauses for a while; only a client that takes nothing for a long time is
 * cut off (load_test's "never reads" case).
 *
 * Each client here asks for 64 trees of a 5,000-row app, about 32 MiB in all: far more than
 * the 1 MiB past which the app pauses a connection, and more than the 16 MiB past which the
 * app used to cut a connection off however fast it read.
 *
 * @module
 */

import assert from "node:assert/strict";
import {
  MAX_PENDING_REQUESTS,
  UNSENT_HIGH_WATER_BYTES,
} from "../../runtime/agent/transport/line_transport.ts";
import { PROCESS_TIMEOUT_MS } from "../_app_process.ts";
import { pause, type RawClient, rawToolText, type Scene, withScene } from "./_shared.ts";

const APP = "bench/_tasks_app.ts";
const ROWS = "5000";
/** The whole tree of the app, as one answer. */
const WHOLE_TREE = { max_bytes: 3_500_000 };

/** Sends `count` ui_tree requests in one write; returns their ids. */
async function pipelineTrees(client: RawClient, count: number): Promise<number[]> {
  const ids = Array.from({ length: count }, () => client.nextId());
  await client.sendLines(ids.map((id) =>
    JSON.stringify({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name: "ui_tree", arguments: WHOLE_TREE },
    })
  ));
  return ids;
}

/** Checks that every id got exactly one answer, a whole tree, and that the client is still connected. */
async function everyTree(client: RawClient, ids: number[]): Promise<void> {
  for (const id of ids) {
    const answer = await client.answer(id, PROCESS_TIMEOUT_MS);
    const { text, isError } = rawToolText(answer);
    assert.equal(isError, false, text.slice(0, 200));
    assert.match(text, /Row 4999/);
    assert.equal(client.answersTo(id).length, 1);
  }
  assert.equal(client.isClosed, false, "the app closed the connection");
}

async function tasksApp(scene: Scene): Promise<string> {
  return (await scene.app(APP, { args: [ROWS] })).socket;
}

Deno.test("backpressure: a client reading as fast as it can gets 64 pipelined large answers", async () => {
  await withScene(async (scene) => {
    const socket = await tasksApp(scene);
    const client = await scene.raw(socket);
    await client.initialize();
    const first = client.bytes;
    const ids = await pipelineTrees(client, MAX_PENDING_REQUESTS);
    await everyTree(client, ids);
    // The answers were far more than the app holds unsent before it pauses the connection.
    assert.ok(client.bytes - first > 16 * UNSENT_HIGH_WATER_BYTES);
  });
});

Deno.test("backpressure: a client that stops reading for a while, then reads, gets every answer", async () => {
  await withScene(async (scene) => {
    const socket = await tasksApp(scene);
    const client = await scene.raw(socket);
    await client.initialize();
    client.socket.pause(); // reads nothing: the app's output piles up, then it pauses
    const ids = await pipelineTrees(client, MAX_PENDING_REQUESTS);
    await pause(2000);
    assert.equal(client.isClosed, false, "cut off while it paused for 2 s");
    client.socket.resume();
    await everyTree(client, ids);
    // Others are served the whole time (checked after: the paused client is no excuse).
    const other = await scene.raw(socket);
    await other.initialize();
    assert.equal(rawToolText(await other.callTool("ui_query", { name: "Prepare" })).isError, false);
  });
});
