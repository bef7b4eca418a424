/**
 * Answers `tools/call`: the built-in tools from the host, app tools through it, with the
 * guards in order — known tool, arguments (an app tool's against its advertised schema),
 * `confirm` for destructive tools, the shared rate limit — and every result that carries app text wrapped as untrusted. Refusals come back as
 * tool results with `isError: true` and the plain message, so agents read them as written.
 *
 * @module
 */

import { parseTreeView, TREE_VIEW_KEYS, type TreeView } from "../../semantics/mod.ts";
import { answerQuery, answerSince, answerWait, receiptResult } from "./change_calls.ts";
import { answerInspect } from "./inspect_call.ts";
import { unknownToolMessage } from "../../app/app_calls.ts";
import { checkToolArguments } from "../../ui/tools.ts";
import { HostError, type HostScreenshot, type SemanticHost, type ToolInfo } from "../hosts/host.ts";
import { rateLimitMessage, type TokenBucket } from "./rate_limit.ts";
import type { CallToolResult } from "../transport/sdk.ts";
import { BUILTIN_TOOL } from "../../ui/tool_names.ts";
import { BUILTIN_TOOL_NAMES } from "./tool_defs.ts";
import { appJson, HEADER_BYTES, untrustedText } from "./untrusted.ts";
import { confirmMessage, type ToolProgress } from "../../ui/tool_call.ts";
import { checkScale } from "../../render/picture/scale.ts";

/** A tool result carrying one text. */
export function textResult(text: string): CallToolResult {
  return { content: [{ type: "text", text }] };
}

/** A tool error carrying the message as plain text. */
export function errorResult(message: string): CallToolResult {
  return { content: [{ type: "text", text: message }], isError: true };
}

/**
 * A result that carries app text: the marked header (with the revision, when given), then
 * `content` as one line of JSON.
 */
export function untrustedResult(content: unknown, revision?: number): CallToolResult {
  return textResult(untrustedText(appJson(content), { revision }));
}

/**
 * The tool result of a screenshot: an `image/png` content, then a marked text with the
 * revision and the picture's size. The picture shows the app's UI, so its text is the app's
 * and is marked as such.
 */
export function screenshotResult(shot: HostScreenshot): CallToolResult {
  const { png, revision, ...about } = shot;
  return {
    content: [
      { type: "image", data: png, mimeType: "image/png" },
      { type: "text", text: untrustedText(appJson(about), { revision }) },
    ],
  };
}

/** `ui_tree`'s view: the marked header with the revision, then the tree text. */
function treeResult(host: SemanticHost, view: TreeView): CallToolResult {
  const { revision, tree } = host.treeView({ ...view, reserve: HEADER_BYTES });
  return textResult(untrustedText(tree, { revision }));
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function checkKnownArguments(
  name: string,
  args: Record<string, unknown>,
  known: readonly string[],
): void {
  const unknown = Object.keys(args).filter((key) => !known.includes(key));
  if (unknown.length > 0) {
    throw new HostError(
      "invalid",
      `invalid arguments: ${name} takes ${known.slice(0, -1).join(", ")} and ${known.at(-1)}, got ${
        unknown.join(", ")
      }`,
    );
  }
}

/** Runs `read`, turning its TypeError (a bad argument) into the refusal agents read. */
function asInvalid<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof TypeError) throw new HostError("invalid", error.message);
    throw error;
  }
}

function wholeNumber(args: Record<string, unknown>, key: string): number {
  const value = args[key];
  if (typeof value !== "number" || !Number.isSafeInteger(value)) {
    throw new HostError(
      "invalid",
      `invalid arguments: ${key} must be a whole number${
        value === undefined ? " and is required" : ""
      }`,
    );
  }
  return value;
}

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
    if (BUILTIN_TOOL_NAMES.has(name)) return await callBuiltin(host, bucket, name, args, signal);
    return await callAppTool(host, bucket, name, args, onProgress);
  } catch (error) {
    return errorResult(messageOf(error));
  }
}

function takeToken(bucket: TokenBucket): void {
  const wait = bucket.take();
  if (wait > 0) throw new HostError("rate_limit", rateLimitMessage(wait));
}

async function callBuiltin(
  host: SemanticHost,
  bucket: TokenBucket,
  name: string,
  args: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<CallToolResult> {
  switch (name) {
    case BUILTIN_TOOL.tree:
      if (args.since !== undefined) {
        return answerSince(
          host,
          args,
          (maxBytes) =>
            host.treeView({
              ...parseTreeView(maxBytes === undefined ? {} : { max_bytes: maxBytes }),
              reserve: HEADER_BYTES,
            }),
        );
      }
      checkKnownArguments(name, args, [...TREE_VIEW_KEYS, "since"]);
      return treeResult(host, asInvalid(() => parseTreeView(args)));
    case BUILTIN_TOOL.query:
      return answerQuery(host, args);
    case BUILTIN_TOOL.wait:
      // Answered from the mirror: no token, since it never makes the app do anything.
      return await answerWait(host, args, signal);
    case BUILTIN_TOOL.act: {
      const id = wholeNumber(args, "id");
      const revision = wholeNumber(args, "revision");
      if (args.action === undefined) {
        throw new HostError(
          "invalid",
          `invalid arguments: action is required, as in {"action": "click"}`,
        );
      }
      if (args.confirm !== undefined && typeof args.confirm !== "boolean") {
        throw new HostError("invalid", "invalid arguments: confirm must be true or false");
      }
      takeToken(bucket);
      const after = await host.act(id, revision, args.action, { confirm: args.confirm === true });
      return receiptResult(host, revision, after);
    }
    case BUILTIN_TOOL.screenshot: {
      const extra = Object.keys(args).filter((key) => key !== "scale");
      if (extra.length > 0) {
        throw new HostError(
          "invalid",
          `invalid arguments: ${name} takes only scale, got ${extra.join(", ")}`,
        );
      }
      let scale: number;
      try {
        scale = checkScale(args.scale);
      } catch (error) {
        throw new HostError("invalid", `invalid arguments: ${messageOf(error)}`);
      }
      if (host.screenshot === undefined) {
        throw new HostError(
          "unsupported",
          "screenshots are not available: this host draws no pictures; read ui_tree, or the layout in inspect_snapshot",
        );
      }
      takeToken(bucket);
      return screenshotResult(await host.screenshot({ scale }));
    }
    case BUILTIN_TOOL.inspect: {
      const { revision, ...snapshot } = await answerInspect(host, args, HEADER_BYTES);
      return untrustedResult(snapshot, revision);
    }
  }
  throw new HostError("unknown_tool", unknownToolMessage(name));
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
