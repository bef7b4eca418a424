/**
 * Fine-grained reactivity: signals, memos, effects and owner scopes.
 *
 * @module
 */

export {
  disposeOwner,
  getOwner,
  markSourcesSecret,
  Owner,
  ReactiveRuntime,
  runWithOwner,
  type SignalNode,
  untracked,
} from "./graph.ts";
export { EffectNode, MemoNode } from "./computed.ts";
export {
  brandCtx,
  type Ctx,
  ctxBrand,
  Memo,
  type Readable,
  Signal,
  type SignalOptions,
} from "./signal.ts";
