import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import * as net from "node:net";
import { join } from "node:path";
import { component, text } from "../../mod.ts";
import { render } from "../../testing.ts";
import { AppHost } from "../hosts/app_host.ts";
import { type AccessGate, AllGates, type PeerInfo, SameUserGate, TokenGate } from "./gate.ts";
import { AgentServer } from "../server/server.ts";
import { socketPathFor } from "../transport/socket_dir.ts";

function peer(uid: number, token?: string): PeerInfo {
  return { pid: 4242, uid, gid: uid, token };
}

Deno.test("SameUserGate", async (t) => {
  await t.step("SameUserGate lets in the same uid only", () => {
    const gate = new SameUserGate(1000);
    assert.equal(gate.name, "SameUserGate");
    assert.equal(gate.allows(peer(1000)), true);
    assert.equal(gate.allows(peer(1001)), false);
    assert.equal(gate.allows(peer(0)), false);
  });

  await t.step("SameUserGate ignores any token", () => {
    const gate = new SameUserGate(1000);
    assert.equal(gate.allows(peer(1000, "anything")), true);
    assert.equal(gate.allows(peer(65534, "anything")), false);
  });

  await t.step("SameUserGate lets root in only as root", () => {
    assert.equal(new SameUserGate(0).allows(peer(0)), true);
    assert.equal(new SameUserGate(0).allows(peer(65534)), false);
  });

  await t.step("SameUserGate refuses a uid that is not one", () => {
    for (const uid of [-1, 1.5, Number.NaN]) {
      assert.throws(() => new SameUserGate(uid), TypeError);
    }
  });
});

Deno.test("TokenGate", async (t) => {
  const gate = new TokenGate("s3cret-Tøken");

  await t.step("TokenGate lets in the right token, whatever the uid", () => {
    assert.equal(gate.name, "TokenGate");
    assert.equal(gate.allows(peer(1000, "s3cret-Tøken")), true);
    assert.equal(gate.allows(peer(65534, "s3cret-Tøken")), true);
  });

  await t.step("TokenGate refuses a wrong token of the same length", () => {
    assert.equal(gate.allows(peer(1000, "s3cret-Tøkem")), false);
    assert.equal(gate.allows(peer(1000, "S3CRET-TØKEN")), false);
  });

  await t.step("TokenGate refuses a missing token", () => {
    assert.equal(gate.allows(peer(1000)), false);
    assert.equal(gate.allows(peer(1000, "")), false);
  });

  await t.step("TokenGate refuses tokens of another length, prefixes and extensions too", () => {
    for (
      const token of ["s3cret", "s3cret-Tøken ", "s3cret-Tøken-and-more", "x", " s3cret-Tøken"]
    ) {
      assert.equal(gate.allows(peer(1000, token)), false, token);
    }
  });

  await t.step("TokenGate compares bytes, not UTF-16 units", () => {
    // "ø" is 2 bytes in UTF-8: a token of the same UTF-16 length but other bytes must fail.
    assert.equal(gate.allows(peer(1000, "s3cret-Token")), false);
  });

  await t.step("TokenGate refuses to be made without a usable token", () => {
    assert.throws(() => new TokenGate(""), TypeError);
    assert.throws(() => new TokenGate("a\nb"), /line break/);
    assert.throws(() => new TokenGate("a\rb"), /line break/);
  });
});

Deno.test("AllGates", async (t) => {
  const sameUser = new SameUserGate(1000);
  const token = new TokenGate("tok");
  const both = new AllGates(sameUser, token);

  await t.step("AllGates names the gates it joins", () => {
    assert.equal(both.name, "SameUserGate+TokenGate");
  });

  await t.step("a gate decides from credentials alone only when every gate in it does", () => {
    assert.equal(sameUser.credentialsOnly, true);
    assert.equal(token.credentialsOnly, false);
    assert.equal(both.credentialsOnly, false);
    assert.equal(new AllGates(sameUser, new SameUserGate(1001)).credentialsOnly, true);
    assert.equal(
      new AllGates(sameUser, { name: "Custom", allows: () => true }).credentialsOnly,
      false,
    );
  });

  await t.step("AllGates lets in only what every gate lets in", () => {
    assert.equal(both.allows(peer(1000, "tok")), true);
    assert.equal(both.allows(peer(1000, "bad")), false);
    assert.equal(both.allows(peer(1000)), false);
    assert.equal(both.allows(peer(1001, "tok")), false);
  });

  await t.step("AllGates asks each gate with the same peer", () => {
    const seen: PeerInfo[] = [];
    const recording: AccessGate = {
      name: "Recording",
      allows: (info) => {
        seen.push(info);
        return true;
      },
    };
    const info = peer(1000, "tok");
    assert.equal(new AllGates(recording, sameUser).allows(info), true);
    assert.deepEqual(seen, [info]);
  });
});

/** What came back on a connection that sent `bytes` first, by the time it closed. */
async function exchange(path: string, bytes: string): Promise<string> {
  const socket = net.createConnection(path);
  const received: Buffer[] = [];
  socket.on("data", (chunk: Buffer) => received.push(chunk));
  socket.on("error", () => {});
  const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
  await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
  socket.write(bytes);
  // Served: the answer to initialize arrives, and the test hangs up. Refused: the app does.
  const answered = new Promise<void>((resolve) =>
    socket.on("data", () => {
      if (Buffer.concat(received).includes("\n")) resolve();
    })
  );
  let timer: ReturnType<typeof setTimeout> | undefined;
  const guard = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("neither an answer nor a close came")), 20_000);
  });
  try {
    await Promise.race([closed, answered, guard]);
  } finally {
    clearTimeout(timer);
    socket.destroy();
  }
  return Buffer.concat(received).toString("utf8");
}

Deno.test("TokenGate behind a real socket: only the exact TOKEN line lets a client in", async (t) => {
  const token = "s3cret-Tøken";
  const initialize = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "t", version: "0" },
    },
  }) + "\n";
  const dir = await Deno.makeTempDir({ prefix: "crownui-gate-test-" });
  await using app = await render(component(() => text("gate")), { title: "Gate Test" });
  const server = new AgentServer({
    host: new AppHost(app.app),
    gate: new TokenGate(token),
    socketPath: socketPathFor(join(dir, "crownui"), "Gate Test", 1),
    log: () => {},
  });
  await server.start();
  try {
    await t.step("the right token is served", async () => {
      const answer = await exchange(server.socketPath, `TOKEN ${token}\n${initialize}`);
      assert.equal(JSON.parse(answer).id, 1, answer);
      assert.ok(JSON.parse(answer).result !== undefined, answer);
    });

    const refused: [string, string][] = [
      ["a wrong token of the same length", `TOKEN s3cret-Tøkem\n`],
      ["a shorter token (a prefix)", `TOKEN ${token.slice(0, -1)}\n`],
      ["a one-character prefix", `TOKEN s\n`],
      ["a longer token (an extension)", `TOKEN ${token}x\n`],
      ["a much longer token", `TOKEN ${token.repeat(1000)}\n`],
      ["the token with a trailing space", `TOKEN ${token} \n`],
      ["the token after two spaces", `TOKEN  ${token}\n`],
      ["an empty token", `TOKEN \n`],
      ["a TOKEN line with no space or token", `TOKEN\n`],
      ["the keyword in lower case", `token ${token}\n`],
      ["no TOKEN line at all", ``],
      ["the TOKEN line after the first line", `${initialize}TOKEN ${token}\n`],
    ];
    for (const [what, first] of refused) {
      await t.step(`${what} is closed without a byte`, async () => {
        const answer = await exchange(server.socketPath, first + initialize);
        assert.equal(answer, "", `${what}: ${JSON.stringify(first)} was answered`);
      });
    }

    await t.step("the right token is still served after the refusals", async () => {
      const answer = await exchange(server.socketPath, `TOKEN ${token}\n${initialize}`);
      assert.equal(JSON.parse(answer).id, 1, answer);
      assert.ok(JSON.parse(answer).result !== undefined, answer);
    });
  } finally {
    await server.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
