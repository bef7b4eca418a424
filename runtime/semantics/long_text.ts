/**
 * Long app strings in answers with a budget: a name or value longer than the answer allows is
 * shown as its start, quoted as tree text quotes it, followed (outside the quotes, where no
 * app text can be) by a marker that says how many characters were left out:
 * `"zzzz"…(+199000 chars)`. `ui_query {"id": N, "full": true}` reads such a node whole.
 *
 * @module
 */

import { quoteAppText } from "./tree_text.ts";

/** The longest app string, in characters (UTF-16 code units), that answers show whole. */
export const LONGEST_APP_TEXT = 1000;

/** The fewest characters of an app string that answers show, however small the budget. */
export const SHORTEST_CUT = 64;

/**
 * How many characters of an app string an answer of `maxBytes` shows: at most
 * {@link LONGEST_APP_TEXT}, and at most an eighth of the budget (but never fewer than
 * {@link SHORTEST_CUT}), so that a line with a name and a value stays inside the budget.
 */
export function longestFor(maxBytes: number): number {
  return Math.max(SHORTEST_CUT, Math.min(LONGEST_APP_TEXT, Math.floor(maxBytes / 8)));
}

/** Where to cut `text` to keep at most `longest` characters without splitting a pair. */
function cutAt(text: string, longest: number): number {
  const code = text.charCodeAt(longest - 1);
  return code >= 0xd800 && code <= 0xdbff ? longest - 1 : longest;
}

/** The marker for `count` characters left out. */
export function leftOutMarker(count: number): string {
  return `…(+${count} chars)`;
}

/**
 * An app string quoted as tree text quotes it, cut to its first `longest` characters with a
 * marker for the rest when it is longer.
 */
export function quoteLongAppText(text: string, longest: number): string {
  if (text.length <= longest) return quoteAppText(text);
  const end = cutAt(text, longest);
  return quoteAppText(text.slice(0, end)) + leftOutMarker(text.length - end);
}

/**
 * The start of `text` when it is longer than `longest` characters, and how many were left
 * out; the text itself and 0 otherwise.
 */
export function clipAppText(text: string, longest: number): { text: string; leftOut: number } {
  if (text.length <= longest) return { text, leftOut: 0 };
  const end = cutAt(text, longest);
  return { text: text.slice(0, end), leftOut: text.length - end };
}
