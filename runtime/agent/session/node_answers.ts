/**
 * The answers that list nodes (`ui_query`, `ui_wait`) within a byte budget: the result's text
 * is the marked header with the revision, then one line of JSON,
 * `{"nodes":[...],"more":N}`. Over budget the answer keeps its first matches, the largest
 * number that fits, and counts the rest in `more`, as it counts the matches past `limit`.
 *
 * @module
 */

import type { FoundNodes } from "../../semantics/mod.ts";
import { appJson, untrustedText } from "./untrusted.ts";

const encoder = new TextEncoder();
const NOT_ASCII = /[\u0080-\uffff]/;

function utf8Bytes(text: string): number {
  return NOT_ASCII.test(text) ? encoder.encode(text).length : text.length;
}

function answerText(revision: number, nodes: readonly unknown[], more: number): string {
  const body = more > 0 ? { nodes, more } : { nodes };
  return untrustedText(appJson(body), { revision });
}

/**
 * The text of an answer listing `found`'s nodes in at most `budget` UTF-8 bytes. Null when
 * not even the first match fits and `allowEmpty` is false; with it, no node and all of them
 * in `more`.
 */
export function fitNodes(
  found: { revision: number } & FoundNodes,
  budget: number,
  allowEmpty = false,
): string | null {
  const { revision, nodes } = found;
  const more = found.more ?? 0;
  const whole = answerText(revision, nodes, more);
  if (utf8Bytes(whole) <= budget) return whole;
  // Each node's JSON once; the answer with the first k nodes is the empty answer, those
  // nodes and their commas, which is exact since JSON writes an array as its items and commas.
  const sizes = nodes.map((node) => utf8Bytes(appJson(node)));
  const sizeWith = (kept: number) => {
    let total = utf8Bytes(answerText(revision, [], more + nodes.length - kept));
    for (let index = 0; index < kept; index++) total += sizes[index]! + (index > 0 ? 1 : 0);
    return total;
  };
  let kept = 0;
  let tooMany = nodes.length;
  while (tooMany - kept > 1) {
    const middle = (kept + tooMany) >>> 1;
    if (sizeWith(middle) <= budget) kept = middle;
    else tooMany = middle;
  }
  if (kept === 0 && !allowEmpty) return null;
  return answerText(revision, nodes.slice(0, kept), more + nodes.length - kept);
}
