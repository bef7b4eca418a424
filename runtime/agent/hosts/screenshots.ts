/**
 * `ui_screenshot` from the app's side: a picture of its own cells as the server sends it
 * (base64 and what it shows). The tool result that carries it is `screenshotResult()` in
 * `session/tool_calls.ts`.
 *
 * @module
 */

import { Buffer } from "node:buffer";
import type { App } from "../../app/app.ts";
import { type AppCells, appScreenshot } from "../../render/picture/app_screenshot.ts";
import { drawCells, type Screenshot } from "../../render/picture/picture.ts";
import type { HostScreenshot, HostScreenshotOptions } from "./host.ts";

/** A screenshot of `app`'s cells, as a host answers `screenshot()`. */
export async function cellScreenshot(
  app: App,
  options: HostScreenshotOptions,
): Promise<HostScreenshot> {
  const shot = await appScreenshot(app, options);
  return answerOf(shot, shot.revision);
}

/**
 * A screenshot of cells the UI thread sent (`appCells()`), drawn here: in the server worker,
 * so that the UI thread spends only the painting of the cells on it.
 */
export async function drawnScreenshot(
  cells: AppCells,
  options: HostScreenshotOptions,
): Promise<HostScreenshot> {
  return answerOf(await drawCells(cells.frame, options), cells.revision);
}

function answerOf(shot: Screenshot, revision: number): HostScreenshot {
  return {
    png: Buffer.from(shot.png.buffer, shot.png.byteOffset, shot.png.byteLength).toString(
      "base64",
    ),
    revision,
    source: "cells",
    width: shot.width,
    height: shot.height,
    columns: shot.columns,
    rows: shot.rows,
    scale: shot.scale,
  };
}
