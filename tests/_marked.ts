/**
 * Reading results marked as untrusted app data back into the values the tests compare:
 * `markedContent()` gives what a result carries (`{revision, tree}`, `{revision, since,
 * changes}`, `{revision, nodes, more}`, a snapshot, an app tool's value) and fails unless the
 * text starts with the marker; `receiptOf()` reads a `ui_act` receipt.
 *
 * @module
 */

import assert from "node:assert/strict";
import { readResultText, UNTRUSTED_MARKER } from "../runtime/agent/session/untrusted.ts";

/** What a result marked as untrusted app data carries; fails when the marker is missing. */
export function markedContent(text: string): unknown {
  assert.ok(text.startsWith(UNTRUSTED_MARKER), `not marked as untrusted app data: ${text}`);
  const read = readResultText(text);
  assert.equal(read.untrusted, true, text.slice(0, 300));
  const { revision, since, body } = read;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    // Tree or change text.
    return since === undefined ? { revision, tree: body } : { revision, since, changes: body };
  }
  if (revision !== undefined && typeof value === "object" && value !== null) {
    return { revision, ...value };
  }
  return value;
}

/** A `ui_act` receipt: the new revision and, when anything changed, the change text. */
export interface Receipt {
  revision: number;
  changes?: string;
}

/** Reads a `ui_act` receipt: `rN` alone, or marked with the change text after it. */
export function receiptOf(text: string): Receipt {
  const read = readResultText(text);
  assert.ok(read.revision !== undefined, `not a receipt: ${text}`);
  if (read.body === "") {
    assert.equal(read.untrusted, false, `a receipt without changes carries no app text: ${text}`);
    return { revision: read.revision };
  }
  assert.equal(read.untrusted, true, `a receipt with changes is marked: ${text}`);
  return { revision: read.revision, changes: read.body };
}
