/**
 * Apps in a real terminal for tests: a tmux server of its own (`tmux -S <socket>` in a fresh
 * temporary directory, so a person's tmux is never touched) with one pane of a fixed size running a command; keys
 * and mouse reports are sent with `send-keys`, the screen is read with `capture-pane`.
 * Every wait is bounded, and `kill()` ends the server and everything in it.
 *
 * @module
 */

import { withTimeout } from "./_app_process.ts";

/** How long a screen may take to show what a test waits for, in milliseconds. */
export const SCREEN_TIMEOUT_MS = 20_000;

/** True when tmux can be run here. */
export function hasTmux(): boolean {
  try {
    return new Deno.Command("tmux", { args: ["-V"], stdout: "null", stderr: "null" }).outputSync()
      .success;
  } catch {
    return false;
  }
}

/** Quotes a word for `sh`. */
export function shellQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** One tmux pane running a command. */
export class TmuxPane {
  /** The tmux server's socket; its directory goes when the pane is killed. */
  readonly socket: string;
  readonly #env: Record<string, string>;

  private constructor(socket: string, env: Record<string, string>) {
    this.socket = socket;
    this.#env = env;
  }

  /**
   * Starts `command` (a shell command line) in a new pane of `width` by `height` cells,
   * with exactly the environment `env` (plus what tmux sets: TERM, TMUX).
   */
  static async start(
    command: string,
    env: Record<string, string>,
    { width = 100, height = 30 } = {},
  ): Promise<TmuxPane> {
    const directory = await Deno.makeTempDir({ prefix: "crownui-tmux-server-" });
    const pane = new TmuxPane(`${directory}/tmux.sock`, env);
    await pane.tmux(
      "-f",
      "/dev/null",
      "new-session",
      "-d",
      "-x",
      String(width),
      "-y",
      String(height),
      "-s",
      "main",
      command,
    );
    return pane;
  }

  /** Runs a tmux command on this pane's server; returns its standard output. */
  async tmux(...args: string[]): Promise<string> {
    const output = await withTimeout(
      new Deno.Command("tmux", {
        args: ["-S", this.socket, ...args],
        env: this.#env,
        clearEnv: true,
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).output(),
      SCREEN_TIMEOUT_MS,
      `tmux ${args[0]}`,
    );
    if (!output.success) {
      throw new Error(`tmux ${args.join(" ")} failed: ${new TextDecoder().decode(output.stderr)}`);
    }
    return new TextDecoder().decode(output.stdout);
  }

  /** The screen's rows as text. */
  async screen(): Promise<string[]> {
    return (await this.tmux("capture-pane", "-p", "-t", "main")).split("\n");
  }

  /** Sends keys by tmux name (`Enter`, `Tab`, `C-c`, `BTab`). */
  async keys(...keys: string[]): Promise<void> {
    await this.tmux("send-keys", "-t", "main", ...keys);
  }

  /** Sends text as it is: characters, or escape sequences such as mouse reports. */
  async type(text: string): Promise<void> {
    await this.tmux("send-keys", "-t", "main", "-l", text);
  }

  /** Clicks the left button at 0-based cell (x, y), as a terminal reports it in SGR mode. */
  async click(x: number, y: number): Promise<void> {
    await this.type(`\x1b[<0;${x + 1};${y + 1}M\x1b[<0;${x + 1};${y + 1}m`);
  }

  /** A value of the pane, such as `#{alternate_on}`. */
  async display(format: string): Promise<string> {
    return (await this.tmux("display-message", "-p", "-t", "main", format)).trim();
  }

  /**
   * Waits (bounded) until the screen satisfies `test`; returns that screen. Fails showing
   * the last screen seen.
   */
  async waitFor(
    what: string,
    test: (screen: string[]) => boolean,
    timeoutMs: number = SCREEN_TIMEOUT_MS,
  ): Promise<string[]> {
    const deadline = performance.now() + timeoutMs;
    let screen: string[] = [];
    while (performance.now() < deadline) {
      screen = await this.screen();
      if (test(screen)) return screen;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(
      `timed out after ${timeoutMs} ms waiting for ${what}; the screen:\n${screen.join("\n")}`,
    );
  }

  /** Waits until some row of the screen includes `text`. */
  waitForText(text: string, timeoutMs?: number): Promise<string[]> {
    return this.waitFor(
      JSON.stringify(text),
      (screen) => screen.some((line) => line.includes(text)),
      timeoutMs,
    );
  }

  /** The 0-based cell where `text` first shows (ASCII text: cells and characters agree). */
  async find(text: string): Promise<{ x: number; y: number }> {
    const screen = await this.waitForText(text);
    const y = screen.findIndex((line) => line.includes(text));
    return { x: screen[y]!.indexOf(text), y };
  }

  /** Ends the tmux server and everything running in it, and removes its socket. Never throws. */
  async kill(): Promise<void> {
    try {
      await this.tmux("kill-server");
    } catch {
      // Gone already.
    }
    try {
      await Deno.remove(this.socket.slice(0, this.socket.lastIndexOf("/")), { recursive: true });
    } catch {
      // Gone already.
    }
  }
}
