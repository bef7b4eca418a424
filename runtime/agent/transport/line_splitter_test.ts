import assert from "node:assert/strict";
import { LineSplitter } from "./line_splitter.ts";
import { LineSplitter as FromTransport } from "./line_transport.ts";

/** What `deno info --json` says of a module graph. */
interface ModuleInfo {
  roots: string[];
  redirects: Record<string, string>;
  modules: {
    specifier: string;
    dependencies?: { code?: { specifier: string }; isDynamic?: boolean }[];
  }[];
}

/**
 * The modules that running `file` (of this folder) loads before it runs a line: its static
 * imports of code, followed through, without type-only and dynamic imports.
 */
async function loadedAtStart(file: string): Promise<string[]> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", new URL(file, import.meta.url).pathname],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
  const info = JSON.parse(new TextDecoder().decode(output.stdout)) as ModuleInfo;
  const modules = new Map(info.modules.map((module) => [module.specifier, module]));
  const loaded = new Set<string>();
  const stack = [...info.roots];
  while (stack.length > 0) {
    const specifier = stack.pop()!;
    if (loaded.has(specifier)) continue;
    loaded.add(specifier);
    for (const dependency of modules.get(specifier)?.dependencies ?? []) {
      if (dependency.isDynamic || dependency.code === undefined) continue;
      const target = dependency.code.specifier;
      stack.push(info.redirects[target] ?? target);
    }
  }
  return [...loaded];
}

/** The MCP SDK's modules and zod among `modules`. */
function sdkModules(modules: string[]): string[] {
  return modules.filter((s) => s.includes("@modelcontextprotocol/") || s.includes("/zod@"));
}

Deno.test("the app's thread loads no MCP SDK to start the agent bridge", async () => {
  // The bridge runs on the app's thread when mcp(true) and talks to the compositor; the SDK
  // belongs to the server's sessions only: on the app's thread it cost about 8 MiB of the
  // server's resident memory.
  const loaded = await loadedAtStart("../hosts/bridge.ts");
  assert.deepEqual(sdkModules(loaded).filter((s) => s.includes("modelcontextprotocol")), []);
});

Deno.test("the server's worker loads the MCP SDK and zod only when an agent connects", async () => {
  // Loaded with the first connection a gate lets in (mcp_session.ts, loadSessionModules): an idle
  // server weighs about 24 MiB instead of 39.
  assert.deepEqual(sdkModules(await loadedAtStart("../server/server_worker.ts")), []);
});

Deno.test("LineSplitter splits lines, keeps a partial one and refuses one over the limit", () => {
  assert.equal(FromTransport, LineSplitter, "line_transport.ts exports the same class");
  const encoder = new TextEncoder();
  const decoded = (lines: Uint8Array[] | "overflow") =>
    lines === "overflow" ? lines : lines.map((line) => new TextDecoder().decode(line));
  const splitter = new LineSplitter(8);
  assert.deepEqual(decoded(splitter.push(encoder.encode("ab\ncd"))), ["ab"]);
  assert.deepEqual(decoded(splitter.push(encoder.encode("e\n"))), ["cde"]);
  assert.equal(splitter.push(encoder.encode("123456789\n")), "overflow");
});

Deno.test("LineSplitter with keepNewline: each line ends with its newline, not counted in the limit (crownmcp's lines)", () => {
  const encoder = new TextEncoder();
  const decoded = (lines: Uint8Array[] | "overflow") =>
    lines === "overflow" ? lines : lines.map((line) => new TextDecoder().decode(line));
  const splitter = new LineSplitter(3, { keepNewline: true });
  assert.deepEqual(decoded(splitter.push(encoder.encode("ab\nc"))), ["ab\n"]);
  // The start of a line that waits is copied: the caller's chunk may be reused.
  const chunk = encoder.encode("de\nfgh\n");
  const lines = splitter.push(chunk);
  assert.deepEqual(decoded(lines), ["cde\n", "fgh\n"]);
  chunk.fill(0x78);
  assert.deepEqual(decoded(lines).slice(0, 1), ["cde\n"], "a joined line is its own copy");
  assert.equal(splitter.push(encoder.encode("1234\n")), "overflow");
  const again = new LineSplitter(3, { keepNewline: true });
  assert.deepEqual(decoded(again.push(encoder.encode("\n\n"))), ["\n", "\n"]);
});
