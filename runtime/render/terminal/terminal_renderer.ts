/**
 * The terminal renderer: what a person sees and uses. It takes the terminal over (alternate
 * screen, raw input, hidden cursor, SGR mouse reports, bracketed paste, the window title),
 * draws each frame by writing only the cells that changed inside a synchronized update,
 * keeps a status line at the bottom (the MCP socket, the keys), relays out on resize, and
 * turns the person's keys and mouse into the actions agents use (`runtime/input/person.ts`).
 *
 * It gives the terminal back on every way out: `close()` (the app quit: `q` or Ctrl+C,
 * `rt.quit()`, and the signals `run()` quits on), and an uncaught error or `Deno.exit()` in app code
 * (the global `error`, `unhandledrejection` and `unload` events, which Deno still delivers).
 * Ctrl+Z (a byte in raw mode) and SIGTSTP suspend the app as a shell's job control expects:
 * the terminal is given back, then the process stops; `fg` (SIGCONT) takes the terminal over
 * again and draws every cell.
 * While it runs, log lines go to a file (`TerminalLog`) so they never tear a frame.
 *
 * @module
 */

import { readEnv } from "../../app/env.ts";
import { log, serverListeningLine } from "../../app/log.ts";
import type { Renderer, RenderSource } from "../../app/renderer.ts";
import type { Keybind } from "../../text/keybind.ts";
import {
  characterKey,
  clickAt,
  draggableAt,
  dragTo,
  focusTakesText,
  hoverAt,
  pasteText,
  type PersonEnv,
  pressKey,
  typeText,
  wheelAt,
} from "../../input/person.ts";
import { cellWidth, splitGraphemes, truncateToWidth } from "../../text/cell_width.ts";
import type { Widget } from "../../ui/widget.ts";
import { type InputEvent, InputParser, type MouseEvent } from "./input_parser.ts";
import { BEGIN_FRAME, END_FRAME, enterModes, LEAVE_MODES } from "./modes.ts";
import { type ColourDepth, detectColourDepth } from "./colour.ts";
import { paintFrame } from "./paint.ts";
import { diffScreens, Screen } from "./screen.ts";
import { DenoTerminal, type TerminalIo } from "./terminal_io.ts";
import { TerminalLog } from "./terminal_log.ts";

/** What the renderer needs of the app it draws: the `App` is one. */
export interface TerminalApp extends PersonEnv {
  /** The window title. */
  readonly title: string;
  /** Asks for a frame soon. */
  requestFrame(): void;
  /** Asks the app to quit. */
  quit(): void;
  /** True when one of the app's keybindings takes `keybind` now (then `q` does not quit). */
  bindsKey?(keybind: Keybind): boolean;
}

/** What a `TerminalRenderer` is made with; every field has a default. */
export interface TerminalRendererOptions {
  /** The terminal; the process's own by default. */
  io?: TerminalIo;
  /**
   * The colours the terminal shows: detected from the environment unless given (see
   * `detectColourDepth()`: `NO_COLOR`, `FORCE_COLOR`, `COLORTERM`, `TERM`). Without colour,
   * focus and states still show, by attributes.
   */
  colourDepth?: ColourDepth;
  /** Whether log lines go to a file while the renderer runs (true by default). */
  captureLog?: boolean;
  /** How long a lone Escape waits for the rest of a sequence, in ms (25 by default). */
  escapeDelayMs?: number;
}

/** Two presses within this many ms on the same cell make a double click. */
const DOUBLE_CLICK_MS = 400;
/** Lines one wheel step scrolls. */
const WHEEL_LINES = 3;

/**
 * The runtime's keys the status line recalls after the app's bindings, the last two always;
 * `q` and `?` type themselves in a text field, so there it says Ctrl+C and F1.
 */
const KEY_HINTS = ["Tab move", "Enter act", "? keys", "q quit"];
/** Where the app binds `q` itself, q does not quit. */
const KEY_HINTS_Q_BOUND = ["Tab move", "Enter act", "? keys", "Ctrl+C quit"];
const Q_KEY: Keybind = { key: "q", ctrl: false, alt: false, shift: false, meta: false };
const KEY_HINTS_IN_FIELD = ["Tab move", "Enter act", "F1 keys", "Ctrl+C quit"];
/** In a text area Enter breaks the line. */
const KEY_HINTS_IN_TEXT_AREA = ["Tab move", "Enter new line", "F1 keys", "Ctrl+C quit"];
const HINT_SEPARATOR = " · ";

/**
 * The hints that fit in `room` cells: the last two of `runtime` always (or none when even
 * they do not fit), then as many of the others, app bindings first, as fit in order.
 */
function fitHints(
  app: readonly { key: string; description: string }[],
  runtime: readonly string[],
  room: number,
): string {
  const always = runtime.slice(-2);
  const optional = [
    ...app.map((hint) => `${hint.key} ${hint.description}`),
    ...runtime.slice(0, -2),
  ];
  const widthOf = (items: readonly string[]) =>
    items.reduce((sum, item) => sum + cellWidth(item), 0) +
    cellWidth(HINT_SEPARATOR) * Math.max(0, items.length - 1);
  if (widthOf(always) > room) return "";
  const shown: string[] = [];
  for (const item of optional) {
    if (widthOf([...shown, item, ...always]) <= room) shown.push(item);
  }
  return [...shown, ...always].join(HINT_SEPARATOR);
}

/** The variables that say how many colours the terminal shows. */
function readColourEnv(): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  for (const name of ["NO_COLOR", "FORCE_COLOR", "COLORTERM", "TERM"]) env[name] = readEnv(name);
  return env;
}

/** Draws an app in the terminal and feeds it the person's input. */
export class TerminalRenderer implements Renderer {
  readonly kind = "terminal";
  readonly #io: TerminalIo;
  readonly #depth: ColourDepth;
  readonly #parser = new InputParser();
  readonly #captureLog: boolean;
  readonly #escapeDelayMs: number;
  #columns: number;
  #rows: number;
  /** What the terminal shows now; null forces a full redraw. */
  #front: Screen | null = null;
  #back: Screen;
  #app: TerminalApp | null = null;
  /** The last frame's source, for `paint()`. */
  #source: RenderSource | null = null;
  #log: TerminalLog | null = null;
  #started = false;
  #closed = false;
  /** Between Ctrl+Z (or SIGTSTP) and SIGCONT: the terminal is the shell's. */
  #suspended = false;
  #stops: (() => void)[] = [];
  #escapeTimer: ReturnType<typeof setTimeout> | undefined;
  #dragging: Widget | null = null;
  #lastPress: { x: number; y: number; at: number } | null = null;
  /** The exit message, kept when the terminal is given back. */
  #farewell: string[] = [];
  readonly #onFatal = (event: Event) => {
    // An error the app handles itself does not end the process; the screen stays. Deno runs
    // no code after an unhandled one, so this is the last chance to give the terminal back.
    if (event.type !== "unload" && event.defaultPrevented) return;
    this.close();
  };

  /** Makes a renderer for the terminal in `options.io` (the process's own by default). */
  constructor(options: TerminalRendererOptions = {}) {
    this.#io = options.io ?? new DenoTerminal();
    this.#depth = options.colourDepth ?? detectColourDepth(readColourEnv());
    this.#captureLog = options.captureLog ?? true;
    this.#escapeDelayMs = options.escapeDelayMs ?? 25;
    const { columns, rows } = this.#io.size();
    this.#columns = columns;
    this.#rows = rows;
    this.#back = new Screen(columns, rows);
  }

  /** The app's part of the window: all rows but the status line. */
  size(): { width: number; height: number } {
    return { width: this.#columns, height: Math.max(1, this.#rows - 1) };
  }

  /** What was said to the person on exit (the log file, the socket). */
  get farewell(): readonly string[] {
    return this.#farewell;
  }

  /** The log's status: the socket path the MCP server listens on, if any. */
  get socketPath(): string | null {
    return this.#log?.socketPath ?? null;
  }

  /**
   * Shows where the app's MCP server listens in the status line (null once it stopped), as
   * the app is told by its agent bridge; without a log of its own the line goes to the log.
   */
  serverListening(socketPath: string | null): void {
    // Deno may clear a line of standard error while the server's worker loads its modules:
    // the next frame draws every cell again.
    this.#front = null;
    if (this.#log !== null) this.#log.serverListening(socketPath);
    else if (socketPath !== null) log(serverListeningLine(socketPath));
    this.#app?.requestFrame();
  }

  /**
   * Takes the terminal over for `app` and starts reading input. Focus goes to the first
   * element in Tab order when nothing has it, so a person can type or press Enter at once.
   */
  start(app: TerminalApp): void {
    if (this.#started || this.#closed) return;
    this.#app = app;
    this.#started = true;
    this.#io.write(enterModes(app.title));
    this.#io.setRaw(true);
    if (this.#captureLog) {
      this.#log = new TerminalLog(app.title, () => app.requestFrame());
      this.#log.start();
    }
    for (const type of ["error", "unhandledrejection", "unload"]) {
      globalThis.addEventListener(type, this.#onFatal);
      this.#stops.push(() => globalThis.removeEventListener(type, this.#onFatal));
    }
    this.#stops.push(
      this.#io.readInput((bytes) => this.feed(bytes)),
      this.#io.onResize(() => this.resize()),
      this.#io.onJobControl((event) => event === "stop" ? this.suspend() : this.#continued()),
    );
    if (app.focused === null) app.moveFocus(1);
    app.requestFrame();
  }

  /** Draws a frame: paints it, then writes the cells that changed. */
  render(source: RenderSource): void {
    this.#source = source;
    if (!this.#started || this.#closed || this.#suspended) return;
    const screen = this.#back;
    screen.clear();
    const appArea = { x: 0, y: 0, width: this.#columns, height: this.size().height };
    const surface = paintFrame(screen, source, source.theme, this.#depth, appArea);
    if (this.#rows > 1) {
      const focused = source.focused;
      const runtimeHints = focused?.insertText === undefined
        ? (this.#app?.bindsKey?.(Q_KEY) ? KEY_HINTS_Q_BOUND : KEY_HINTS)
        : focused.takesLineBreaks
        ? KEY_HINTS_IN_TEXT_AREA
        : KEY_HINTS_IN_FIELD;
      this.#paintStatus(screen, surface.look("status"), runtimeHints, source.keyHints());
    }
    const changes = diffScreens(this.#front, screen, this.#depth);
    this.#back = this.#front ?? new Screen(this.#columns, this.#rows);
    this.#front = screen;
    if (changes !== "") this.#io.write(BEGIN_FRAME + changes + END_FRAME);
  }

  /**
   * The last frame painted now into a screen of the app's part of the window (the status
   * line left out), in the app's theme at `depth`: what a screenshot draws.
   *
   * @ignore
   */
  paint(depth: ColourDepth = "truecolor"): Screen {
    const { width, height } = this.size();
    const screen = new Screen(width, height);
    if (this.#source !== null) paintFrame(screen, this.#source, this.#source.theme, depth);
    return screen;
  }

  #paintStatus(
    screen: Screen,
    look: number,
    runtimeHints: readonly string[],
    appHints: readonly { key: string; description: string }[],
  ): void {
    const y = this.#rows - 1;
    const log = this.#log;
    let left = "";
    if (log?.socketPath) left = `MCP ${log.socketPath}`;
    if (log !== null && log.otherLines > 0) {
      const where = log.path ?? "shown on exit";
      left += `${left === "" ? "" : "  "}log: ${log.otherLines} in ${where}`;
    }
    const width = this.#columns;
    screen.fill({ x: 0, y, width, height: 1 }, look);
    // The left part (the socket, the log) stays whole: the keys get the room it leaves.
    const room = width - 2 - (left === "" ? 0 : cellWidth(left) + 2);
    const hints = fitHints(appHints, runtimeHints, room);
    screen.write(1, y, truncateToWidth(left, Math.max(0, width - 2), "…"), look);
    if (hints !== "") screen.write(width - cellWidth(hints) - 1, y, hints, look);
  }

  /** Reads the terminal's size again, relays out and redraws everything. */
  resize(): void {
    if (this.#closed) return;
    const { columns, rows } = this.#io.size();
    this.#columns = columns;
    this.#rows = rows;
    this.#front = null;
    this.#back = new Screen(columns, rows);
    this.#app?.requestFrame();
  }

  /** Handles raw input bytes, as the terminal sends them. */
  feed(bytes: Uint8Array | string): void {
    if (this.#closed || this.#app === null) return;
    this.#handleAll(this.#parser.feed(bytes));
    clearTimeout(this.#escapeTimer);
    this.#escapeTimer = undefined;
    if (this.#parser.waiting) {
      this.#escapeTimer = setTimeout(() => this.flushInput(), this.#escapeDelayMs);
    }
  }

  /** Ends input held back (a lone Escape) as if the terminal had paused. */
  flushInput(): void {
    clearTimeout(this.#escapeTimer);
    this.#escapeTimer = undefined;
    if (this.#closed || this.#app === null) return;
    this.#handleAll(this.#parser.flush());
  }

  #handleAll(events: InputEvent[]): void {
    for (const event of events) {
      if (this.#closed) return;
      try {
        this.#handle(event);
      } catch (error) {
        this.#app?.reportError(error, `the ${event.type} input`);
      }
    }
  }

  #handle(event: InputEvent): void {
    const app = this.#app!;
    switch (event.type) {
      case "key":
        this.#key(event.keybind);
        return;
      case "text":
        if (focusTakesText(app)) typeText(app, event.text);
        else for (const character of splitGraphemes(event.text)) this.#key(characterKey(character));
        return;
      case "paste":
        pasteText(app, event.text);
        return;
      case "mouse":
        this.#mouse(event);
        return;
    }
  }

  /**
   * Ctrl+C quits; so does `q` where no text field has focus, unless the app binds `q` itself
   * (`cx.keybind("q", ...)`); Ctrl+Z suspends; other keys go to the app.
   */
  #key(keybind: Keybind): void {
    const app = this.#app!;
    const only = (ctrl: boolean) =>
      keybind.ctrl === ctrl && !keybind.alt && !keybind.meta && !keybind.shift;
    if (keybind.key === "Z" && only(true)) {
      this.suspend();
      return;
    }
    if (
      (keybind.key === "C" && only(true)) ||
      (keybind.key === "q" && only(false) && !focusTakesText(app) && !app.bindsKey?.(keybind))
    ) {
      app.quit();
      return;
    }
    pressKey(app, keybind);
  }

  #mouse(event: MouseEvent): void {
    const app = this.#app!;
    const { x, y } = event;
    switch (event.action) {
      case "press": {
        if (event.button !== 0) return;
        const now = performance.now();
        const last = this.#lastPress;
        const double = last !== null && last.x === x && last.y === y &&
          now - last.at < DOUBLE_CLICK_MS;
        this.#lastPress = double ? null : { x, y, at: now };
        this.#dragging = draggableAt(app, x, y);
        clickAt(app, x, y, double ? 2 : 1);
        if (this.#dragging !== null) dragTo(app, this.#dragging, x, y);
        return;
      }
      case "drag":
        if (this.#dragging !== null) dragTo(app, this.#dragging, x, y);
        return;
      case "release":
        this.#dragging = null;
        return;
      case "wheel":
        wheelAt(app, x, y, event.deltaX * WHEEL_LINES, event.deltaY * WHEEL_LINES);
        return;
      case "move":
        hoverAt(app, x, y);
        return;
    }
  }

  /**
   * Suspends the app, as Ctrl+Z does: gives the terminal back (raw mode, the alternate
   * screen, mouse reports, bracketed paste, the hidden cursor and synchronized output all
   * off), then stops the process until the shell continues it (`fg`, SIGCONT), when the
   * terminal is taken over again and every cell drawn.
   */
  suspend(): void {
    if (!this.#started || this.#closed || this.#suspended) return;
    this.#suspended = true;
    clearTimeout(this.#escapeTimer);
    this.#escapeTimer = undefined;
    this.#dragging = null;
    this.#io.write(LEAVE_MODES);
    this.#io.setRaw(false);
    this.#io.stopProcess();
  }

  /**
   * The process runs again (SIGCONT). After a suspend the terminal is taken over again; in
   * any case the screen may have been drawn over or resized meanwhile, so every cell is drawn.
   */
  #continued(): void {
    if (!this.#started || this.#closed) return;
    if (this.#suspended) {
      this.#suspended = false;
      this.#io.write(enterModes(this.#app?.title ?? ""));
      this.#io.setRaw(true);
    }
    this.resize();
  }

  /**
   * Gives the terminal back: modes off, cursor shown, the normal screen and title back, raw
   * mode off, the log back on standard error; then tells the person where the log went.
   * Safe to call twice.
   */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#escapeTimer);
    for (const stop of this.#stops.splice(0)) {
      try {
        stop();
      } catch {
        // Going anyway.
      }
    }
    if (!this.#started) return;
    if (!this.#suspended) {
      this.#io.write(LEAVE_MODES);
      this.#io.setRaw(false);
    }
    this.#farewell = this.#log?.stop(this.#app?.title ?? "app") ?? [];
    if (this.#farewell.length > 0) this.#io.writeError(this.#farewell.join("\n") + "\n");
  }
}
