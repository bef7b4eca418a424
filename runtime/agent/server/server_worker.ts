/**
 * The server worker's entry point: an `AgentServer` over a `MirrorHost`, gated by
 * `SameUserGate`. It runs on its own thread so a slow or hostile client never takes time from
 * a frame.
 *
 * @module
 */

/// <reference lib="deno.worker" />

import { getuid } from "../../../ffi/mod.ts";
import { SameUserGate } from "../access/gate.ts";
import { MirrorHost } from "../hosts/mirror_host.ts";
import { AgentServer } from "./server.ts";
import type { FromWorker, ToWorker } from "../hosts/worker_messages.ts";

function send(message: FromWorker): void {
  self.postMessage(message);
}

const host = new MirrorHost((id, call, deadline) => send({ type: "request", id, call, deadline }));
let server: AgentServer | null = null;

async function start(message: Extract<ToWorker, { type: "start" }>): Promise<void> {
  host.applyTree(message.tree);
  host.setTools(message.tools);
  try {
    const uid = getuid();
    server = new AgentServer({
      host,
      gate: new SameUserGate(uid),
      socketPath: message.socketPath,
      name: message.name,
      uid,
      log: (line) => send({ type: "log", line }),
    });
    await server.start();
    send({ type: "listening", path: server.socketPath });
  } catch (error) {
    server = null;
    send({ type: "failed", reason: error instanceof Error ? error.message : String(error) });
  }
}

self.onmessage = async (event: MessageEvent<ToWorker>) => {
  const message = event.data;
  switch (message.type) {
    case "start":
      await start(message);
      return;
    case "tree":
      host.applyTree(message.update);
      return;
    case "tools":
      host.setTools(message.tools);
      return;
    case "reply":
      host.resolve(message.id, message.result);
      return;
    case "progress":
      host.progress(message.id, message.report);
      return;
    case "stop":
      await server?.stop();
      server = null;
      send({ type: "stopped" });
      return;
  }
};
