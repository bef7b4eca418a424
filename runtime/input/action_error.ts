/**
 * `ActionError`: an action refused with one of the wire contract's messages, which is what
 * agents read; its `kind` says which guard refused it.
 *
 * @module
 */

/** Why an action was refused. */
export type ActionErrorKind =
  | "stale_revision"
  | "no_node"
  | "modal"
  | "disabled"
  | "secret"
  | "invalid"
  | "unsupported"
  | "confirm"
  | "timeout";

/** An action refused with one of the contract's messages; the message is what agents read. */
export class ActionError extends Error {
  /** Which guard refused it. */
  readonly kind: ActionErrorKind;

  /**
   * Creates a refusal whose message is what agents read.
   *
   * @param kind which guard refused
   * @param message the contract's message
   */
  constructor(kind: ActionErrorKind, message: string) {
    super(message);
    this.name = "ActionError";
    this.kind = kind;
  }
}
