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

const AGENT = join(RUNTIME, "agent");

/**
 * The parts of runtime/agent/, bottom first, one way like the layers: a file in a part imports
 * its own folder and parts of a lower rank, never a file at the top of runtime/agent/ (the
 * entry, `mod.ts`, is above every part). `transport` moves bytes and lines (sockets, the
 * SDK's transport); `access` (gates, admission), `consent` (the compositor) and `clients`
 * (what crownmcp and crowndev connect with) sit on it; `hosts` is what the server serves (the
 * `SemanticHost` contract at its bottom, both hosts, the worker bridge's UI-thread side);
 * `session` the MCP session (built-in tools, app tools, answers); `server` the `AgentServer`
 * and the worker that runs it.
 */
export const AGENT_PARTS: Readonly<Record<string, number>> = {
  transport: 0,
  access: 1,
  consent: 1,
  clients: 1,
  hosts: 2,
  session: 3,
  server: 4,
};

/** The part of a path under runtime/agent/, or `(entry)` for a file at its top. */
function agentPartOf(path: string): string {
  const parts = relative(AGENT, path).split("/");
  return parts.length === 1 ? "(entry)" : parts[0]!;
}

/** What is wrong with one runtime/agent/ product file's imports of other agent files. */
function agentImportProblems(path: string, source = Deno.readTextFileSync(path)): string[] {
  const from = agentPartOf(path);
  const file = relative(ROOT, path);
  if (from === "(entry)") return [];
  const rank = AGENT_PARTS[from];
  if (rank === undefined) return [`${file}: runtime/agent/${from} has no place in the parts`];
  const problems: string[] = [];
  for (const specifier of importsOf(source)) {
    if (!specifier.startsWith(".")) continue;
    const target = resolve(dirname(path), specifier);
    if (!target.startsWith(AGENT + "/")) continue;
    const to = agentPartOf(target);
    if (to === from) continue;
    const toRank = to === "(entry)" ? undefined : AGENT_PARTS[to];
    if (toRank === undefined || toRank >= rank) {
      problems.push(`${file} imports ${specifier}: agent/${from} may not import ${to}`);
    }
  }
  return problems;
}

Deno.test("runtime/agent/'s parts import one way, and only mod.ts sits at its top", () => {
  const files = filesUnder(AGENT).filter((path) => !isTestFile(path));
  assert.deepEqual(files.flatMap((path) => agentImportProblems(path)), []);
  const top = files.filter((path) => agentPartOf(path) === "(entry)");
  assert.deepEqual(top.map((path) => relative(AGENT, path)), ["mod.ts"]);
  // Every part holds files, so the ranks above say where each file is.
  const used = new Set(files.map(agentPartOf));
  for (const part of Object.keys(AGENT_PARTS)) assert.ok(used.has(part), `agent/${part} is empty`);
});

Deno.test("an agent import that reaches up or to the entry is named with its file", () => {
  const path = join(AGENT, "transport", "upward.ts");
  const source = [
    'import { x } from "../session/tool_calls.ts";',
    'import { y } from "../mod.ts";',
    'import { z } from "./line_splitter.ts";',
    'import { w } from "../../semantics/mod.ts";',
  ].join("\n");
  assert.deepEqual(agentImportProblems(path, source), [
    "runtime/agent/transport/upward.ts imports ../session/tool_calls.ts: agent/transport may not import session",
    "runtime/agent/transport/upward.ts imports ../mod.ts: agent/transport may not import (entry)",
  ]);
});

/** The first import cycle among the product files under `dir`, as a list of paths, or null. */
function importCycle(dir: string): string[] | null {
  const files = filesUnder(dir).filter((path) => !isTestFile(path));
  const edges = new Map(files.map((path) => [
    path,
    importsOf(Deno.readTextFileSync(path))
      .filter((specifier) => specifier.startsWith("."))
      .map((specifier) => resolve(dirname(path), specifier))
      .filter((target) => target.startsWith(dir + "/")),
  ]));
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (path: string): string[] | null => {
    if (state.get(path) === "done") return null;
    if (state.get(path) === "open") return [...stack.slice(stack.indexOf(path)), path];
    state.set(path, "open");
    stack.push(path);
    for (const next of edges.get(path) ?? []) {
      const cycle = visit(next);
      if (cycle !== null) return cycle;
    }
    stack.pop();
    state.set(path, "done");
    return null;
  };
  for (const path of files) {
    const cycle = visit(path);
    if (cycle !== null) return cycle.map((entry) => relative(ROOT, entry));
  }
  return null;
}

Deno.test("no import cycle in runtime/agent/ or crownmcp/, type imports included", () => {
  assert.equal(importCycle(AGENT), null);
  assert.equal(importCycle(join(ROOT, "crownmcp")), null);
});
