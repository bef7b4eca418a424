/**
 * Where the app's log goes while the terminal renderer owns the screen: a line written to
 * standard error would land in the middle of a frame, so lines go to a log file instead
 * (kept in memory when the app may not write files) and the renderer shows the file's path
 * when the app exits. The app's own `console.log` and friends go there too for as long. The agent bridge tells the renderer where the MCP server listens
 * (`serverListening()`, through the app), for the status line, so a person can find the
 * socket while the app runs; the line goes in the log too.
 *
 * @module
 */

import { log, serverListeningLine, setLogSink } from "../../app/log.ts";

/** How many lines are kept when there is no file to write them to. */
const MEMORY_LINES = 200;

const encoder = new TextEncoder();

/**
 * What a terminal would act on rather than show, were a log line printed or `cat` there: C0
 * controls but newline and tab, DEL, the C1 controls (U+009B is a one-character CSI) and the
 * bidi controls that reorder what follows (U+061C, U+200E–F, U+202A–E, U+2066–9). A line can
 * carry a peer's or an app's text (an error message, whatever the app logs).
 */
// deno-lint-ignore no-control-regex
const UNSAFE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** A log line with each character of `UNSAFE` shown as `\uXXXX`. */
function readable(line: string): string {
  return line.replace(
    UNSAFE,
    (character) => "\\u" + character.charCodeAt(0).toString(16).padStart(4, "0"),
  );
}

/** The console methods that would write over the screen. */
const CONSOLE_METHODS = ["log", "info", "warn", "error", "debug", "trace"] as const;
type ConsoleMethod = typeof CONSOLE_METHODS[number];

/** Sends the console's lines to the log; returns a function that puts the console back. */
function captureConsole(): () => void {
  const saved = new Map<ConsoleMethod, (...args: unknown[]) => void>();
  for (const method of CONSOLE_METHODS) {
    saved.set(method, console[method]);
    console[method] = (...args: unknown[]) => {
      log(args.map((arg) => typeof arg === "string" ? arg : Deno.inspect(arg)).join(" "));
    };
  }
  return () => {
    for (const [method, original] of saved) console[method] = original;
  };
}

function mayWriteFiles(): boolean {
  try {
    return Deno.permissions.querySync({ name: "write" }).state === "granted";
  } catch {
    return false;
  }
}

/** The log of an app whose screen belongs to the terminal renderer. */
export class TerminalLog {
  /** The log file's path, once started (null when lines are kept in memory). */
  path: string | null = null;
  /** The socket path the MCP server listens on now, as the app was told. */
  socketPath: string | null = null;
  /** The socket path the app listened on at some point, for the exit message. */
  everListenedAt: string | null = null;
  /** Lines written since start, apart from the listening lines. */
  otherLines = 0;
  /** The last line apart from the listening line, with controls shown as `\uXXXX`. */
  lastLine: string | null = null;
  readonly #name: string;
  readonly #onChange: () => void;
  readonly #memory: string[] = [];
  #file: Deno.FsFile | null = null;
  #restoreSink: (() => void) | null = null;

  /**
   * Makes the log of one app; nothing changes until `start()`.
   *
   * @param name a name for the file (the app's title)
   * @param onChange called after each line, to redraw the status line
   */
  constructor(name: string, onChange: () => void) {
    this.#name = name.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "-").slice(0, 40) || "app";
    this.#onChange = onChange;
  }

  /** Sends the app's log lines here until `stop()`. */
  start(): void {
    if (this.#restoreSink !== null) return;
    if (mayWriteFiles()) {
      try {
        this.path = Deno.makeTempFileSync({ prefix: `crownui-${this.#name}-`, suffix: ".log" });
        this.#file = Deno.openSync(this.path, { append: true });
      } catch {
        this.path = null;
        this.#file = null;
      }
    }
    const restoreSink = setLogSink((line) => this.#write(line));
    const restoreConsole = captureConsole();
    this.#restoreSink = () => {
      restoreConsole();
      restoreSink();
    };
  }

  /**
   * Records where the MCP server listens (null once it stopped) and, when it starts to
   * listen, writes the listening line to the log; that line is not counted among the others.
   */
  serverListening(socketPath: string | null): void {
    this.socketPath = socketPath;
    if (socketPath === null) return;
    this.everListenedAt = socketPath;
    this.#record(serverListeningLine(socketPath));
  }

  #write(line: string): void {
    this.otherLines++;
    this.lastLine = readable(line);
    this.#record(line);
  }

  #record(line: string): void {
    const stamped = `${new Date().toISOString()} ${readable(line)}`;
    if (this.#file !== null) {
      try {
        writeAllSync(this.#file, encoder.encode(stamped + "\n"));
      } catch {
        this.#remember(stamped);
      }
    } else this.#remember(stamped);
    this.#onChange();
  }

  #remember(line: string): void {
    this.#memory.push(line);
    if (this.#memory.length > MEMORY_LINES) this.#memory.shift();
  }

  /**
   * Gives the log back to standard error and returns what to tell the person on exit: the
   * log file's path (or the lines themselves when there is no file) and the socket.
   */
  stop(appTitle: string): string[] {
    const title = readable(appTitle);
    this.#restoreSink?.();
    this.#restoreSink = null;
    try {
      this.#file?.close();
    } catch {
      // Closed already.
    }
    this.#file = null;
    const lines: string[] = [];
    if (this.everListenedAt !== null) {
      lines.push(`${title}: the MCP server was listening at ${this.everListenedAt}`);
    }
    if (this.path !== null) {
      const count = this.otherLines + (this.everListenedAt !== null ? 1 : 0);
      lines.push(
        `${title}: log written to ${this.path} (${count} ${count === 1 ? "line" : "lines"})`,
      );
    } else if (this.#memory.length > 0) {
      lines.push(`${title}: log:`, ...this.#memory);
    }
    return lines;
  }
}

/** Writes every byte (a write to a file or terminal may take only part). */
export function writeAllSync(
  target: { writeSync(data: Uint8Array): number },
  data: Uint8Array,
): void {
  let offset = 0;
  while (offset < data.length) offset += target.writeSync(data.subarray(offset));
}
