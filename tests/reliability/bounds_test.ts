/**
 * Bounds an attacker cannot push past, through real processes: connections by the hundred
 * until the app runs out of file descriptors (under `prlimit`), more connections than the
 * server holds, requests that reuse one id or cancel themselves to slip past the
 * per-connection window, and another uid (through `setpriv`) sending 4 MiB first lines by
 * the hundred to make the app read and log.
 *
 * @module
 */

import { markedContent } from "../_marked.ts";
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { SameUserGate, TokenGate } from "../../runtime/agent/access/gate.ts";
import { MAX_PENDING_REQUESTS } from "../../runtime/agent/transport/line_transport.ts";
import { MirrorHost } from "../../runtime/agent/hosts/mirror_host.ts";
import { REFUSALS_LOGGED_ONE_BY_ONE } from "../../runtime/agent/access/refusal_log.ts";
import { AgentServer, tooManyConnectionsMessage } from "../../runtime/agent/server/server.ts";
import {
  AppProcess,
  childEnv,
  PROCESS_TIMEOUT_MS,
  REPO_ROOT,
  SERVER_FLAGS,
  withTimeout,
} from "../_app_process.ts";
import { BLOCK_ENDED, BLOCK_STARTED } from "../fixtures/process_app.ts";
import { formatMiB, openDescriptors, residentBytes } from "./_proc.ts";
import {
  initializeMessage,
  pause,
  RawClient,
  rawToolText,
  type Scene,
  until,
  withScene,
} from "./_shared.ts";

const PROCESS_APP = "tests/fixtures/process_app.ts";
const FLOOD_APP = "tests/reliability/fixtures/flood_app.ts";
const NOBODY = ["--reuid=65534", "--regid=65534", "--clear-groups"];

/** Opens the socket's directories and the socket itself to other users (this test only). */
function widen(socket: string): void {
  const directory = dirname(socket);
  Deno.chmodSync(dirname(directory), 0o711);
  Deno.chmodSync(directory, 0o711);
  Deno.chmodSync(socket, 0o666);
}

/**
 * Runs `script` (a `deno eval` body; `Deno.args[0]` is `socket`) as nobody and returns what
 * it printed as JSON.
 */
async function asNobody<T>(script: string, socket: string): Promise<T> {
  const home = await Deno.makeTempDir({ prefix: "crownui-bounds-nobody-" });
  try {
    Deno.chmodSync(home, 0o777);
    const deno = [Deno.execPath(), "eval", "--quiet", "-A", script, socket];
    const output = await withTimeout(
      new Deno.Command("setpriv", {
        args: [...NOBODY, ...deno],
        env: { DENO_DIR: home, HOME: home },
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).output(),
      PROCESS_TIMEOUT_MS,
      "the client running as nobody",
    );
    const stderr = new TextDecoder().decode(output.stderr);
    assert.equal(output.code, 0, stderr);
    return JSON.parse(new TextDecoder().decode(output.stdout)) as T;
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

/** Starts `script` as an app under `prlimit --nofile=<limit>` in `scene`'s directory. */
function startLimited(scene: Scene, script: string, limit: number): AppProcess {
  const child = new Deno.Command("prlimit", {
    args: [`--nofile=${limit}`, Deno.execPath(), "run", ...SERVER_FLAGS, script],
    cwd: REPO_ROOT,
    env: childEnv(scene.env),
    clearEnv: true,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  return new AppProcess(child);
}

Deno.test("bounds: out of descriptors, the app accepts again once connections close", async () => {
  await withScene(async (scene) => {
    const limit = 256;
    const process = startLimited(scene, PROCESS_APP, limit);
    try {
      const socket = await process.listening();
      const control = await RawClient.open(socket);
      await control.initialize();

      // Idle connections (not a byte sent) until the app holds every descriptor it may.
      // Past that the kernel still queues connections in the listen backlog.
      const idle: Deno.UnixConn[] = [];
      for (let i = 0; i < limit + 20; i++) {
        idle.push(await Deno.connect({ transport: "unix", path: socket }));
      }
      await until(
        async () => (await openDescriptors(process.pid)) >= limit,
        "the app to run out of descriptors",
      );
      for (const connection of idle) connection.close();

      // A new client is served: the app noticed its listener had stopped and listens again.
      await until(async () => {
        const client = await RawClient.open(socket).catch(() => null);
        if (client === null) return false;
        try {
          const initialized = await client.call("initialize", initializeMessage().params, 2000)
            .catch(() => null);
          if (initialized?.result === undefined) return false;
          const answer = await client.callTool("ui_tree", {}, 2000).catch(() => null);
          return answer !== null && !rawToolText(answer).isError;
        } finally {
          client.destroy();
        }
      }, () => `a new client to be served; the app wrote:\n${process.stderr}`);
      assert.equal(
        process.lines.filter((line) => line.includes("had stopped accepting connections")).length,
        1,
        process.stderr,
      );
      // The connection that was open throughout is still served.
      assert.equal(rawToolText(await control.callTool("ui_tree", {})).isError, false);
      control.destroy();
    } finally {
      await process.close();
    }
  });
});

/** An in-process server over an empty mirror, for the connection limit. */
async function smallServer(
  gate: SameUserGate | TokenGate,
  maxConnections: number,
): Promise<{ server: AgentServer; path: string; logs: string[]; close: () => Promise<void> }> {
  const dir = await Deno.makeTempDir({ prefix: "crownui-bounds-" });
  const path = join(dir, "crownui", "bounds-1.sock");
  const logs: string[] = [];
  const server = new AgentServer({
    host: new MirrorHost(() => {}),
    gate,
    socketPath: path,
    maxConnections,
    log: (line) => logs.push(line),
  });
  await server.start();
  return {
    server,
    path,
    logs,
    close: async () => {
      await server.stop();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

Deno.test("bounds: past maxConnections, the user is told and others are closed silently", async (t) => {
  const token = "bounds-token-7d1e";
  const served = await smallServer(new TokenGate(token), 4);
  const open: RawClient[] = [];
  try {
    await t.step("the user's connection past the limit gets a JSON-RPC error line", async () => {
      for (let i = 0; i < 4; i++) open.push(await RawClient.open(served.path, token));
      await open[0]!.initialize();
      const extra = await RawClient.open(served.path, token);
      await extra.waitClosed("the app to close the extra connection");
      assert.deepEqual(extra.messages, [{
        jsonrpc: "2.0",
        id: null,
        error: { code: -32000, message: tooManyConnectionsMessage(4) },
      }]);
      // Those within the limit are served on.
      assert.equal((await open[0]!.call("ping")).error, undefined);
    });

    await t.step("another user's connection past the limit is closed without a byte", async () => {
      widen(served.path);
      const child = await asNobody<{ uid: number; bytes: number }>(
        `
        const connection = await Deno.connect({ transport: "unix", path: Deno.args[0] });
        let bytes = 0;
        try {
          await connection.write(new TextEncoder().encode("TOKEN ${token}\\n"));
          const buffer = new Uint8Array(65536);
          for (;;) {
            const read = await connection.read(buffer);
            if (read === null) break;
            bytes += read;
          }
        } catch {
          // Closed before the write: refused.
        }
        console.log(JSON.stringify({ uid: Deno.uid(), bytes }));
        `,
        served.path,
      );
      assert.equal(child.uid, 65534);
      assert.equal(child.bytes, 0);
      assert.ok(
        served.logs.some((line) =>
          /^refused a connection from pid \d+ uid 65534: too many connections/.test(line)
        ),
        served.logs.join("\n"),
      );
    });

    await t.step("once one closes, a new connection is served", async () => {
      open.pop()!.destroy();
      // The server learns of the close a moment later; until then a new one is still refused.
      await until(async () => {
        const next = await RawClient.open(served.path, token);
        const answer = await next.call("ping").catch(() => null);
        if (answer === null) return false;
        open.push(next);
        return answer.error === undefined;
      }, () => `a new connection to be served; the server logged:\n${served.logs.join("\n")}`);
    });
  } finally {
    for (const client of open) client.destroy();
    await served.close();
  }
});

/** A `tools/call` line with `id`. */
function callLine(id: number, name: string, args: unknown = {}): string {
  return JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name, arguments: args },
  });
}

Deno.test("bounds: a request reusing an id in flight is refused with -32600", async () => {
  await withScene(async (scene) => {
    const { process, socket } = await scene.app(PROCESS_APP);
    const client = await scene.raw(socket);
    await client.initialize();
    // One call holds the UI thread for a while; its id sent 200 times more meanwhile (in
    // one write, so they arrive while it runs) is refused every time, not served.
    const id = 1000;
    const reused = 200;
    const lines = [callLine(id, "block", { ms: 3000 })];
    for (let i = 0; i < reused; i++) lines.push(callLine(id, "say"));
    await client.sendLines(lines);
    await client.received(reused + 2); // initialize's answer, then one for each line
    await process.waitFor(new RegExp(`^${BLOCK_ENDED}$`));
    await until(() => client.answersTo(id).length === reused + 1, "the block call's answer");
    const answers = client.answersTo(id);
    const refused = answers.filter((answer) => answer.error?.code === -32600);
    assert.equal(refused.length, reused, JSON.stringify(answers.slice(0, 3)));
    for (const answer of refused) {
      assert.match(
        answer.error!.message,
        /^Invalid Request: id 1000 is in use by a request still in progress/,
      );
    }
    const results = answers.filter((answer) => answer.result !== undefined);
    assert.equal(results.length, 1);
    assert.deepEqual(markedContent(rawToolText(results[0]!).text), {
      blocked: 3000,
    });
  });
});

Deno.test("bounds: a cancelled request keeps its place in the window until its work ends", async () => {
  await withScene(async (scene) => {
    const { process, socket } = await scene.app(PROCESS_APP);
    const client = await scene.raw(socket);
    await client.initialize();
    const blocking = 1000;
    await client.sendLines([callLine(blocking, "block", { ms: 4000 })]);
    await process.waitFor(new RegExp(`^${BLOCK_STARTED}$`));
    // Cancel it, then fill the rest of the window with reads of the inspect snapshot, which
    // wait for the busy UI thread too, and send a tools/list (answered at once when it gets
    // its turn) after them. The cancelled call still runs, so it still counts: the tools/list
    // must wait until it has ended. A ping, answered by the transport itself, does not wait:
    // it tells a peer that the app is busy, not stopped.
    const reads = Array.from(
      { length: MAX_PENDING_REQUESTS - 1 },
      (_, i) =>
        JSON.stringify({
          jsonrpc: "2.0",
          id: blocking + 1 + i,
          method: "resources/read",
          params: { uri: "inspect://snapshot" },
        }),
    );
    const last = blocking + MAX_PENDING_REQUESTS;
    const ping = last + 1;
    await client.sendLines([
      `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":${blocking}}}`,
      ...reads,
      JSON.stringify({ jsonrpc: "2.0", id: last, method: "tools/list" }),
      JSON.stringify({ jsonrpc: "2.0", id: ping, method: "ping" }),
    ]);
    assert.deepEqual((await client.answer(ping)).result, {});
    await pause(500); // time for the tools/list to be answered, were it let through
    assert.ok(
      !process.lines.includes(BLOCK_ENDED),
      "the blocking call ended too soon for this test to tell",
    );
    assert.equal(client.answersTo(last).length, 0, "the tools/list went past the window");
    await process.waitFor(new RegExp(`^${BLOCK_ENDED}$`));
    await client.answer(last);
    assert.equal(client.answersTo(blocking).length, 0, "the cancelled call was answered");
  });
});

Deno.test("bounds: a request cancelled in the same write as it is never started", async () => {
  await withScene(async (scene) => {
    const { process, socket } = await scene.app(PROCESS_APP);
    const client = await scene.raw(socket);
    await client.initialize();
    // One write, so one read for the app: the cancellation arrives before the handler runs.
    await client.sendLines([
      callLine(1000, "block", { ms: 2000 }),
      `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1000}}`,
    ]);
    assert.equal((await client.call("ping")).error, undefined);
    await pause(300); // time for the UI thread to start the call, were it sent there
    assert.ok(!process.lines.includes(BLOCK_STARTED), process.stderr);
    // The UI thread is free: an app tool answers at once.
    assert.equal(rawToolText(await client.callTool("count", {})).isError, false);
    assert.equal(client.answersTo(1000).length, 0, "the cancelled call was answered");
  });
});

Deno.test("bounds: another uid's 4 MiB first lines are never read, and the log stays short", async () => {
  await withScene(async (scene) => {
    const { process, socket } = await scene.app(FLOOD_APP);
    const observer = await scene.raw(socket);
    await observer.initialize();
    widen(socket);
    const rssBefore = await residentBytes(process.pid);
    const connections = 100;
    const lineBytes = 4 * 1024 * 1024;
    // Each connection writes a 4 MiB line and what the kernel took of it is counted: a server
    // that reads nothing lets the kernel take only its socket buffer.
    const child = await asNobody<{ uid: number; written: number }>(
      `
      const line = new Uint8Array(${lineBytes} + 1).fill(120);
      line[${lineBytes}] = 10;
      let written = 0;
      await Promise.all(Array.from({ length: ${connections} }, async () => {
        try {
          const connection = await Deno.connect({ transport: "unix", path: Deno.args[0] });
          try {
            for (let at = 0; at < line.length;) {
              const wrote = await connection.write(line.subarray(at));
              at += wrote;
              written += wrote;
            }
          } finally {
            connection.close();
          }
        } catch {
          // The app closed the connection.
        }
      }));
      console.log(JSON.stringify({ uid: Deno.uid(), written }));
      `,
      socket,
    );
    assert.equal(child.uid, 65534);
    const rssAfter = await residentBytes(process.pid);
    console.log(
      `  another uid's flood: ${child.written} bytes taken of ${connections * (lineBytes + 1)}; ` +
        `app RSS ${formatMiB(rssBefore)} before, ${formatMiB(rssAfter)} after`,
    );
    // What the kernel buffers per connection, never the line: a quarter of it is generous.
    assert.ok(
      child.written < connections * lineBytes / 4,
      `the app let ${child.written} bytes in from refused connections`,
    );
    assert.ok(
      rssAfter - rssBefore < 64 * 1024 * 1024,
      `RSS grew by ${formatMiB(rssAfter - rssBefore)}`,
    );
    // Still serving its own user.
    assert.equal(rawToolText(await observer.callTool("count", {})).isError, false);
    const refusals = process.lines.filter((line) => line.startsWith("refused"));
    assert.equal(refusals.length, REFUSALS_LOGGED_ONE_BY_ONE, refusals.join("\n"));
    for (const line of refusals) {
      assert.match(
        line,
        /^refused a connection from pid \d+ uid 65534: SameUserGate did not allow it$/,
      );
    }
  });
});
