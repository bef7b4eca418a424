/**
 * The app's log: one line per event on standard error, unless a renderer that owns the
 * terminal sends lines elsewhere. Tests capture lines by setting a sink.
 *
 * @module
 */

/** Where log lines go. */
export type LogSink = (line: string) => void;

const encoder = new TextEncoder();

function writeStderr(line: string): void {
  try {
    Deno.stderr.writeSync(encoder.encode(line + "\n"));
  } catch {
    // Standard error is closed: nowhere left to report to.
  }
}

let sink: LogSink = writeStderr;

/** Sends log lines to `next` instead; returns a function that restores the previous sink. */
export function setLogSink(next: LogSink): () => void {
  const previous = sink;
  sink = next;
  return () => {
    sink = previous;
  };
}

/** The log line that says where the app's MCP server listens. */
export function serverListeningLine(socketPath: string): string {
  return `MCP server listening ${socketPath}`;
}

/** Writes one log line. */
export function log(line: string): void {
  sink(line.replaceAll("\n", "\\n"));
}

/** The most lines of a stack `logError()` writes after the error's own line. */
const STACK_LINES = 20;

/**
 * Writes an error from app code, with where it happened, then its stack: one line
 * `    at ...` per frame (at most 20), so the log keeps what the person's screen leaves out.
 */
export function logError(error: unknown, where: string): void {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  log(`error in ${where}: ${message}`);
  if (!(error instanceof Error) || typeof error.stack !== "string") return;
  const frames = error.stack.split("\n").map((line) => line.trim())
    .filter((line) => line.startsWith("at "));
  for (const frame of frames.slice(0, STACK_LINES)) log(`    ${frame}`);
}

/** True for a line `logError()` writes for a frame of a stack. */
export function isStackLine(line: string): boolean {
  return line.startsWith("    at ");
}
