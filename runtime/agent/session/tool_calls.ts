/**
 * Answers `tools/call`: a built-in tool by its record (`builtin_tools.ts`: its argument check,
 * then its answer from the host), an app tool through the host, with the guards in order —
 * known tool, arguments (an app tool's against its advertised schema), `confirm` for
 * destructive tools, the shared rate limit — and every result that carries app text wrapped
 * as untrusted. Refusals come back as tool results with `isError: true` and the plain
 * message, so agents read them as written.
 *
 * @module
 */

import { unknownToolMessage } from "../../app/app_calls.ts";
import { checkToolArguments } from "../../ui/tools.ts";
import { HostError, type SemanticHost, type ToolInfo } from "../hosts/host.ts";
import { rateLimitMessage, type TokenBucket } from "./rate_limit.ts";
import type { CallToolResult } from "../transport/sdk.ts";
import { BUILTIN_BY_NAME, callBuiltin } from "./builtin_tools.ts";
import { errorResult, messageOf, untrustedResult } from "./results.ts";
import { confirmMessage, type ToolProgress } from "../../ui/tool_call.ts";

/** Answers one tool call; an app tool's progress reports go to `onProgress`. */
export async function callTool(
  host: SemanticHost,
  bucket: TokenBucket,
  name: string,
  rawArgs: unknown,
  signal?: AbortSignal,
  onProgress?: (report: ToolProgress) => void,
): Promise<CallToolResult> {
  try {
    if (
      rawArgs !== undefined &&
      (typeof rawArgs !== "object" || rawArgs === null || Array.isArray(rawArgs))
    ) {
      throw new HostError("invalid", "invalid arguments: the arguments must be a JSON object");
    }
    const args = (rawArgs ?? {}) as Record<string, unknown>;
    const builtin = BUILTIN_BY_NAME.get(name);
    if (builtin !== undefined) {
      return await callBuiltin(builtin, { host, takeToken: () => takeToken(bucket), signal }, args);
    }
    return await callAppTool(host, bucket, name, args, onProgress);
  } catch (error) {
    return errorResult(messageOf(error));
  }
}

function takeToken(bucket: TokenBucket): void {
  const wait = bucket.take();
  if (wait > 0) throw new HostError("rate_limit", rateLimitMessage(wait));
}

/**
 * Refuses arguments (`confirm` taken out for a destructive tool) that the tool's advertised
 * schema does not accept, naming each problem.
 */
function checkAppToolArguments(tool: ToolInfo, args: Record<string, unknown>): void {
  try {
    checkToolArguments(tool.inputSchema, args, tool.destructive);
  } catch (error) {
    if (error instanceof TypeError) throw new HostError("invalid", error.message);
    throw error;
  }
}

async function callAppTool(
  host: SemanticHost,
  bucket: TokenBucket,
  name: string,
  args: Record<string, unknown>,
  onProgress?: (report: ToolProgress) => void,
): Promise<CallToolResult> {
  const tool = host.tools().find((candidate) => candidate.name === name);
  if (tool === undefined) {
    throw new HostError("unknown_tool", unknownToolMessage(name));
  }
  let handlerArgs = args;
  if (tool.destructive) {
    const { confirm: _confirm, ...rest } = args;
    handlerArgs = rest;
  }
  checkAppToolArguments(tool, handlerArgs);
  if (tool.destructive && args.confirm !== true) {
    throw new HostError("confirm", confirmMessage(name));
  }
  takeToken(bucket);
  let text: string;
  try {
    text = await host.callTool(name, JSON.stringify(handlerArgs), { onProgress });
  } catch (error) {
    if (error instanceof HostError) throw error; // the app did not answer, and the like
    // The handler threw: its message is app text, so it travels wrapped.
    return { ...untrustedResult({ error: messageOf(error) }), isError: true };
  }
  let content: unknown = text;
  try {
    content = JSON.parse(text);
  } catch {
    // Not JSON: it reaches the agent as a string.
  }
  return untrustedResult(content);
}
