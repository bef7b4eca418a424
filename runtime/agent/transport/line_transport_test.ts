import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import * as net from "node:net";
import { join } from "node:path";
import {
  idInUseMessage,
  LineSplitter,
  LineTransport,
  MAX_LINE_BYTES,
  MAX_PENDING_REQUESTS,
  parseErrorMessage,
  readFirstLine,
  readLine,
} from "./line_transport.ts";
import type { JSONRPCMessage } from "./sdk.ts";

const encoder = new TextEncoder();

function texts(lines: Buffer[] | "overflow"): string[] {
  assert.notEqual(lines, "overflow");
  return (lines as Buffer[]).map((line) => line.toString("utf8"));
}

Deno.test("LineSplitter", async (t) => {
  await t.step("LineSplitter gives each complete line without its newline", () => {
    const splitter = new LineSplitter();
    assert.deepEqual(texts(splitter.push(encoder.encode("one\ntwo\n\nthree"))), ["one", "two", ""]);
    assert.deepEqual(texts(splitter.push(encoder.encode("\n"))), ["three"]);
  });

  await t.step("LineSplitter joins a line split over many chunks", () => {
    const splitter = new LineSplitter();
    const whole = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n{"next":true}\n';
    const lines: string[] = [];
    for (const char of whole) lines.push(...texts(splitter.push(encoder.encode(char))));
    assert.deepEqual(lines, ['{"jsonrpc":"2.0","id":1,"method":"tools/list"}', '{"next":true}']);
  });

  await t.step("LineSplitter joins multibyte UTF-8 split at every byte", () => {
    const line = "é — 😀 ünï 数独";
    const bytes = encoder.encode(line + "\n");
    for (let cut = 1; cut < bytes.length; cut++) {
      const splitter = new LineSplitter();
      assert.deepEqual(texts(splitter.push(bytes.subarray(0, cut))), []);
      assert.deepEqual(texts(splitter.push(bytes.subarray(cut))), [line], `cut at ${cut}`);
    }
  });

  await t.step("LineSplitter keeps a pending line when the caller reuses its chunk", () => {
    const splitter = new LineSplitter();
    const chunk = new Uint8Array(encoder.encode("abc"));
    splitter.push(chunk);
    chunk.fill(0x78); // "xxx"
    assert.deepEqual(texts(splitter.push(encoder.encode("d\n"))), ["abcd"]);
  });

  await t.step("LineSplitter reads chunks that are views into a larger buffer", () => {
    const splitter = new LineSplitter();
    const backing = encoder.encode("IGNOREhello\nIGNORE");
    assert.deepEqual(texts(splitter.push(backing.subarray(6, 12))), ["hello"]);
  });

  await t.step("LineSplitter accepts a line of exactly the limit", () => {
    const splitter = new LineSplitter(8);
    assert.deepEqual(texts(splitter.push(encoder.encode("12345678\n"))), ["12345678"]);
    assert.deepEqual(texts(splitter.push(encoder.encode("1234"))), []);
    assert.deepEqual(texts(splitter.push(encoder.encode("5678\n"))), ["12345678"]);
  });

  await t.step("LineSplitter reports overflow for a complete line past the limit", () => {
    assert.equal(new LineSplitter(8).push(encoder.encode("123456789\n")), "overflow");
  });

  await t.step("LineSplitter reports overflow before the newline arrives", () => {
    const splitter = new LineSplitter(8);
    assert.deepEqual(texts(splitter.push(encoder.encode("12345"))), []);
    assert.equal(splitter.push(encoder.encode("6789")), "overflow");
  });

  await t.step("LineSplitter counts a line split over chunks as a whole", () => {
    const splitter = new LineSplitter(8);
    assert.deepEqual(texts(splitter.push(encoder.encode("123456"))), []);
    assert.equal(splitter.push(encoder.encode("789\n")), "overflow");
  });

  await t.step("LineSplitter limits each line, not the chunk", () => {
    const splitter = new LineSplitter(4);
    assert.deepEqual(texts(splitter.push(encoder.encode("abcd\nefgh\nijkl\n"))), [
      "abcd",
      "efgh",
      "ijkl",
    ]);
  });

  await t.step("LineSplitter limits lines to 4 MiB by default", () => {
    assert.equal(MAX_LINE_BYTES, 4 * 1024 * 1024);
    const splitter = new LineSplitter();
    const big = Buffer.alloc(MAX_LINE_BYTES, 0x61);
    assert.deepEqual(splitter.push(big), []);
    assert.equal(splitter.push(encoder.encode("a")), "overflow");
  });
});

Deno.test("parseErrorMessage() is a JSON-RPC parse error with a null id", () => {
  assert.deepEqual(parseErrorMessage("not JSON"), {
    jsonrpc: "2.0",
    id: null,
    error: { code: -32700, message: "Parse error: not JSON" },
  });
});

Deno.test("readLine()", async (t) => {
  const parseError = (detail: string) => ({ reply: parseErrorMessage(detail) });

  await t.step("readLine() hands on requests, notifications and responses", () => {
    for (
      const message of [
        { jsonrpc: "2.0", id: 1, method: "ping" },
        { jsonrpc: "2.0", id: "a", method: "tools/call", params: { name: "ui_tree" } },
        { jsonrpc: "2.0", method: "notifications/initialized" },
        { jsonrpc: "2.0", id: 2, result: {} },
        { jsonrpc: "2.0", id: 3, error: { code: -1, message: "no" } },
        { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error: not JSON" } },
      ]
    ) {
      assert.deepEqual(readLine(JSON.stringify(message)), { message }, JSON.stringify(message));
    }
  });

  await t.step("readLine() skips blank lines", () => {
    assert.equal(readLine(""), null);
    assert.equal(readLine("  \r"), null);
  });

  await t.step(
    "readLine() answers a request the SDK would drop silently with a parse error",
    () => {
      // Each of these once went unanswered: the SDK's protocol refuses them without a reply.
      for (
        const line of [
          '{"jsonrpc":"2.0","id":{},"method":"ping"}',
          '{"jsonrpc":"2.0","id":null,"method":"ping"}',
          '{"jsonrpc":"2.0","id":1.5,"method":"ping"}',
          '{"jsonrpc":"2.0","id":1e300,"method":"ping"}',
          '{"jsonrpc":"2.0","id":1,"method":"ping","params":[1]}',
          '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":5}}',
          '{"jsonrpc":"2.0","id":1,"method":"ping","extra":true}',
          '{"jsonrpc":"2.0","method":"notifications/initialized","id":{}}',
          '{"jsonrpc":"2.0","id":1,"method":5}',
        ]
      ) {
        assert.deepEqual(readLine(line), parseError("not a JSON-RPC 2.0 message"), line);
      }
      assert.deepEqual(readLine("{"), parseError("not JSON"));
      assert.deepEqual(readLine("[1,2]"), parseError("not a JSON-RPC 2.0 message"));
    },
  );

  await t.step("readLine() never answers a line that looks like a response", () => {
    // Answering one with an error could start two peers trading errors forever.
    for (
      const line of [
        '{"jsonrpc":"2.0","id":9,"error":5}',
        '{"jsonrpc":"1.0","id":9,"result":{}}',
        '{"error":{"code":1,"message":"x"}}',
        '{"jsonrpc":"2.0","id":{},"result":{}}',
      ]
    ) {
      const read = readLine(line);
      assert.ok(read === null || !("reply" in read), line);
    }
  });
});

Deno.test("LineTransport on both ends answers a bad line once, not forever", async () => {
  // A server's parse error (id null) reaching a client of ours once made the client answer
  // with a parse error of its own, and the two traded errors as fast as the socket allowed.
  const pair = await socketPair();
  try {
    const { client, server } = await pair.connect();
    let serverBytes = 0;
    client.on("data", (chunk: Buffer) => (serverBytes += chunk.length));
    const serverSide = new LineTransport(server);
    const clientSide = new LineTransport(client);
    await serverSide.start();
    await clientSide.start();
    client.write("not json\n");
    await new Promise((resolve) => setTimeout(resolve, 300));
    const once = JSON.stringify(parseErrorMessage("not JSON")).length + 1;
    assert.equal(serverBytes, once);
    await clientSide.close();
    await serverSide.close();
  } finally {
    await pair.close();
  }
});

/** How long a wait may last, in milliseconds, before the test fails instead of hanging. */
const HANG_GUARD_MS = 20_000;

/** A Unix socket server in a temp directory whose connections the test gets one by one. */
async function socketPair() {
  const dir = await Deno.makeTempDir({ prefix: "crownui-line-test-" });
  const path = join(dir, "test.sock");
  const accepted: net.Socket[] = [];
  const waiting: ((socket: net.Socket) => void)[] = [];
  const server = net.createServer({ pauseOnConnect: true }, (socket) => {
    const next = waiting.shift();
    if (next !== undefined) next(socket);
    else accepted.push(socket);
  });
  await new Promise<void>((resolve) => server.listen(path, resolve));
  const sockets: net.Socket[] = [];
  return {
    /** Connects a client and returns both ends. */
    async connect(): Promise<{ client: net.Socket; server: net.Socket }> {
      const serverSide = new Promise<net.Socket>((resolve) => {
        const ready = accepted.shift();
        if (ready !== undefined) resolve(ready);
        else waiting.push(resolve);
      });
      const client = net.createConnection(path);
      await new Promise<void>((resolve) => client.once("connect", () => resolve()));
      const serverSocket = await serverSide;
      sockets.push(client, serverSocket);
      return { client, server: serverSocket };
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/** Reads a raw client's lines as JSON, and whether (and when) it was closed. */
/** A started transport on a fresh socket pair that collects every message it hands on. */
async function collecting(pair: Awaited<ReturnType<typeof socketPair>>) {
  const { client, server } = await pair.connect();
  const transport = new LineTransport(server);
  const received: JSONRPCMessage[] = [];
  transport.onmessage = (message) => received.push(message);
  await transport.start();
  return { client, transport, received };
}

function reader(client: net.Socket) {
  const messages: unknown[] = [];
  const splitter = new LineSplitter(Number.MAX_SAFE_INTEGER);
  let wake: (() => void) | null = null;
  let closed = false;
  client.on("data", (chunk: Buffer) => {
    for (const line of texts(splitter.push(chunk))) messages.push(JSON.parse(line));
    wake?.();
  });
  client.on("error", () => {});
  client.on("close", () => {
    closed = true;
    wake?.();
  });
  const until = async (test: () => boolean) => {
    while (!test()) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const woken = await new Promise<boolean>((resolve) => {
        wake = () => resolve(true);
        timer = setTimeout(() => resolve(false), HANG_GUARD_MS); // fail, never hang
      });
      clearTimeout(timer);
      assert.ok(woken, "the connection stayed silent");
    }
  };
  return {
    messages,
    get closed() {
      return closed;
    },
    /** Waits for the `count`th message. */
    async message(count: number): Promise<unknown> {
      await until(() => messages.length >= count || closed);
      assert.ok(messages.length >= count, `the connection closed after ${messages.length} lines`);
      return messages[count - 1];
    },
    /** Waits until the server closes the connection. */
    async close(): Promise<void> {
      await until(() => closed);
    },
  };
}

// Not "ping": the transport answers a ping itself, and hands on none.
const request = (id: number, method = "tools/list") => ({ jsonrpc: "2.0", id, method });
const cancelled = (requestId: number) => ({
  jsonrpc: "2.0",
  method: "notifications/cancelled",
  params: { requestId },
});

/** Waits until `test()` holds, failing instead of hanging if it never does. */
async function eventually(test: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !test(); waited++) {
    assert.ok(waited < HANG_GUARD_MS, `still waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

Deno.test("LineTransport over a real socket", async (t) => {
  const pair = await socketPair();
  try {
    await t.step("LineTransport delivers each line as a message and sends lines back", async () => {
      const { client, server } = await pair.connect();
      const transport = new LineTransport(server);
      const received: JSONRPCMessage[] = [];
      transport.onmessage = (message) => {
        received.push(message);
        if ("id" in message && "method" in message) {
          transport.send({ jsonrpc: "2.0", id: message.id, result: { echo: message.method } });
        }
      };
      await transport.start();
      const read = reader(client);
      client.write(JSON.stringify(request(1, "a")) + "\n" + JSON.stringify(request(2, "b")));
      client.write("\n");
      assert.deepEqual(await read.message(2), { jsonrpc: "2.0", id: 2, result: { echo: "b" } });
      assert.deepEqual(read.messages[0], { jsonrpc: "2.0", id: 1, result: { echo: "a" } });
      assert.deepEqual(received, [request(1, "a"), request(2, "b")]);
      await transport.close();
    });

    await t.step("LineTransport answers a non-JSON line with -32700 and goes on", async () => {
      const { client, server } = await pair.connect();
      const transport = new LineTransport(server);
      const received: JSONRPCMessage[] = [];
      transport.onmessage = (message) => {
        received.push(message);
        transport.send({ jsonrpc: "2.0", id: (message as { id: number }).id, result: {} });
      };
      await transport.start();
      const read = reader(client);
      client.write("this is not json\n");
      const error = await read.message(1) as { id: unknown; error: { code: number } };
      assert.equal(error.id, null);
      assert.equal(error.error.code, -32700);
      client.write(JSON.stringify(request(7)) + "\n");
      assert.deepEqual(await read.message(2), { jsonrpc: "2.0", id: 7, result: {} });
      assert.deepEqual(received, [request(7)]);
      assert.equal(read.closed, false);
      await transport.close();
    });

    await t.step(
      "LineTransport answers JSON that is not JSON-RPC with -32700 and goes on",
      async () => {
        const { client, transport, received } = await collecting(pair);
        const read = reader(client);
        client.write('{"hello":"world"}\n[1,2]\n' + JSON.stringify(request(3)) + "\n");
        const first = await read.message(2) as { error: { code: number; message: string } };
        assert.equal(first.error.code, -32700);
        await eventually(() => received.length > 0, "the request");
        assert.deepEqual(received, [request(3)]);
        await transport.close();
      },
    );

    await t.step(
      "LineTransport hands on no more than 64 unanswered requests, then reads on as answered",
      async () => {
        const started = await collecting(pair);
        const { client, transport } = started;
        const received = started.received as unknown as { id: number }[];
        const total = MAX_PENDING_REQUESTS * 3;
        const lines = Array.from({ length: total }, (_, i) => JSON.stringify(request(i + 1)));
        client.write(lines.join("\n") + "\n");
        await eventually(() => received.length === MAX_PENDING_REQUESTS, "the first requests");
        await new Promise((resolve) => setTimeout(resolve, 50));
        assert.equal(received.length, MAX_PENDING_REQUESTS, "read on without answers");
        for (const message of received.splice(0, 10)) {
          await transport.send({ jsonrpc: "2.0", id: message.id, result: {} });
        }
        await eventually(() => received.length === MAX_PENDING_REQUESTS, "ten more requests");
        // Answering everything lets every request through, in order.
        const ids: number[] = [];
        while (ids.length < total - 10) {
          const message = received.shift();
          if (message === undefined) {
            await new Promise((resolve) => setTimeout(resolve, 1));
            continue;
          }
          ids.push(message.id);
          await transport.send({ jsonrpc: "2.0", id: message.id, result: {} });
        }
        assert.deepEqual(ids, Array.from({ length: total - 10 }, (_, i) => i + 11));
        await transport.close();
      },
    );

    await t.step(
      "LineTransport answers a ping itself, at once, even behind a full window",
      async () => {
        const { client, transport, received } = await collecting(pair);
        const read = reader(client);
        const lines = Array.from(
          { length: MAX_PENDING_REQUESTS + 5 },
          (_, i) => JSON.stringify(request(i + 1)),
        );
        client.write(lines.join("\n") + "\n");
        await eventually(() => received.length === MAX_PENDING_REQUESTS, "a full window");
        client.write(JSON.stringify(request(1000, "ping")) + "\n");
        assert.deepEqual(await read.message(1), { jsonrpc: "2.0", id: 1000, result: {} });
        assert.equal(received.length, MAX_PENDING_REQUESTS, "the window is still full");
        assert.ok(!received.some((message) => (message as { id?: unknown }).id === 1000));
        await transport.close();
      },
    );

    await t.step(
      "LineTransport frees a cancelled request's place (it is never answered)",
      async () => {
        const { client, transport, received } = await collecting(pair);
        const lines = Array.from(
          { length: MAX_PENDING_REQUESTS + 1 },
          (_, i) => JSON.stringify(request(i + 1)),
        );
        client.write(lines.join("\n") + "\n");
        await eventually(() => received.length === MAX_PENDING_REQUESTS, "the first requests");
        client.write(JSON.stringify(cancelled(1)) + "\n");
        // The cancellation passes the request that waits, and gives it the place.
        await eventually(() => received.length === MAX_PENDING_REQUESTS + 2, "the rest");
        assert.deepEqual(received.slice(-2), [cancelled(1), request(MAX_PENDING_REQUESTS + 1)]);
        await transport.close();
      },
    );

    await t.step("LineTransport drops a request cancelled while it waits", async () => {
      const { client, transport, received } = await collecting(pair);
      const lines = Array.from(
        { length: MAX_PENDING_REQUESTS + 2 },
        (_, i) => JSON.stringify(request(i + 1)),
      );
      client.write(lines.join("\n") + "\n");
      await eventually(() => received.length === MAX_PENDING_REQUESTS, "the first requests");
      client.write(JSON.stringify(cancelled(MAX_PENDING_REQUESTS + 1)) + "\n");
      await new Promise((resolve) => setTimeout(resolve, 50));
      await transport.send({ jsonrpc: "2.0", id: 1, result: {} });
      await eventually(() => received.length === MAX_PENDING_REQUESTS + 1, "the last request");
      assert.deepEqual(received.at(-1), request(MAX_PENDING_REQUESTS + 2));
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(received.length, MAX_PENDING_REQUESTS + 1, "the cancelled one came through");
      await transport.close();
    });

    await t.step(
      "LineTransport refuses a request whose id is in flight with -32600, not counting it",
      async () => {
        const { client, transport, received } = await collecting(pair);
        const read = reader(client);
        client.write(Array(3).fill(JSON.stringify(request(5))).join("\n") + "\n");
        const first = await read.message(1) as { id: unknown; error: { code: number } };
        await read.message(2);
        assert.deepEqual(read.messages, [idInUseMessage(5), idInUseMessage(5)]);
        assert.equal(first.id, 5);
        assert.equal(first.error.code, -32600);
        assert.deepEqual(received, [request(5)]);
        // Once answered, the id is free again.
        await transport.send({ jsonrpc: "2.0", id: 5, result: {} });
        client.write(JSON.stringify(request(5)) + "\n");
        await eventually(() => received.length === 2, "the id used again");
        await transport.close();
      },
    );

    await t.step(
      "LineTransport keeps a cancelled request's place until the work it holds settles",
      async () => {
        const started = await collecting(pair);
        const { client, transport } = started;
        const received = started.received as unknown as { id?: number; method: string }[];
        let finish = () => {};
        const work = new Promise<void>((resolve) => (finish = resolve));
        const lines = Array.from(
          { length: MAX_PENDING_REQUESTS + 1 },
          (_, i) => JSON.stringify(request(i + 1)),
        );
        client.write(lines.join("\n") + "\n");
        await eventually(() => received.length === MAX_PENDING_REQUESTS, "the first requests");
        transport.holdUntilSettled(1, work);
        client.write(JSON.stringify(cancelled(1)) + "\n");
        await eventually(() => received.length === MAX_PENDING_REQUESTS + 1, "the cancellation");
        assert.deepEqual(received.at(-1), cancelled(1));
        await new Promise((resolve) => setTimeout(resolve, 50));
        assert.equal(received.length, MAX_PENDING_REQUESTS + 1, "a request went past the window");
        finish();
        await eventually(() => received.length === MAX_PENDING_REQUESTS + 2, "the last request");
        assert.deepEqual(received.at(-1), request(MAX_PENDING_REQUESTS + 1));
        await transport.close();
      },
    );

    await t.step("LineTransport reads the bytes it is given before the socket's", async () => {
      const { client, server } = await pair.connect();
      const initial = Buffer.from(JSON.stringify(request(1)) + "\n" + '{"jsonrpc":"2.0",');
      const transport = new LineTransport(server, initial);
      const received: JSONRPCMessage[] = [];
      transport.onmessage = (message) => received.push(message);
      await transport.start();
      client.write('"id":2,"method":"tools/list"}\n');
      await eventually(() => received.length === 2, "both requests");
      assert.deepEqual(received, [request(1), request(2)]);
      await transport.close();
    });

    await t.step("LineTransport answers a line over 4 MiB with -32700 and closes", async () => {
      const { client, server } = await pair.connect();
      const transport = new LineTransport(server);
      const received: JSONRPCMessage[] = [];
      let closed = false;
      transport.onmessage = (message) => received.push(message);
      transport.onclose = () => (closed = true);
      await transport.start();
      const read = reader(client);
      client.write(JSON.stringify(request(1)) + "\n");
      client.write(
        `{"jsonrpc":"2.0","id":2,"method":"x","params":{"pad":"${"a".repeat(MAX_LINE_BYTES)}"}}\n`,
      );
      await read.close();
      assert.equal(read.messages.length, 1);
      const error = read.messages[0] as { id: unknown; error: { code: number; message: string } };
      assert.equal(error.id, null);
      assert.equal(error.error.code, -32700);
      assert.match(error.error.message, /longer than 4194304 bytes/);
      assert.deepEqual(received, [request(1)]);
      assert.equal(closed, true);
      await assert.rejects(transport.send(request(9) as JSONRPCMessage), /closed/);
    });

    await t.step("LineTransport closes on an over-long line from a peer already gone", async () => {
      // The parse error cannot be written; that must not become an unhandled rejection.
      const { client, server } = await pair.connect();
      client.destroy();
      await new Promise<void>((resolve) => server.once("close", () => resolve()).resume());
      const transport = new LineTransport(server, Buffer.alloc(MAX_LINE_BYTES + 1, 0x61));
      let closed = false;
      transport.onclose = () => (closed = true);
      await transport.start();
      await new Promise((resolve) => setTimeout(resolve, 10));
      assert.equal(closed, true);
    });

    await t.step("LineTransport.close() ends the connection and is safe twice", async () => {
      const { client, server } = await pair.connect();
      const transport = new LineTransport(server);
      let closes = 0;
      transport.onclose = () => closes++;
      await transport.start();
      const read = reader(client);
      await transport.close();
      await transport.close();
      await read.close();
      assert.equal(closes, 1);
    });

    await t.step("LineTransport reports the peer closing", async () => {
      const { client, server } = await pair.connect();
      const transport = new LineTransport(server);
      const closed = new Promise<void>((resolve) => (transport.onclose = resolve));
      await transport.start();
      client.end();
      await closed;
    });

    await t.step("LineTransport.start() twice is refused", async () => {
      const { server } = await pair.connect();
      const transport = new LineTransport(server);
      await transport.start();
      assert.throws(() => transport.start(), /already started/);
      await transport.close();
    });
  } finally {
    await pair.close();
  }
});

Deno.test("readFirstLine()", async (t) => {
  const pair = await socketPair();
  try {
    await t.step("readFirstLine() returns the first line and the bytes after it", async () => {
      const { client, server } = await pair.connect();
      const first = readFirstLine(server);
      client.write("TOKEN abc\n" + '{"jsonrpc"');
      const { line, bytes, rest } = await first;
      assert.equal(line, "TOKEN abc");
      assert.equal(rest.toString(), '{"jsonrpc"');
      assert.equal(bytes.toString(), 'TOKEN abc\n{"jsonrpc"');
    });

    await t.step("readFirstLine() finds a newline in a later chunk", async () => {
      const { client, server } = await pair.connect();
      const first = readFirstLine(server);
      client.write("TOK");
      await new Promise((resolve) => setTimeout(resolve, 5));
      client.write("EN é");
      await new Promise((resolve) => setTimeout(resolve, 5));
      client.write("\nrest");
      const { line, rest } = await first;
      assert.equal(line, "TOKEN é");
      assert.equal(rest.toString(), "rest");
    });

    await t.step("readFirstLine() gives null when the peer closes first", async () => {
      const { client, server } = await pair.connect();
      const first = readFirstLine(server);
      client.end("partial");
      const { line, bytes } = await first;
      assert.equal(line, null);
      assert.equal(bytes.toString(), "partial");
    });

    await t.step("readFirstLine() gives null past the limit, with every byte read", async () => {
      const { client, server } = await pair.connect();
      const first = readFirstLine(server, 16);
      client.write("x".repeat(40));
      const { line, bytes, rest } = await first;
      assert.equal(line, null);
      assert.ok(bytes.length > 16);
      assert.equal(rest.length, 0);
    });
  } finally {
    await pair.close();
  }
});
