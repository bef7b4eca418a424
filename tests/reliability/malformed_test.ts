/**
 * Malformed input against a real app process: random bytes, truncated lines, lines at and
 * past the 4 MiB limit, wrong JSON-RPC shapes, wrong argument types, huge arguments, unknown
 * methods and tools, ids that do not exist, deeply nested JSON — thousands of frames over
 * several connections at once, while a well-behaved client keeps reading.
 *
 * What must hold: every request gets exactly one answer (an error, unless it happened to be
 * harmless), every line that is not a request gets one parse error, responses are never
 * answered, a line past the limit closes only its own connection, the bystander is served
 * throughout, and the app's UI is exactly as it was (tree text and revision).
 *
 * @module
 */

import assert from "node:assert/strict";
import { MAX_LINE_BYTES } from "../../runtime/agent/transport/line_transport.ts";
import type { Client } from "../../runtime/agent/transport/sdk.ts";
import { nodeId, readTree, type TreeAnswer } from "../_app_process.ts";
import {
  pause,
  randomSource,
  type RawClient,
  type RawMessage,
  rawToolText,
  scaled,
  type Scene,
  seedNote,
  unwrap,
  withScene,
} from "./_shared.ts";

const APP = "tests/fixtures/process_app.ts";
const PARSE_ERROR = -32700;
const METHOD_NOT_FOUND = -32601;
const decoder = new TextDecoder();

/** Frames of random bytes (no newline inside), each ended by a newline. */
function randomByteLines(random: () => number, count: number): Uint8Array[] {
  return Array.from({ length: count }, () => {
    const line = new Uint8Array(1 + Math.floor(random() * 200));
    for (let i = 0; i < line.length; i++) {
      let byte = Math.floor(random() * 256);
      if (byte === 0x0a) byte = 0x0b;
      line[i] = byte;
    }
    return line;
  });
}

/** A few well-formed requests whose prefixes make truncated lines. */
const TEMPLATES = [
  `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ui_tree","arguments":{}}}`,
  `{"jsonrpc":"2.0","id":"x","method":"ping"}`,
  `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ui_act","arguments":{"id":3,"revision":1,"action":{"action":"click"}}}}`,
  `{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"ui://tree"}}`,
  `{"jsonrpc":"2.0","method":"notifications/initialized"}`,
];

/** Lines that are JSON but not a message the server takes: each must get one parse error. */
const WRONG_SHAPES = [
  `null`,
  `true`,
  `42`,
  `"a string"`,
  `[]`,
  `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`,
  `{}`,
  `{"jsonrpc":"2.0"}`,
  `{"jsonrpc":"1.0","id":1,"method":"ping"}`,
  `{"jsonrpc":2,"id":1,"method":"ping"}`,
  `{"id":1,"method":"ping"}`,
  `{"jsonrpc":"2.0","id":1,"method":5}`,
  `{"jsonrpc":"2.0","id":1,"method":null}`,
  `{"jsonrpc":"2.0","id":{},"method":"ping"}`,
  `{"jsonrpc":"2.0","id":[1],"method":"ping"}`,
  `{"jsonrpc":"2.0","id":null,"method":"ping"}`,
  `{"jsonrpc":"2.0","id":true,"method":"ping"}`,
  `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`,
  `{"jsonrpc":"2.0","id":1e300,"method":"ping"}`,
  `{"jsonrpc":"2.0","id":1,"method":"ping","params":5}`,
  `{"jsonrpc":"2.0","id":1,"method":"ping","params":"x"}`,
  `{"jsonrpc":"2.0","id":1,"method":"ping","params":[1,2]}`,
  `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":5}}`,
  `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"progressToken":1.5}}}`,
  `{"jsonrpc":"2.0","id":1,"method":"ping","extra":"field"}`,
  `{"jsonrpc":"2.0","method":"notifications/initialized","params":[]}`,
  `{"jsonrpc":"2.0","method":"notifications/initialized","extra":1}`,
  `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":null}`,
];

/** Lines shaped like responses, to requests that were never made: never to be answered. */
const STRAY_RESPONSES = [
  `{"jsonrpc":"2.0","id":424242,"result":{}}`,
  `{"jsonrpc":"2.0","id":"no-such-request","result":{"content":[]}}`,
  `{"jsonrpc":"2.0","id":424243,"error":{"code":-32000,"message":"nobody asked"}}`,
  `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: an echo"}}`,
  `{"jsonrpc":"2.0","id":424244,"error":5}`,
  `{"jsonrpc":"1.0","id":424245,"result":{}}`,
  `{"jsonrpc":"2.0","id":{},"result":{}}`,
  `{"error":{"code":1,"message":"bare"}}`,
];

/** Notifications the server does not know: dropped, as JSON-RPC says, never answered. */
const STRAY_NOTIFICATIONS = [
  `{"jsonrpc":"2.0","method":"notifications/no_such_thing"}`,
  `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":987654}}`,
  `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"nope","progress":1}}`,
  `{"jsonrpc":"2.0","method":"tools/call"}`,
];

/** The arguments of `tools/call` requests that must each fail, for a tree at `revision`. */
function badToolCalls(revision: number, plusOne: number, password: number): unknown[] {
  const click = { action: "click" };
  return [
    { name: 5 },
    { name: null },
    { name: "ui_tree", arguments: "not an object" },
    { name: "ui_tree", arguments: [1, 2] },
    { name: "ui_tree", arguments: { unexpected: true } },
    { name: "ui_query", arguments: { role: 5 } },
    { name: "ui_query", arguments: { name: ["list"] } },
    { name: "ui_query", arguments: { colour: "red" } },
    { name: "ui_act" },
    { name: "ui_act", arguments: {} },
    { name: "ui_act", arguments: { id: "one", revision, action: click } },
    { name: "ui_act", arguments: { id: plusOne, revision: "now", action: click } },
    { name: "ui_act", arguments: { id: plusOne, revision: 1.5, action: click } },
    { name: "ui_act", arguments: { id: plusOne, revision: 2 ** 60, action: click } },
    { name: "ui_act", arguments: { id: plusOne, revision } },
    { name: "ui_act", arguments: { id: plusOne, revision, action: "click" } },
    { name: "ui_act", arguments: { id: plusOne, revision, action: [click] } },
    { name: "ui_act", arguments: { id: plusOne, revision, action: { action: "explode" } } },
    { name: "ui_act", arguments: { id: plusOne, revision, action: { action: "type_text" } } },
    {
      name: "ui_act",
      arguments: { id: plusOne, revision, action: { action: "type_text", text: 5 } },
    },
    {
      name: "ui_act",
      arguments: { id: plusOne, revision, action: { action: "press_key", keybind: "Ctrl+Nope" } },
    },
    {
      name: "ui_act",
      arguments: { id: plusOne, revision, action: { action: "scroll", delta: "down" } },
    },
    {
      name: "ui_act",
      arguments: { id: plusOne, revision, action: { action: "drag", to: { x: "a", y: 1 } } },
    },
    // Ids that do not exist, a stale revision, and a secret the agent may not type into.
    { name: "ui_act", arguments: { id: 987654, revision, action: click } },
    { name: "ui_act", arguments: { id: -1, revision, action: click } },
    { name: "ui_act", arguments: { id: plusOne, revision: revision - 1, action: click } },
    { name: "ui_act", arguments: { id: plusOne, revision: revision + 1000, action: click } },
    {
      name: "ui_act",
      arguments: { id: password, revision, action: { action: "type_text", text: "x" } },
    },
    { name: "ui_screenshot", arguments: { please: true } },
    { name: "inspect_snapshot", arguments: { deep: 1 } },
    { name: "no_such_tool" },
    { name: "" },
    { name: "ui_tree ", arguments: {} },
    { name: "UI_TREE" },
    { name: "__proto__" },
    { name: "constructor" },
    { name: "reset", arguments: {} },
    { name: "reset", arguments: { confirm: "yes" } },
    { name: "reset", arguments: { confirm: 1, to: 5 } },
  ];
}

/** The ids of the requests `deeplyNested()` makes, and whether each must be an error. */
const DEEP_REQUESTS: Record<string, boolean> = {
  "deep-action": true,
  "deep-object": true,
  "deep-extra": true,
  "deep-query": true,
  "deep-confirm": true,
  "deep-unknown": true,
  "deep-app-tool": false,
  "deep-meta": false,
};

/**
 * Deeply nested JSON in every place a line can carry it: requests with the ids of
 * `DEEP_REQUESTS` (each followed by `-<round>`), and three lines that are not messages
 * (a bare array, a bare object, a request with an extra key).
 */
function deeplyNested(depth: number, revision: number, plusOne: number, round: number): string[] {
  const array = "[".repeat(depth) + "]".repeat(depth);
  const object = '{"a":'.repeat(depth) + "1" + "}".repeat(depth);
  const call = (name: string, args: string, id: string) =>
    `{"jsonrpc":"2.0","id":"${id}-${round}","method":"tools/call","params":{"name":"${name}","arguments":${args}}}`;
  return [
    "[".repeat(depth * 10) + "]".repeat(depth * 10),
    '{"a":'.repeat(depth) + "1" + "}".repeat(depth),
    call("ui_act", `{"id":${plusOne},"revision":${revision},"action":${array}}`, "deep-action"),
    call("ui_act", `{"id":${plusOne},"revision":${revision},"action":${object}}`, "deep-object"),
    call(
      "ui_act",
      `{"id":${plusOne},"revision":${revision - 1},"action":{"action":"click","x":${array}}}`,
      "deep-extra",
    ),
    call("ui_query", `{"role":${array}}`, "deep-query"),
    call("count", `{"x":${array}}`, "deep-app-tool"),
    call("reset", `{"confirm":${object}}`, "deep-confirm"),
    call("no_such_tool", `{"x":${object}}`, "deep-unknown"),
    `{"jsonrpc":"2.0","id":"deep-meta-${round}","method":"ping","params":{"_meta":{"x":${object}}}}`,
    `{"jsonrpc":"2.0","id":"deep-extra-key-${round}","method":"ping","params":{},"x":${array}}`,
    `{"jsonrpc":"2.0","method":"notifications/initialized","params":{"x":${array}}}`,
  ];
}

/** Keeps a well-behaved client reading while the attack runs; checks every answer. */
function bystander(client: Client, before: TreeAnswer) {
  let running = true;
  let rounds = 0;
  let failure: Error | null = null;
  const loop = (async () => {
    while (running) {
      try {
        const tree = await readTree(client);
        assert.deepEqual(tree, before, "the bystander read a different tree");
        const { contents } = await client.readResource({ uri: "ui://tree" });
        assert.equal((contents[0] as { text: string }).text, before.tree);
        await client.ping();
        rounds++;
      } catch (error) {
        failure = error as Error;
        return;
      }
    }
  })();
  return {
    async stop(): Promise<number> {
      running = false;
      await loop;
      if (failure !== null) throw failure;
      return rounds;
    },
  };
}

/** Asserts each of `ids` was answered exactly once on `client`, and nothing else was. */
function assertAnsweredOnce(client: RawClient, ids: readonly unknown[]): void {
  for (const id of ids) {
    assert.equal(
      client.answersTo(id).length,
      1,
      `request ${JSON.stringify(id)} got ${client.answersTo(id).length} answers ${seedNote()}`,
    );
  }
  const expected = new Set(ids);
  const stray = client.answeredIds().filter((id) => id !== null && !expected.has(id));
  assert.deepEqual(stray, [], `answers to ids never sent ${seedNote()}`);
}

/** A request or tool result that carries an error. */
function isErrorAnswer(message: RawMessage): boolean {
  return message.error !== undefined || message.result?.isError === true;
}

/**
 * Sends `ping` and waits for its answer: every line sent before it has been read, and every
 * error the transport answers at once has come back. Returns the ping's id.
 */
async function fence(client: RawClient): Promise<number> {
  const id = client.request("ping");
  const answer = await client.answer(id);
  assert.deepEqual(answer.result, {});
  return id;
}

Deno.test("malformed input: thousands of bad frames; each answered, others served, UI unchanged", async (t) => {
  await withScene(async (scene: Scene) => {
    const { process, socket } = await scene.app(APP);
    const observer = await scene.client(socket);
    const before = await readTree(observer);
    const plusOne = nodeId(before.tree, "button", "+1");
    const password = nodeId(before.tree, "text_field", "Password");
    const watching = bystander(await scene.client(socket), before);
    const random = randomSource();
    let frames = 0;

    await t.step("random bytes: one parse error for each line that is not blank", async () => {
      const connections = 4;
      await Promise.all(Array.from({ length: connections }, async () => {
        const client = await scene.raw(socket);
        const lines = randomByteLines(random, scaled(400));
        const expected = lines.filter((line) => decoder.decode(line).trim() !== "").length;
        // Many lines a write, as a fast sender's bytes arrive.
        for (let i = 0; i < lines.length; i += 50) {
          const batch = lines.slice(i, i + 50);
          const joined = new Uint8Array(batch.reduce((sum, line) => sum + line.length + 1, 0));
          let offset = 0;
          for (const line of batch) {
            joined.set(line, offset);
            joined[offset + line.length] = 0x0a;
            offset += line.length + 1;
          }
          await client.write(joined);
        }
        await fence(client);
        frames += lines.length + 1;
        assert.equal(client.garbage.length, 0);
        const errors = client.messages.filter((message) => message.error?.code === PARSE_ERROR);
        assert.equal(errors.length, expected, `parse errors for ${expected} lines ${seedNote()}`);
        assert.ok(errors.every((message) => message.id === null));
        assert.equal(client.messages.length, expected + 1, seedNote());
      }));
    });

    await t.step("truncated lines: each prefix of a request gets one parse error", async () => {
      const client = await scene.raw(socket);
      await client.initialize();
      const count = scaled(500);
      const lines = Array.from({ length: count }, () => {
        const template = TEMPLATES[Math.floor(random() * TEMPLATES.length)]!;
        return template.slice(0, 1 + Math.floor(random() * (template.length - 1)));
      });
      await client.sendLines(lines);
      await fence(client);
      frames += count + 1;
      const errors = client.messages.filter((message) => message.error?.code === PARSE_ERROR);
      assert.equal(errors.length, count, seedNote());
      assert.ok(errors.every((message) => message.error!.message === "Parse error: not JSON"));
    });

    await t.step("a request cut off by the client's leaving is never served", async () => {
      // A whole click on +1, all but its newline: served, it would change the count.
      const click = JSON.stringify({
        jsonrpc: "2.0",
        id: "cut-off",
        method: "tools/call",
        params: {
          name: "ui_act",
          arguments: { id: plusOne, revision: before.revision, action: { action: "click" } },
        },
      });
      for (const cut of [click, click.slice(0, 40)]) {
        const client = await scene.raw(socket);
        await client.initialize();
        await client.write(cut); // no newline: the line never ends
        client.socket.end();
        await client.waitClosed();
        assert.deepEqual(client.answersTo("cut-off"), [], "the cut-off request was answered");
        frames++;
      }
      // Had the click run, the tree would have moved on by now: a read of the UI thread's
      // state (the count tool) comes after anything the cut-off line could have started.
      const probe = await scene.raw(socket);
      await probe.initialize();
      assert.deepEqual(unwrap(rawToolText(await probe.callTool("count", {})).text), { count: 0 });
      assert.deepEqual(await readTree(observer), before, "the cut-off click was served");
    });

    await t.step("wrong JSON-RPC shapes, unknown methods and stray responses", async () => {
      const client = await scene.raw(socket);
      await client.initialize();
      const rounds = scaled(20);
      const unknown: number[] = [];
      for (let round = 0; round < rounds; round++) {
        const lines = [...WRONG_SHAPES, ...STRAY_RESPONSES, ...STRAY_NOTIFICATIONS];
        for (let i = 0; i < 5; i++) {
          const id = client.nextId();
          unknown.push(id);
          const method = `no/such/method/${Math.floor(random() * 1e6)}`;
          lines.push(JSON.stringify({ jsonrpc: "2.0", id, method }));
        }
        // Shuffled, so no order of bad frames is special.
        lines.sort(() => random() - 0.5);
        await client.sendLines(lines);
        frames += lines.length;
      }
      await Promise.all(unknown.map((id) => client.answer(id)));
      await fence(client);
      const parseErrors = client.messages.filter((message) =>
        message.error?.code === PARSE_ERROR && message.id === null
      );
      assert.equal(parseErrors.length, WRONG_SHAPES.length * rounds, seedNote());
      for (const id of unknown) {
        const answers = client.answersTo(id);
        assert.equal(answers.length, 1, `request ${id}`);
        assert.equal(answers[0]!.error?.code, METHOD_NOT_FOUND);
      }
      // Nothing else came back: stray responses and notifications were not answered.
      assert.equal(client.messages.length, 1 + parseErrors.length + unknown.length + 1);
    });

    await t.step("wrong argument types, unknown tools, ids that do not exist", async () => {
      const client = await scene.raw(socket);
      await client.initialize();
      const calls = badToolCalls(before.revision, plusOne, password);
      const ids: number[] = [];
      for (let round = 0; round < scaled(8); round++) {
        for (const params of calls) ids.push(client.request("tools/call", params));
      }
      await Promise.all(ids.map((id) => client.answer(id)));
      frames += ids.length;
      assertAnsweredOnce(client, [1, ...ids]);
      for (const id of ids) {
        const answer = client.answersTo(id)[0]!;
        const params = calls[(id - 2) % calls.length];
        assert.ok(
          isErrorAnswer(answer),
          `expected an error for ${JSON.stringify(params)}, got ${JSON.stringify(answer)}`,
        );
      }
      const texts = ids.map((id) => client.answersTo(id)[0]!)
        .filter((answer) => answer.result !== undefined)
        .map((answer) => rawToolText(answer).text);
      assert.ok(texts.some((text) => text.startsWith(`no node with id 987654`)), texts.join("\n"));
      assert.ok(texts.some((text) => text.startsWith("stale revision: ")), texts.join("\n"));
      assert.ok(texts.some((text) => text.startsWith("unknown tool ")));
      assert.ok(texts.some((text) => text.startsWith("the node holds a secret")));
    });

    await t.step("huge arguments are answered; a line of exactly 4 MiB is read", async () => {
      await pause(1100); // the rate limit's bucket refills, so the ui_act below reaches the app
      const client = await scene.raw(socket);
      await client.initialize();
      const huge = "h".repeat(3 * 1024 * 1024);
      const ids = [
        client.request("tools/call", { name: "ui_query", arguments: { text: huge } }),
        client.request("tools/call", { name: "count", arguments: { padding: huge } }),
        client.request("tools/call", { name: huge, arguments: {} }),
        client.request("tools/call", {
          name: "ui_act",
          arguments: {
            id: password,
            revision: before.revision,
            action: { action: "type_text", text: huge },
          },
        }),
        client.request("resources/read", { uri: `ui://${huge}` }),
      ];
      // A request padded with spaces to exactly the limit, newline excluded.
      const exact = `{"jsonrpc":"2.0","id":"exact","method":"ping"}`;
      await client.write(exact.slice(0, -1) + " ".repeat(MAX_LINE_BYTES - exact.length) + "}\n");
      await Promise.all([...ids, "exact"].map((id) => client.answer(id)));
      frames += ids.length + 1;
      assertAnsweredOnce(client, [1, ...ids, "exact"]);
      const query = client.answersTo(ids[0])[0]!;
      assert.equal(rawToolText(query).isError, false);
      assert.match(rawToolText(client.answersTo(ids[2])[0]!).text, /^unknown tool /);
      assert.match(rawToolText(client.answersTo(ids[3])[0]!).text, /^the node holds a secret/);
      assert.ok(client.answersTo(ids[4])[0]!.error !== undefined);
      assert.deepEqual(client.answersTo("exact")[0]!.result, {});
      // The unknown tool's name is not echoed back in full: answers stay far smaller.
      assert.ok(client.bytes < 4 * huge.length, `${client.bytes} bytes came back`);
    });

    await t.step("a line one byte over 4 MiB closes that connection only", async () => {
      for (let round = 0; round < scaled(2); round++) {
        const client = await scene.raw(socket);
        await client.initialize();
        const line = `{"jsonrpc":"2.0","id":"over","method":"ping"}`;
        await client.write(
          line.slice(0, -1) + " ".repeat(MAX_LINE_BYTES + 1 - line.length) + "}\n",
        );
        await client.waitClosed();
        frames++;
        assert.equal(client.messages.length, 2);
        assert.equal(client.messages[1]!.error?.code, PARSE_ERROR);
        assert.match(client.messages[1]!.error!.message, /longer than 4194304 bytes/);
      }
    });

    await t.step("deeply nested JSON is answered without taking the app down", async () => {
      const client = await scene.raw(socket);
      await client.initialize();
      const rounds = scaled(2);
      const ids: string[] = [];
      for (let round = 0; round < rounds; round++) {
        const lines = deeplyNested(100_000, before.revision, plusOne, round);
        await client.sendLines(lines);
        frames += lines.length;
        ids.push(...Object.keys(DEEP_REQUESTS).map((id) => `${id}-${round}`));
      }
      await Promise.all(ids.map((id) => client.answer(id)));
      const fenceId = await fence(client);
      assertAnsweredOnce(client, [1, ...ids, fenceId]);
      for (const id of ids) {
        const answer = client.answersTo(id)[0]!;
        const kind = id.slice(0, id.lastIndexOf("-"));
        if (DEEP_REQUESTS[kind]) {
          assert.ok(isErrorAnswer(answer), `${id}: ${JSON.stringify(answer)}`);
        }
        // Each says what was wrong, rather than a stack overflow's own words.
        if (kind === "deep-action" || kind === "deep-object") {
          assert.match(rawToolText(answer).text, /^invalid arguments: /, id);
        }
      }
      const parseErrors = client.messages.filter((message) => message.error?.code === PARSE_ERROR);
      // The bare array, the bare object, and the request with an extra key, each round.
      assert.equal(parseErrors.length, 3 * rounds);
    });

    await t.step("a parse error echoed back is not answered: no error ping-pong", async () => {
      // A client of ours once answered the app's parse error (id null) with a parse error of
      // its own, and the two traded errors as fast as the socket allowed. This peer echoes
      // every parse error it gets: the exchange must stop after the first.
      const client = await scene.raw(socket);
      await client.initialize();
      client.socket.on("data", () => {
        const last = client.messages.at(-1);
        if (last?.error?.code === PARSE_ERROR && client.messages.length < 1000) {
          client.write(JSON.stringify(last) + "\n");
        }
      });
      await client.write("not json\n");
      await fence(client);
      await fence(client);
      frames += 4;
      const errors = client.messages.filter((message) => message.error?.code === PARSE_ERROR);
      assert.equal(errors.length, 1, `${errors.length} parse errors came back`);
    });

    await t.step("the bystander was served throughout, and the UI is as it was", async () => {
      const rounds = await watching.stop();
      assert.ok(rounds > 0, "the bystander completed no round");
      assert.ok(frames >= 2000, `only ${frames} frames were sent`);
      assert.deepEqual(await readTree(observer), before);
      const fresh = await scene.client(socket);
      assert.deepEqual(await readTree(fresh), before);
      assert.ok(await process.isAlive());
      const unexpected = process.lines.filter((line) =>
        !/^Process App: running headless|^MCP server listening /.test(line)
      );
      assert.deepEqual(unexpected, [], "the app logged nothing about the attack");
    });
  });
});
