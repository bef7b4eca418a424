/**
 * JSDoc examples are what users copy from `deno doc` and JSR, so they read as code outside
 * this repository: they import only the package's entries (which resolve here through
 * deno.json's name and exports), and a TestApp is declared with `await using`, never closed
 * by hand. `deno task check` type-checks them and `deno task test` runs them (`--doc`).
 */

import assert from "node:assert/strict";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const RUNTIME = join(ROOT, "runtime");

/** What an example may import: the package's entries, Node built-ins and zod. */
const ALLOWED = /^(@crownui\/runtime(\/(testing|widgets|agent))?|node:[\w/]+|zod)$/;

/** Every product .ts file under `dir` (test code has no JSDoc for users). */
function productFiles(dir: string): string[] {
  const found: string[] = [];
  for (const entry of Deno.readDirSync(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) found.push(...productFiles(path));
    else if (
      entry.isFile && entry.name.endsWith(".ts") && !entry.name.endsWith("_test.ts") &&
      !entry.name.startsWith("_test_")
    ) found.push(path);
  }
  return found.sort();
}

/** An example: where its code starts, and its code without the comment's leading `*`. */
interface Example {
  where: string;
  code: string;
}

/** The fenced code blocks inside the JSDoc comments of `source`. */
function examplesOf(path: string, source: string): Example[] {
  const examples: Example[] = [];
  for (const comment of source.matchAll(/\/\*\*[\s\S]*?\*\//g)) {
    const lines = comment[0].split("\n").map((line) => line.replace(/^\s*\* ?/, ""));
    const line = source.slice(0, comment.index).split("\n").length;
    let code: string[] | null = null;
    let start = 0;
    for (const [i, text] of lines.entries()) {
      if (code === null && /^```(ts|typescript)?\s*$/.test(text)) {
        code = [];
        start = line + i + 1;
      } else if (code !== null && text.startsWith("```")) {
        examples.push({ where: `${relative(ROOT, path)}:${start}`, code: code.join("\n") });
        code = null;
      } else if (code !== null) code.push(text);
    }
  }
  return examples;
}

const examples = productFiles(RUNTIME).flatMap((path) =>
  examplesOf(path, Deno.readTextFileSync(path))
);

Deno.test("JSDoc examples in runtime/", async (t) => {
  await t.step("there are examples to check", () => {
    assert.ok(examples.length >= 10, `found only ${examples.length}`);
  });

  await t.step("import only the package's entries, node: built-ins and zod", () => {
    const wrong: string[] = [];
    for (const { where, code } of examples) {
      for (const match of code.matchAll(/\b(?:from\s+|import\s*\(\s*|import\s+)"([^"]+)"/g)) {
        if (!ALLOWED.test(match[1]!)) wrong.push(`${where}: ${match[1]}`);
      }
    }
    assert.deepEqual(wrong, [], "use @crownui/runtime, /testing, /widgets or /agent");
  });

  await t.step("declare a rendered TestApp with `await using` and never close it by hand", () => {
    const wrong: string[] = [];
    for (const { where, code } of examples) {
      for (const line of code.split("\n")) {
        const rendersApp = /\bawait render\(/.test(line) && !/^\s*await using\b/.test(line);
        if (rendersApp || /\.close\(\)/.test(line)) wrong.push(`${where}: ${line.trim()}`);
      }
    }
    assert.deepEqual(wrong, []);
  });
});
