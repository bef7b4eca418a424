/**
 * An app's screenshot from its own cells: the frame waiting (if any) is run, then the last
 * frame is painted by the renderer's own paint code at 24-bit colour (`appCells()`, on the UI
 * thread: a millisecond or two) and drawn as a PNG (`drawCells()`: the app's own server does
 * that in its worker, the harness and an embedder's `AppHost` on their thread).
 *
 * @module
 */

import type { App } from "../../app/app.ts";
import type { ColourDepth } from "../terminal/colour.ts";
import type { Screen } from "../terminal/screen.ts";
import {
  type CellFrame,
  cellFrame,
  drawCells,
  type Screenshot,
  type ScreenshotOptions,
} from "./picture.ts";

/** A screenshot of an app, with the revision of the tree it shows. */
export interface AppScreenshot extends Screenshot {
  /** The revision of the frame the picture shows. */
  readonly revision: number;
}

/** A renderer that can paint its last frame into cells: the headless and terminal ones. */
interface PaintsCells {
  paint(depth: ColourDepth): Screen;
}

/** The message when the app's renderer keeps no cells to draw. */
export const NO_CELLS_MESSAGE =
  "screenshots are not available: this app's renderer keeps no cells; read ui_tree, or the layout in inspect_snapshot";

/** The cells of an app's window, and the revision they show. */
export interface AppCells {
  /** The cells, as plain data (they may be posted to a worker and drawn there). */
  frame: CellFrame;
  /** The revision of the frame they show. */
  revision: number;
}

/**
 * The cells of the frame that shows `app`'s current revision (the frame waiting, if any, is
 * run first), painted by its renderer at 24-bit colour: the cheap part of a screenshot, on
 * the UI thread. Throws Error ({@link NO_CELLS_MESSAGE}) when the renderer cannot paint
 * cells.
 */
export function appCells(app: App): AppCells {
  const renderer = app.renderer as Partial<PaintsCells>;
  if (typeof renderer.paint !== "function") throw new Error(NO_CELLS_MESSAGE);
  if (app.framePending) app.frame();
  const revision = app.tree.revision;
  return { frame: cellFrame(renderer.paint("truecolor"), app.theme), revision };
}

/**
 * A screenshot of `app`'s window: its cells (`appCells()`) drawn and encoded on this thread.
 * Throws as `appCells()` does, and TypeError for a bad scale.
 */
export async function appScreenshot(
  app: App,
  options: ScreenshotOptions = {},
): Promise<AppScreenshot> {
  const { frame, revision } = appCells(app);
  return { ...(await drawCells(frame, options)), revision };
}
