/**
 * Load against a real app process: 64 clients at once, each with hundreds of requests of
 * every kind; connections that come and go by the thousand or sit idle; and a client that
 * never reads its socket while the app answers it with large trees.
 *
 * What must hold: every request is answered exactly once (checked by id), nothing is lost
 * (each accepted click is counted once in the UI), the rate limit holds (accepted `ui_act`
 * and app tool calls over the measured window stay within 20 a second plus the burst of
 * 20), connections leave no file descriptor behind, and a client that does not read is cut
 * off past 16 MiB unsent while the app's memory stays bounded and others are served.
 *
 * Latencies are never asserted: the window is measured only to bound the count.
 *
 * @module
 */

import { receiptOf } from "../_marked.ts";
import assert from "node:assert/strict";
import { MAX_UNSENT_BYTES } from "../../runtime/agent/transport/line_transport.ts";
import { ACTIONS_PER_SECOND } from "../../runtime/agent/session/rate_limit.ts";
import { MAX_CONNECTIONS } from "../../runtime/agent/server/server.ts";
import { callTool, nodeId, PROCESS_TIMEOUT_MS, readTree, withTimeout } from "../_app_process.ts";
import { formatMiB, openDescriptors, residentBytes } from "./_proc.ts";
import {
  initializeMessage,
  pause,
  type RawClient,
  type RawMessage,
  rawToolText,
  scaled,
  type Scene,
  until,
  unwrap,
  withScene,
} from "./_shared.ts";

const APP = "tests/fixtures/process_app.ts";
const BENCH_APP = "bench/_bench_app.ts";
const CLIENTS = 64;
const IN_FLIGHT = 16;
/** How long one answer may take under this load before the test fails instead of hanging. */
const LOAD_ANSWER_TIMEOUT_MS = 120_000;

/** The kinds of request each load client cycles through. */
const KINDS = ["tree", "query", "ping", "tools", "resource", "inert", "plus", "count"] as const;
type Kind = typeof KINDS[number];

/** What the load clients saw, together. */
interface Tally {
  /** `ui_act` and app tool calls the rate limit let through. */
  accepted: number;
  /** Calls refused by the rate limit. */
  limited: number;
  /** The revisions `+1` clicks that went through answered with. */
  plusRevisions: number[];
  /** The revision the clients believe current (learned from answers). */
  revision: number;
}

function isRateLimited(message: RawMessage): boolean {
  return message.result !== undefined && rawToolText(message).isError &&
    rawToolText(message).text.startsWith("rate limit exceeded");
}

/** Waits until the app holds no more descriptors than `baseline` (connections closed). */
async function descriptorsBackTo(pid: number, baseline: number, what: string): Promise<void> {
  let now = Infinity;
  await until(
    async () => (now = await openDescriptors(pid)) <= baseline,
    () => `${what}: the app holds ${now} file descriptors, ${baseline} before`,
  );
}

Deno.test("load: 64 clients at once, each request answered once; the rate limit holds", async () => {
  await withScene(async (scene: Scene) => {
    const { process, socket } = await scene.app(APP);
    const observer = await scene.client(socket);
    const before = await readTree(observer);
    const plusOne = nodeId(before.tree, "button", "+1");
    const title = nodeId(before.tree, "text", "Process App");
    const baseline = await openDescriptors(process.pid);

    const clients = await Promise.all(Array.from({ length: CLIENTS }, () => scene.raw(socket)));
    await Promise.all(clients.map((client) => client.initialize()));
    const tally: Tally = { accepted: 0, limited: 0, plusRevisions: [], revision: before.revision };
    const requests = scaled(200);

    const request = (client: RawClient, kind: Kind): number => {
      const act = (id: number) => ({
        name: "ui_act",
        arguments: { id, revision: tally.revision, action: { action: "click" } },
      });
      switch (kind) {
        case "tree":
          return client.request("tools/call", { name: "ui_tree", arguments: {} });
        case "query":
          return client.request("tools/call", { name: "ui_query", arguments: { role: "button" } });
        case "ping":
          return client.request("ping");
        case "tools":
          return client.request("tools/list");
        case "resource":
          return client.request("resources/read", { uri: "ui://tree" });
        case "inert":
          return client.request("tools/call", act(title));
        case "plus":
          return client.request("tools/call", act(plusOne));
        case "count":
          return client.request("tools/call", { name: "count", arguments: {} });
      }
    };

    const check = (kind: Kind, answer: RawMessage): void => {
      assert.equal(answer.error, undefined, `${kind}: ${JSON.stringify(answer.error)}`);
      switch (kind) {
        case "tree":
        case "query":
          assert.equal(rawToolText(answer).isError, false);
          unwrap(rawToolText(answer).text);
          return;
        case "ping":
          assert.deepEqual(answer.result, {});
          return;
        case "tools":
          assert.ok(JSON.stringify(answer.result).includes(`"name":"ui_act"`));
          return;
        case "resource":
          assert.match(JSON.stringify(answer.result), /window \\"Process App\\"/);
          return;
      }
      if (isRateLimited(answer)) {
        tally.limited++;
        return;
      }
      tally.accepted++;
      const { text, isError } = rawToolText(answer);
      if (kind === "count") {
        assert.equal(isError, false, text);
        return;
      }
      const stale = /^stale revision: the tree is now at revision (\d+);/.exec(text);
      if (stale !== null) {
        tally.revision = Math.max(tally.revision, Number(stale[1]));
        return;
      }
      assert.equal(isError, false, text);
      const { revision } = receiptOf(text);
      tally.revision = Math.max(tally.revision, revision);
      if (kind === "plus") tally.plusRevisions.push(revision);
    };

    const drive = async (client: RawClient, offset: number): Promise<number[]> => {
      const sent: number[] = [];
      for (let start = 0; start < requests; start += IN_FLIGHT) {
        const batch: [Kind, number][] = [];
        for (let i = start; i < Math.min(requests, start + IN_FLIGHT); i++) {
          const kind = KINDS[(i + offset) % KINDS.length]!;
          batch.push([kind, request(client, kind)]);
        }
        for (const [kind, id] of batch) {
          check(kind, await client.answer(id, LOAD_ANSWER_TIMEOUT_MS));
          sent.push(id);
        }
      }
      return sent;
    };

    const started = performance.now();
    const sent = await Promise.all(clients.map((client, index) => drive(client, index)));
    const seconds = (performance.now() - started) / 1000;

    // Every request answered exactly once, nothing else and nothing that is not JSON.
    for (const [index, client] of clients.entries()) {
      assert.equal(client.garbage.length, 0);
      assert.equal(sent[index]!.length, requests);
      const expected = new Set<unknown>([1, ...sent[index]!]);
      for (const id of expected) {
        assert.equal(client.answersTo(id).length, 1, `client ${index} id ${id}`);
      }
      assert.deepEqual(client.answeredIds().filter((id) => !expected.has(id)), []);
      assert.equal(client.messages.length, expected.size);
    }

    // The rate limit: the bucket starts full (20) and refills 20 a second.
    const limit = ACTIONS_PER_SECOND * seconds + ACTIONS_PER_SECOND;
    assert.ok(
      tally.accepted <= limit,
      `${tally.accepted} calls accepted in ${seconds.toFixed(1)} s, more than ${limit.toFixed(0)}`,
    );
    assert.ok(tally.accepted >= ACTIONS_PER_SECOND, `only ${tally.accepted} accepted`);
    assert.ok(tally.limited > 0, "no call was refused by the rate limit");

    // Nothing lost: each +1 that went through counted once, at a revision of its own.
    await pause(1100); // the bucket refills, so the count tool below is let through
    const after = await readTree(observer);
    const count = Number(/text "Count: (\d+)"/.exec(after.tree)![1]);
    assert.equal(count, tally.plusRevisions.length);
    assert.equal(new Set(tally.plusRevisions).size, tally.plusRevisions.length);
    assert.equal(after.revision, before.revision + count);
    const counted = await callTool(observer, "count");
    assert.deepEqual(unwrap(counted.text), { count });

    for (const client of clients) client.destroy();
    await descriptorsBackTo(process.pid, baseline, "after 64 clients left");
    console.log(
      `load: ${CLIENTS} clients × ${requests} requests in ${seconds.toFixed(1)} s; ` +
        `${tally.accepted} actions accepted, ${tally.limited} rate-limited; ` +
        `app RSS ${formatMiB(await residentBytes(process.pid))}`,
    );
  });
});

/** The tick a bench app's tree shows. */
function ticks(tree: string): number {
  return Number(/tick (\d+)/.exec(tree)![1]);
}

/** Reads from `connection` until `count` lines have come; returns how many came before its end. */
async function readLines(connection: Deno.Conn, count: number): Promise<number> {
  const buffer = new Uint8Array(1 << 20);
  let lines = 0;
  while (lines < count) {
    let read: number | null;
    try {
      read = await connection.read(buffer);
    } catch (error) {
      if (error instanceof Deno.errors.ConnectionReset) return lines;
      throw error;
    }
    if (read === null) return lines;
    for (let i = 0; i < read; i++) if (buffer[i] === 0x0a) lines++;
  }
  return lines;
}

/**
 * Waits until the app has accepted every connection made so far: a connection is accepted
 * in turn, after those queued before it, so one that gets an answer comes after them all.
 */
async function backlogDrained(scene: Scene, socket: string): Promise<void> {
  const probe = await scene.raw(socket);
  await probe.initialize();
  probe.destroy();
}

Deno.test("load: connections by the thousand, idle or dropped mid-request, leave nothing behind", async (t) => {
  await withScene(async (scene: Scene) => {
    const { process, socket } = await scene.app(APP);
    const observer = await scene.client(socket);
    const before = await readTree(observer);
    await readTree(observer);
    const baseline = await openDescriptors(process.pid);

    await t.step("connections that open and close, many of them mid-request", async () => {
      const total = scaled(600);
      const parallel = 32;
      for (let start = 0; start < total; start += parallel) {
        await Promise.all(
          Array.from({ length: Math.min(parallel, total - start) }, async (_, i) => {
            const client = await scene.raw(socket);
            switch ((start + i) % 4) {
              case 0: // a liveness check: connect and leave
                break;
              case 1: // initialize, then leave without a word
                await client.initialize();
                break;
              case 2: // leave with a request in flight
                await client.sendLines([
                  JSON.stringify(initializeMessage(1)),
                  `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"inspect_snapshot"}}`,
                ]);
                break;
              case 3: // leave halfway through a line
                await client.write(JSON.stringify(initializeMessage(1)).slice(0, 30));
                break;
            }
            client.destroy();
          }),
        );
      }
      await backlogDrained(scene, socket);
      assert.deepEqual(await readTree(observer), before);
      await descriptorsBackTo(process.pid, baseline, `after ${total} connections`);
    });

    await t.step("idle connections that never send a byte do not stop the others", async () => {
      // Opened 50 at a time, each lot accepted before the next: the listen backlog (512)
      // holds what the app has not accepted yet, and the kernel refuses connections past
      // it (EAGAIN) before the app sees them. The server holds at most MAX_CONNECTIONS at
      // once (what lies past it is in bounds_test.ts), so the idle ones stay a lot under it.
      const idle: RawClient[] = [];
      const idleCount = Math.min(scaled(300), MAX_CONNECTIONS - 56);
      for (let opened = 0; opened < idleCount; opened += 50) {
        idle.push(...await Promise.all(Array.from({ length: 50 }, () => scene.raw(socket))));
        await backlogDrained(scene, socket);
      }
      const during = await scene.raw(socket);
      await during.initialize();
      const answer = await during.callTool("ui_tree", {});
      assert.equal(rawToolText(answer).isError, false);
      assert.deepEqual(await readTree(observer), before);
      for (const client of [...idle, during]) client.destroy();
      await descriptorsBackTo(process.pid, baseline, "after the idle connections left");
    });
  });
});

Deno.test("load: a client that never reads is cut off past 16 MiB; memory stays bounded", async () => {
  await withScene(async (scene: Scene) => {
    // 1,000 rows (about 110 KiB of tree) and a clock ticking every 20 ms, so frames keep
    // coming while the app answers a client that reads nothing.
    const { process, socket } = await scene.app(BENCH_APP, { args: ["1000", "20"] });
    const observer = await scene.client(socket);
    const first = await readTree(observer);
    const treeBytes = first.tree.length;
    const baseline = await openDescriptors(process.pid);
    const rssBefore = await residentBytes(process.pid);

    // Requests for many times the cut-off worth of answers, written in one go; the client
    // then reads nothing (a Deno connection reads only when asked).
    const requested = scaled(48) * MAX_UNSENT_BYTES;
    const count = Math.ceil(requested / treeBytes);
    const lines: string[] = [];
    for (let id = 1; id <= count; id++) {
      lines.push(
        `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"ui_tree","arguments":{}}}`,
      );
    }
    const encoder = new TextEncoder();
    const deaf = await Deno.connect({ transport: "unix", path: socket });
    let peakRss = rssBefore;
    try {
      // First only initialize (a small answer), and wait until the app holds the
      // connection, so that the cut-off below is seen as that connection going away.
      await deaf.write(encoder.encode(JSON.stringify(initializeMessage(0)) + "\n"));
      await until(
        async () => (await openDescriptors(process.pid)) > baseline,
        "the app to accept the connection",
      );
      const bytes = encoder.encode(lines.join("\n") + "\n");
      try {
        let written = 0;
        while (written < bytes.length) written += await deaf.write(bytes.subarray(written));
      } catch (error) {
        // The app may cut the client off before it has sent every request.
        if (
          !(error instanceof Deno.errors.BrokenPipe) &&
          !(error instanceof Deno.errors.ConnectionReset)
        ) throw error;
      }

      // Meanwhile others are served and frames go on; the app cuts the deaf client off.
      let acts = 0;
      let tree = first;
      await until(async () => {
        peakRss = Math.max(peakRss, await residentBytes(process.pid));
        tree = await readTree(observer);
        const id = nodeId(tree.tree, "button", "Delete");
        const acted = await callTool(observer, "ui_act", {
          id,
          revision: tree.revision,
          action: { action: "click" },
        });
        // Answered by the UI thread either way: done, or refused because a tick moved the
        // revision on meanwhile (the revision check happens there).
        assert.ok(!acted.isError || acted.text.startsWith("stale revision"), acted.text);
        acts++;
        return (await openDescriptors(process.pid)) <= baseline;
      }, "the app to close the connection of the client that never reads");
      peakRss = Math.max(peakRss, await residentBytes(process.pid));
      assert.ok(acts > 0, "no ui_act was answered while the app was writing to the deaf client");
      assert.ok(ticks(tree.tree) > ticks(first.tree), "frames stopped while the client was deaf");

      // What the deaf client can still read is what the kernel held: far less than asked
      // for, and then the end of the stream (or a reset, as the app left requests unread).
      let received = 0;
      const buffer = new Uint8Array(1 << 20);
      await withTimeout(
        (async () => {
          for (;;) {
            let read: number | null;
            try {
              read = await deaf.read(buffer);
            } catch (error) {
              // The app closed with requests of ours unread: the kernel resets instead.
              if (error instanceof Deno.errors.ConnectionReset) return;
              throw error;
            }
            if (read === null) return;
            received += read;
          }
        })(),
        PROCESS_TIMEOUT_MS,
        "the end of the deaf client's stream",
      );
      assert.ok(received < MAX_UNSENT_BYTES, `${received} bytes reached the deaf client`);
    } finally {
      try {
        deaf.close();
      } catch {
        // Closed already.
      }
    }
    const cutOffAt = (await readTree(observer)).revision;

    // Below the limit a client is not cut off: one that asks for about half the limit's
    // worth of answers and reads them only after the app has made them gets every one.
    const probe = await scene.raw(socket);
    await probe.initialize();
    const start = probe.bytes;
    assert.equal(rawToolText(await probe.callTool("ui_tree", {})).isError, false);
    const answerBytes = probe.bytes - start;
    const owed = Math.floor(MAX_UNSENT_BYTES / 2 / answerBytes);
    const late = await Deno.connect({ transport: "unix", path: socket });
    try {
      await late.write(encoder.encode(
        [JSON.stringify(initializeMessage(0)), ...lines.slice(0, owed)].join("\n") + "\n",
      ));
      // Let the app make the answers while nothing is read: others' calls go through the
      // same server thread meanwhile.
      for (let i = 0; i < 10; i++) await readTree(observer);
      await pause(500);
      const answers = await withTimeout(
        readLines(late, 1 + owed),
        PROCESS_TIMEOUT_MS,
        "the answers to a client that read late",
      );
      assert.equal(
        answers,
        1 + owed,
        `a client owed ${formatMiB(owed * answerBytes)} (below the ${
          formatMiB(MAX_UNSENT_BYTES)
        } limit) was cut off after ${answers} of ${1 + owed} answers`,
      );
    } finally {
      late.close();
    }
    // Bounded: whatever was asked for (here 48 × 16 MiB), the app grew by a fixed amount.
    const grown = peakRss - rssBefore;
    assert.ok(
      grown < 24 * MAX_UNSENT_BYTES,
      `the app grew by ${formatMiB(grown)} answering ${formatMiB(requested)} it could not send`,
    );
    assert.ok(await process.isAlive());
    // Frames go on after the cut-off: the app's state still reaches its clients.
    let end = first;
    await until(
      async () => (end = await readTree(observer)).revision > cutOffAt,
      () => `the tree to move on past revision ${cutOffAt} after the cut-off`,
    );
    assert.ok(ticks(end.tree) > ticks(first.tree));
    console.log(
      `deaf client: asked for ${formatMiB(count * treeBytes)}; app RSS ${formatMiB(rssBefore)} → ` +
        `peak ${formatMiB(peakRss)} (+${formatMiB(grown)})`,
    );
  });
});
