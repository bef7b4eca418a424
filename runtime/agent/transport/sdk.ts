/**
 * The MCP SDK, re-exported with its types. The SDK's `.js` subpaths load under Deno but
 * type-check as `any` (a packaging bug of the SDK); each `@ts-types` below points Deno at
 * the declarations. Import the SDK from here only.
 *
 * @module
 */

export { Server } from "@modelcontextprotocol/sdk/server";
export { Client } from "@modelcontextprotocol/sdk/client";
// @ts-types="@modelcontextprotocol/sdk/types"
export * from "@modelcontextprotocol/sdk/types.js";
// @ts-types="@modelcontextprotocol/sdk/shared/transport"
export type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
// @ts-types="@modelcontextprotocol/sdk/validation/ajv"
export { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
