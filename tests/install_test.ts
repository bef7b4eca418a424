/**
 * `deno task install` from this checkout into a temporary root, then the installed
 * programs used as people and agents use them: `crownmcp --version`, `crowndev apps`, and a
 * full agent session through the installed crownmcp against a running app.
 */

import { markedContent, receiptOf } from "./_marked.ts";
import assert from "node:assert/strict";
import { Client } from "../runtime/agent/transport/sdk.ts";
import { StdioClientTransport } from "../runtime/agent/transport/sdk_stdio.ts";
import { untilAppTool } from "./_crownmcp.ts";
import {
  childEnv,
  makeRuntimeDir,
  removeDir,
  runToEnd,
  startApp,
  withTimeout,
} from "./_app_process.ts";

Deno.test("deno task install, then the installed crownmcp and crowndev work", async () => {
  const root = await Deno.makeTempDir({ prefix: "crownui-install-" });
  const runtimeDir = await makeRuntimeDir();
  const extra = { XDG_RUNTIME_DIR: runtimeDir };
  const env = childEnv(extra);
  const bin = `${root}/bin`;
  try {
    const installed = await runToEnd(Deno.execPath(), ["task", "install", "--root", root], extra);
    assert.equal(installed.code, 0, installed.stderr);
    const version = await runToEnd(`${bin}/crownmcp`, ["--version"], extra);
    assert.equal(version.code, 0, version.stderr);
    assert.match(version.stdout, /^crownmcp \d+\.\d+\.\d+\n$/);
    assert.equal(
      (await runToEnd(`${bin}/crowndev`, ["apps"], extra)).stdout.trim(),
      `no CrownUI app is running (looked in ${runtimeDir}/crownui)`,
    );

    const app = startApp("examples/counter.ts", { env: { XDG_RUNTIME_DIR: runtimeDir } });
    try {
      await app.listening();
      const apps = await runToEnd(`${bin}/crowndev`, ["apps", "--json"], extra);
      assert.equal(apps.code, 0, apps.stderr);
      assert.deepEqual(JSON.parse(apps.stdout).apps.map((a: { app: string }) => a.app), [
        `counter-${app.pid}`,
      ]);

      const client = new Client({ name: "install-test", version: "1" });
      await withTimeout(
        client.connect(
          new StdioClientTransport({ command: `${bin}/crownmcp`, env, stderr: "ignore" }),
        ),
        30_000,
        "the installed crownmcp",
      );
      try {
        await untilAppTool(client);
        const text = (result: Awaited<ReturnType<Client["callTool"]>>) =>
          (result.content as { text: string }[])[0]!.text;
        const query = markedContent(text(
          await client.callTool({
            name: "ui_query",
            arguments: { role: "button", name: "+1" },
          }),
        )) as { revision: number; nodes: { id: number }[] };
        const acted = receiptOf(text(
          await client.callTool({
            name: "ui_act",
            arguments: {
              id: query.nodes[0]!.id,
              revision: query.revision,
              action: { action: "click" },
            },
          }),
        ));
        assert.equal(acted.revision, query.revision + 1);
        const tree = markedContent(
          text(await client.callTool({ name: "ui_tree", arguments: {} })),
        ) as { tree: string };
        assert.match(tree.tree, /text "Count: 1"/);
      } finally {
        await client.close();
      }
    } finally {
      await app.close();
    }
    const removed = await runToEnd(Deno.execPath(), ["task", "uninstall", "--root", root], extra);
    assert.equal(removed.code, 0, removed.stderr);
    assert.deepEqual(
      [...Deno.readDirSync(bin)].map((e) => e.name).filter((n) => !n.startsWith(".")),
      [],
    );
  } finally {
    await Deno.remove(root, { recursive: true });
    await removeDir(runtimeDir);
  }
});
