/**
 * Fine-grained reactivity: signals, memos, effects and owner scopes.
 *
 * @module
 */

export {
  type Consumer,
  type ConsumerState,
  disposeOwner,
  getOwner,
  Owner,
  type Producer,
  ReactiveRuntime,
  runWithOwner,
  type SignalNode,
  type SignalsRead,
  signalsRead,
  untracked,
} from "./graph.ts";
export { EffectNode, MemoNode } from "./computed.ts";
export { Memo, type Readable, Signal, type SignalOptions } from "./signal.ts";
