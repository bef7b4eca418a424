/**
 * What an agent pays through crownmcp beside its peers (issue 17 point 9), in bytes and in
 * tokens counted by the legacy Claude tokenizer (`@anthropic-ai/tokenizer` from npm):
 *
 * - against Playwright MCP on a web page with the same controls as the 1,000-row app of
 *   `bench/_tasks_app.ts` (`bench/_peer_page.ts`): the whole tree through crownmcp, and its
 *   default first read (`ui_tree` with no arguments), over Playwright's snapshot of the page
 *   (targets: at most 0.8 and 0.35). The whole tree is checked to hold every node;
 * - against terminalcp, which runs the app in a pty and returns its screen: on the 1,000-row
 *   app, finding row 437 and clicking its button (target: at most 0.12); on the Notes demo,
 *   adding a note and seeing it, and adding three notes, ticking one, deleting one and reading
 *   the count (targets: at most 1, UI tools only); and `tools/list` of each (target: crownmcp at
 *   most 1,000 tokens).
 *
 * Tokens are those of the results' text, what the agent reads, and (a second set of ratios) those
 * plus the tokens of the arguments the agent writes: both are what a task costs an agent. Both peers are measured here, never copied: they are
 * installed with npm into a cache directory (`bench/_peers.ts`); a peer that cannot run is
 * skipped with the reason. Run: `deno task bench:peers`. Prints figures; fails on none.
 *
 * @module
 */

import { join } from "node:path";
import type { Client } from "../runtime/agent/transport/sdk.ts";
import { readResultText, UNTRUSTED_MARKER } from "../runtime/agent/session/untrusted.ts";
import {
  childEnv,
  makeRuntimeDir,
  removeDir,
  REPO_ROOT,
  SERVER_FLAGS,
  startApp,
} from "../tests/_app_process.ts";
import { launchCrownmcp, untilAppSelected } from "./_act.ts";
import { addAndSee, checkEveryNode, openRow437, threeNotes } from "./_crown_tasks.ts";
import { servePage, tasksPage } from "./_peer_page.ts";
import {
  connectPeer,
  installPeers,
  isSkipped,
  launchPlaywright,
  PEER_VERSIONS,
  type Skipped,
} from "./_peers.ts";
import {
  screenAddAndSee,
  ScreenAgent,
  screenOpenRow437,
  screenThreeNotes,
} from "./_screen_tasks.ts";
import { bytes, resultText, Tally, tokens } from "./_tokens.ts";

const ROWS = 1000;
const TASKS_APP = "bench/_tasks_app.ts";
const NOTES_APP = "examples/notes.ts";

/** One figure of crownmcp's over the same of a peer, with its target. */
function ratio(label: string, ours: number, theirs: number, target: number, unit: string) {
  const value = ours / theirs;
  const verdict = value <= target ? "meets" : "MISSES";
  console.log(
    `  ${label.padEnd(52)} ${String(ours).padStart(7)} / ${String(theirs).padStart(7)} ${
      unit.padEnd(6)
    } = ${value.toFixed(3)}  (target ≤ ${target}: ${verdict})`,
  );
}

function skipped(what: string, why: Skipped): void {
  console.log(`  ${what}: skipped: ${why.skipped}`);
}

/** The tokens an agent reads and writes for a task. */
function spent(tally: Tally): number {
  return tally.tokens + tally.argumentTokens;
}

function tallied(label: string, tally: Tally): string {
  return `${label}: ${tally.calls} calls, ${tally.tokens} tokens read (${tally.bytes} bytes), ${tally.argumentTokens} written`;
}

/** Runs `script` with `args` and a crownmcp for it during `body`. */
async function withCrownmcp<T>(
  script: string,
  args: string[],
  body: (client: Client) => Promise<T>,
): Promise<T> {
  const runtimeDir = await makeRuntimeDir();
  const app = startApp(script, { env: { XDG_RUNTIME_DIR: runtimeDir }, args });
  try {
    await app.listening();
    const { client } = await launchCrownmcp(runtimeDir);
    try {
      await untilAppSelected(client);
      return await body(client);
    } finally {
      await client.close();
    }
  } finally {
    await app.close();
    await removeDir(runtimeDir);
  }
}

/** The text of a tool result. */
async function text(client: Client, name: string, args: Record<string, unknown> = {}) {
  return resultText(await client.callTool({ name, arguments: args }));
}

/**
 * What the terminalcp runs need: a home of their own (its socket), Deno and its cache, and a
 * runtime directory whose name is short and the same from run to run but for the pid (the
 * app's status line shows its socket's path, and a random name's tokens would vary the figures).
 */
async function terminalEnv(): Promise<{ env: Record<string, string>; dirs: string[] }> {
  const home = await Deno.makeTempDir({ prefix: "tcp" });
  const runtime = `/tmp/cui-${Deno.pid}`;
  await Deno.mkdir(runtime, { mode: 0o700 });
  const denoDir = Deno.env.get("DENO_DIR") ??
    join(Deno.env.get("HOME") ?? "/root", ".cache", "deno");
  const path = `${join(Deno.execPath(), "..")}:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}`;
  return {
    env: { ...childEnv(), PATH: path, HOME: home, DENO_DIR: denoDir, XDG_RUNTIME_DIR: runtime },
    dirs: [home, runtime],
  };
}

const peers = await installPeers();

console.log(`The ${ROWS}-row page (bench/_tasks_app.ts), against Playwright MCP:`);
const page = await withCrownmcp(TASKS_APP, [String(ROWS)], async (client) => {
  const whole = await text(client, "ui_tree", { max_bytes: 3_500_000 });
  const first = await text(client, "ui_tree");
  const nodes = await checkEveryNode(client, readResultText(whole).body);
  const marked = whole.startsWith(UNTRUSTED_MARKER) && first.startsWith(UNTRUSTED_MARKER);
  console.log(
    `  crownmcp: the whole tree ${bytes(whole)} bytes, ${
      tokens(whole)
    } tokens, all ${nodes} nodes` +
      `${marked ? ", marked as untrusted app data" : " (NOT MARKED)"}; the first read ${
        bytes(first)
      } bytes, ${tokens(first)} tokens`,
  );
  return { whole, first, find: await openRow437(client) };
});
if (isSkipped(peers.playwright)) skipped("Playwright MCP", peers.playwright);
else {
  const served = servePage(tasksPage(ROWS));
  const dir = await Deno.makeTempDir({ prefix: "crownui-playwright-" });
  try {
    const browser = await launchPlaywright(peers.playwright, dir);
    try {
      await browser.callTool({ name: "browser_navigate", arguments: { url: served.url } });
      const snapshot = await text(browser, "browser_snapshot");
      if (!snapshot.includes(`Row ${ROWS - 1}`)) throw new Error("the snapshot misses rows");
      console.log(
        `  Playwright MCP ${PEER_VERSIONS.playwright}: browser_snapshot ${bytes(snapshot)} bytes, ${
          tokens(snapshot)
        } tokens`,
      );
      ratio("whole tree / snapshot, bytes", bytes(page.whole), bytes(snapshot), 0.8, "bytes");
      ratio("whole tree / snapshot, tokens", tokens(page.whole), tokens(snapshot), 0.8, "tokens");
      ratio("first read / snapshot, bytes", bytes(page.first), bytes(snapshot), 0.35, "bytes");
      ratio("first read / snapshot, tokens", tokens(page.first), tokens(snapshot), 0.35, "tokens");
    } finally {
      await browser.close();
    }
  } finally {
    await served.close();
    await removeDir(dir);
  }
}

console.log("\nAgainst terminalcp (the app in its pty, 80×24; UI tools only through crownmcp):");
console.log(`  crownmcp: ${tallied("find row 437 and click Open", page.find)}`);
const notes = await withCrownmcp(NOTES_APP, [], async (client) => {
  const tools = JSON.stringify(await client.listTools());
  return { tools, addOne: await addAndSee(client) };
});
const three = await withCrownmcp(NOTES_APP, [], threeNotes);
console.log(`  crownmcp: ${tallied("Notes: add a note and see it", notes.addOne)}`);
console.log(`  crownmcp: ${tallied("Notes: three notes, tick, delete, count", three)}`);
console.log(
  `  crownmcp: tools/list of the Notes app ${bytes(notes.tools)} bytes, ${
    tokens(notes.tools)
  } tokens (target ≤ 1000: ${tokens(notes.tools) <= 1000 ? "meets" : "MISSES"})`,
);
if (isSkipped(peers.terminalcp)) skipped("terminalcp", peers.terminalcp);
else {
  const { env, dirs } = await terminalEnv();
  const client = await connectPeer(peers.terminalcp, ["--mcp"], env, REPO_ROOT);
  try {
    const tools = JSON.stringify(await client.listTools());
    const run = async (task: (agent: ScreenAgent) => Promise<void>) => {
      const agent = new ScreenAgent(client, new Tally(client));
      await task(agent);
      return agent.tally;
    };
    const find = await run((agent) =>
      screenOpenRow437(
        agent,
        `deno run --frozen ${SERVER_FLAGS.join(" ")} ${TASKS_APP} ${ROWS}`,
        REPO_ROOT,
      )
    );
    const addOne = await run((agent) => screenAddAndSee(agent, REPO_ROOT));
    const threeScreens = await run((agent) => screenThreeNotes(agent, REPO_ROOT));
    console.log(
      `  terminalcp ${PEER_VERSIONS.terminalcp}: ${tallied("find row 437 and click Open", find)}`,
    );
    console.log(`  terminalcp: ${tallied("Notes: add a note and see it", addOne)}`);
    console.log(
      `  terminalcp: ${tallied("Notes: three notes, tick, delete, count", threeScreens)}`,
    );
    console.log(`  terminalcp: tools/list ${bytes(tools)} bytes, ${tokens(tools)} tokens`);
    const tasks: [string, Tally, Tally, number][] = [
      ["row 437 on the 1,000-row app", page.find, find, 0.12],
      ["Notes: add a note and see it", notes.addOne, addOne, 1],
      ["Notes: three notes, tick, delete, count", three, threeScreens, 1],
    ];
    for (const [label, ours, theirs, target] of tasks) {
      ratio(`${label}, tokens read`, ours.tokens, theirs.tokens, target, "tokens");
    }
    // What a task costs the agent: what it reads and what it writes (the calls' arguments).
    for (const [label, ours, theirs, target] of tasks) {
      ratio(`${label}, read + written`, spent(ours), spent(theirs), target, "tokens");
    }
    ratio("tools/list, tokens", tokens(notes.tools), tokens(tools), 1, "tokens");
    ratio("tools/list, bytes", bytes(notes.tools), bytes(tools), 1, "bytes");
  } finally {
    await client.close();
    for (const dir of dirs) await removeDir(dir);
  }
}
