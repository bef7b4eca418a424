/**
 * Helpers for `tests/crowndev_test.ts`: run the real `crowndev` (the command line of the
 * `crowndev` task in deno.json) as a child process, to its end or kept running (`watch`), in
 * scenes that own a runtime directory and the apps started in it. Children get a cleared
 * environment; every wait is bounded; a scene always ends its processes and removes its
 * directory.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import denoJson from "../deno.json" with { type: "json" };
import {
  type AppProcess,
  childEnv,
  makeRuntimeDir,
  PROCESS_TIMEOUT_MS,
  removeDir,
  REPO_ROOT,
  REQUEST_TIMEOUT_MS,
  startApp,
  withTimeout,
} from "./_app_process.ts";

/** The escape character that starts every colour sequence. */
export const ESCAPE = "\x1b";

/** `deno` and its arguments, exactly as the `crowndev` task in deno.json runs it. */
export function crowndevCommand(): { command: string; args: string[] } {
  const [deno, ...args] = denoJson.tasks.crowndev.split(/\s+/);
  assert.equal(deno, "deno", "the crowndev task starts with deno");
  const script = args.indexOf("crowndev/main.ts");
  assert.notEqual(script, -1, "the crowndev task runs crowndev/main.ts");
  args[script] = join(REPO_ROOT, "crowndev/main.ts");
  return { command: Deno.execPath(), args };
}

/**
 * A crowndev child's environment: `childEnv()` without its `NO_COLOR`, so that a run shows
 * that a pipe alone turns colour off, plus `extra`.
 */
function crowndevEnv(extra: Record<string, string>): Record<string, string> {
  const { NO_COLOR: _, ...env } = childEnv();
  return { ...env, ...extra };
}

/** What one crowndev run left behind. */
export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Starts crowndev in the repository root with `env` on top of `crowndevEnv()`. */
function spawnCrowndev(env: Record<string, string>, args: string[]): Deno.ChildProcess {
  const { command, args: taskArgs } = crowndevCommand();
  return new Deno.Command(command, {
    args: [...taskArgs, ...args],
    cwd: REPO_ROOT,
    env: crowndevEnv(env),
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

/**
 * Runs crowndev to its end (bounded). Its output goes to pipes, so it must hold no escape
 * sequence, whatever the command.
 */
export async function crowndev(env: Record<string, string>, ...args: string[]): Promise<Run> {
  const output = await crowndevOutput(env, args);
  const run = {
    code: output.code,
    stdout: new TextDecoder().decode(output.stdout),
    stderr: new TextDecoder().decode(output.stderr),
  };
  const shown = `crowndev ${args.join(" ")}: ${JSON.stringify(run)}`;
  assert.ok(!run.stdout.includes(ESCAPE), `escape sequence on a piped stdout: ${shown}`);
  assert.ok(!run.stderr.includes(ESCAPE), `escape sequence on a piped stderr: ${shown}`);
  return run;
}

/** Runs crowndev to its end (bounded) and returns its output as it came, bytes and all. */
export async function crowndevOutput(
  env: Record<string, string>,
  args: string[],
): Promise<Deno.CommandOutput> {
  const child = spawnCrowndev(env, args);
  try {
    return await withTimeout(child.output(), PROCESS_TIMEOUT_MS, `crowndev ${args.join(" ")}`);
  } catch (error) {
    try {
      child.kill("SIGKILL");
    } catch {
      // It ended meanwhile.
    }
    await child.status;
    throw error;
  }
}

/** Asserts a successful run: exit 0, nothing on standard error. */
export function assertOk(run: Run): void {
  assert.equal(run.code, 0, `expected success: ${JSON.stringify(run)}`);
  assert.equal(run.stderr, "", `expected nothing on stderr: ${JSON.stringify(run)}`);
}

/** Asserts a failed run: the exit code, nothing on standard output, `message` on stderr. */
export function assertFails(run: Run, code: number, message: RegExp): void {
  assert.equal(run.code, code, `expected exit ${code}: ${JSON.stringify(run)}`);
  assert.equal(run.stdout, "", `expected nothing on stdout: ${JSON.stringify(run)}`);
  assert.match(run.stderr, /^crowndev: /);
  assert.match(run.stderr, message);
}

/** Escapes `text` for use inside a regular expression. */
export function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** A crowndev process still running (`watch`), its output collected as it comes. */
export class CrowndevProcess {
  stdout = "";
  stderr = "";
  readonly #child: Deno.ChildProcess;
  readonly #reading: Promise<unknown>;
  readonly #stdoutReader: ReadableStreamDefaultReader<string>;

  constructor(env: Record<string, string>, args: string[]) {
    this.#child = spawnCrowndev(env, args);
    this.#stdoutReader = this.#child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    const readStdout = async () => {
      for (;;) {
        const { value, done } = await this.#stdoutReader.read();
        if (done) return;
        this.stdout += value;
      }
    };
    const readStderr = async () => {
      for await (const chunk of this.#child.stderr.pipeThrough(new TextDecoderStream())) {
        this.stderr += chunk;
      }
    };
    this.#reading = Promise.all([readStdout(), readStderr()]);
  }

  /** Stops reading standard output and closes it, as `head` does once it has its lines. */
  async stopReading(): Promise<void> {
    await this.#stdoutReader.cancel();
  }

  /** Waits until standard output matches `pattern` `count` times. */
  async waitForOutput(pattern: RegExp, count = 1): Promise<void> {
    const global = new RegExp(pattern.source, "g");
    const deadline = performance.now() + REQUEST_TIMEOUT_MS;
    while ((this.stdout.match(global) ?? []).length < count) {
      if (performance.now() > deadline) {
        throw new Error(
          `timed out waiting for ${count}× ${pattern} from crowndev; stdout:\n${this.stdout}\nstderr:\n${this.stderr}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Sends a signal; does nothing once the process has ended. */
  kill(signal: Deno.Signal): void {
    try {
      this.#child.kill(signal);
    } catch {
      // It ended meanwhile.
    }
  }

  /** Waits (bounded) for the process to end and its output to be read. */
  async finish(): Promise<Run> {
    const status = await withTimeout(this.#child.status, PROCESS_TIMEOUT_MS, "crowndev to end");
    await withTimeout(this.#reading, PROCESS_TIMEOUT_MS, "the end of crowndev's output");
    return { code: status.code, stdout: this.stdout, stderr: this.stderr };
  }

  /** Ends the process if it still runs, and waits for it. Safe to call twice. */
  async close(): Promise<void> {
    this.kill("SIGKILL");
    await this.finish();
  }
}

/** One app a scene started. */
export interface RunningApp {
  process: AppProcess;
  /** `counter-4242` */
  app: string;
  socket: string;
}

/** A runtime directory, the apps running in it, and crowndev runs that look there. */
export class Scene {
  readonly runtimeDir: string;
  readonly socketDir: string;
  readonly #apps: AppProcess[] = [];
  readonly #watches: CrowndevProcess[] = [];

  constructor(runtimeDir: string) {
    this.runtimeDir = runtimeDir;
    this.socketDir = join(runtimeDir, "crownui");
  }

  /** Starts an app in this scene's runtime directory and waits until it listens. */
  async start(script: string, args: string[] = []): Promise<RunningApp> {
    const process = startApp(script, { args, env: { XDG_RUNTIME_DIR: this.runtimeDir } });
    this.#apps.push(process);
    const socket = await process.listening();
    const app = socket.slice(socket.lastIndexOf("/") + 1, -".sock".length);
    return { process, app, socket };
  }

  /** Runs crowndev with `XDG_RUNTIME_DIR` set to this scene's directory. */
  run(...args: string[]): Promise<Run> {
    return crowndev({ XDG_RUNTIME_DIR: this.runtimeDir }, ...args);
  }

  /** Runs crowndev with extra environment variables. */
  runWith(env: Record<string, string>, ...args: string[]): Promise<Run> {
    return crowndev({ XDG_RUNTIME_DIR: this.runtimeDir, ...env }, ...args);
  }

  /** Starts a crowndev process that keeps running (`watch`). */
  spawn(...args: string[]): CrowndevProcess {
    const process = new CrowndevProcess({ XDG_RUNTIME_DIR: this.runtimeDir }, args);
    this.#watches.push(process);
    return process;
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.#watches.map((watch) => watch.close()));
    await Promise.allSettled(this.#apps.map((app) => app.close()));
    await removeDir(this.runtimeDir);
  }
}

/** Runs `body` in a fresh scene, always cleaning up after. */
export async function inScene(body: (scene: Scene) => Promise<void>): Promise<void> {
  const scene = new Scene(await makeRuntimeDir("crowndev-test-"));
  try {
    await body(scene);
  } finally {
    await scene.close();
  }
}

/** The path of `script` (util-linux), which gives a command a terminal; null without it. */
export async function whichScript(): Promise<string | null> {
  for (const path of ["/usr/bin/script", "/bin/script"]) {
    try {
      await Deno.stat(path);
      return path;
    } catch {
      // Not here.
    }
  }
  return null;
}

/** Runs crowndev on a pseudo-terminal (through `script`); returns what it printed. */
export async function onTerminal(
  script: string,
  scene: Scene,
  env: Record<string, string>,
  args: string[],
): Promise<string> {
  const { command, args: taskArgs } = crowndevCommand();
  const quote = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;
  const line = [command, ...taskArgs, ...args].map(quote).join(" ");
  const output = await withTimeout(
    new Deno.Command(script, {
      args: ["-qec", line, "/dev/null"],
      cwd: REPO_ROOT,
      env: crowndevEnv({ XDG_RUNTIME_DIR: scene.runtimeDir, TERM: "xterm", ...env }),
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output(),
    PROCESS_TIMEOUT_MS,
    `crowndev ${args.join(" ")} on a terminal`,
  );
  const text = new TextDecoder().decode(output.stdout);
  assert.equal(output.code, 0, `${text}\n${new TextDecoder().decode(output.stderr)}`);
  return text;
}
