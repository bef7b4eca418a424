/**
 * `ui_screenshot` from the app's side: a picture of its own cells as the server sends it
 * (base64 and what it shows). The tool result that carries it is `screenshotResult()` in
 * `session/tool_calls.ts`.
 *
 * @module
 */

import { Buffer } from "node:buffer";
import type { App } from "../../app/app.ts";
import { appScreenshot } from "../../render/picture/app_screenshot.ts";
import type { HostScreenshot, HostScreenshotOptions } from "./host.ts";

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
