/**
 * The peers `bench/peers.ts` measures crownmcp against, installed and launched as their users
 * run them: Playwright MCP (`@playwright/mcp`, driving Debian's Chromium headless) and
 * terminalcp (`@mariozechner/terminalcp`, a program in a pty whose screen it returns). Both come
 * from the npm registry with npm, at pinned versions, into a cache directory of their own
 * (`$CROWNUI_PEERS_DIR`, else `~/.cache/crownui-bench-peers`), never into the project. Each is
 * driven with the MCP SDK's client over stdio, with `node`.
 *
 * Whatever is missing (node, npm, the registry, a C++ compiler for node-pty, Chromium) makes
 * the peer a `Skipped` with the reason, so the benchmark prints it and goes on.
 *
 * @module
 */

import { join } from "node:path";
import { Client } from "../runtime/agent/transport/sdk.ts";
import { StdioClientTransport } from "../runtime/agent/transport/sdk_stdio.ts";

/** The versions measured. */
export const PEER_VERSIONS = {
  playwright: "0.0.83",
  terminalcp: "1.3.3",
} as const;

/** Chromium's path: `$CHROMIUM`, else Debian's. */
export const CHROMIUM = Deno.env.get("CHROMIUM") ?? "/usr/bin/chromium";

/**
 * Chromium's flags as this machine needs them: root needs no sandbox, and without the
 * background-networking flags Chromium keeps dialling hosts a closed network refuses.
 */
export const CHROMIUM_FLAGS: readonly string[] = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** A peer that could not run here, and why. */
export interface Skipped {
  skipped: string;
}

/** True for a {@link Skipped}. */
export function isSkipped(value: unknown): value is Skipped {
  return typeof value === "object" && value !== null && "skipped" in value;
}

/** Where the peers are installed. */
export function peersDir(): string {
  const chosen = Deno.env.get("CROWNUI_PEERS_DIR");
  if (chosen !== undefined && chosen !== "") return chosen;
  const cache = Deno.env.get("XDG_CACHE_HOME") ?? join(Deno.env.get("HOME") ?? "/tmp", ".cache");
  return join(cache, "crownui-bench-peers");
}

async function run(command: string, args: string[], cwd?: string): Promise<string | null> {
  try {
    const output = await new Deno.Command(command, {
      args,
      ...(cwd === undefined ? {} : { cwd }),
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(output.stdout) + new TextDecoder().decode(output.stderr);
    return output.success ? text : `failed: ${text.trim().split("\n").slice(-3).join(" / ")}`;
  } catch (error) {
    return error instanceof Deno.errors.NotFound ? null : `failed: ${(error as Error).message}`;
  }
}

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

/** The installed peers' entry points. */
export interface Peers {
  /** Playwright MCP's command line script, or why it cannot run. */
  playwright: string | Skipped;
  /** terminalcp's script, or why it cannot run. */
  terminalcp: string | Skipped;
}

/**
 * Installs the peers with npm when they are not there yet (node-pty, terminalcp's pty, is
 * built from source on Linux: its install script is allowed by name) and says where they are.
 */
export async function installPeers(): Promise<Peers> {
  const node = await run("node", ["--version"]);
  if (node === null || node.startsWith("failed")) {
    const why = { skipped: "node is not on PATH (the peers run on Node.js 20 or newer)" };
    return { playwright: why, terminalcp: why };
  }
  const dir = peersDir();
  const playwright = join(dir, "node_modules/@playwright/mcp/cli.js");
  const terminalcp = join(dir, "node_modules/@mariozechner/terminalcp/dist/index.js");
  const pty = join(dir, "node_modules/node-pty/build/Release/pty.node");
  const wanted = {
    name: "crownui-bench-peers",
    private: true,
    dependencies: {
      "@playwright/mcp": PEER_VERSIONS.playwright,
      "@mariozechner/terminalcp": PEER_VERSIONS.terminalcp,
    },
    allowScripts: { "node-pty": true },
  };
  const manifest = join(dir, "package.json");
  const current = exists(manifest) ? Deno.readTextFileSync(manifest) : "";
  if (current !== JSON.stringify(wanted) || !exists(playwright) || !exists(terminalcp)) {
    Deno.mkdirSync(dir, { recursive: true });
    Deno.writeTextFileSync(manifest, JSON.stringify(wanted));
    console.log(`installing the peers with npm into ${dir} ...`);
    const installed = await run("npm", ["install", "--no-audit", "--no-fund"], dir);
    if (installed === null || installed.startsWith("failed")) {
      const why = {
        skipped: installed === null
          ? "npm is not on PATH"
          : `npm install of the peers ${installed}`,
      };
      return { playwright: why, terminalcp: why };
    }
  }
  return {
    playwright: !exists(playwright)
      ? { skipped: `@playwright/mcp is not installed at ${playwright}` }
      : !exists(CHROMIUM)
      ? { skipped: `no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM)` }
      : playwright,
    terminalcp: !exists(terminalcp)
      ? { skipped: `terminalcp is not installed at ${terminalcp}` }
      : !exists(pty)
      ? { skipped: `node-pty was not built (${pty} is missing: it needs python3, make and g++)` }
      : terminalcp,
  };
}

/**
 * Connects the SDK's client to `node script args` over stdio, in `cwd`, with `env` as its
 * environment.
 */
export async function connectPeer(
  script: string,
  args: readonly string[],
  env: Record<string, string>,
  cwd: string,
): Promise<Client> {
  const client = new Client({ name: "crownui-bench-peers", version: "0.1.0" });
  await client.connect(
    new StdioClientTransport({
      command: "node",
      args: [script, ...args],
      env,
      cwd,
      stderr: "pipe",
    }),
  );
  return client;
}

/**
 * Launches Playwright MCP on Chromium headless, its profile in memory, in `dir` (a temporary
 * directory, where it writes its config and output files).
 */
export function launchPlaywright(script: string, dir: string): Promise<Client> {
  const config = join(dir, "config.json");
  Deno.writeTextFileSync(
    config,
    JSON.stringify({
      browser: {
        browserName: "chromium",
        isolated: true,
        launchOptions: { executablePath: CHROMIUM, headless: true, args: [...CHROMIUM_FLAGS] },
      },
    }),
  );
  return connectPeer(script, ["--config", config, "--output-dir", dir], {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: dir,
  }, dir);
}
