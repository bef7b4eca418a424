/**
 * `probeListener()`: finds out whether a `node:net` server still accepts connections. Under
 * Deno, a listener whose `accept` fails for want of file descriptors (EMFILE, ENFILE) stops
 * accepting for good, without an `error` event: connections then wait in the kernel's backlog
 * and are never served, even after descriptors are free again. The only way to tell is to
 * connect and see whether the server accepts anything.
 *
 * @module
 */

import * as net from "node:net";

/** What a probe found. */
export type ProbeResult =
  /** The listener accepted a connection while the probe waited. */
  | "accepting"
  /** The probe's connection waited unaccepted: the accept loop has stopped. */
  | "stalled"
  /** This process has no descriptor left for the probe itself (EMFILE, ENFILE). */
  | "out of descriptors"
  /** The socket could not be reached (gone, or its backlog full): nothing to conclude. */
  | "unreachable";

/** How long a probe waits for the listener, in milliseconds, twice over. */
export const PROBE_WAIT_MS = 1000;

/** True for the errors that say the process (or the system) has no descriptor left. */
export function isOutOfDescriptors(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "EMFILE" || code === "ENFILE";
}

/**
 * Connects to `path` and waits until `accepted()` (the server's count of accepted
 * connections) moves. It waits twice, in two turns of the event loop, so that a server that
 * was merely busy gets to its pending accept before the listener is called stalled.
 *
 * @param path the listener's socket path
 * @param accepted how many connections the server has accepted so far
 * @param waitMs how long each of the two waits lasts
 */
export async function probeListener(
  path: string,
  accepted: () => number,
  waitMs: number = PROBE_WAIT_MS,
): Promise<ProbeResult> {
  const before = accepted();
  let socket: net.Socket;
  try {
    socket = net.connect(path);
  } catch (error) {
    return isOutOfDescriptors(error) ? "out of descriptors" : "unreachable";
  }
  try {
    const connected = await new Promise<true | ProbeResult>((resolve) => {
      socket.once("connect", () => resolve(true));
      socket.once(
        "error",
        (error) => resolve(isOutOfDescriptors(error) ? "out of descriptors" : "unreachable"),
      );
    });
    if (connected !== true) return connected;
    for (let wait = 0; wait < 2; wait++) {
      await new Promise((resolve) => setTimeout(resolve, waitMs));
      if (accepted() !== before) return "accepting";
    }
    return "stalled";
  } finally {
    socket.destroy();
  }
}
