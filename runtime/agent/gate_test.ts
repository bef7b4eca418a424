import assert from "node:assert/strict";
import { type AccessGate, AllGates, type PeerInfo, SameUserGate, TokenGate } from "./gate.ts";

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
