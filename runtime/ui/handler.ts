/**
 * Handlers may be async: an app's `async () => { await save(); }` returns a promise that the
 * caller does not wait for. A rejection of it is reported as a thrown error is (logged with its
 * stack, shown to the person as a status message), rather than left unhandled, which would end
 * the process.
 *
 * @module
 */

import type { Widget } from "./widget.ts";

/**
 * Reports the rejection of `answer`, a handler's return value, if it is a promise: also when
 * `widget` has gone meanwhile (a dialog's Save that closed the dialog first).
 */
export function settleHandler(widget: Widget, where: string, answer: unknown): void {
  if (answer instanceof Promise) {
    const host = widget.host;
    answer.catch((error: unknown) => host.reportError(error, where));
  }
}
