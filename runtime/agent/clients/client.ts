/**
 * The client side of an app's socket, for `crownmcp`, `crowndev` and tests: connect, send
 * the `TOKEN` line when there is a token, and speak MCP over the line transport.
 *
 * @module
 */

import * as net from "node:net";
import { LineTransport } from "../transport/line_transport.ts";
import { Client as SdkClient } from "../transport/sdk.ts";

/**
 * Opens a socket to an app; sends `TOKEN <token>` first when a token is given. With
 * `timeoutMs`, fails when the connection is not made in that time.
 */
export function openAppSocket(
  path: string,
  token?: string,
  timeoutMs?: number,
): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.createConnection(path);
    const timer = timeoutMs === undefined ? undefined : setTimeout(() => {
      socket.destroy();
      reject(new Error(`the socket took no connection within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.once("connect", () => {
      clearTimeout(timer);
      socket.removeAllListeners("error");
      if (token !== undefined && token !== "") socket.write(`TOKEN ${token}\n`);
      resolve(socket);
    });
  });
}

/**
 * The longest line a client accepts from an app, in bytes. The 4 MiB limit protects the app
 * from its clients; an app's own answers (the inspect snapshot of a 10,000-row list) can be
 * larger, so clients allow more.
 */
export const CLIENT_MAX_LINE_BYTES = 256 * 1024 * 1024;

/** Options for `connectToApp`. */
export interface ConnectOptions {
  /** The token to send first, for an app whose gate asks for one. */
  token?: string | undefined;
  /** The client's name in `initialize`; `crownui-client` by default. */
  name?: string;
  /** The client's version in `initialize`; `0.1.0` by default. */
  version?: string;
  /** How long connecting and `initialize` may each take, in milliseconds (no limit by default). */
  timeoutMs?: number;
}

/** The MCP SDK's client, as `connectToApp` returns it: connected to one app. */
export type Client = SdkClient;

/** Connects an MCP client to the app listening at `path`. */
export async function connectToApp(path: string, options: ConnectOptions = {}): Promise<Client> {
  const socket = await openAppSocket(path, options.token, options.timeoutMs);
  const client = new SdkClient(
    { name: options.name ?? "crownui-client", version: options.version ?? "0.1.0" },
    { capabilities: {} },
  );
  const transport = new LineTransport(socket, undefined, CLIENT_MAX_LINE_BYTES);
  const timeout = options.timeoutMs;
  await client.connect(transport, timeout === undefined ? undefined : { timeout });
  return client;
}
