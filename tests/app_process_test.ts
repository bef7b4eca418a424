/**
 * The process helpers' own contract: an app child and a runtime directory declared with
 * `await using` are closed and removed when the scope ends, the app before its directory,
 * also when the scope ends with an error.
 *
 * @module
 */

import assert from "node:assert/strict";
import { type AppProcess, exists, runtimeDir, startApp } from "./_app_process.ts";

const FIXTURE = "tests/fixtures/process_app.ts";

/** Starts the fixture app in a fresh runtime directory and waits until it listens. */
async function startInScope(
  seen: { app?: AppProcess; path?: string; socket?: string },
  fail: boolean,
): Promise<void> {
  await using runtime = await runtimeDir();
  seen.path = runtime.path;
  await using app = startApp(FIXTURE, { env: { XDG_RUNTIME_DIR: runtime.path } });
  seen.app = app;
  seen.socket = await app.listening();
  assert.equal(await app.isAlive(), true);
  assert.ok(exists(seen.socket), "the app's socket is in the runtime directory");
  if (fail) throw new Error("the scope ends with an error");
}

Deno.test("await using an AppProcess and a runtimeDir()", async (t) => {
  for (const fail of [false, true]) {
    await t.step(
      `the app is killed and reaped, then its directory removed${fail ? ", after an error" : ""}`,
      async () => {
        const seen: { app?: AppProcess; path?: string; socket?: string } = {};
        if (fail) {
          await assert.rejects(startInScope(seen, true), /the scope ends with an error/);
        } else {
          await startInScope(seen, false);
        }
        const status = await seen.app!.status;
        assert.equal(status.signal, "SIGKILL", "close() ended it with SIGKILL");
        assert.equal(await seen.app!.isAlive(), false);
        assert.equal(exists(seen.path!), false, "the runtime directory is gone");
      },
    );
  }
});
