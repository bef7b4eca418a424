/**
 * How `crowndev` talks to a person: exit codes, errors on standard error, and colour only on
 * a terminal and never when `NO_COLOR` is set.
 *
 * @module
 */

import { envSet } from "../runtime/app/env.ts";

/** Exit codes, as `crowndev --help` documents them. */
export const EXIT = {
  ok: 0,
  /** The app refused: a tool error (stale revision, disabled node, ...). */
  toolError: 1,
  /** The command line is wrong. */
  usage: 2,
  /** No app is running, or none matches the name given. */
  noApp: 3,
  /** The query matched no node. */
  noMatch: 4,
  /** Several apps or several nodes matched where one was needed. */
  severalMatches: 5,
  /** The app could not be reached (refused the connection, went away). */
  connection: 6,
} as const;

/** An error that ends the command with an exit code. */
export class CliError extends Error {
  readonly code: number;

  /** @param code the exit code @param message what went wrong, for standard error */
  constructor(code: number, message: string) {
    super(message);
    this.name = "CliError";
    this.code = code;
  }
}

/**
 * What a terminal would act on instead of showing, in text that may come from an app (its
 * socket file's name, its tree, its snapshot, its error messages): C0 controls but newline
 * and tab, DEL, the C1 controls (U+009B is a one-character CSI, as ESC [ is; U+0085 ends a
 * line), the line and paragraph separators U+2028 and U+2029 (line breaks to many readers,
 * as tree text escapes them too), and the bidi controls that reorder the text after them
 * (U+061C, U+200E–F, U+202A–E, U+2066–9). The colour sequences `palette()` makes are matched
 * first, so they are kept.
 */
const UNSAFE =
  // deno-lint-ignore no-control-regex
  /\x1b\[(?:1|2|22|31|32|33|36|39)m|[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * Text made safe for a terminal: each control character a terminal would act on (see
 * `UNSAFE`) becomes a visible `\uXXXX`, which inside a JSON string is the same character
 * again, so `--json` output stays valid JSON with the same values. Newlines, tabs and the
 * palette's colours are kept.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(terminalSafe("a\u009b2Jb\u202e"), "a\\u009b2Jb\\u202e");
 * assert.equal(terminalSafe("a\u2028b\u2029"), "a\\u2028b\\u2029");
 * ```
 */
export function terminalSafe(text: string): string {
  return text.replace(
    UNSAFE,
    (match) => match.length > 1 ? match : "\\u" + match.charCodeAt(0).toString(16).padStart(4, "0"),
  );
}

/**
 * Writes a line to standard output, made safe with `terminalSafe()`. Unlike `console.log`,
 * which drops what a closed pipe refuses, it throws `Deno.errors.BrokenPipe` when the reader
 * has gone (`crowndev watch | head -3`), so the command can stop.
 */
export function writeLine(line: string): void {
  const bytes = new TextEncoder().encode(`${terminalSafe(line)}\n`);
  for (let written = 0; written < bytes.length;) {
    written += Deno.stdout.writeSync(bytes.subarray(written));
  }
}

/** Whether to colour what goes to a stream: a terminal, and no `NO_COLOR`. */
export function useColour(stream: { isTerminal(): boolean }): boolean {
  return stream.isTerminal() && !envSet("NO_COLOR");
}

/** Colours for one stream; identity functions when colour is off. */
export interface Palette {
  dim(text: string): string;
  bold(text: string): string;
  red(text: string): string;
  green(text: string): string;
  cyan(text: string): string;
  yellow(text: string): string;
}

/** A palette that colours with ANSI sequences, or not at all. */
export function palette(on: boolean): Palette {
  const wrap = (open: number, close: number) => (text: string) =>
    on ? `\x1b[${open}m${text}\x1b[${close}m` : text;
  return {
    dim: wrap(2, 22),
    bold: wrap(1, 22),
    red: wrap(31, 39),
    green: wrap(32, 39),
    cyan: wrap(36, 39),
    yellow: wrap(33, 39),
  };
}

/** The length of the JSON string that starts `text` (at a quote), escapes included. */
function jsonStringLength(text: string): number {
  for (let index = 1; index < text.length; index++) {
    if (text[index] === "\\") index++;
    else if (text[index] === '"') return index + 1;
  }
  return text.length;
}

/** Colours tree text for reading: roles, ids and states; names and values stay as they are. */
export function colourTree(tree: string, colours: Palette): string {
  return tree.split("\n").map((line) => {
    const match = /^(\s*)([a-z_]+)(.*)$/.exec(line);
    if (match === null) return line;
    const [, indent, role] = match;
    let rest = match[3]!;
    let name = "";
    if (rest.startsWith(' "')) {
      const length = jsonStringLength(rest.slice(1));
      name = rest.slice(0, 1 + length);
      rest = rest.slice(1 + length);
    }
    // rest is now ` #id`, then ` value="..."` and the states; only the value can hold app text.
    const id = /^ #\d+/.exec(rest)?.[0] ?? "";
    rest = rest.slice(id.length);
    let value = "";
    if (rest.startsWith(' value="')) {
      const length = jsonStringLength(rest.slice(7));
      value = rest.slice(0, 7 + length);
      rest = rest.slice(7 + length);
    }
    const states = rest.replace(/ ([a-z_]+)/g, (_, state) => " " + colours.yellow(state));
    return indent + colours.cyan(role!) + name + colours.dim(id) + value + states;
  }).join("\n");
}
