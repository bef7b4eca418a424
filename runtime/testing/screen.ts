/**
 * What the person sees, for tests: the cells of an app's last frame with their looks, as
 * plain rows, a look per cell in words, and one stable text form for snapshots.
 *
 * @module
 */

import type { Screen } from "../render/terminal/screen.ts";

/** The screen of a test app: what its last frame shows, cell by cell. */
export interface TestScreen {
  /** The width in cells. */
  readonly width: number;
  /** The height in cells. */
  readonly height: number;
  /** Each row's text, without the spaces at its end. */
  readonly lines: readonly string[];
  /** The rows joined by newlines, as `tmux capture-pane -p` shows them. */
  readonly text: string;
  /** The look of the cell at column `x` of row `y` in words: `fg=#d70000 bold`, `default`. */
  styleAt(x: number, y: number): string;
  /** The first cell where `text` shows (row by row, left to right), or undefined. */
  find(text: string): { x: number; y: number } | undefined;
  /**
   * The screen as stable text for snapshot tests: each row, then under it a row of one letter
   * per cell naming its look (`.` for the terminal's own), then a legend, a look a line:
   * `a fg=6`. Rows and letters end where the last cell that shows anything does.
   */
  styled(): string;
}

const LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/** A `TestScreen` of a painted screen. */
export function testScreen(screen: Screen): TestScreen {
  const { width, height, chars, styles, palette } = screen;
  const lines = Array.from({ length: height }, (_, y) => screen.line(y).trimEnd());
  const at = (x: number, y: number) => styles[y * width + x]!;
  return {
    width,
    height,
    lines,
    text: lines.join("\n"),
    styleAt(x, y) {
      if (x < 0 || y < 0 || x >= width || y >= height) {
        throw new RangeError(`(${x}, ${y}) is outside the ${width}×${height} screen`);
      }
      return palette.describe(at(x, y));
    },
    find(text) {
      for (let y = 0; y < height; y++) {
        const line = screen.line(y);
        const index = line.indexOf(text);
        if (index < 0) continue;
        // Columns, not string offsets: a wide character before it takes two cells.
        let x = 0;
        for (let cell = 0, offset = 0; cell < width && offset < index; cell++) {
          offset += chars[y * width + cell]!.length;
          x = cell + 1;
        }
        return { x, y };
      }
      return undefined;
    },
    styled() {
      const letters = new Map<number, string>([[0, "."]]);
      const legend: string[] = [];
      const out: string[] = [];
      for (let y = 0; y < height; y++) {
        let end = width;
        while (end > 0 && chars[y * width + end - 1] === " " && at(end - 1, y) === 0) end--;
        out.push(chars.slice(y * width, y * width + end).join(""));
        let row = "";
        for (let x = 0; x < end; x++) {
          const look = at(x, y);
          let letter = letters.get(look);
          if (letter === undefined) {
            letter = LETTERS[letters.size - 1] ?? "?";
            letters.set(look, letter);
            legend.push(`${letter} ${palette.describe(look)}`);
          }
          if (chars[y * width + x] !== "") row += letter; // a wide character's right half
        }
        out.push(row);
      }
      return [...out, ...legend].join("\n") + "\n";
    },
  };
}
