/**
 * A check that data claimed to be a PNG is one, before it reaches an agent as `image/png`:
 * the compositor is trusted to ask the user, not to send well-formed images, and an agent
 * that renders or forwards the data should get what the MIME type says.
 *
 * The check is cheap and looks only at the start: strict base64 all through, the 8-byte PNG
 * signature, and a first chunk that is an `IHDR` of 13 bytes with a non-zero width and height
 * and a correct CRC. It does not decode the image.
 *
 * @module
 */

import { crc32 } from "../../render/picture/png.ts";

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** Signature (8) + IHDR length (4), type (4), data (13) and CRC (4). */
const HEADER_BYTES = 33;
const BASE64 = /^[A-Za-z0-9+/]*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * Says why `data` is not a base64-encoded PNG, or returns `null` when it is one as far as
 * its header goes.
 */
export function pngProblem(data: string): string | null {
  if (data.length % 4 !== 0 || !BASE64.test(data)) return "it is not valid base64";
  const head = Uint8Array.from(
    atob(data.slice(0, Math.ceil(HEADER_BYTES / 3) * 4)),
    (char) => char.charCodeAt(0),
  );
  if (head.length < SIGNATURE.length || SIGNATURE.some((byte, i) => head[i] !== byte)) {
    return "it does not start with the PNG signature";
  }
  if (head.length < HEADER_BYTES) return "it ends before its IHDR chunk does";
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const type = String.fromCharCode(...head.subarray(12, 16));
  if (view.getUint32(8) !== 13 || type !== "IHDR") return "its first chunk is not an IHDR";
  if (view.getUint32(16) === 0 || view.getUint32(20) === 0) {
    return "its IHDR gives a width or height of 0";
  }
  if (crc32(head.subarray(12, 29)) !== view.getUint32(29)) {
    return "its IHDR chunk has a wrong CRC";
  }
  return null;
}

/**
 * Returns `data` when it is a base64-encoded PNG; throws an error that says why otherwise.
 *
 * @param what what the data is, for the message (`"the compositor sent a screenshot"`)
 * @throws {Error} `<what> that is not a PNG: <reason>`
 */
export function checkPng(data: string, what: string): string {
  const problem = pngProblem(data);
  if (problem !== null) throw new Error(`${what} that is not a PNG: ${problem}`);
  return data;
}
