/**
 * Snapshot tests: a value compared with the one kept in a file under `__snapshots__/` beside
 * the test, as Deno's standard library's `assertSnapshot` does. Run the tests with
 * `-- --update` (or `-u`, or `CROWNUI_UPDATE_SNAPSHOTS=1`) to write the files anew.
 *
 * @module
 */

/** A value that is not its snapshot, or a snapshot that is missing. */
export class SnapshotError extends Error {
  /** The value the test gave. */
  readonly actual: string;
  /** The snapshot kept; undefined when there is none. */
  readonly expected: string | undefined;

  /**
   * A refusal saying `message`, about `actual` against `expected`.
   *
   * @param message what is wrong and how to mend it
   * @param actual the value given
   * @param expected the snapshot kept, if any
   */
  constructor(message: string, actual: string, expected: string | undefined) {
    super(message);
    this.name = "SnapshotError";
    this.actual = actual;
    this.expected = expected;
  }
}

/** Where two texts first differ, as the lines of each there. */
function firstDifference(expected: string, actual: string): string {
  const want = expected.split("\n");
  const got = actual.split("\n");
  for (let line = 0; line < Math.max(want.length, got.length); line++) {
    if (want[line] === got[line]) continue;
    return `line ${line + 1}:\n  kept: ${JSON.stringify(want[line] ?? "(none)")}\n  now:  ${
      JSON.stringify(got[line] ?? "(none)")
    }`;
  }
  return "";
}

/** What a test context gives `assertSnapshot()`: Deno's `Deno.TestContext` has it. */
export interface SnapshotContext {
  /** The test's (or step's) name. */
  readonly name: string;
  /** The URL of the test's module. */
  readonly origin: string;
  /** The test a step belongs to. */
  readonly parent?: SnapshotContext | undefined;
}

const counts = new Map<string, number>();
const files = new Map<string, Map<string, string>>();

/**
 * True when the tests run with `--update` or `-u` after `--`, or with the variable
 * `CROWNUI_UPDATE_SNAPSHOTS=1` (for runners that pass no arguments).
 */
function updating(): boolean {
  if (Deno.args.includes("--update") || Deno.args.includes("-u")) return true;
  try {
    return Deno.env.get("CROWNUI_UPDATE_SNAPSHOTS") === "1";
  } catch {
    return false; // without --allow-env the variable is not asked for
  }
}

function escape(text: string): string {
  return text.replaceAll("\\", "\\\\").replaceAll("`", "\\`").replaceAll("${", "\\${");
}

function unescape(text: string): string {
  return text.replace(/\\(.)/gs, "$1");
}

const ENTRY = /snapshot\[`((?:\\.|[^`\\])*)`\] = `\n((?:\\.|[^`\\])*)\n`;/gs;

function read(path: string): Map<string, string> {
  let cached = files.get(path);
  if (cached !== undefined) return cached;
  cached = new Map();
  let text = "";
  try {
    text = Deno.readTextFileSync(path);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  for (const match of text.matchAll(ENTRY)) cached.set(unescape(match[1]!), unescape(match[2]!));
  files.set(path, cached);
  return cached;
}

function write(path: string, entries: Map<string, string>): void {
  const keys = [...entries.keys()].sort();
  const body = keys.map((key) =>
    `snapshot[\`${escape(key)}\`] = \`\n${escape(entries.get(key)!)}\n\`;\n`
  );
  Deno.mkdirSync(path.slice(0, path.lastIndexOf("/")), { recursive: true });
  Deno.writeTextFileSync(path, `export const snapshot = {};\n\n${body.join("\n")}`);
}

/**
 * Asserts that `actual` is the snapshot kept for this test (the n-th call in it), in
 * `__snapshots__/<test file>.snap` beside the test file; with `-- --update` it writes
 * `actual` as the snapshot instead. A snapshot that is missing fails, saying how to make it.
 */
export function assertSnapshot(t: SnapshotContext, actual: string): void {
  const names: string[] = [];
  for (let context: SnapshotContext | undefined = t; context; context = context.parent) {
    names.unshift(context.name);
  }
  const name = names.join(" > ");
  const test = new URL(t.origin);
  if (test.protocol !== "file:") throw new TypeError("assertSnapshot() needs a test in a file");
  const dir = test.pathname.slice(0, test.pathname.lastIndexOf("/"));
  const file = test.pathname.slice(test.pathname.lastIndexOf("/") + 1);
  const path = `${dir}/__snapshots__/${file}.snap`;
  const count = (counts.get(`${path}\0${name}`) ?? 0) + 1;
  counts.set(`${path}\0${name}`, count);
  const key = `${name} ${count}`;
  const entries = read(path);
  if (updating()) {
    if (entries.get(key) !== actual) {
      entries.set(key, actual);
      write(path, entries);
    }
    return;
  }
  const expected = entries.get(key);
  if (expected === undefined) {
    throw new SnapshotError(
      `no snapshot "${key}" in ${path}; run the test with -- --update to write it:\n${actual}`,
      actual,
      undefined,
    );
  }
  if (expected !== actual) {
    throw new SnapshotError(
      `snapshot "${key}" differs from ${path} at ${
        firstDifference(expected, actual)
      }\nrun with -- --update if the change is meant`,
      actual,
      expected,
    );
  }
}
