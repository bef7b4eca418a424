/**
 * The renderer interface: what draws an app's frames and feeds it a person's input. The
 * headless renderer draws nothing (tests, CI, servers); the terminal renderer draws cells.
 *
 * @module
 */

import type { Widget } from "../ui/widget.ts";
import type { SemanticTree } from "../semantics/mod.ts";
import type { Theme } from "../ui/theme.ts";

/** What a renderer sees of an app at each frame. */
export interface RenderSource {
  /** The window element: the root of every element drawn. */
  readonly root: Widget;
  /** The semantic tree, laid out for this frame. */
  readonly tree: SemanticTree;
  /** The window title. */
  readonly title: string;
  /** The element with focus, if any. */
  readonly focused: Widget | null;
  /** Overlays (dialogs) to draw above the content, bottom first. */
  readonly overlays: readonly Widget[];
  /** The theme the app is drawn in. */
  readonly theme: Theme;
  /**
   * The app's keybindings the hint line shows now: those that apply and have a hint, oldest
   * first.
   */
  keyHints(): readonly { key: string; description: string }[];
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
  /**
   * Told where the app's MCP server listens, or null once it has stopped: the agent bridge
   * tells the app (`App.announceServer()`), which tells its renderer. A renderer that shows
   * the socket (the terminal's status line) implements this and records the line
   * `MCP server listening <path>` itself; without it the app logs that line.
   */
  serverListening?(socketPath: string | null): void;
}
