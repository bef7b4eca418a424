/**
 * `ui_screenshot` from the app's side: a picture of its own cells as the server sends it
 * (base64 and what it shows), and the tool result that carries a screenshot: an `image/png`
 * content, then a marked text with the revision and the picture's size. The picture shows
 * the app's UI, so its text is the app's and is marked as such.
 *
 * @module
 */

import { Buffer } from "node:buffer";
import type { App } from "../app/app.ts";
import { appScreenshot } from "../render/picture/app_screenshot.ts";
import type { HostScreenshot, HostScreenshotOptions } from "./host.ts";
import type { CallToolResult } from "./sdk.ts";
import { appJson, untrustedText } from "./untrusted.ts";

/** A screenshot of `app`'s cells, as a host answers `screenshot()`. */
export async function cellScreenshot(
  app: App,
  options: HostScreenshotOptions,
): Promise<HostScreenshot> {
  const shot = await appScreenshot(app, options);
  return {
    png: Buffer.from(shot.png.buffer, shot.png.byteOffset, shot.png.byteLength).toString(
      "base64",
    ),
    revision: shot.revision,
    source: "cells",
    width: shot.width,
    height: shot.height,
    columns: shot.columns,
    rows: shot.rows,
    scale: shot.scale,
  };
}

/** The tool result of a screenshot: the image, then what it shows. */
export function screenshotResult(shot: HostScreenshot): CallToolResult {
  const { png, revision, ...about } = shot;
  return {
    content: [
      { type: "image", data: png, mimeType: "image/png" },
      { type: "text", text: untrustedText(appJson(about), { revision }) },
    ],
  };
}
