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
  untracked,
} from "./graph.ts";
export { describeSecret, secretRead, type SignalsRead, signalsRead } from "./secrets.ts";
export { EffectNode, MemoNode } from "./computed.ts";
export { Memo, type Readable, Signal, type SignalOptions } from "./signal.ts";
