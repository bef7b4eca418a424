import assert from "node:assert/strict";
import { LineSplitter } from "./line_splitter.ts";
import { LineSplitter as FromTransport } from "./line_transport.ts";

/** The npm modules `deno info` finds in the module graph of `file` (this folder's). */
async function npmModules(file: string): Promise<string[]> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", new URL(file, import.meta.url).pathname],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
  const info = JSON.parse(new TextDecoder().decode(output.stdout)) as {
    modules: { specifier: string }[];
  };
  return info.modules.map((module) => module.specifier).filter((s) => s.startsWith("npm:"));
}

Deno.test("the app's thread loads no MCP SDK to start the agent bridge", async () => {
  // The bridge runs on the app's thread when mcp(true) and talks to the compositor; the SDK
  // (zod schemas, ajv) belongs in the server's worker only: on the app's thread it cost
  // about 8 MiB of the server's resident memory.
  const sdk = (await npmModules("./bridge.ts")).filter((s) => s.includes("modelcontextprotocol"));
  assert.deepEqual(sdk, []);
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
