/**
 * The process helpers' own contract: a runtime directory, an app child and a client declared
 * with `await using` are closed and removed when the scope ends, in the reverse order of
 * their declarations, also when the scope ends with an error.
 *
 * @module
 */

import assert from "node:assert/strict";
import type { Client } from "../runtime/agent/transport/sdk.ts";
import { type AppProcess, connect, exists, runtimeDir, startApp } from "./_app_process.ts";

const FIXTURE = "tests/fixtures/process_app.ts";

/** What a scope declared, for checks after it ended. */
interface Seen {
  app?: AppProcess;
  path?: string;
  socket?: string;
  client?: Client;
}

/** Starts the fixture app in a fresh runtime directory and connects a client to it. */
async function startInScope(seen: Seen, fail: boolean): Promise<void> {
  await using runtime = await runtimeDir();
  seen.path = runtime.path;
  await using app = startApp(FIXTURE, { env: { XDG_RUNTIME_DIR: runtime.path } });
  seen.app = app;
  seen.socket = await app.listening();
  assert.equal(await app.isAlive(), true);
  assert.ok(exists(seen.socket), "the app's socket is in the runtime directory");
  await using client = await connect(seen.socket);
  seen.client = client;
  assert.notEqual(client.transport, undefined, "the client is connected");
  if (fail) throw new Error("the scope ends with an error");
}

Deno.test("await using runtimeDir(), startApp() and connect()", async (t) => {
  for (const fail of [false, true]) {
    await t.step(
      `the client is closed, the app killed and reaped, its directory removed${
        fail ? ", after an error" : ""
      }`,
      async () => {
        const seen: Seen = {};
        if (fail) {
          await assert.rejects(startInScope(seen, true), /the scope ends with an error/);
        } else {
          await startInScope(seen, false);
        }
        assert.equal(seen.client!.transport, undefined, "the client was closed");
        const status = await seen.app!.status;
        assert.equal(status.signal, "SIGKILL", "close() ended it with SIGKILL");
        assert.equal(await seen.app!.isAlive(), false);
        assert.equal(exists(seen.path!), false, "the runtime directory is gone");
      },
    );
  }
});
