/**
 * The terminal the renderer talks to, behind a small interface: output, the size, raw
 * mode, input bytes, resizes and job control (stop and continue). `DenoTerminal` is the process's own terminal;
 * tests give the renderer an emulator instead (`@xterm/headless`) and feed it input.
 *
 * @module
 */

import { writeAllSync } from "./terminal_log.ts";

/** A terminal: where frames go and where a person's input comes from. */
export interface TerminalIo {
  /** Writes escape sequences and text to the screen. */
  write(text: string): void;
  /** Writes a line for the person to read after the app left the screen (standard error). */
  writeError(text: string): void;
  /** The size in cells. */
  size(): { columns: number; rows: number };
  /** Turns raw mode on or off (no line editing, no echo, Ctrl+C as a byte). */
  setRaw(on: boolean): void;
  /** Calls `onBytes` with each chunk of input until the returned function is called. */
  readInput(onBytes: (bytes: Uint8Array) => void): () => void;
  /** Calls `listener` when the terminal is resized; returns a function that stops it. */
  onResize(listener: () => void): () => void;
  /**
   * Calls `listener` with `"stop"` when the process is asked to stop (SIGTSTP: `kill -TSTP`,
   * or Ctrl+Z while raw mode is off) and with `"continue"` when it runs again after a stop
   * (SIGCONT: the shell's `fg`); returns a function that stops listening. Listening replaces
   * the default stop: the listener gives the terminal back, then calls `stopProcess()`.
   */
  onJobControl(listener: (event: "stop" | "continue") => void): () => void;
  /** Stops this process until something continues it (the shell's `fg`, SIGCONT). */
  stopProcess(): void;
}

const encoder = new TextEncoder();

function listenForSignal(signal: Deno.Signal, listener: () => void): () => void {
  try {
    Deno.addSignalListener(signal, listener);
  } catch {
    return () => {}; // not on this platform
  }
  return () => {
    try {
      Deno.removeSignalListener(signal, listener);
    } catch {
      // Removed already.
    }
  };
}

/** The terminal of this process: standard input and output. */
export class DenoTerminal implements TerminalIo {
  write(text: string): void {
    try {
      writeAllSync(Deno.stdout, encoder.encode(text));
    } catch {
      // The terminal is gone: nothing left to draw on.
    }
  }

  writeError(text: string): void {
    try {
      writeAllSync(Deno.stderr, encoder.encode(text));
    } catch {
      // Standard error is closed.
    }
  }

  size(): { columns: number; rows: number } {
    try {
      const { columns, rows } = Deno.consoleSize();
      if (columns > 0 && rows > 0) return { columns, rows };
    } catch {
      // Not a terminal after all.
    }
    return { columns: 80, rows: 24 };
  }

  setRaw(on: boolean): void {
    if (!Deno.stdin.isTerminal()) return;
    try {
      Deno.stdin.setRaw(on);
    } catch {
      // The terminal went away; there is nothing to restore.
    }
  }

  readInput(onBytes: (bytes: Uint8Array) => void): () => void {
    const reader = Deno.stdin.readable.getReader();
    let stopped = false;
    (async () => {
      try {
        while (!stopped) {
          const { value, done } = await reader.read();
          if (done) break;
          if (!stopped) onBytes(value);
        }
      } catch {
        // Input closed: the app goes on until it quits some other way.
      }
    })();
    // Cancelling the reader ends the pending read, so it does not keep the process alive.
    return () => {
      stopped = true;
      reader.cancel().catch(() => {});
    };
  }

  onResize(listener: () => void): () => void {
    return listenForSignal("SIGWINCH", listener);
  }

  onJobControl(listener: (event: "stop" | "continue") => void): () => void {
    const stops = [
      listenForSignal("SIGTSTP", () => listener("stop")),
      listenForSignal("SIGCONT", () => listener("continue")),
    ];
    return () => stops.forEach((stop) => stop());
  }

  stopProcess(): void {
    try {
      // SIGSTOP cannot be caught: the process stops here, and this call returns once it is
      // continued (the SIGCONT listener then runs).
      Deno.kill(Deno.pid, "SIGSTOP");
    } catch {
      // No job control on this platform: the app goes on running.
    }
  }
}
