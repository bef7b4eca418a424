/**
 * The layers of runtime/ import one way (README, "Code map"): a product file imports only its
 * own folder and folders below it, never test code. Imports are read from the source text
 * with comments left out, so a JSDoc example's imports do not count.
 */

import assert from "node:assert/strict";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const RUNTIME = join(ROOT, "runtime");

/**
 * The rank of each layer, bottom first. A file may import a folder of a lower rank, and its
 * own folder; `reactive` and `text` share the bottom and know nothing of each other. The
 * files at the top of runtime/ (the package entries) are above every folder.
 */
export const LAYERS: Readonly<Record<string, number>> = {
  reactive: 0,
  text: 0,
  semantics: 1,
  layout: 2,
  ui: 3,
  input: 4,
  app: 5,
  render: 6,
  agent: 7,
  testing: 8, // the harness's pieces (its screen, snapshots, clock), under runtime/testing.ts
  "(entry)": 9,
};

/** True for test code: `*_test.ts` and `_test_*.ts` files. */
function isTestFile(path: string): boolean {
  const name = path.slice(path.lastIndexOf("/") + 1);
  return name.endsWith("_test.ts") || name.startsWith("_test_");
}

/** The layer of a path under runtime/: its first folder, or `(entry)` for a top file. */
function layerOf(path: string): string {
  const parts = relative(RUNTIME, path).split("/");
  return parts.length === 1 ? "(entry)" : parts[0]!;
}

/** Every .ts file under `dir`. */
function filesUnder(dir: string): string[] {
  const found: string[] = [];
  for (const entry of Deno.readDirSync(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) found.push(...filesUnder(path));
    else if (entry.isFile && entry.name.endsWith(".ts")) found.push(path);
  }
  return found.sort();
}

/** The source without comments; string contents are kept. */
function stripComments(source: string): string {
  let out = "";
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    const next = source[i + 1];
    if (c === "/" && next === "*") {
      const end = source.indexOf("*/", i + 2);
      i = end < 0 ? source.length : end + 2;
    } else if (c === "/" && next === "/") {
      const end = source.indexOf("\n", i);
      i = end < 0 ? source.length : end;
    } else if (c === '"' || c === "'" || c === "`") {
      let j = i + 1;
      while (j < source.length && source[j] !== c) j += source[j] === "\\" ? 2 : 1;
      out += source.slice(i, j + 1);
      i = j + 1;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** The module specifiers a source imports or re-exports, static or dynamic. */
export function importsOf(source: string): string[] {
  const code = stripComments(source);
  const specifiers: string[] = [];
  const patterns = [
    /(?:^|[;\n}])\s*(?:import|export)\s[^;"'`]*?\bfrom\s*["']([^"']+)["']/g,
    /(?:^|[;\n}])\s*import\s*["']([^"']+)["']/g,
    /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g,
  ];
  for (const pattern of patterns) {
    for (const match of code.matchAll(pattern)) specifiers.push(match[1]!);
  }
  return specifiers;
}

/** What is wrong with one product file's imports (its `source`), one line each. */
function upwardImports(path: string, source = Deno.readTextFileSync(path)): string[] {
  const problems: string[] = [];
  const from = layerOf(path);
  const rank = LAYERS[from];
  const file = relative(ROOT, path);
  if (rank === undefined) return [`${file}: folder ${from} has no place in the layers`];
  for (const specifier of importsOf(source)) {
    if (specifier.startsWith("node:assert")) {
      problems.push(`${file} imports ${specifier}: test code in a product file`);
      continue;
    }
    if (!specifier.startsWith(".")) continue;
    const target = resolve(dirname(path), specifier);
    if (isTestFile(target)) {
      problems.push(`${file} imports ${specifier}: test code in a product file`);
      continue;
    }
    if (!target.startsWith(RUNTIME + "/")) {
      if (!target.startsWith(join(ROOT, "ffi") + "/")) {
        problems.push(`${file} imports ${specifier}: outside runtime/`);
      }
      continue;
    }
    const to = layerOf(target);
    if (to === from) continue;
    const toRank = LAYERS[to];
    if (toRank === undefined || toRank >= rank) {
      problems.push(`${file} imports ${specifier}: ${from} may not import ${to}`);
    }
  }
  return problems;
}

Deno.test("no runtime file imports a layer above its own, nor test code", () => {
  const problems = filesUnder(RUNTIME)
    .filter((path) => !isTestFile(path))
    .flatMap((path) => upwardImports(path));
  assert.deepEqual(problems, []);
});

Deno.test("the import reader sees imports and re-exports, not comments", () => {
  const source = [
    "/** @example",
    ' * import { render } from "../testing.ts";',
    " */",
    'import type { A } from "./a.ts";',
    'import {\n  b,\n  c,\n} from "../b.ts";',
    'export { d } from "./d.ts";',
    'export * from "./e.ts";',
    'import "./f.ts";',
    'const g = await import("./g.ts");',
    '// import { h } from "./h.ts";',
    "const s = \"import x from './not.ts'\";",
  ].join("\n");
  assert.deepEqual(importsOf(source).sort(), [
    "../b.ts",
    "./a.ts",
    "./d.ts",
    "./e.ts",
    "./f.ts",
    "./g.ts",
  ]);
});

Deno.test("an upward import is named with its file", () => {
  const path = join(RUNTIME, "ui", "upward.ts");
  const source = 'import { App } from "../app/app.ts";\nimport { ok } from "node:assert";\n';
  assert.deepEqual(upwardImports(path, source), [
    "runtime/ui/upward.ts imports ../app/app.ts: ui may not import app",
    "runtime/ui/upward.ts imports node:assert: test code in a product file",
  ]);
});
