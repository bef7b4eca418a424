/**
 * The renderer interface: what draws an app's frames and feeds it a person's input. The
 * headless renderer draws nothing (tests, CI, servers); the terminal renderer draws cells.
 *
 * @module
 */

import type { Element } from "../ui/element.ts";
import type { SemanticTree } from "../semantics/mod.ts";

/** What a renderer sees of an app at each frame. */
export interface RenderSource {
  /** The window element: the root of every element drawn. */
  readonly root: Element;
  /** The semantic tree, laid out for this frame. */
  readonly tree: SemanticTree;
  /** The window title. */
  readonly title: string;
  /** The element with focus, if any. */
  readonly focused: Element | null;
  /** Overlays (dialogs) to draw above the content, bottom first. */
  readonly overlays: readonly Element[];
}

/** Draws frames. One instance serves one app. */
export interface Renderer {
  /** `headless` or `terminal`. */
  readonly kind: string;
  /** The window size in cells. */
  size(): { width: number; height: number };
  /** Draws the frame; called after layout, before the revision is committed. */
  render(source: RenderSource): void;
  /** Releases what the renderer holds (the terminal's modes); safe to call twice. */
  close(): void;
}
