/**
 * The MCP SDK's stdio transports, with their types. Kept apart from `sdk.ts` because the
 * client transport reads the environment when it loads (to spawn children), which an app
 * with the server on must not need.
 *
 * @module
 */

// @ts-types="@modelcontextprotocol/sdk/server/stdio"
export { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
export { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
