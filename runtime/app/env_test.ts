import assert from "node:assert/strict";
import { envSet, readEnv } from "./env.ts";

Deno.test("readEnv() reads a permitted variable and treats a refused one as unset", async () => {
  const script = `
    import { envSet, readEnv } from ${JSON.stringify(new URL("./env.ts", import.meta.url).href)};
    console.log(JSON.stringify([readEnv("CROWNUI_ENV_A"), readEnv("CROWNUI_ENV_B"), envSet("CROWNUI_ENV_A"), envSet("CROWNUI_ENV_B")]));
  `;
  const file = await Deno.makeTempFile({ suffix: ".ts" });
  await Deno.writeTextFile(file, script);
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-config", "--allow-read", "--allow-env=CROWNUI_ENV_A", file],
    env: { CROWNUI_ENV_A: "granted", CROWNUI_ENV_B: "refused" },
    stdout: "piped",
    stderr: "piped",
  }).output().finally(() => Deno.remove(file));
  assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
  assert.deepEqual(JSON.parse(new TextDecoder().decode(output.stdout)), [
    "granted",
    null,
    true,
    false,
  ]);
});

Deno.test("envSet() is false for an empty value", () => {
  const name = "CROWNUI_ENV_TEST_EMPTY";
  Deno.env.set(name, "");
  try {
    assert.equal(readEnv(name), "");
    assert.equal(envSet(name), false);
  } finally {
    Deno.env.delete(name);
  }
});

Deno.test("readEnv() gives undefined for an unset variable", () => {
  assert.equal(readEnv("CROWNUI_EXAMPLE_UNSET_VARIABLE"), undefined);
});
