/**
 * libc calls for what Deno lacks: peer credentials of Unix sockets and the user id.
 *
 * @module
 */

export { getuid, type PeerCredentials, peerCredentials } from "./libc.ts";
