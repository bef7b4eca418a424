/**
 * The agent side of CrownUI: the MCP server an app runs (and that embedders can start over
 * their own semantic host), its gates, and the client helpers `crownmcp` and `crowndev` use.
 *
 * @module
 */

export { AgentServer, type AgentServerOptions, RESOURCES } from "./server/server.ts";
export {
  type AccessGate,
  AllGates,
  type PeerInfo,
  SameUserGate,
  TokenGate,
} from "./access/gate.ts";
export {
  type ActOptions,
  HostError,
  type HostScreenshot,
  type HostScreenshotOptions,
  type HostToolCallOptions,
  type SemanticHost,
  type ToolInfo,
  type WaitAnswer,
  type WaitCondition,
} from "./hosts/host.ts";
export {
  INSPECT_SECTIONS,
  type InspectParts,
  type InspectSection,
  type PartialSnapshot,
} from "../app/inspect.ts";
export { AppHost } from "./hosts/app_host.ts";
export { DEFAULT_WAIT_MS, MAX_WAIT_MS } from "./hosts/tree_watch.ts";
export type { ChangesAnswer, FoundNodes, NodeMatch } from "../semantics/mod.ts";
export { type Client, type ConnectOptions, connectToApp, openAppSocket } from "./clients/client.ts";
export {
  parseSocketFileName,
  prepareSocketDirectory,
  socketDirectory,
  SocketDirectoryError,
  type SocketEnv,
  type SocketFileName,
  socketNameFor,
  socketPathFor,
} from "./transport/socket_dir.ts";
export {
  readAnswer,
  readResultText,
  type ResultHeader,
  type ResultText,
  UNTRUSTED_MARKER,
  UNTRUSTED_MEANING,
  untrustedText,
} from "./session/untrusted.ts";
export { TIMEOUT_MESSAGE } from "./hosts/mirror_host.ts";
export { ACTIONS_PER_SECOND, rateLimitMessage } from "./session/rate_limit.ts";
export { confirmMessage } from "../ui/tool_call.ts";
export { getuid, type PeerCredentials, peerCredentials } from "../../ffi/mod.ts";
