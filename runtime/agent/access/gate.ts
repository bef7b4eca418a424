/**
 * Access gates: each connection is let in or turned away after `accept`, from the kernel's
 * peer credentials and the optional `TOKEN <token>` line the client sent first.
 *
 * @module
 */

import { timingSafeEqual } from "node:crypto";

/** What a gate knows of a connection. */
export interface PeerInfo {
  /** The peer's process id, from the kernel. */
  pid: number;
  /** The user id the peer runs as, from the kernel. */
  uid: number;
  /** The group id the peer runs as, from the kernel. */
  gid: number;
  /** The token from a `TOKEN` line, when the client sent one. */
  token: string | undefined;
}

/** Decides whether a connection may use the server. */
export interface AccessGate {
  /** A short name for logs, such as `SameUserGate`. */
  readonly name: string;
  /**
   * True when `allows` looks at the peer's credentials only, never at a token: the server
   * then decides before it reads a byte from the connection, so a refused peer cannot make
   * it read anything. Leave it out (or false) when the token matters.
   */
  readonly credentialsOnly?: boolean;
  /** True to let the connection in. */
  allows(peer: PeerInfo): boolean;
}

/** Lets in processes of one user only: the one running the app. What `AppConfig` uses. */
export class SameUserGate implements AccessGate {
  readonly name = "SameUserGate";
  /** It decides from the peer's uid alone. */
  readonly credentialsOnly = true;
  /** The one user let in. */
  readonly uid: number;

  /**
   * Creates a gate for one user; throws TypeError when `uid` is not a non-negative integer.
   *
   * @param uid the user to let in: the app's own
   */
  constructor(uid: number) {
    if (!Number.isInteger(uid) || uid < 0) {
      throw new TypeError(`SameUserGate needs a uid, got ${uid}`);
    }
    this.uid = uid;
  }

  /** True when the peer runs as the same user. */
  allows(peer: PeerInfo): boolean {
    return peer.uid === this.uid;
  }
}

const encoder = new TextEncoder();

/** Lets in connections that sent the right token, compared in constant time. */
export class TokenGate implements AccessGate {
  readonly name = "TokenGate";
  /** It needs the token line, so the server reads the first line before asking. */
  readonly credentialsOnly = false;
  readonly #token: Uint8Array;

  /**
   * Creates a gate for one token; throws TypeError when it is empty or holds a line break.
   *
   * @param token the secret clients must send as `TOKEN <token>`
   */
  constructor(token: string) {
    if (typeof token !== "string" || token.length === 0) {
      throw new TypeError("TokenGate needs a non-empty token");
    }
    if (/[\r\n]/.test(token)) throw new TypeError("a token cannot contain a line break");
    this.#token = encoder.encode(token);
  }

  /** True when the peer sent the same token. */
  allows(peer: PeerInfo): boolean {
    if (peer.token === undefined) return false;
    const given = encoder.encode(peer.token);
    // Compare equal lengths only, and always do a comparison, so timing says nothing.
    const same = given.length === this.#token.length;
    return timingSafeEqual(same ? given : this.#token, this.#token) && same;
  }
}

/** Lets in a connection only when every gate does. */
export class AllGates implements AccessGate {
  readonly name: string;
  /** True when every gate decides from credentials alone. */
  readonly credentialsOnly: boolean;
  readonly #gates: readonly AccessGate[];

  /**
   * Combines gates; the combined gate's name joins theirs with `+`.
   *
   * @param gates the gates that must all allow
   */
  constructor(...gates: AccessGate[]) {
    this.#gates = gates;
    this.name = gates.map((gate) => gate.name).join("+");
    this.credentialsOnly = gates.every((gate) => gate.credentialsOnly === true);
  }

  /** True when every gate allows the peer. */
  allows(peer: PeerInfo): boolean {
    return this.#gates.every((gate) => gate.allows(peer));
  }
}
