/**
 * Colours as a terminal takes them: how many it can show (its depth, read from the
 * environment: `COLORTERM`, `TERM`, `NO_COLOR`, `FORCE_COLOR`), a theme's colours turned into
 * codes, and those codes brought down to the depth in SGR sequences (24-bit colours to the
 * nearest of the 256, those to the nearest of the 16, none at all without colour).
 *
 * @module
 */

import { TERMINAL_COLOURS } from "../../ui/style.ts";
import type { ConcreteColour } from "../../ui/theme.ts";

/** How many colours a terminal shows: 24-bit, the 256 palette, the 16, or none. */
export type ColourDepth = "truecolor" | "256" | "16" | "none";

/**
 * The colour depth the environment asks for. `NO_COLOR` (any non-empty value) turns colour
 * off and wins over everything; `FORCE_COLOR` turns it on without a terminal (`0` or `false`
 * off, `1` 16 colours, `2` 256, `3` 24-bit, anything else at least 16); otherwise
 * `COLORTERM=truecolor` or `24bit` means 24-bit, a `TERM` ending in `256color` means 256, a
 * `TERM` of `dumb` none, and anything else 16. `onTerminal` false (output is not a terminal)
 * means none unless `FORCE_COLOR` says otherwise.
 */
export function detectColourDepth(
  env: Readonly<Record<string, string | undefined>>,
  onTerminal = true,
): ColourDepth {
  if ((env.NO_COLOR ?? "") !== "") return "none";
  const force = env.FORCE_COLOR;
  const fromTerm = (): ColourDepth => {
    const colorterm = (env.COLORTERM ?? "").toLowerCase();
    if (colorterm === "truecolor" || colorterm === "24bit") return "truecolor";
    const term = (env.TERM ?? "").toLowerCase();
    if (term.endsWith("256color")) return "256";
    if (term === "dumb") return "none";
    return "16";
  };
  if (force !== undefined) {
    if (force === "0" || force.toLowerCase() === "false") return "none";
    if (force === "1") return "16";
    if (force === "2") return "256";
    if (force === "3") return "truecolor";
    const depth = fromTerm();
    return depth === "none" ? "16" : depth;
  }
  return onTerminal ? fromTerm() : "none";
}

// A colour code: 0 the terminal's default; 1–256 a palette index + 1; RGB | TRUE_COLOUR for
// 24-bit. One number, so that a look is three numbers and compares by value.
const TRUE_COLOUR = 0x1000000;

/** The code of a concrete colour. */
export function colourCode(colour: ConcreteColour): number {
  if (colour === "default") return 0;
  if (typeof colour === "number") return colour + 1;
  if (colour.startsWith("#")) return TRUE_COLOUR | Number.parseInt(colour.slice(1), 16);
  return TERMINAL_COLOURS.indexOf(colour as typeof TERMINAL_COLOURS[number]) + 1;
}

// The 16 colours as xterm draws them, for finding the nearest of them.
const SIXTEEN: readonly number[] = [
  0x000000,
  0xcd0000,
  0x00cd00,
  0xcdcd00,
  0x0000ee,
  0xcd00cd,
  0x00cdcd,
  0xe5e5e5,
  0x7f7f7f,
  0xff0000,
  0x00ff00,
  0xffff00,
  0x5c5cff,
  0xff00ff,
  0x00ffff,
  0xffffff,
];
const CUBE = [0, 95, 135, 175, 215, 255];

/** The RGB of a palette index (0–255), as xterm's palette has it. */
export function paletteRgb(index: number): number {
  if (index < 16) return SIXTEEN[index]!;
  if (index >= 232) {
    const grey = 8 + (index - 232) * 10;
    return (grey << 16) | (grey << 8) | grey;
  }
  const cube = index - 16;
  const r = CUBE[Math.floor(cube / 36)]!;
  const g = CUBE[Math.floor(cube / 6) % 6]!;
  const b = CUBE[cube % 6]!;
  return (r << 16) | (g << 8) | b;
}

/** The RGB of a colour code, or null for the terminal's default colour. */
export function codeRgb(code: number): number | null {
  if (code === 0) return null;
  if (code >= TRUE_COLOUR) return code & 0xffffff;
  return paletteRgb(code - 1);
}

function distance(a: number, b: number): number {
  const dr = ((a >> 16) & 0xff) - ((b >> 16) & 0xff);
  const dg = ((a >> 8) & 0xff) - ((b >> 8) & 0xff);
  const db = (a & 0xff) - (b & 0xff);
  // Weighted as the eye sees: green counts most, blue least.
  return 2 * dr * dr + 4 * dg * dg + 3 * db * db;
}

function nearest(rgb: number, from: number, to: number): number {
  let best = from;
  let bestDistance = Infinity;
  for (let index = from; index < to; index++) {
    const d = distance(rgb, paletteRgb(index));
    if (d < bestDistance) {
      bestDistance = d;
      best = index;
    }
  }
  return best;
}

/** The palette index nearest to a 24-bit colour, among the 240 beyond the 16. */
export function nearest256(rgb: number): number {
  return nearest(rgb, 16, 256);
}

/** The index of the nearest of the 16 colours. */
export function nearest16(rgb: number): number {
  return nearest(rgb, 0, 16);
}

/**
 * The SGR parameters of a colour code at `depth`, for the text (`background` false) or the
 * background; "" for the default colour or no colour.
 */
export function colourSgr(code: number, depth: ColourDepth, background: boolean): string {
  if (code === 0 || depth === "none") return "";
  if (code >= TRUE_COLOUR) {
    const rgb = code & 0xffffff;
    if (depth === "truecolor") {
      return `${background ? 48 : 38};2;${(rgb >> 16) & 0xff};${(rgb >> 8) & 0xff};${rgb & 0xff}`;
    }
    code = (depth === "256" ? nearest256(rgb) : nearest16(rgb)) + 1;
  }
  let index = code - 1;
  if (index >= 16 && depth === "16") index = nearest16(paletteRgb(index));
  if (index < 8) return String((background ? 40 : 30) + index);
  if (index < 16) return String((background ? 100 : 90) + index - 8);
  return `${background ? 48 : 38};5;${index}`;
}
