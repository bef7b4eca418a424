/**
 * The gating of `AgentServer`'s connections: it reads the kernel's peer credentials, asks a
 * credentials-only gate before reading a byte, turns away connections past the cap, reads the
 * optional `TOKEN` line, and asks the gate. A refused connection is destroyed and goes to the
 * refusal log; one of the app's own user that hangs up without a word (a liveness check) is
 * let go quietly.
 *
 * @module
 */

import type { Buffer } from "node:buffer";
import type * as net from "node:net";
import { peerCredentials } from "../../../ffi/mod.ts";
import type { AccessGate } from "./gate.ts";
import { readFirstLine } from "../transport/line_splitter.ts";
import type { RefusalLog } from "./refusal_log.ts";
import type { SocketListener } from "../transport/socket_listener.ts";

/** What `admitConnection()` decides with. */
export interface Admission {
  /** Who may connect. */
  gate: AccessGate;
  /** Where refusals are logged. */
  refusals: RefusalLog;
  /** Where other log lines go. */
  log: (line: string) => void;
  /** The uid of the app's own user. */
  ownUid: number;
  /** The listener that accepted the connection, for its connection cap. */
  listener: SocketListener;
}

function socketDescriptor(socket: net.Socket): number | undefined {
  const handle = (socket as unknown as { _handle?: { fd?: unknown } })._handle;
  return typeof handle?.fd === "number" ? handle.fd : undefined;
}

/**
 * Decides whether a freshly accepted connection may be served. Returns the bytes the peer sent
 * past its `TOKEN` line (or all it sent, with no such line) when it may; null when it was
 * turned away, its socket then destroyed or on its way out.
 */
export async function admitConnection(
  socket: net.Socket,
  admission: Admission,
): Promise<Buffer | null> {
  const { gate, refusals, listener } = admission;
  const fd = socketDescriptor(socket);
  let credentials;
  try {
    if (fd === undefined) throw new Error("the connection has no file descriptor");
    credentials = peerCredentials(fd);
  } catch (error) {
    admission.log(
      `refused a connection: cannot read its peer credentials: ${(error as Error).message}`,
    );
    socket.destroy();
    return null;
  }
  const who = `pid ${credentials.pid} uid ${credentials.uid}`;
  if (gate.credentialsOnly === true && !gate.allows({ ...credentials, token: undefined })) {
    // Decided from the kernel's word alone: not one byte of the peer's is read.
    refusals.refused(`refused a connection from ${who}: ${gate.name} did not allow it`);
    socket.destroy();
    return null;
  }
  if (listener.overLimit) {
    listener.refuseOverLimit(socket, credentials.uid === admission.ownUid);
    refusals.refused(
      `refused a connection from ${who}: too many connections (at most ${listener.maxConnections})`,
    );
    return null;
  }
  const first = await readFirstLine(socket);
  if (first.line === null && first.bytes.length === 0 && credentials.uid === admission.ownUid) {
    // Our own user hung up without a word: a liveness check by crownmcp or crowndev, not an
    // attempt worth a log line. Anyone else who does so still goes to the gate and the log.
    socket.destroy();
    return null;
  }
  let token: string | undefined;
  let initial = first.bytes;
  if (first.line !== null && first.line.startsWith("TOKEN ")) {
    token = first.line.slice("TOKEN ".length).replace(/\r$/, "");
    initial = first.rest;
  }
  if (!gate.allows({ ...credentials, token })) {
    refusals.refused(`refused a connection from ${who}: ${gate.name} did not allow it`);
    socket.destroy();
    return null;
  }
  return initial;
}
