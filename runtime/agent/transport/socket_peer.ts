/**
 * Who is at the other end of a connected `node:net` Unix socket, as the kernel says. Deno's
 * own `Deno.listen`/`Deno.connect` expose no descriptor; a `node:net` socket in Deno 2.9 keeps
 * one on its private handle, which is the one place this module reaches into.
 *
 * @module
 */

import type * as net from "node:net";
import { type PeerCredentials, peerCredentials } from "../../../ffi/mod.ts";

export type { PeerCredentials };

/** The file descriptor of a connected `node:net` socket, or `undefined` when it has none. */
export function socketDescriptor(socket: net.Socket): number | undefined {
  const handle = (socket as unknown as { _handle?: { fd?: unknown } })._handle;
  return typeof handle?.fd === "number" && handle.fd >= 0 ? handle.fd : undefined;
}

/**
 * The peer credentials of a connected `node:net` Unix socket (a server's accepted socket or
 * a client's own), read with `SO_PEERCRED` (`getpeereid` on macOS).
 *
 * @throws {Error} when the socket has no descriptor, FFI is not allowed, or the system
 * cannot tell (callers that decide trust must treat this as a refusal)
 */
export function socketPeer(socket: net.Socket): PeerCredentials {
  const fd = socketDescriptor(socket);
  if (fd === undefined) throw new Error("the connection has no file descriptor");
  return peerCredentials(fd);
}
