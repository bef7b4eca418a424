/**
 * Launching `crownmcp` as agents do, for tests and benchmarks: the command comes from the
 * `crownmcp` task in deno.json, so what is tested and measured is what users run.
 *
 * @module
 */

import { join } from "node:path";
import denoJson from "../deno.json" with { type: "json" };
import type { Client } from "../runtime/agent/transport/sdk.ts";
import { StdioClientTransport } from "../runtime/agent/transport/sdk_stdio.ts";
import { childEnv, REPO_ROOT, REQUEST_TIMEOUT_MS } from "./_app_process.ts";

/** `deno` (this executable) and its arguments, exactly as the `crownmcp` task runs it. */
export function crownmcpCommand(): { command: string; args: string[] } {
  const [deno, ...args] = denoJson.tasks.crownmcp.split(/\s+/);
  const script = args.indexOf("crownmcp/main.ts");
  if (deno !== "deno" || script === -1) {
    throw new Error(`the crownmcp task in deno.json is not "deno run ... crownmcp/main.ts"`);
  }
  args[script] = join(REPO_ROOT, "crownmcp/main.ts");
  return { command: Deno.execPath(), args };
}

/**
 * crownmcp as a child for tests that speak raw lines to it: standard input and output piped,
 * standard error dropped, the environment cleared but for `childEnv(env)`.
 */
export function spawnCrownmcp(env: Record<string, string>): Deno.ChildProcess {
  const { command, args } = crownmcpCommand();
  return new Deno.Command(command, {
    args,
    cwd: REPO_ROOT,
    env: childEnv(env),
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
}

/**
 * The SDK's stdio client transport for a crownmcp child, as Claude Code launches it. The
 * environment is given in full (the SDK passes only a few variables on its own): `env` on
 * top of what Deno needs (`PATH`, `HOME`, `DENO_DIR`). Its standard error is piped.
 */
export function crownmcpTransport(
  env: Record<string, string>,
  args: readonly string[] = [],
): StdioClientTransport {
  const { command, args: base } = crownmcpCommand();
  return new StdioClientTransport({
    command,
    args: [...base, ...args],
    cwd: REPO_ROOT,
    env: childEnv(env),
    stderr: "pipe",
  });
}

/**
 * Waits until crownmcp's `tools/list` has the app tool `tool`, as an agent that heard
 * `tools/list_changed` would list again: crownmcp answers its first `tools/list` after
 * waiting only briefly for the handshake of the app it selects on its own (a stopped app must
 * not hold it up), and a loaded machine can make that handshake slower. Returns the names
 * listed; fails after `timeoutMs`.
 */
export async function untilAppTool(
  client: Client,
  tool = "ui_act",
  timeoutMs: number = REQUEST_TIMEOUT_MS,
): Promise<string[]> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const { tools } = await client.listTools(undefined, { timeout: REQUEST_TIMEOUT_MS });
    const names = tools.map((each) => each.name);
    if (names.includes(tool)) return names;
    if (performance.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs} ms: tools/list still lists ${names.join()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
