/**
 * The runtime used as a library (examples/embedded_server.ts imports only the package's
 * exports): its own AgentServer behind a token, driven by crowndev with and without
 * CROWNMCP_TOKEN.
 */

import assert from "node:assert/strict";
import { CROWNDEV } from "../.ci/programs.ts";
import { runtimeDir, runToEnd, startApp } from "./_app_process.ts";

function crowndev(args: string[], env: Record<string, string>) {
  return runToEnd(
    Deno.execPath(),
    ["run", "--quiet", ...CROWNDEV.flags, CROWNDEV.entry, ...args],
    env,
  );
}

Deno.test("examples/embedded_server.ts imports the runtime only through its exports", async () => {
  const source = await Deno.readTextFile("examples/embedded_server.ts");
  const specifiers = [...source.matchAll(/from "([^"]+)"/g)].map((match) => match[1]);
  // zod is the app's own dependency: its typed tool's schema.
  assert.deepEqual(specifiers.sort(), ["@crownui/runtime", "@crownui/runtime/agent", "zod"]);
});

Deno.test("an embedded server with a token: served with it, refused without", async () => {
  await using runtime = await runtimeDir();
  await using app = startApp("examples/embedded_server.ts", {
    env: { XDG_RUNTIME_DIR: runtime.path, KIOSK_TOKEN: "kiosk-token-123" },
  });
  await app.listening();
  const served = await crowndev(["tree", "kiosk"], {
    XDG_RUNTIME_DIR: runtime.path,
    CROWNMCP_TOKEN: "kiosk-token-123",
  });
  assert.equal(served.code, 0, served.stderr);
  assert.match(served.stdout, /^window "Kiosk" #1\n text "Welcome"/);

  const refused = await crowndev(["tree", "kiosk"], { XDG_RUNTIME_DIR: runtime.path });
  assert.equal(refused.code, 6, refused.stderr);
  assert.equal(refused.stdout, "");
  const wrong = await crowndev(["tree", "kiosk"], {
    XDG_RUNTIME_DIR: runtime.path,
    CROWNMCP_TOKEN: "kiosk-token-124",
  });
  assert.equal(wrong.code, 6, wrong.stderr);
  await app.waitFor(/refused a connection from pid \d+ uid \d+: SameUserGate\+TokenGate/);
  assert.ok(!app.stderr.includes("kiosk-token-12"), "the token is never logged");
});
