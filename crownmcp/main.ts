/**
 * `crownmcp`: the stdio MCP server that agents launch (`claude mcp add crownui -- crownmcp`).
 * It finds the sockets of running CrownUI apps and forwards the selected one. Logs go to
 * standard error only; it exits when standard input closes.
 *
 * @module
 */

import { parseArgs } from "node:util";
import denoJson from "../deno.json" with { type: "json" };
import { readEnv } from "../runtime/app/env.ts";
import { clientSocketDirectory, clientUid } from "../runtime/agent/clients/discovery.ts";
import { STDIO_MAX_LINE_BYTES } from "../runtime/agent/transport/stdio_transport.ts";
import { AgentStdio } from "./lines.ts";
import { CrownProxy } from "./proxy.ts";

/** The version crownmcp reports. */
export const VERSION: string = denoJson.version;

const HELP = `crownmcp ${VERSION}: give AI agents the CrownUI apps running on this machine

Usage: crownmcp [--socket-dir DIR]

An MCP server on standard input and output. Agents launch it, for example:
  claude mcp add crownui -- crownmcp

It offers two tools of its own, list_apps and select_app, and forwards everything the
selected app offers (ui_tree, ui_query, ui_act, ..., the app's own tools and resources).
With exactly one app running, that app is selected on its own. A socket directory or
socket another user could have placed is never read from or connected to: crownmcp says
why on standard error and in list_apps ("refused"). An app that does not answer (stopped
with Ctrl+Z, or hung) is given 5 s, then shown in list_apps as "not_answering"; calls to
it fail saying so until it answers again.

Options:
  --socket-dir DIR   where apps' sockets are (default: $XDG_RUNTIME_DIR/crownui, or
                     \${TMPDIR:-/tmp}/crownui-<uid>)
  -h, --help         show this help
  -V, --version      show the version

Environment:
  CROWNMCP_TOKEN     sent to each app as a TOKEN line, for apps that require a token

Logs go to standard error. crownmcp exits when standard input closes.`;

function log(line: string): void {
  console.error(`crownmcp: ${line}`);
}

async function main(args: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      options: {
        "socket-dir": { type: "string" },
        help: { type: "boolean", short: "h", default: false },
        version: { type: "boolean", short: "V", default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    console.error(`crownmcp: ${(error as Error).message}\nRun crownmcp --help for usage.`);
    return 2;
  }
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  if (values.version) {
    console.log(`crownmcp ${VERSION}`);
    return 0;
  }
  let socketDir: string;
  let uid: number;
  try {
    uid = clientUid();
    socketDir = values["socket-dir"] ?? clientSocketDirectory(uid);
  } catch (error) {
    log((error as Error).message);
    return 2;
  }
  const proxy = new CrownProxy({
    socketDir,
    uid,
    token: readEnv("CROWNMCP_TOKEN"),
    version: VERSION,
    log,
  });
  const stdio = new AgentStdio(STDIO_MAX_LINE_BYTES);
  await proxy.start(stdio);
  log(`watching ${socketDir}`);
  await stdio.run(); // until standard input closes: the agent is gone
  await proxy.close();
  return 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
