import assert from "node:assert/strict";
import { DurableFile, FileInUseError } from "./durable_file.ts";

/** Runs `body` in a fresh temporary directory, removed afterwards. */
async function inTempDir(body: (directory: string) => void | Promise<void>): Promise<void> {
  const directory = Deno.makeTempDirSync({ prefix: "crownui-durable-" });
  try {
    await body(directory);
  } finally {
    Deno.removeSync(directory, { recursive: true });
  }
}

Deno.test("DurableFile: one opener at a time; close() lets the next one in", () =>
  inTempDir((directory) => {
    const first = DurableFile.open(`${directory}/state.json`, { app: "First" });
    assert.throws(
      () => DurableFile.open(`${directory}/state.json`),
      (error) =>
        error instanceof FileInUseError &&
        JSON.stringify(error.holder) === JSON.stringify({ pid: Deno.pid, app: "First" }),
    );
    first.close();
    first.close(); // twice is fine
    assert.equal(Deno.readDirSync(directory).some((entry) => entry.name.endsWith(".lock")), false);
    using second = DurableFile.open(`${directory}/state.json`);
    second.write("ok");
    assert.throws(() => first.write("late"), /cannot write .*state\.json: it was closed/);
  }));

Deno.test("DurableFile: a symlink to a file not made yet is followed; the link stays", () =>
  inTempDir((directory) => {
    Deno.mkdirSync(`${directory}/real`);
    Deno.symlinkSync("real/state.json", `${directory}/link.json`);
    using file = DurableFile.open(`${directory}/link.json`);
    assert.equal(file.path, `${Deno.realPathSync(directory)}/real/state.json`);
    file.write("through the link");
    assert.equal(Deno.lstatSync(`${directory}/link.json`).isSymlink, true);
    assert.equal(Deno.readTextFileSync(`${directory}/real/state.json`), "through the link");
  }));

Deno.test("DurableFile: a symlink planted at the temporary name is not written through", () =>
  inTempDir((directory) => {
    const victim = `${directory}/victim`;
    Deno.writeTextFileSync(victim, "precious");
    using file = DurableFile.open(`${directory}/state.json`);
    Deno.symlinkSync(victim, `${file.path}.saving`);
    file.write("new state");
    assert.equal(Deno.readTextFileSync(victim), "precious");
    assert.equal(Deno.readTextFileSync(file.path), "new state");
    assert.equal(Deno.lstatSync(file.path).isSymlink, false);
  }));

Deno.test("DurableFile: a symlink loop and a missing directory are refused, saying so", () =>
  inTempDir((directory) => {
    Deno.symlinkSync("b", `${directory}/a`);
    Deno.symlinkSync("a", `${directory}/b`);
    assert.throws(() => DurableFile.open(`${directory}/a`), /symbolic links \(a loop\?\)/);
    assert.throws(
      () => DurableFile.open(`${directory}/missing/state.json`),
      /^Error: cannot open .*missing\/state\.json: No such file or directory/,
    );
  }));
