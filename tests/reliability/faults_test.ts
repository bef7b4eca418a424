/**
 * Faults around a real app process: the app killed mid-request, crownmcp killed
 * mid-request, clients vanishing mid-request, the socket file deleted under a running app,
 * and a socket directory on a disk that cannot be written (read-only, or out of inodes).
 * Each must end in a clear error for whoever is affected and a clean state for everyone
 * else. (A blocked UI thread is covered by `tests/agent_process_test.ts`.)
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import {
  callTool,
  exists,
  makeRuntimeDir,
  nodeId,
  readTree,
  removeDir,
  startApp,
  withTimeout,
} from "../_app_process.ts";
import {
  isRoot,
  mountTmpfs,
  notRunHere,
  remount,
  runs,
  unmount,
  whyNoMount,
} from "../_disk_faults.ts";
import { BLOCK_ENDED, BLOCK_STARTED } from "../fixtures/process_app.ts";
import { openDescriptors } from "./_proc.ts";
import { pause, scaled, type Scene, until, unwrap, withScene } from "./_shared.ts";

const APP = "tests/fixtures/process_app.ts";
const CUI0408 = /^CUI0408 (.*)$/;
/** What the app writes to standard error when all is well. */
const NORMAL_LINES = /^Process App: running headless|^MCP server listening /;

/** The lines the app wrote that are not its normal start-up lines or the fixture's own. */
function unexpectedLines(lines: readonly string[]): string[] {
  return lines.filter((line) => !NORMAL_LINES.test(line) && !line.startsWith("fixture: "));
}

/** Waits until the app holds no more descriptors than `baseline`. */
async function descriptorsBackTo(pid: number, baseline: number, what: string): Promise<void> {
  let now = Infinity;
  await until(
    async () => (now = await openDescriptors(pid)) <= baseline,
    () => `${what}: the app holds ${now} file descriptors, ${baseline} before`,
  );
}

/** Starts crownmcp in `scene` and waits until it has selected the only app. */
async function agentOn(scene: Scene) {
  const agent = await scene.crownmcp();
  await until(
    async () => (await agent.client.listTools()).tools.some((tool) => tool.name === "block"),
    () => `crownmcp to select the app; it logged:\n${agent.stderr}`,
  );
  return agent;
}

Deno.test("faults: the app killed mid-request; its clients get a clear error", async () => {
  await withScene(async (scene) => {
    const { process, socket, app } = await scene.app(APP);
    const direct = await scene.client(socket);
    const agent = await agentOn(scene);

    // One call holds the UI thread; the next waits behind it; then the app dies.
    const blocking = callTool(direct, "block", { ms: 20_000 });
    blocking.catch(() => {});
    await process.waitFor(new RegExp(`^${BLOCK_STARTED}$`));
    const queued = agent.call("count");
    queued.catch(() => {});
    await pause(200); // let the forwarded call reach the app
    process.kill("SIGKILL");

    await assert.rejects(
      withTimeout(blocking, 20_000, "the direct client's error"),
      /Connection closed/,
    );
    const forwarded = await withTimeout(queued, 20_000, "crownmcp's answer");
    assert.equal(forwarded.isError, true, forwarded.text);
    assert.match(forwarded.text, new RegExp(`${app} exited|[Cc]onnection closed`));

    // crownmcp carries on: it removes the stale socket and says no app runs.
    const { text } = await agent.call("list_apps");
    assert.deepEqual(JSON.parse(text), { apps: [] });
    assert.equal(exists(socket), false, "the stale socket was removed");
    const next = await agent.call("ui_tree");
    assert.equal(next.isError, true);
    assert.match(next.text, /no app is selected|exited/);

    const tree = await scene.crowndev("tree");
    assert.equal(tree.code, 3, JSON.stringify(tree));
    assert.equal(tree.stdout, "");
  });
});

Deno.test("faults: crownmcp killed mid-request; the app serves everyone else", async () => {
  await withScene(async (scene) => {
    const { process, socket } = await scene.app(APP);
    const other = await scene.client(socket);
    const before = await readTree(other);
    const baseline = await openDescriptors(process.pid);
    const agent = await agentOn(scene);

    const held = agent.call("block", { ms: 1500 });
    held.catch(() => {});
    await process.waitFor(new RegExp(`^${BLOCK_STARTED}$`));
    agent.kill("SIGKILL");
    await assert.rejects(
      withTimeout(held, 20_000, "the agent's call to fail"),
      /Connection closed/,
    );

    // The answer to the dead crownmcp goes nowhere; the app goes on.
    await process.waitFor(new RegExp(`^${BLOCK_ENDED}$`));
    const plusOne = nodeId(before.tree, "button", "+1");
    const acted = await callTool(other, "ui_act", {
      id: plusOne,
      revision: (await readTree(other)).revision,
      action: { action: "click" },
    });
    assert.equal(acted.isError, false, acted.text);
    assert.match((await readTree(other)).tree, /text "Count: 1"/);
    await descriptorsBackTo(process.pid, baseline, "after crownmcp was killed");

    // A new agent gets the app as before.
    const again = await agentOn(scene);
    assert.deepEqual(unwrap((await again.call("count")).text), { count: 1 });
    assert.ok(await process.isAlive());
    assert.deepEqual(unexpectedLines(process.lines), []);
  });
});

Deno.test("faults: clients vanishing mid-request leave the app as it was", async () => {
  await withScene(async (scene) => {
    const { process, socket } = await scene.app(APP);
    const observer = await scene.client(socket);
    const before = await readTree(observer);
    const plusOne = nodeId(before.tree, "button", "+1");
    const baseline = await openDescriptors(process.pid);
    const rounds = scaled(24);
    let clicks = 0;
    /** The clicks answered before their client vanished: done (ok) or refused (error). */
    let done = 0;
    let refused = 0;
    for (let round = 0; round < rounds; round++) {
      const client = await scene.raw(socket);
      await client.initialize();
      let click: number | null = null;
      switch (round % 4) {
        case 0: // a call the UI thread is busy with when the client goes
          client.request("tools/call", { name: "block", arguments: { ms: 50 } });
          break;
        case 1: { // an action: it may or may not run, but runs at most once
          const id = client.request("tools/call", {
            name: "ui_act",
            arguments: {
              id: plusOne,
              revision: (await readTree(observer)).revision,
              action: { action: "click" },
            },
          });
          clicks++;
          // The first click's client waits for the answer before it vanishes: at least one
          // click is known to have run, so losing every click cannot pass.
          if (round === 1) await client.answer(id);
          click = id;
          break;
        }
        case 2: // a large answer being made
          client.request("tools/call", { name: "inspect_snapshot", arguments: {} });
          break;
        case 3: // a read answered at once
          client.request("resources/read", { uri: "inspect://snapshot" });
          break;
      }
      await pause(round % 2 === 0 ? 0 : 20);
      const answer = click === null ? undefined : client.answersTo(click)[0];
      client.destroy();
      if (answer !== undefined) {
        if (answer.result?.isError === true || answer.error !== undefined) refused++;
        else done++;
      }
    }
    // Everything queued on the UI thread has run once inspect_snapshot returns.
    assert.equal((await callTool(observer, "inspect_snapshot")).isError, false);
    const after = await readTree(observer);
    const count = Number(/text "Count: (\d+)"/.exec(after.tree)![1]);
    // Each click answered ok counted once; one refused never counted; one whose client left
    // before its answer may have run or not.
    assert.ok(done >= 1, `no click was answered ok (${refused} refused)`);
    assert.ok(
      count >= done && count <= clicks - refused,
      `${count} clicks counted; ${clicks} sent, ${done} answered ok, ${refused} refused`,
    );
    assert.equal(after.revision, before.revision + count);
    await descriptorsBackTo(process.pid, baseline, `after ${rounds} clients vanished`);
    assert.ok(await process.isAlive());
    assert.deepEqual(unexpectedLines(process.lines), []);
  });
});

Deno.test("faults: the socket file deleted under a running app", async (t) => {
  await withScene(async (scene) => {
    const { process, socket, app } = await scene.app(APP);
    const connected = await scene.client(socket);
    const before = await readTree(connected);
    const agent = await agentOn(scene);
    Deno.removeSync(socket);

    await t.step("connections made before go on being served", async () => {
      assert.deepEqual(await readTree(connected), before);
      assert.deepEqual(unwrap((await callTool(connected, "count")).text), { count: 0 });
    });

    await t.step("the app listens again at the same path, mode 0600, and says so", async () => {
      await until(() => exists(socket), "the app to make its socket again");
      assert.equal(Deno.statSync(socket).mode! & 0o777, 0o600);
      await process.waitFor(/^MCP server socket .+ was removed; listening there again$/);
      const fresh = await scene.client(socket);
      assert.deepEqual(await readTree(fresh), before);
      const tree = await scene.crowndev("tree");
      assert.equal(tree.code, 0, JSON.stringify(tree));
    });

    await t.step(
      "crownmcp finds the app again; a call right after the gap may fail, then work",
      async () => {
        // crownmcp goes by the socket files it sees: during the gap the app looked gone. Its
        // first forwarded call after that says so (the contract for a lost app); later ones work.
        await until(
          async () =>
            JSON.parse((await agent.call("list_apps")).text).apps.some((a: { app: string }) =>
              a.app === app
            ),
          "crownmcp to list the app again",
        );
        let call = await agent.call("count");
        if (call.isError) {
          assert.match(call.text, new RegExp(`the app ${app} exited`));
          call = await agent.call("count");
        }
        assert.equal(call.isError, false, call.text);
        assert.deepEqual(unwrap(call.text), { count: 0 });
      },
    );

    await t.step("the app runs on, and quits cleanly", async () => {
      assert.ok(await process.isAlive());
      assert.deepEqual(await readTree(connected), before);
      process.kill("SIGTERM");
      const status = await process.exit();
      assert.equal(status.code, 0, process.stderr);
      assert.deepEqual(
        unexpectedLines(process.lines).filter((line) =>
          !/was removed; listening there again/.test(line)
        ),
        [],
      );
      assert.equal(exists(socket), false);
    });
  });
});

/** Starts the app in `runtimeDir` and checks it logs CUI0408 and keeps running; returns why. */
async function startFailsCleanly(runtimeDir: string): Promise<string> {
  await using app = startApp(APP, { env: { XDG_RUNTIME_DIR: runtimeDir } });
  const [, reason] = await app.waitFor(CUI0408);
  assert.ok(await app.isAlive(), `the app still runs after CUI0408:\n${app.stderr}`);
  assert.equal(app.lines.some((line) => line.startsWith("MCP server listening")), false);
  app.kill("SIGTERM");
  const status = await app.exit();
  assert.equal(status.code, 0, app.stderr);
  return reason!;
}

Deno.test("faults: a socket directory that cannot be written: CUI0408 and a running app", async (t) => {
  const runtimeDir = await makeRuntimeDir("crownui-reliability-disk-");
  const root = isRoot();
  // A file system of our own: read-only, or out of inodes. Mounting needs root (and a
  // container that allows it). Without it, root makes the directory immutable (`chattr +i`,
  // which needs only CAP_LINUX_IMMUTABLE), and another user is refused by the mode bits.
  const mounted = await mountTmpfs(runtimeDir, "size=1m,nr_inodes=64,mode=0700");
  const noMount = whyNoMount();
  try {
    const socketDir = join(runtimeDir, "crownui");
    Deno.mkdirSync(socketDir, { mode: 0o700 });
    let faultsMade = 0; // disk faults this machine let the test make

    if (!mounted) notRunHere("the read-only and full disk cases", noMount);

    await t.step({
      name: "the disk is read-only",
      ignore: !mounted,
      fn: async () => {
        assert.ok(await remount(runtimeDir, "remount,ro"), "remount read-only");
        try {
          faultsMade++;
          assert.match(await startFailsCleanly(runtimeDir), /read-only file system|EROFS/i);
        } finally {
          await remount(runtimeDir, "remount,rw");
        }
      },
    });

    await t.step({
      name: "the disk is full (no inode left for the socket)",
      ignore: !mounted,
      fn: async () => {
        // Fill every inode the file system has left; then the socket cannot be made.
        const filler = join(runtimeDir, "filler");
        Deno.mkdirSync(filler);
        for (let i = 0;; i++) {
          try {
            Deno.writeFileSync(join(filler, String(i)), new Uint8Array());
          } catch {
            break;
          }
          assert.ok(i < 1_000_000, "the file system never filled up");
        }
        try {
          faultsMade++;
          assert.match(await startFailsCleanly(runtimeDir), /no space left|ENOSPC/i);
        } finally {
          Deno.removeSync(filler, { recursive: true });
        }
      },
    });

    // Root writes past the mode bits, but not into an immutable directory.
    const immutable = root && await runs("chattr", ["+i", socketDir]);
    if (root && !immutable) {
      notRunHere("the immutable directory case", "chattr +i failed (no CAP_LINUX_IMMUTABLE?)");
    }
    await t.step({
      name: "the directory is immutable (chattr +i), so even root cannot make the socket",
      ignore: !immutable,
      fn: async () => {
        try {
          faultsMade++;
          assert.match(await startFailsCleanly(runtimeDir), /permission denied|EACCES/i);
        } finally {
          assert.ok(await runs("chattr", ["-i", socketDir]), "chattr -i");
        }
      },
    });

    await t.step({
      name: "the directory is not writable by the app's user",
      ignore: root, // root writes anyway; the steps above cover root
      fn: async () => {
        Deno.chmodSync(socketDir, 0o500);
        try {
          faultsMade++;
          assert.match(await startFailsCleanly(runtimeDir), /permission denied|EACCES/i);
        } finally {
          Deno.chmodSync(socketDir, 0o700);
        }
      },
    });

    // Whatever this machine allows, at least one way of failing the disk was tried.
    assert.ok(
      faultsMade > 0,
      "no disk fault could be made on this machine: see the warnings above",
    );
  } finally {
    if (mounted) await unmount(runtimeDir);
    await removeDir(runtimeDir);
  }
});
