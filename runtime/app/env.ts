/**
 * Reading the environment without asking for more permission than the program has: a
 * variable the program may not read counts as unset. Every optional setting (the renderer,
 * the socket directory, the compositor's socket, `NO_COLOR`, a token) is read through here,
 * so the rule is the same everywhere.
 *
 * @module
 */

/**
 * The value of environment variable `name`, or undefined when it is unset or the program
 * may not read it (no `--allow-env` for it).
 */
export function readEnv(name: string): string | undefined {
  // Asking first: without --allow-env a read throws (NotCapable in Deno 2.9), and a missing
  // optional setting must not stop the program.
  try {
    if (Deno.permissions.querySync({ name: "env", variable: name }).state !== "granted") {
      return undefined;
    }
    return Deno.env.get(name);
  } catch {
    return undefined; // a name the platform refuses (an = or NUL in it) is never set
  }
}

/** True when environment variable `name` is readable, set and not empty. */
export function envSet(name: string): boolean {
  const value = readEnv(name);
  return value !== undefined && value !== "";
}
