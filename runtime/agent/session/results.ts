/**
 * The shapes of tool results: one text, a plain error, app data marked as untrusted, a
 * screenshot. Refusals carry only the server's own words; whatever carries app text starts
 * with the marked header.
 *
 * @module
 */

import type { HostScreenshot } from "../hosts/host.ts";
import type { CallToolResult } from "../transport/sdk.ts";
import { appJson, untrustedText } from "./untrusted.ts";

/** A tool result carrying one text. */
export function textResult(text: string): CallToolResult {
  return { content: [{ type: "text", text }] };
}

/** A tool error carrying the message as plain text. */
export function errorResult(message: string): CallToolResult {
  return { content: [{ type: "text", text: message }], isError: true };
}

/**
 * A result that carries app text: the marked header (with the revision, when given), then
 * `content` as one line of JSON.
 */
export function untrustedResult(content: unknown, revision?: number): CallToolResult {
  return textResult(untrustedText(appJson(content), { revision }));
}

/**
 * The tool result of a screenshot: an `image/png` content, then a marked text with the
 * revision and the picture's size. The picture shows the app's UI, so its text is the app's
 * and is marked as such.
 */
export function screenshotResult(shot: HostScreenshot): CallToolResult {
  const { png, revision, ...about } = shot;
  return {
    content: [
      { type: "image", data: png, mimeType: "image/png" },
      { type: "text", text: untrustedText(appJson(about), { revision }) },
    ],
  };
}

/** An error's message, or the thrown value as text. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
