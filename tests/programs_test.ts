/**
 * The permission flags live in one place (.ci/programs.ts); the deno.json tasks, the
 * compile and install commands must use exactly those.
 */

import assert from "node:assert/strict";
import denoJson from "../deno.json" with { type: "json" };
import {
  APP_FLAGS,
  compileArgs,
  CROWNDEV,
  CROWNMCP,
  installArgs,
  PROGRAMS,
  RELEASE_TARGETS,
} from "../.ci/programs.ts";

const tasks = denoJson.tasks as Record<string, string>;

function flagsOf(task: string): string[] {
  return task.split(/\s+/).filter((word) => word.startsWith("--allow-"));
}

Deno.test("deno.json tasks run the programs with the flags of .ci/programs.ts", () => {
  assert.deepEqual(flagsOf(tasks.crownmcp!).sort(), [...CROWNMCP.flags].sort());
  assert.match(tasks.crownmcp!, /crownmcp\/main\.ts$/);
  assert.deepEqual(flagsOf(tasks.crowndev!).sort(), [...CROWNDEV.flags].sort());
  assert.match(tasks.crowndev!, /crowndev\/main\.ts$/);
  for (const app of ["counter", "notes", "demo"]) {
    assert.ok(tasks[app] !== undefined, `deno.json has no "${app}" task`);
    assert.deepEqual(flagsOf(tasks[app]!).sort(), [...APP_FLAGS].sort(), `task ${app}`);
  }
});

Deno.test("compileArgs() and installArgs() carry each program's flags and entry point", () => {
  for (const program of PROGRAMS) {
    for (const target of [undefined, ...RELEASE_TARGETS]) {
      const args = compileArgs(program, target, "dist");
      assert.equal(args[0], "compile");
      for (const flag of program.flags) assert.ok(args.includes(flag), `${program.name} ${flag}`);
      assert.equal(args.at(-1), program.entry);
      if (target !== undefined) assert.equal(args[args.indexOf("--target") + 1], target);
    }
    const install = installArgs(program, "/tmp/root", "/tmp/lock");
    assert.deepEqual(install.slice(0, 3), ["install", "--global", "--force"]);
    for (const flag of program.flags) assert.ok(install.includes(flag));
    assert.ok(install.at(-1)!.endsWith(program.entry));
  }
});
