/**
 * The programs CrownUI ships, and the one list of permission flags each runs with. The
 * deno.json tasks, `deno task compile` (release binaries), `deno task install` and the tests
 * that launch the programs all take their flags from here, so the compiled binaries and the
 * tested commands cannot drift apart (a test checks the deno.json tasks against this list).
 *
 * Usage (through deno.json tasks):
 *   deno task compile [--target TRIPLE] [--out DIR] [--dry-run]
 *   deno task install [--root DIR]
 *   deno task uninstall [--root DIR]
 *
 * @module
 */

import { parseArgs } from "node:util";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** One program: its entry point and the permissions it needs. */
export interface Program {
  name: string;
  entry: string;
  flags: readonly string[];
  /** Files the program loads at run time that a compiled binary must carry. */
  include?: readonly string[];
}

/** The repository root. */
export const ROOT: string = fileURLToPath(new URL("..", import.meta.url));

/**
 * crownmcp: env (XDG_RUNTIME_DIR, TMPDIR, CROWNMCP_TOKEN), read (list and watch the socket
 * directory), write (remove stale sockets), net (Unix sockets count as network in Deno),
 * sys=uid (the fallback directory's name when XDG_RUNTIME_DIR is unset).
 */
export const CROWNMCP: Program = {
  name: "crownmcp",
  entry: "crownmcp/main.ts",
  flags: ["--allow-env", "--allow-read", "--allow-write", "--allow-net", "--allow-sys=uid"],
};

/** crowndev: the same needs as crownmcp. */
export const CROWNDEV: Program = {
  name: "crowndev",
  entry: "crowndev/main.ts",
  flags: ["--allow-env", "--allow-read", "--allow-write", "--allow-net", "--allow-sys=uid"],
};

/**
 * An app with `AppConfig.mcp(true)`: env, read and write (the socket directory), ffi (peer
 * credentials and the uid) and net (its Unix socket). The server worker is a separate module
 * that a compiled app must include.
 */
export const APP_FLAGS: readonly string[] = [
  "--allow-env",
  "--allow-read",
  "--allow-write",
  "--allow-ffi",
  "--allow-net",
];

/** The programs `compile` and `install` build. */
export const PROGRAMS: readonly Program[] = [CROWNMCP, CROWNDEV];

/** The targets release binaries are built for. */
export const RELEASE_TARGETS = [
  "x86_64-unknown-linux-gnu",
  "aarch64-unknown-linux-gnu",
  "x86_64-apple-darwin",
  "aarch64-apple-darwin",
] as const;

/** The `deno compile` arguments for one program and target. */
export function compileArgs(
  program: Program,
  target: string | undefined,
  outDir: string,
): string[] {
  const suffix = target === undefined ? "" : `-${target}`;
  return [
    "compile",
    "--frozen",
    ...program.flags,
    ...(program.include ?? []).flatMap((file) => ["--include", file]),
    ...(target === undefined ? [] : ["--target", target]),
    "--output",
    join(outDir, `${program.name}${suffix}`),
    program.entry,
  ];
}

/**
 * The `deno install` arguments for one program. `lock` is a copy of the checkout's
 * deno.lock: every package is checked against it (so the installed program runs the
 * versions we tested), while the entries a global install adds go to the copy, not to the
 * checkout.
 */
export function installArgs(program: Program, root: string | undefined, lock: string): string[] {
  return [
    "install",
    "--global",
    "--force",
    "--config",
    join(ROOT, "deno.json"),
    "--lock",
    lock,
    "--name",
    program.name,
    ...(root === undefined ? [] : ["--root", root]),
    ...program.flags,
    join(ROOT, program.entry),
  ];
}

/** The `deno uninstall` arguments for one program. */
export function uninstallArgs(program: Program, root: string | undefined): string[] {
  return ["uninstall", "--global", ...(root === undefined ? [] : ["--root", root]), program.name];
}

async function deno(args: string[]): Promise<boolean> {
  const status = await new Deno.Command(Deno.execPath(), { args, cwd: ROOT }).spawn().status;
  return status.success;
}

async function main(): Promise<number> {
  const [command, ...rest] = Deno.args;
  const { values } = parseArgs({
    args: rest,
    options: {
      target: { type: "string" },
      out: { type: "string", default: join(ROOT, "dist") },
      root: { type: "string" },
      "dry-run": { type: "boolean", default: false },
    },
  });
  const run = async (args: string[]) => {
    console.error(`deno ${args.join(" ")}`);
    return values["dry-run"] ? true : await deno(args);
  };
  let ok = true;
  switch (command) {
    case "compile":
      for (const program of PROGRAMS) {
        ok &&= await run(compileArgs(program, values.target, values.out));
      }
      break;
    case "install": {
      const lock = await Deno.makeTempFile({ prefix: "crownui-install-", suffix: ".lock" });
      await Deno.copyFile(join(ROOT, "deno.lock"), lock);
      try {
        for (const program of PROGRAMS) ok &&= await run(installArgs(program, values.root, lock));
      } finally {
        await Deno.remove(lock);
      }
      if (ok && !values["dry-run"]) {
        const where = values.root === undefined ? "Deno's bin directory" : join(values.root, "bin");
        console.error(
          `installed crownmcp and crowndev into ${where}; make sure it is on your PATH`,
        );
      }
      break;
    }
    case "uninstall":
      for (const program of PROGRAMS) ok &&= await run(uninstallArgs(program, values.root));
      break;
    default:
      console.error(
        "usage: programs.ts compile|install|uninstall [--target T] [--out DIR] [--root DIR] [--dry-run]",
      );
      return 2;
  }
  return ok ? 0 : 1;
}

if (import.meta.main) Deno.exit(await main());
