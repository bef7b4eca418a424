/**
 * MCP's lifecycle (issue 17 point 8), on both servers, in raw JSON-RPC lines: the app's
 * server over a raw socket, and crownmcp over its raw standard input and output. Before,
 * both answered `tools/list` before `initialize` and took a second `initialize` as a first.
 * Now a request before `initialize` is refused with -32600 (`ping` alone is answered), and so
 * is a second `initialize`; the session then goes on as if neither had come.
 *
 * @module
 */

import assert from "node:assert/strict";
import { PROCESS_TIMEOUT_MS, withTimeout } from "../_app_process.ts";
import { spawnCrownmcp } from "../_crownmcp.ts";
import { initializeMessage, type RawMessage, until, withScene } from "./_shared.ts";

const COUNTER = "examples/counter.ts";

/** A JSON-RPC peer in raw lines: `send` writes one, `answer` waits for the one with an id. */
interface Peer {
  send(message: unknown): Promise<void>;
  answer(id: number): Promise<RawMessage>;
}

/** Walks `peer` through the lifecycle, asserting what each step is answered. */
async function checkLifecycle(peer: Peer): Promise<void> {
  const early = await call(peer, 1, "tools/list");
  assert.equal(early.error?.code, -32600, JSON.stringify(early));
  assert.equal(
    early.error?.message,
    'Invalid Request: "tools/list" came before initialize; a session starts with initialize (only ping may come before it)',
  );
  const earlyCall = await call(peer, 2, "tools/call", { name: "ui_tree", arguments: {} });
  assert.equal(earlyCall.error?.code, -32600, JSON.stringify(earlyCall));
  assert.deepEqual((await call(peer, 3, "ping")).result, {});
  // An initialize the server cannot take does not start the session.
  const broken = await call(peer, 4, "initialize", { protocolVersion: 5 });
  assert.ok(broken.error !== undefined, JSON.stringify(broken));
  assert.equal((await call(peer, 5, "tools/list")).error?.code, -32600);

  await peer.send(initializeMessage(6));
  const initialized = await peer.answer(6);
  assert.ok(initialized.result !== undefined, JSON.stringify(initialized));
  // A request before notifications/initialized is taken, as the specification allows.
  assert.ok((await call(peer, 7, "tools/list")).result !== undefined);
  await peer.send({ jsonrpc: "2.0", method: "notifications/initialized" });

  await peer.send(initializeMessage(8));
  const again = await peer.answer(8);
  assert.equal(again.error?.code, -32600, JSON.stringify(again));
  assert.match(again.error!.message, /^Invalid Request: initialize came a second time; /);
  const tools = await call(peer, 9, "tools/list");
  assert.ok(
    (tools.result?.tools as { name: string }[]).some((tool) => tool.name === "ui_tree"),
    JSON.stringify(tools).slice(0, 300),
  );
}

async function call(
  peer: Peer,
  id: number,
  method: string,
  params?: unknown,
): Promise<RawMessage> {
  await peer.send({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) });
  return await peer.answer(id);
}

Deno.test("lifecycle: the app's server refuses requests before initialize, and a second one", async () => {
  await withScene(async (scene) => {
    const { socket } = await scene.app(COUNTER);
    const client = await scene.raw(socket);
    await checkLifecycle({
      send: (message) => client.sendLines([JSON.stringify(message)]),
      answer: (id) => client.answer(id),
    });
    assert.deepEqual(client.garbage, []);
  });
});

Deno.test("lifecycle: crownmcp refuses requests before initialize, and a second one", async () => {
  await withScene(async (scene) => {
    await scene.app(COUNTER);
    const child = spawnCrownmcp(scene.env);
    const writer = child.stdin.getWriter();
    const answers = new Map<unknown, RawMessage>();
    const reading = (async () => {
      let partial = "";
      for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
        const lines = (partial + chunk).split("\n");
        partial = lines.pop()!;
        for (const line of lines) {
          const message = JSON.parse(line) as RawMessage; // stdout carries JSON-RPC only
          if (message.id !== undefined && message.method === undefined) {
            answers.set(message.id, message);
          }
        }
      }
    })();
    try {
      await checkLifecycle({
        send: (message) => writer.write(new TextEncoder().encode(JSON.stringify(message) + "\n")),
        answer: async (id) => {
          await until(() => answers.has(id), `crownmcp's answer to id ${id}`);
          return answers.get(id)!;
        },
      });
    } finally {
      await writer.close().catch(() => {});
      await withTimeout(child.status, PROCESS_TIMEOUT_MS, "crownmcp to exit");
      await withTimeout(reading, PROCESS_TIMEOUT_MS, "the end of crownmcp's stdout");
    }
  });
});
