/**
 * `run()`: starts an app and returns when it quits. Picks the renderer (the terminal one
 * when standard input and output are a terminal, else headless, or as `CROWNUI_RENDERER`
 * says), runs frames as signals change, and quits on SIGINT, SIGTERM, SIGQUIT or SIGHUP, when
 * the app calls `rt.quit()`, or (in the terminal) on `q` or Ctrl+C. Each of these gives the
 * terminal back and removes the MCP socket.
 *
 * @module
 */

import { App } from "./app/app.ts";
import { AppConfig } from "./app/config.ts";
import { readEnv } from "./app/env.ts";
import { log } from "./app/log.ts";
import type { Renderer } from "./app/renderer.ts";
import { HeadlessRenderer } from "./render/headless.ts";
import { TerminalRenderer } from "./render/terminal/terminal_renderer.ts";
import type { View } from "./ui/view.ts";

/** True when a person is at a terminal: standard input and output both are one. */
function atTerminal(): boolean {
  return Deno.stdout.isTerminal() && Deno.stdin.isTerminal();
}

/**
 * Chooses the renderer: `CROWNUI_RENDERER` (`headless` or `terminal`) if set, else the
 * terminal renderer when standard input and output are a terminal, else headless.
 */
export function chooseRenderer(): Renderer {
  const wanted = readEnv("CROWNUI_RENDERER");
  if (wanted === "headless") return new HeadlessRenderer();
  if (wanted === "terminal") {
    if (atTerminal()) return new TerminalRenderer();
    log(
      "CROWNUI_RENDERER=terminal needs a terminal on standard input and output; using the headless renderer",
    );
    return new HeadlessRenderer();
  }
  if (wanted !== undefined && wanted !== "") {
    log(
      `CROWNUI_RENDERER=${wanted} is not a renderer (headless or terminal); choosing by the terminal`,
    );
  }
  return atTerminal() ? new TerminalRenderer() : new HeadlessRenderer();
}

// SIGHUP: the terminal the app runs in was closed. SIGQUIT would otherwise end the process
// with the terminal still in the app's modes and the socket file left behind.
const QUIT_SIGNALS: Deno.Signal[] = ["SIGINT", "SIGTERM", "SIGQUIT", "SIGHUP"];

/**
 * Runs an app until it quits.
 *
 * @param root the root view, usually `component((cx) => ...)`
 * @param config the title and options, as in `new AppConfig("Notes").mcp(true)`
 */
export async function run(root: View, config: AppConfig): Promise<void> {
  if (!(config instanceof AppConfig)) {
    throw new TypeError(
      'run() takes a root view and an AppConfig, as in run(root, new AppConfig("Notes"))',
    );
  }
  const settings = config.settings;
  const { title, theme } = settings;
  const renderer = chooseRenderer();
  const app = new App(root, { title, renderer, theme });
  // The agent code loads only when the app turns the server on, and before the terminal is
  // taken over: Deno may clear a line of standard error while it loads modules, which would
  // erase part of a frame already drawn.
  const bridge = settings.mcp ? await loadBridge() : undefined;
  if (renderer instanceof TerminalRenderer) {
    // Before the agent starts, so its log lines already go to the renderer's log file.
    try {
      renderer.start(app);
    } catch (error) {
      renderer.close();
      log(`the terminal renderer failed to start: ${(error as Error).message}`);
    }
  }
  let agent: { stop(): Promise<void> } | undefined;
  if (bridge !== undefined) {
    try {
      agent = bridge.startAgent(app, settings);
    } catch (error) {
      log(`CUI0408 MCP server failed to start: ${(error as Error).message}`);
    }
  }
  const quit = () => app.quit();
  const listening: Deno.Signal[] = [];
  for (const signal of QUIT_SIGNALS) {
    try {
      Deno.addSignalListener(signal, quit);
      listening.push(signal);
    } catch {
      // Signals are not available on this platform; the app quits through rt.quit().
    }
  }
  if (renderer.kind === "headless") log(`${title}: running headless; press Ctrl+C to quit`);
  try {
    await app.quitRequested;
  } finally {
    // The signal listeners stay until the agent has stopped: a second Ctrl+C or SIGTERM
    // during shutdown would otherwise end the process before the socket file is removed.
    try {
      await agent?.stop();
      app.close();
    } finally {
      for (const signal of listening) Deno.removeSignalListener(signal, quit);
    }
  }
}

/** What `run()` needs of the agent bridge (a type of its own: the bridge loads only on demand). */
interface AgentBridgeModule {
  startAgent(app: App, settings: AppConfig["settings"]): { stop(): Promise<void> };
}

/** Loads the agent bridge; a failure is logged with CUI0408 and leaves the server off. */
async function loadBridge(): Promise<AgentBridgeModule | undefined> {
  try {
    return await import("./agent/hosts/bridge.ts");
  } catch (error) {
    log(`CUI0408 MCP server failed to start: ${(error as Error).message}`);
    return undefined;
  }
}
