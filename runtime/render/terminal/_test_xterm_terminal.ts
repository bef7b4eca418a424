/**
 * A terminal for tests: the renderer's output goes into `@xterm/headless` (the emulator
 * behind VS Code's terminal, without the DOM), whose screen the test reads back; input is
 * fed as the bytes a terminal would send. A test-only dependency. `runInTerminal` runs an app
 * in one as `run()` would.
 *
 * @module
 */

import type { ColourDepth } from "./colour.ts";
import xterm from "npm:@xterm/headless@6.0.0";
import { App } from "../../app/app.ts";
import { formatTree } from "../../semantics/mod.ts";
import type { View } from "../../ui/mod.ts";
import type { TerminalIo } from "./terminal_io.ts";
import { TerminalRenderer } from "./terminal_renderer.ts";

const encoder = new TextEncoder();

/** An emulated terminal of `columns` by `rows` cells. */
export class XtermTerminal implements TerminalIo {
  readonly term: xterm.Terminal;
  /** Everything written to the screen, in order. */
  output = "";
  /** Everything written for after the app (standard error). */
  errors = "";
  raw = false;
  /** The window title the app set, as OSC 2 asked. */
  title = "";
  #onBytes: ((bytes: Uint8Array) => void) | null = null;
  #onResize: (() => void) | null = null;
  #onJobControl: ((event: "stop" | "continue") => void) | null = null;
  /** How many times the renderer stopped the process (`stopProcess()`). */
  stops = 0;

  constructor(columns: number, rows: number) {
    this.term = new xterm.Terminal({ cols: columns, rows, allowProposedApi: true });
    this.term.onTitleChange((title) => (this.title = title));
  }

  write(text: string): void {
    this.output += text;
    this.term.write(text);
  }

  writeError(text: string): void {
    this.errors += text;
  }

  size(): { columns: number; rows: number } {
    return { columns: this.term.cols, rows: this.term.rows };
  }

  setRaw(on: boolean): void {
    this.raw = on;
  }

  readInput(onBytes: (bytes: Uint8Array) => void): () => void {
    this.#onBytes = onBytes;
    return () => (this.#onBytes = null);
  }

  onResize(listener: () => void): () => void {
    this.#onResize = listener;
    return () => (this.#onResize = null);
  }

  onJobControl(listener: (event: "stop" | "continue") => void): () => void {
    this.#onJobControl = listener;
    return () => (this.#onJobControl = null);
  }

  stopProcess(): void {
    this.stops++;
  }

  /** Tells the renderer what SIGTSTP (`"stop"`) or SIGCONT (`"continue"`) would. */
  signal(event: "stop" | "continue"): void {
    this.#onJobControl?.(event);
  }

  /** True while the renderer reads input. */
  get reading(): boolean {
    return this.#onBytes !== null;
  }

  /** Sends input as the terminal would (text, escape sequences). */
  send(input: string): void {
    this.#onBytes?.(encoder.encode(input));
  }

  /** An SGR mouse press and release of the left button at 0-based cell (x, y). */
  click(x: number, y: number): void {
    this.send(`\x1b[<0;${x + 1};${y + 1}M\x1b[<0;${x + 1};${y + 1}m`);
  }

  /** Resizes the terminal and tells the renderer, as SIGWINCH would. */
  resize(columns: number, rows: number): void {
    this.term.resize(columns, rows);
    this.#onResize?.();
  }

  /** Waits until the emulator has parsed everything written so far. */
  flush(): Promise<void> {
    return new Promise((resolve) => this.term.write("", resolve));
  }

  /** The screen's rows as text, after everything written so far. */
  async lines(): Promise<string[]> {
    await this.flush();
    const buffer = this.term.buffer.active;
    return Array.from(
      { length: this.term.rows },
      (_, y) => buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? "",
    );
  }

  /** The cell at (x, y) of the active screen. */
  async cell(x: number, y: number): Promise<xterm.IBufferCell> {
    await this.flush();
    const buffer = this.term.buffer.active;
    return buffer.getLine(buffer.viewportY + y)!.getCell(x)!;
  }

  /** The (x, y) of the first occurrence of `text` on screen. */
  async find(text: string): Promise<{ x: number; y: number }> {
    const lines = await this.lines();
    for (let y = 0; y < lines.length; y++) {
      const x = lines[y]!.indexOf(text);
      if (x >= 0) return { x, y };
    }
    throw new Error(`${JSON.stringify(text)} is not on screen:\n${lines.join("\n")}`);
  }

  dispose(): void {
    this.term.dispose();
  }
}

/** An app running in an emulated terminal, for renderer tests. */
export interface Running {
  app: App;
  terminal: XtermTerminal;
  renderer: TerminalRenderer;
  /** The tree as text. */
  tree(): string;
  /** The tree line of the first node whose line includes `text`. */
  line(text: string): string;
  stop(): void;
}

/** Runs `root` in an emulated terminal of `columns` by `rows`, started as `run()` does. */
export function runInTerminal(
  root: View,
  {
    columns = 70,
    rows = 16,
    captureLog = false,
    colourDepth = "256" as ColourDepth,
  }: { columns?: number; rows?: number; captureLog?: boolean; colourDepth?: ColourDepth } = {},
): Running {
  const terminal = new XtermTerminal(columns, rows);
  const renderer = new TerminalRenderer({ io: terminal, captureLog, colourDepth });
  const app = new App(root, { title: "Test App", renderer });
  renderer.start(app);
  app.frame();
  const tree = () => {
    if (app.framePending) app.frame();
    return formatTree(app.tree.root);
  };
  return {
    app,
    terminal,
    renderer,
    tree,
    line: (text) => tree().split("\n").find((line) => line.includes(text))?.trim() ?? "",
    stop() {
      app.close();
      terminal.dispose();
    },
  };
}
