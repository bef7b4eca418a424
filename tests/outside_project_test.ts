/**
 * The runtime as a dependency of another project: a project in a temporary directory outside
 * this repository depends on `jsr:@crownui/runtime` (the entry `deno add` writes) and points
 * the `links` field of its deno.json at this checkout, the way README's "Using the runtime
 * from another project" describes. Its app (tests/fixtures/outside_app.ts, copied in) has an
 * app tool; the test type-checks it, runs it as a real process with the MCP server on, and
 * drives it through its socket. JSR is never contacted: the linked checkout stands in for
 * the package, and the project's lockfile records no JSR package at all.
 */

import { markedContent } from "./_marked.ts";
import assert from "node:assert/strict";
import { relative } from "node:path";
import {
  AppProcess,
  callTool,
  childEnv,
  connect,
  makeRuntimeDir,
  PROCESS_TIMEOUT_MS,
  readTree,
  removeDir,
  REPO_ROOT,
  REQUEST_TIMEOUT_MS,
  SERVER_FLAGS,
  withTimeout,
} from "./_app_process.ts";

/** The version deno.json gives the package; the project asks for a compatible one. */
const VERSION = (JSON.parse(await Deno.readTextFile(`${REPO_ROOT}/deno.json`)) as {
  version: string;
}).version;

/** Makes the project: deno.json (the runtime from JSR, linked to this checkout) and main.ts. */
async function makeProject(): Promise<string> {
  const project = await Deno.makeTempDir({ prefix: "crownui-outside-" });
  assert.ok(
    relative(REPO_ROOT, project).startsWith(".."),
    `the project ${project} must lie outside the repository ${REPO_ROOT}`,
  );
  const config = {
    imports: { "@crownui/runtime": `jsr:@crownui/runtime@^${VERSION}` },
    links: [relative(project, REPO_ROOT)],
  };
  await Deno.writeTextFile(`${project}/deno.json`, JSON.stringify(config, null, 2) + "\n");
  await Deno.copyFile(`${REPO_ROOT}/tests/fixtures/outside_app.ts`, `${project}/main.ts`);
  return project;
}

/** Runs `deno <args>` in `cwd` to the end, with `childEnv()` only; killed after the timeout. */
async function denoIn(cwd: string, args: readonly string[]) {
  const output = await new Deno.Command(Deno.execPath(), {
    args: [...args],
    cwd,
    env: childEnv(),
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(PROCESS_TIMEOUT_MS * 4),
  }).output();
  return { code: output.code, stderr: new TextDecoder().decode(output.stderr) };
}

Deno.test("a project outside the repository links the checkout and runs an app it drives through the socket", async () => {
  const project = await makeProject();
  const runtimeDir = await makeRuntimeDir();
  let app: AppProcess | undefined;
  try {
    // The project's own type check resolves the runtime (and its npm dependencies) through
    // the link; before `links`, importing runtime/mod.ts by path failed here.
    const checked = await denoIn(project, ["check", "main.ts"]);
    assert.equal(checked.code, 0, checked.stderr);

    app = new AppProcess(
      new Deno.Command(Deno.execPath(), {
        args: ["run", ...SERVER_FLAGS, "main.ts"],
        cwd: project,
        env: childEnv({ XDG_RUNTIME_DIR: runtimeDir }),
        clearEnv: true,
        stdin: "null",
        stdout: "null",
        stderr: "piped",
      }).spawn(),
    );
    const socket = await app.listening();
    assert.ok(socket.startsWith(`${runtimeDir}/`), socket);

    const client = await connect(socket);
    try {
      const { tools } = await withTimeout(client.listTools(), REQUEST_TIMEOUT_MS, "tools/list");
      const greet = tools.find((tool) => tool.name === "greet");
      assert.ok(greet !== undefined, `no greet tool in ${tools.map((tool) => tool.name)}`);
      assert.equal(greet.description, "Greets someone by name on the screen");

      const before = await readTree(client);
      assert.match(before.tree, /^window "Greeter" #\d+/);
      assert.match(before.tree, /text "Nobody greeted yet" #\d+/);

      const answer = await callTool(client, "greet", { name: "Ada" });
      assert.equal(answer.isError, false, answer.text);
      assert.deepEqual(markedContent(answer.text), { greeted: "Ada" });

      const after = await readTree(client);
      assert.match(after.tree, /text "Hello, Ada" #\d+/);
      assert.doesNotMatch(after.tree, /Nobody greeted yet/);
      assert.ok(after.revision > before.revision, `${after.revision} > ${before.revision}`);
    } finally {
      await client.close();
    }

    // The package came from the checkout, not from JSR: the lockfile names no JSR package.
    const lock = JSON.parse(await Deno.readTextFile(`${project}/deno.lock`)) as {
      jsr?: Record<string, unknown>;
      specifiers?: Record<string, string>;
      npm?: Record<string, unknown>;
      workspace?: { links?: Record<string, { dependencies: string[] }> };
    };
    assert.equal(lock.jsr, undefined, JSON.stringify(lock.jsr));
    const specifiers = Object.keys(lock.specifiers ?? {});
    assert.ok(!specifiers.some((name) => name.startsWith("jsr:")), specifiers.join(", "));
    // And only the runtime's own dependencies came along, none of this repository's test tools
    // (the linked package brings what its deno.json imports).
    const runtimeOnly = ["npm:@modelcontextprotocol/sdk@", "npm:zod@", "npm:get-east-asian-width@"];
    const linked = Object.values(lock.workspace?.links ?? {}).flatMap((link) => link.dependencies);
    assert.ok(linked.length > 0, JSON.stringify(lock.workspace));
    for (const name of linked) {
      assert.ok(runtimeOnly.some((prefix) => name.startsWith(prefix)), `${name} came along`);
    }
    for (const name of Object.keys(lock.npm ?? {})) {
      assert.ok(!/^@(xterm|modelcontextprotocol\/inspector)/.test(name), `${name} came along`);
    }
  } finally {
    await app?.close();
    await removeDir(runtimeDir);
    await removeDir(project);
  }
});
