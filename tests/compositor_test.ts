/**
 * The CrownOS agent access protocol against the reference compositor, with the counter
 * example as a real process: ask first, start on grant, stay off on denial, stop on revoke,
 * start again on a new grant, screenshots through the compositor, and consent failing
 * closed when the compositor cannot be reached, talks nonsense or cannot be identified.
 * (A compositor of another user, flapping consent and screenshots that are not PNGs are in
 * `tests/reliability/compositor_attack_test.ts`.)
 */

import assert from "node:assert/strict";
import * as net from "node:net";
import { connectToApp } from "../runtime/agent/clients/client.ts";
import { ACCESS_REASON, compositorRefusal } from "../runtime/agent/consent/compositor.ts";
import {
  type AccessRequestMessage,
  type Decision,
  ReferenceCompositor,
  TINY_PNG,
} from "../examples/reference_compositor.ts";
import { exists, makeRuntimeDir, SERVER_FLAGS, startApp } from "./_app_process.ts";
import { markedContent } from "./_marked.ts";
import { decode } from "npm:fast-png@8.0.0";

const COUNTER = new URL("../examples/counter.ts", import.meta.url).pathname;
const LISTENING = /^MCP server listening (.+)$/;

async function withCompositor(
  decide: (request: AccessRequestMessage) => Decision | Promise<Decision>,
  capabilities: string[],
  body: (context: {
    compositor: ReferenceCompositor;
    runtimeDir: string;
    accessPath: string;
  }) => Promise<void>,
): Promise<void> {
  const runtimeDir = await makeRuntimeDir();
  const accessPath = `${runtimeDir}/agent-access.sock`;
  const compositor = new ReferenceCompositor({ socketPath: accessPath, decide, capabilities });
  await compositor.start();
  try {
    await body({ compositor, runtimeDir, accessPath });
  } finally {
    await compositor.stop();
    await Deno.remove(runtimeDir, { recursive: true });
  }
}

function startCounter(runtimeDir: string, accessPath: string) {
  return startApp(COUNTER, {
    env: { XDG_RUNTIME_DIR: runtimeDir, CROWNOS_AGENT_ACCESS: accessPath },
  });
}

Deno.test("agent access: the app asks first and starts the server on grant", async () => {
  const requests: AccessRequestMessage[] = [];
  await withCompositor(
    (request) => {
      requests.push(request);
      return "grant";
    },
    [],
    async ({ runtimeDir, accessPath }) => {
      const app = startCounter(runtimeDir, accessPath);
      try {
        const [, path] = await app.waitFor(LISTENING);
        assert.equal(path, `${runtimeDir}/crownui/counter-${app.pid}.sock`);
        assert.equal(requests.length, 1);
        assert.deepEqual(requests[0], {
          type: "request",
          app_id: "counter",
          title: "Counter",
          pid: app.pid,
          reason: ACCESS_REASON,
        });
        const client = await connectToApp(path!);
        const tools = await client.listTools();
        assert.ok(tools.tools.some((tool) => tool.name === "ui_tree"));
        await client.close();
      } finally {
        app.kill();
        await app.exit();
      }
    },
  );
});

Deno.test("agent access: a denial leaves the server off", async () => {
  await withCompositor(() => "deny", [], async ({ runtimeDir, accessPath }) => {
    const app = startCounter(runtimeDir, accessPath);
    try {
      await app.waitFor(/agent access denied by the compositor: the MCP server stays off/);
      assert.ok(!app.lines.some((line) => LISTENING.test(line)));
      assert.ok(!exists(`${runtimeDir}/crownui/counter-${app.pid}.sock`));
      app.kill();
      assert.equal((await app.exit()).success, true, "the app still runs and quits cleanly");
    } finally {
      app.kill();
      await app.exit();
    }
  });
});

Deno.test("agent access: revoke stops the server, a new grant starts it again", async () => {
  await withCompositor(() => "grant", [], async ({ compositor, runtimeDir, accessPath }) => {
    const app = startCounter(runtimeDir, accessPath);
    try {
      const [, path] = await app.waitFor(LISTENING);
      const client = await connectToApp(path!);
      let closed = false;
      client.onclose = () => (closed = true);
      assert.ok(compositor.revoke(app.pid));
      await app.waitFor(/agent access revoked by the compositor: MCP server stopped/);
      for (let i = 0; i < 100 && (exists(path!) || !closed); i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      assert.ok(!exists(path!), "the socket is removed on revoke");
      assert.ok(closed, "connections are closed on revoke");
      await assert.rejects(() => connectToApp(path!));

      assert.ok(compositor.grant(app.pid));
      for (let i = 0; i < 100 && !exists(path!); i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const again = await connectToApp(path!);
      const tree = await again.callTool({ name: "ui_tree", arguments: {} });
      assert.match(JSON.stringify(tree), /Count: 0/);
      await again.close();
      await client.close();
    } finally {
      app.kill();
      await app.exit();
    }
  });
});

Deno.test("agent access: ui_screenshot goes through the compositor when it grants that", async () => {
  await withCompositor(() => "grant", ["screenshot"], async ({ runtimeDir, accessPath }) => {
    const app = startCounter(runtimeDir, accessPath);
    try {
      const [, path] = await app.waitFor(LISTENING);
      const client = await connectToApp(path!);
      const result = await client.callTool({ name: "ui_screenshot", arguments: {} });
      const [image, about] = result.content as [unknown, { type: string; text: string }];
      assert.deepEqual(image, { type: "image", data: TINY_PNG, mimeType: "image/png" });
      assert.deepEqual(
        { ...(markedContent(about.text) as object), revision: 0 },
        { revision: 0, source: "compositor" },
      );
      await client.close();
    } finally {
      app.kill();
      await app.exit();
    }
  });
});

Deno.test("agent access: without the screenshot capability ui_screenshot draws the cells", async () => {
  await withCompositor(() => "grant", [], async ({ runtimeDir, accessPath }) => {
    const app = startCounter(runtimeDir, accessPath);
    try {
      const [, path] = await app.waitFor(LISTENING);
      const client = await connectToApp(path!);
      const result = await client.callTool({ name: "ui_screenshot", arguments: {} });
      const [image, about] = result.content as [
        { type: string; data: string; mimeType: string },
        { type: string; text: string },
      ];
      assert.equal(result.isError, undefined);
      assert.deepEqual([image.type, image.mimeType], ["image", "image/png"]);
      assert.notEqual(image.data, TINY_PNG);
      // Painted on the app's UI thread, drawn in its server's worker: a PNG of the window's cells.
      const shown = markedContent(about.text) as Record<string, unknown>;
      assert.equal(shown.source, "cells");
      const png = decode(Uint8Array.from(atob(image.data), (c) => c.charCodeAt(0)));
      assert.deepEqual([png.width, png.height], [shown.width, shown.height]);
      assert.deepEqual([shown.columns, shown.rows], [80, 24]);
      await client.close();
    } finally {
      app.kill();
      await app.exit();
    }
  });
});

Deno.test("agent access: an unreachable compositor fails closed with CUI0408", async () => {
  const runtimeDir = await makeRuntimeDir();
  const app = startCounter(runtimeDir, `${runtimeDir}/nobody-listens.sock`);
  try {
    await app.waitFor(/^CUI0408 MCP server off: agent access failed: cannot reach the compositor/);
    assert.ok(!exists(`${runtimeDir}/crownui/counter-${app.pid}.sock`));
    app.kill();
    assert.equal((await app.exit()).success, true, "the app keeps running until asked to quit");
  } finally {
    app.kill();
    await app.exit();
    await Deno.remove(runtimeDir, { recursive: true });
  }
});

Deno.test("agent access: a compositor that answers nonsense fails closed", async () => {
  let pid = 0;
  const answered = Promise.withResolvers<void>();
  await withCompositor(() => new Promise<Decision>(() => {}), [], async (context) => {
    context.compositor.onRequest((request) => {
      pid = request.pid;
      answered.resolve();
    });
    const app = startCounter(context.runtimeDir, context.accessPath);
    try {
      await answered.promise;
      context.compositor.sendRaw(pid, "this is not json");
      await app.waitFor(/^CUI0408 MCP server off: agent access failed: .*not JSON/);
      assert.ok(!exists(`${context.runtimeDir}/crownui/counter-${app.pid}.sock`));
    } finally {
      app.kill();
      await app.exit();
    }
  });
});

Deno.test("agent access: a compositor that cannot be identified (no FFI) fails closed", async () => {
  await withCompositor(() => "grant", [], async ({ compositor, runtimeDir, accessPath }) => {
    const app = startApp(COUNTER, {
      env: { XDG_RUNTIME_DIR: runtimeDir, CROWNOS_AGENT_ACCESS: accessPath },
      flags: SERVER_FLAGS.filter((flag) => flag !== "--allow-ffi"),
    });
    try {
      await app.waitFor(
        /^CUI0408 MCP server off: agent access failed: cannot tell who runs the compositor at .*: cannot read peer credentials without FFI: run with --allow-ffi$/,
      );
      assert.deepEqual(compositor.requests, [], "the app said nothing to it");
      assert.ok(!exists(`${runtimeDir}/crownui/counter-${app.pid}.sock`));
    } finally {
      app.kill();
      await app.exit();
    }
  });
});

Deno.test("compositorRefusal() trusts the user and root, and nothing it cannot read", async () => {
  const runtimeDir = await makeRuntimeDir();
  const path = `${runtimeDir}/peer.sock`;
  const server = net.createServer((socket) => socket.on("error", () => {}));
  await new Promise<void>((resolve) => server.listen(path, resolve));
  const socket = net.createConnection(path);
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once("connect", resolve);
      socket.once("error", reject);
    });
    const self = Deno.uid()!;
    assert.equal(compositorRefusal(socket, path, () => self), null);
    if (self === 0) {
      assert.equal(compositorRefusal(socket, path, () => 4242), null, "root is trusted");
    } else {
      assert.equal(
        compositorRefusal(socket, path, () => self + 1),
        `the compositor at ${path} runs as uid ${self}, which is neither this user (uid ${
          self + 1
        }) nor root`,
      );
    }
    assert.equal(
      compositorRefusal(socket, path, () => {
        throw new Error("no getuid here");
      }),
      `cannot tell who runs the compositor at ${path}: no getuid here`,
    );
    assert.equal(
      compositorRefusal(new net.Socket(), path),
      `cannot tell who runs the compositor at ${path}: the connection has no file descriptor`,
    );
  } finally {
    socket.destroy();
    await new Promise((resolve) => server.close(resolve));
    await Deno.remove(runtimeDir, { recursive: true });
  }
});
