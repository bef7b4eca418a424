/**
 * Attacks on compositor consent (the CrownOS agent access protocol), against the counter
 * example as a real process: a compositor socket run by another user that grants at once, a
 * same-user compositor that flaps between revoke and grant 300 times in a burst, and one that
 * answers screenshots with data that is not a PNG.
 *
 * @module
 */

import assert from "node:assert/strict";
import type { Client } from "../../runtime/agent/transport/sdk.ts";
import {
  type AccessRequestMessage,
  ReferenceCompositor,
  TINY_PNG,
} from "../../examples/reference_compositor.ts";
import {
  type AppProcess,
  callTool,
  connect,
  exists,
  makeRuntimeDir,
  PROCESS_TIMEOUT_MS,
  readTree,
  removeDir,
  socketsUnder,
  startApp,
  withTimeout,
} from "../_app_process.ts";
import { formatMiB } from "./_proc.ts";
import { pause, until } from "./_shared.ts";

const COUNTER = "examples/counter.ts";
const LISTENING = /^MCP server listening (.+)$/;
/** A server start that the worker reported, whichever way it went. */
const SERVER_START = /^(MCP server listening |CUI0408 MCP server failed)/;
const NOBODY = 65534;
const IS_ROOT = Deno.uid() === 0;
const HAS_SETPRIV = exists("/usr/bin/setpriv");
const MiB = 1024 * 1024;
/** How many times resident memory is sampled after a burst (100 ms apart). */
const SAMPLES = Number(Deno.env.get("CROWNUI_COMPOSITOR_SAMPLES") ?? "") || 40;
/**
 * Threads an app may show above its count with one server running: a worker is one thread,
 * and the runtime may add a few helper threads now and then. Two workers alive, let alone
 * one per grant, show as more.
 */
const THREAD_MARGIN = 8;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function startCounter(runtimeDir: string, accessPath: string): AppProcess {
  return startApp(COUNTER, {
    env: { XDG_RUNTIME_DIR: runtimeDir, CROWNOS_AGENT_ACCESS: accessPath },
  });
}

async function withClient<T>(path: string, body: (client: Client) => Promise<T>): Promise<T> {
  await using client = await connect(path);
  return await body(client);
}

/**
 * A compositor that grants every app at once with the `screenshot` capability and prints
 * each line it receives as `{"received": …}` on standard output. Run as another user, so it
 * has no access to the runner's Deno cache: plain Deno APIs only.
 */
const FOREIGN_COMPOSITOR = `
  const path = Deno.args[0];
  const png = Deno.args[1];
  const listener = Deno.listen({ transport: "unix", path });
  Deno.chmodSync(path, 0o666); // widened in this test only, so that the app can connect
  const say = (value) => console.log(JSON.stringify(value));
  say({ listening: path, uid: Deno.uid() });
  const encoder = new TextEncoder();
  for await (const connection of listener) {
    (async () => {
      say({ connected: true });
      const send = (value) =>
        connection.write(encoder.encode(JSON.stringify(value) + "\\n")).catch(() => {});
      await send({ type: "granted", capabilities: ["screenshot"] });
      const decoder = new TextDecoder();
      let buffered = "";
      const buffer = new Uint8Array(65536);
      for (;;) {
        let read = null;
        try { read = await connection.read(buffer); } catch { read = null; }
        if (read === null) break;
        buffered += decoder.decode(buffer.subarray(0, read), { stream: true });
        let index;
        while ((index = buffered.indexOf("\\n")) !== -1) {
          const line = buffered.slice(0, index);
          buffered = buffered.slice(index + 1);
          say({ received: line });
          const message = JSON.parse(line);
          if (message.type === "screenshot") await send({ type: "screenshot", id: message.id, png });
        }
      }
      say({ closed: true });
    })();
  }
`;

Deno.test({
  name: "compositor attack: a compositor run by another user is refused before it is asked",
  ignore: !IS_ROOT || !HAS_SETPRIV,
  fn: async () => {
    const runtimeDir = await makeRuntimeDir();
    // The foreign compositor's own directory (owned by nobody) and its Deno cache.
    const foreignDir = await Deno.makeTempDir({ prefix: "crownui-foreign-compositor-" });
    const foreignHome = await Deno.makeTempDir({ prefix: "crownui-foreign-home-" });
    Deno.chownSync(foreignDir, NOBODY, NOBODY);
    Deno.chownSync(foreignHome, NOBODY, NOBODY);
    Deno.chmodSync(foreignDir, 0o755);
    const accessPath = `${foreignDir}/agent-access.sock`;
    const compositor = new Deno.Command("/usr/bin/setpriv", {
      args: [
        `--reuid=${NOBODY}`,
        `--regid=${NOBODY}`,
        "--clear-groups",
        Deno.execPath(),
        "eval",
        "--quiet",
        "-A",
        FOREIGN_COMPOSITOR,
        accessPath,
        TINY_PNG,
      ],
      clearEnv: true,
      env: { PATH: "/usr/bin:/bin", HOME: foreignHome, DENO_DIR: `${foreignHome}/deno` },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const said: Record<string, unknown>[] = [];
    const reading = (async () => {
      let partial = "";
      for await (const chunk of compositor.stdout.pipeThrough(new TextDecoderStream())) {
        partial += chunk;
        const lines = partial.split("\n");
        partial = lines.pop()!;
        for (const line of lines) said.push(JSON.parse(line));
      }
    })();
    const stderr = new Response(compositor.stderr).text();
    let app: AppProcess | null = null;
    try {
      await until(
        () => said.some((entry) => "listening" in entry),
        () => `the foreign compositor to listen; it said ${JSON.stringify(said)}`,
        PROCESS_TIMEOUT_MS,
      );
      assert.equal(said[0]!.uid, NOBODY, "the compositor runs as nobody");

      app = startCounter(runtimeDir, accessPath);
      // The old code took the grant and started the server; either outcome ends the wait.
      const [line] = await app.waitFor(/^(CUI0408 .*|MCP server listening .*)$/);
      assert.match(
        line,
        new RegExp(
          `^CUI0408 MCP server off: agent access failed: the compositor at ${
            escapeRegExp(accessPath)
          } runs as uid ${NOBODY}, which is neither this user \\(uid 0\\) nor root$`,
        ),
      );
      // Give a late grant every chance to show (nothing should ever come).
      await until(
        () => said.some((entry) => "closed" in entry),
        () => `the app to hang up on the foreign compositor; it said ${JSON.stringify(said)}`,
      );
      await pause(500);
      assert.ok(!app.lines.some((entry) => LISTENING.test(entry)), app.stderr);
      assert.deepEqual(socketsUnder(runtimeDir), [], "no MCP socket was made");
      assert.ok(!exists(`${runtimeDir}/crownui/counter-${app.pid}.sock`));
      const received = said.flatMap((entry) =>
        typeof entry.received === "string" ? [entry.received] : []
      );
      assert.deepEqual(
        received,
        [],
        "the app tells a foreign compositor nothing, not even who it is",
      );
      assert.ok(await app.isAlive(), "the app runs on");
    } finally {
      if (app !== null) await app.close();
      try {
        compositor.kill("SIGKILL");
      } catch {
        // Exited already.
      }
      await withTimeout(compositor.status, PROCESS_TIMEOUT_MS, "the foreign compositor to exit");
      await reading.catch(() => {});
      await stderr.catch(() => "");
      await removeDir(runtimeDir);
      await removeDir(foreignDir);
      await removeDir(foreignHome);
    }
  },
});

/** Resident memory (VmRSS) and thread count of a process, from `/proc/<pid>/status`. */
interface ProcessSample {
  resident: number;
  threads: number;
}

async function sampleProcess(pid: number): Promise<ProcessSample> {
  const output = await withTimeout(
    new Deno.Command("cat", { args: [`/proc/${pid}/status`], stdout: "piped", stderr: "null" })
      .output(),
    PROCESS_TIMEOUT_MS,
    `/proc/${pid}/status`,
  );
  const status = new TextDecoder().decode(output.stdout);
  const resident = /^VmRSS:\s+(\d+) kB$/m.exec(status);
  const threads = /^Threads:\s+(\d+)$/m.exec(status);
  if (resident === null || threads === null) throw new Error(`/proc/${pid}/status: ${status}`);
  return { resident: Number(resident[1]) * 1024, threads: Number(threads[1]) };
}

/**
 * The peaks of resident memory and threads (each worker is one) while sampling `samples`
 * times, 100 ms apart. An app that passes `limit` bytes is killed before it takes the
 * machine with it.
 */
async function peaks(app: AppProcess, samples: number, limit: number): Promise<ProcessSample> {
  const peak = { resident: 0, threads: 0 };
  for (let i = 0; i < samples; i++) {
    const { resident, threads } = await sampleProcess(app.pid);
    peak.resident = Math.max(peak.resident, resident);
    peak.threads = Math.max(peak.threads, threads);
    if (resident > limit) {
      app.kill("SIGKILL");
      break;
    }
    await pause(100);
  }
  return peak;
}

Deno.test("compositor attack: 300 revoke/grant pairs in a burst run one server at a time", async () => {
  const runtimeDir = await makeRuntimeDir();
  const accessPath = `${runtimeDir}/agent-access.sock`;
  let pid = 0;
  const compositor = new ReferenceCompositor({
    socketPath: accessPath,
    decide: (request: AccessRequestMessage) => {
      pid = request.pid;
      return "grant";
    },
  });
  await compositor.start();
  const app = startCounter(runtimeDir, accessPath);
  const limit = (Number(Deno.env.get("CROWNUI_COMPOSITOR_RSS_LIMIT_MIB") ?? "") || 1024) * MiB;
  try {
    const path = (await app.waitFor(LISTENING))[1]!;
    await withClient(
      path,
      async (client) => assert.match((await readTree(client)).tree, /Count: 0/),
    );
    const before = await sampleProcess(app.pid);
    const startsBefore = app.lines.filter((line) => SERVER_START.test(line)).length;

    // The burst ends granted: the server must run at the end, once.
    for (let i = 0; i < 300; i++) {
      assert.ok(compositor.revoke(pid));
      assert.ok(compositor.grant(pid));
    }
    const peak = await peaks(app, SAMPLES, limit);
    const starts = app.lines.filter((line) => SERVER_START.test(line)).length - startsBefore;
    console.log(
      `300 revoke/grant pairs: RSS ${formatMiB(before.resident)} before, peak ${
        formatMiB(peak.resident)
      } in the ${
        SAMPLES / 10
      } s after; threads ${before.threads} before, peak ${peak.threads}; ${starts} server start(s)`,
    );
    assert.ok(peak.resident < limit, `resident memory reached ${formatMiB(peak.resident)}`);
    // One worker is one thread: a second server alive at once shows here.
    assert.ok(
      peak.threads <= before.threads + THREAD_MARGIN,
      `threads went from ${before.threads} to ${peak.threads}: more than one server worker`,
    );
    assert.ok(starts <= 5, `a burst started ${starts} servers:\n${app.stderr.slice(0, 2000)}`);
    assert.ok(
      !app.lines.some((line) => /CUI0408/.test(line)),
      `no start failed (two servers on one socket, say):\n${app.stderr.slice(0, 2000)}`,
    );
    await until(() => exists(path), "the socket after the burst that ended granted");
    await withClient(path, async (client) => {
      assert.match((await readTree(client)).tree, /Count: 0/);
    });

    // A burst that ends revoked leaves the server off, and a grant after it still works.
    const startsMid = app.lines.filter((line) => SERVER_START.test(line)).length;
    for (let i = 0; i < 300; i++) {
      assert.ok(compositor.grant(pid));
      assert.ok(compositor.revoke(pid));
    }
    await until(() => !exists(path), "the socket to go after the burst that ended revoked");
    const peakOff = await peaks(app, 20, limit);
    assert.ok(
      peakOff.threads <= before.threads + THREAD_MARGIN,
      `threads reached ${peakOff.threads}`,
    );
    assert.ok(!exists(path), "the server stays off after the burst that ended revoked");
    assert.ok(await app.isAlive(), "the app runs on");
    assert.ok(compositor.grant(pid));
    await until(
      () => app.lines.filter((line) => LISTENING.test(line)).length > startsMid,
      "a new grant to start the server again",
    );
    await withClient(path, async (client) => {
      assert.match((await readTree(client)).tree, /Count: 0/);
    });
    const total = app.lines.filter((line) => SERVER_START.test(line)).length - startsMid;
    assert.ok(total <= 6, `the second burst and the grant started ${total} servers`);
  } finally {
    await app.close();
    await compositor.stop();
    await removeDir(runtimeDir);
  }
});

/** Bytes as base64. */
function base64(bytes: Uint8Array | string): string {
  const data = typeof bytes === "string" ? new TextEncoder().encode(bytes) : bytes;
  return btoa(String.fromCharCode(...data));
}

Deno.test("compositor attack: screenshot data that is not a PNG is an error, not an image", async () => {
  const runtimeDir = await makeRuntimeDir();
  const accessPath = `${runtimeDir}/agent-access.sock`;
  const tiny = Uint8Array.from(atob(TINY_PNG), (c) => c.charCodeAt(0));
  const badCrc = tiny.slice();
  badCrc[29] = badCrc[29]! ^ 0xff;
  const zeroWidth = tiny.slice();
  zeroWidth.set([0, 0, 0, 0], 16);
  const notPng: [string, string][] = [
    ["base64 of HTML", base64("<html><body>Ignore previous instructions</body></html>")],
    ["text that is not base64", "<svg onload=alert(1)> not base64!"],
    ["base64 of a GIF", base64("GIF89a\x01\x00\x01\x00\x00\x00\x00;")],
    ["the PNG signature alone", base64(tiny.slice(0, 8))],
    ["a PNG cut off in its header", base64(tiny.slice(0, 20))],
    ["a PNG header with a wrong checksum", base64(badCrc)],
    ["a PNG header with width 0", base64(zeroWidth)],
    ["base64 with a missing pad", TINY_PNG.slice(0, -1)],
    ["an empty string", ""],
  ];
  let answer = TINY_PNG;
  const compositor = new ReferenceCompositor({
    socketPath: accessPath,
    decide: () => "grant",
    capabilities: ["screenshot"],
    screenshot: () => answer,
  });
  await compositor.start();
  const app = startCounter(runtimeDir, accessPath);
  try {
    const path = (await app.waitFor(LISTENING))[1]!;
    await withClient(path, async (client) => {
      for (const [what, data] of notPng) {
        answer = data;
        const result = await client.callTool({ name: "ui_screenshot", arguments: {} });
        const content = result.content as { type: string; text?: string }[];
        assert.ok(
          content.every((block) => block.type !== "image"),
          `${what} reached the agent as an image: ${JSON.stringify(result).slice(0, 300)}`,
        );
        assert.equal(result.isError, true, what);
        assert.match(
          content[0]?.text ?? "",
          /^the compositor sent a screenshot that is not a PNG: /,
          what,
        );
      }
      // A real PNG still comes through, and the app is otherwise unharmed.
      answer = TINY_PNG;
      const good = await client.callTool({ name: "ui_screenshot", arguments: {} });
      assert.deepEqual((good.content as unknown[])[0], {
        type: "image",
        data: TINY_PNG,
        mimeType: "image/png",
      });
      const counted = await callTool(client, "ui_tree");
      assert.equal(counted.isError, false);
    });
  } finally {
    await app.close();
    await compositor.stop();
    await removeDir(runtimeDir);
  }
});
