/**
 * Helpers for tests that run apps as real `deno run` child processes: start one with a
 * chosen environment and permission flags, wait (bounded) for lines on its standard error,
 * wait for it to exit, and always end it. Every wait has a timeout, so a broken app fails a
 * test instead of hanging CI.
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import { connectToApp } from "../runtime/agent/clients/client.ts";
import type { Client } from "../runtime/agent/transport/sdk.ts";
import { readAnswer, readResultText } from "../runtime/agent/session/untrusted.ts";

/** The repository root; children run with it as their working directory. */
export const REPO_ROOT: string = fileURLToPath(new URL("..", import.meta.url));

/** The flags an app with the MCP server needs (as README and deno.json give them). */
export const SERVER_FLAGS: readonly string[] = [
  "--allow-env",
  "--allow-read",
  "--allow-write",
  "--allow-ffi",
  "--allow-net",
];

/** How long a start-up or exit may take before the test fails, in milliseconds. */
export const PROCESS_TIMEOUT_MS = 30_000;

/** How long one MCP request may take before the test fails, in milliseconds. */
export const REQUEST_TIMEOUT_MS = 20_000;

/** Settles like `promise`, or rejects after `ms` milliseconds saying what was awaited. */
export async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  try {
    return await Promise.race([promise, expired]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The environment of a child: only what Deno needs to find its cache, plus `extra`. The
 * children run with `clearEnv`, so an `XDG_RUNTIME_DIR` or `TMPDIR` of the test runner never
 * leaks in.
 */
export function childEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = { NO_COLOR: "1" };
  for (const name of PASSED_THROUGH) {
    const value = Deno.env.get(name);
    if (value !== undefined && value !== "") env[name] = value;
  }
  return { ...env, ...extra };
}

/**
 * What a child keeps of the runner's environment: where Deno and its cache are, and how this
 * machine reaches the package registry (a proxy, or a certificate authority of its own). A
 * child that must download packages (`deno install` into a new root, say) fails without them.
 */
export const PASSED_THROUGH: readonly string[] = [
  "PATH",
  "HOME",
  "DENO_DIR",
  "DENO_CERT",
  "DENO_TLS_CA_STORE",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "NODE_EXTRA_CA_CERTS",
  "HTTPS_PROXY",
  "https_proxy",
  "HTTP_PROXY",
  "http_proxy",
  "NO_PROXY",
  "no_proxy",
  "NPM_CONFIG_REGISTRY",
];

/** Makes a fresh directory with mode 0700, as a runtime directory is (`XDG_RUNTIME_DIR`). */
export async function makeRuntimeDir(prefix = "crownui-test-"): Promise<string> {
  const directory = await Deno.makeTempDir({ prefix });
  await Deno.chmod(directory, 0o700);
  return directory;
}

/** A runtime directory that removes itself, and everything in it, when its scope ends. */
export interface RuntimeDir extends AsyncDisposable {
  /** The directory's path. */
  readonly path: string;
}

/**
 * Makes a fresh runtime directory as `makeRuntimeDir()` does, for `await using`: at the end of
 * the scope it is removed as `removeDir()` removes it, after what was declared later in the
 * scope (an app that uses it, say) has been closed.
 */
export async function runtimeDir(prefix?: string): Promise<RuntimeDir> {
  const path = await makeRuntimeDir(prefix);
  return { path, [Symbol.asyncDispose]: () => removeDir(path) };
}

/** Removes a temporary directory and everything in it; never throws. */
export async function removeDir(directory: string): Promise<void> {
  try {
    await Deno.remove(directory, { recursive: true });
  } catch {
    // Gone already.
  }
}

/** The file mode's permission bits of `path` (not following a symlink). */
export function permissionBits(path: string): number {
  return (Deno.lstatSync(path).mode ?? 0) & 0o777;
}

/** True when `path` exists (a dangling symlink counts). */
export function exists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

/** Every socket file under `directory`, at any depth, not following symlinks. */
export function socketsUnder(directory: string): string[] {
  const found: string[] = [];
  const walk = (path: string) => {
    for (const entry of Deno.readDirSync(path)) {
      const child = `${path}/${entry.name}`;
      if (entry.isDirectory) walk(child);
      else if (Deno.lstatSync(child).isSocket) found.push(child);
    }
  };
  walk(directory);
  return found;
}

interface LineWaiter {
  pattern: RegExp;
  resolve: (match: RegExpMatchArray) => void;
  reject: (error: Error) => void;
}

/** What `startApp()` takes besides the script. */
export interface StartOptions {
  /** Variables for the child on top of `childEnv()`'s (the rest of the environment is cleared). */
  env?: Record<string, string>;
  /** Permission flags for `deno run`; `SERVER_FLAGS` by default. Pass `[]` for none. */
  flags?: readonly string[];
  /** Arguments after the script. */
  args?: readonly string[];
}

/**
 * Starts `deno run [flags] script [args]` in the repository root.
 *
 * @param script a path, absolute or relative to the repository root
 */
export function startApp(script: string, options: StartOptions = {}): AppProcess {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...(options.flags ?? SERVER_FLAGS), script, ...(options.args ?? [])],
    cwd: REPO_ROOT,
    env: childEnv(options.env),
    clearEnv: true,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  return new AppProcess(child);
}

/**
 * One app running as a child process, its standard error read line by line. Declared with
 * `await using`, it is closed (killed and waited for) when the scope ends.
 */
export class AppProcess implements AsyncDisposable {
  readonly pid: number;
  readonly status: Promise<Deno.CommandStatus>;
  readonly #child: Deno.ChildProcess;
  readonly #lines: string[] = [];
  readonly #waiters = new Set<LineWaiter>();
  readonly #reading: Promise<void>;
  #exited = false;
  #stderrDone = false;

  /** Use `startApp()`. */
  constructor(child: Deno.ChildProcess) {
    this.#child = child;
    this.pid = child.pid;
    this.status = child.status.then((status) => {
      this.#exited = true;
      return status;
    });
    this.#reading = this.#read();
  }

  async #read(): Promise<void> {
    let partial = "";
    try {
      for await (const chunk of this.#child.stderr.pipeThrough(new TextDecoderStream())) {
        partial += chunk;
        const lines = partial.split("\n");
        partial = lines.pop()!;
        for (const line of lines) this.#addLine(line);
      }
    } finally {
      if (partial !== "") this.#addLine(partial);
      this.#stderrDone = true;
      for (const waiter of this.#waiters) {
        waiter.reject(
          new Error(
            `the app's standard error ended before a line matched ${waiter.pattern}:\n${this.stderr}`,
          ),
        );
      }
      this.#waiters.clear();
    }
  }

  #addLine(line: string): void {
    this.#lines.push(line);
    for (const waiter of this.#waiters) {
      const match = line.match(waiter.pattern);
      if (match !== null) {
        this.#waiters.delete(waiter);
        waiter.resolve(match);
      }
    }
  }

  /** Everything the app wrote to standard error so far. */
  get stderr(): string {
    return this.#lines.join("\n");
  }

  /** The lines written so far. */
  get lines(): readonly string[] {
    return this.#lines;
  }

  /** Waits for a line matching `pattern` (seen already or still to come). */
  waitFor(pattern: RegExp, timeoutMs: number = PROCESS_TIMEOUT_MS): Promise<RegExpMatchArray> {
    for (const line of this.#lines) {
      const match = line.match(pattern);
      if (match !== null) return Promise.resolve(match);
    }
    if (this.#stderrDone) {
      return Promise.reject(
        new Error(`no line matched ${pattern}; the app wrote:\n${this.stderr}`),
      );
    }
    const found = new Promise<RegExpMatchArray>((resolve, reject) => {
      this.#waiters.add({ pattern, resolve, reject });
    });
    return withTimeout(found, timeoutMs, `a line matching ${pattern}`).catch((error) => {
      for (const waiter of this.#waiters) {
        if (waiter.pattern === pattern) this.#waiters.delete(waiter);
      }
      throw new Error(`${(error as Error).message}; the app wrote:\n${this.stderr}`);
    });
  }

  /** Waits for the `MCP server listening <path>` line; returns the path. */
  async listening(): Promise<string> {
    const match = await this.waitFor(/^MCP server listening (.+)$/);
    return match[1]!;
  }

  /**
   * True while the process runs: not yet reaped and not a zombie. Asks `ps` (reading `/proc`
   * directly needs `--allow-all` under Deno 2.9), so it tells a process that is still
   * scheduled from one that has exited but not yet been waited for.
   */
  async isAlive(): Promise<boolean> {
    if (this.#exited) return false;
    const ps = new Deno.Command("ps", {
      args: ["-o", "stat=", "-p", String(this.pid)],
      stdin: "null",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    const output = await withTimeout(ps.output(), PROCESS_TIMEOUT_MS, `ps -p ${this.pid}`);
    const state = new TextDecoder().decode(output.stdout).trim();
    return output.success && state !== "" && !state.startsWith("Z") && !this.#exited;
  }

  /** Sends a signal (SIGTERM by default); does nothing once the process has exited. */
  kill(signal: Deno.Signal = "SIGTERM"): void {
    if (this.#exited) return;
    try {
      this.#child.kill(signal);
    } catch {
      // It exited meanwhile.
    }
  }

  /** Waits for the process to exit, and for its standard error to be read to the end. */
  async exit(timeoutMs: number = PROCESS_TIMEOUT_MS): Promise<Deno.CommandStatus> {
    try {
      const status = await withTimeout(this.status, timeoutMs, `app ${this.pid} to exit`);
      await withTimeout(this.#reading, timeoutMs, `the end of app ${this.pid}'s standard error`);
      return status;
    } catch (error) {
      throw new Error(`${(error as Error).message}; the app wrote:\n${this.stderr}`, {
        cause: error,
      });
    }
  }

  /** Ends the process if it still runs (SIGKILL) and waits for it. Safe to call twice. */
  async close(): Promise<void> {
    this.kill("SIGKILL");
    await this.exit();
  }

  /** Closes the process when an `await using` declaration goes out of scope, as `close()` does. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

/**
 * Connects the SDK client to an app's socket, within the request timeout. Declared with
 * `await using`, the client is closed when the scope ends.
 */
export async function connect(path: string): Promise<Client & AsyncDisposable> {
  const client = await withTimeout(
    connectToApp(path, { name: "agent-process-test" }),
    REQUEST_TIMEOUT_MS,
    `a connection to ${path}`,
  );
  return Object.assign(client, { [Symbol.asyncDispose]: () => client.close() });
}

/** A tool result as the tests read it: its first text and whether it is an error. */
export interface ToolText {
  text: string;
  isError: boolean;
}

/** Calls a tool and returns its first text content. */
export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
  timeoutMs: number = REQUEST_TIMEOUT_MS,
): Promise<ToolText> {
  const result = await client.callTool({ name, arguments: args }, undefined, {
    timeout: timeoutMs,
  });
  const content = result.content as { type: string; text?: string }[];
  const first = content[0];
  if (first?.type !== "text" || typeof first.text !== "string") {
    throw new Error(`tool ${name} answered without text: ${JSON.stringify(result)}`);
  }
  return { text: first.text, isError: result.isError === true };
}

/** What `ui_tree` answers: the revision of its header and the tree text after it. */
export interface TreeAnswer {
  revision: number;
  tree: string;
}

/** Reads `ui_tree`; the answer must be marked as untrusted app data. */
export async function readTree(client: Client): Promise<TreeAnswer> {
  const { text, isError } = await callTool(client, "ui_tree");
  if (isError) throw new Error(`ui_tree failed: ${text}`);
  const read = readResultText(text);
  if (!read.untrusted || read.revision === undefined) {
    throw new Error(`ui_tree answered without the untrusted-data header: ${text}`);
  }
  return { revision: read.revision, tree: read.body };
}

/**
 * A tool result's text read back into its fields (`readAnswer`): `revision` (and `since`)
 * from the header, then the JSON's fields, or the tree or change text as `text`.
 */
export function answerOf(text: string): Record<string, unknown> {
  return readAnswer(text);
}

/** The id of the node whose tree line starts with `role "name"`. */
export function nodeId(tree: string, role: string, name: string): number {
  const prefix = `${role} ${JSON.stringify(name)} #`;
  const line = tree.split("\n").map((text) => text.trim()).find((text) => text.startsWith(prefix));
  if (line === undefined) throw new Error(`no ${prefix}… line in the tree:\n${tree}`);
  return Number(line.slice(prefix.length).split(" ")[0]);
}

/** What a command run to the end left: its exit code, signal and output as text. */
export interface Finished {
  code: number;
  signal: Deno.Signal | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command to the end in the repository root with `childEnv(env)` (the rest of the
 * environment cleared) and no standard input; killed after `timeoutMs`.
 */
export async function runToEnd(
  command: string,
  args: readonly string[],
  env: Record<string, string> = {},
  timeoutMs: number = PROCESS_TIMEOUT_MS,
): Promise<Finished> {
  const output = await new Deno.Command(command, {
    args: [...args],
    cwd: REPO_ROOT,
    env: childEnv(env),
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(timeoutMs),
  }).output();
  const decoder = new TextDecoder();
  return {
    code: output.code,
    signal: output.signal,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
  };
}
