/**
 * Launching `crownmcp` as agents do, for tests and benchmarks: the command comes from the
 * `crownmcp` task in deno.json, so what is tested and measured is what users run.
 *
 * @module
 */

import { join } from "node:path";
import denoJson from "../deno.json" with { type: "json" };
import { StdioClientTransport } from "../runtime/agent/transport/sdk_stdio.ts";
import { childEnv, REPO_ROOT } from "./_app_process.ts";

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
