/**
 * An app's screenshot from its own cells: the frame waiting (if any) is run, then the last
 * frame is painted by the renderer's own paint code at 24-bit colour and drawn as a PNG.
 * `ui_screenshot` (when no compositor offers a screenshot), the harness's `screenshot()` and
 * an embedder's `AppHost` all come here.
 *
 * @module
 */

import type { App } from "../../app/app.ts";
import type { ColourDepth } from "../terminal/colour.ts";
import type { Screen } from "../terminal/screen.ts";
import { type Screenshot, screenshotOf, type ScreenshotOptions } from "./picture.ts";

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

/**
 * A screenshot of `app`'s window: the cells of the frame that shows its current revision.
 * Throws Error ({@link NO_CELLS_MESSAGE}) when its renderer cannot paint cells, TypeError
 * for a bad scale.
 */
export async function appScreenshot(
  app: App,
  options: ScreenshotOptions = {},
): Promise<AppScreenshot> {
  const renderer = app.renderer as Partial<PaintsCells>;
  if (typeof renderer.paint !== "function") throw new Error(NO_CELLS_MESSAGE);
  if (app.framePending) app.frame();
  const revision = app.tree.revision;
  const screen = renderer.paint("truecolor");
  return { ...(await screenshotOf(screen, app.theme, options)), revision };
}
