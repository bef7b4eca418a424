/**
 * Apps that stop answering (issue 17 point 1): a headless Notes app sent SIGSTOP (its kernel
 * still takes connections, nothing answers), and a hand-written server that hangs and wakes
 * on SIGUSR1 (`fixtures/rogue_app.ts`). Through crownmcp with the SDK client: crownmcp's own
 * answers keep coming, a call to the stopped app fails saying so and is cancelled (so it does
 * not run when the app wakes up), and once the app answers again the same session drives it.
 * crowndev gives up after `--timeout` with exit code 6.
 *
 * The times printed are figures; nothing asserts how long anything took.
 *
 * @module
 */

import assert from "node:assert/strict";
import { REQUEST_TIMEOUT_MS } from "../_app_process.ts";
import { type CrownmcpSession, type SceneApp, until, unwrap, withScene } from "./_shared.ts";

const NOTES = "examples/notes.ts";
const ROGUE = "tests/reliability/fixtures/rogue_app.ts";

/** One app as `list_apps` shows it. */
interface Listed {
  app: string;
  selected: boolean;
  not_answering?: string;
}

/** Runs `work` and says how long it took, in milliseconds. */
async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await work();
  return { value, ms: Math.round(performance.now() - start) };
}

async function toolNames(agent: CrownmcpSession): Promise<string[]> {
  const { tools } = await agent.client.listTools(undefined, { timeout: REQUEST_TIMEOUT_MS });
  return tools.map((tool) => tool.name);
}

async function listed(agent: CrownmcpSession, app: SceneApp): Promise<Listed> {
  const { text, isError } = await agent.call("list_apps");
  assert.equal(isError, false, text);
  const found = (JSON.parse(text).apps as Listed[]).find((entry) => entry.app === app.app);
  assert.ok(found !== undefined, `${app.app} in ${text}`);
  return found;
}

async function noteCount(agent: CrownmcpSession): Promise<number> {
  const { text } = await agent.call("note_count");
  return (unwrap(text) as { count: number }).count;
}

/** Waits until `list_apps` no longer shows `app` as not answering. */
async function answersAgain(agent: CrownmcpSession, app: SceneApp): Promise<void> {
  await until(
    async () => (await listed(agent, app)).not_answering === undefined,
    () => `${app.app} to answer again; crownmcp wrote:\n${agent.stderr}`,
  );
}

Deno.test("a stopped app stalls neither crownmcp nor the session, which drives it once continued", async () => {
  await withScene(async (scene) => {
    const notes = await scene.app(NOTES);
    const agent = await scene.crownmcp();
    await until(async () => (await toolNames(agent)).includes("note_count"), "the notes tools");
    const before = await noteCount(agent);
    notes.process.kill("SIGSTOP");
    try {
      const tools = await timed(() => toolNames(agent));
      assert.deepEqual(tools.value.slice(0, 2), ["list_apps", "select_app"]);
      assert.ok(tools.value.includes("note_count"), "the stopped app's tools stay listed");
      const apps = await timed(() => listed(agent, notes));
      assert.equal(apps.value.selected, true);
      console.log(
        `with the selected app stopped, crownmcp answered tools/list in ${tools.ms} ms and list_apps in ${apps.ms} ms`,
      );

      // A call that reaches the stopped app fails within the deadline, saying so.
      const ghost = await timed(() => agent.call("add_note", { title: "Ghost" }));
      assert.equal(ghost.value.isError, true, ghost.value.text);
      assert.match(
        ghost.value.text,
        new RegExp(
          `^the app ${notes.app} is not answering \\(no answer to ping within 5 s\\): .*crownmcp cancelled this call`,
        ),
      );
      assert.match(ghost.value.text, new RegExp(`kill -CONT ${notes.process.pid}`));
      console.log(`a call to the stopped app failed after ${ghost.ms} ms`);
      assert.equal((await listed(agent, notes)).not_answering, "no answer to ping within 5 s");

      // While it does not answer, a call fails at once and never reaches it.
      const refused = await agent.call("ui_tree");
      assert.equal(refused.isError, true);
      assert.match(refused.text, /crownmcp did not pass this call on/);
      assert.ok((await toolNames(agent)).includes("note_count"));
    } finally {
      notes.process.kill("SIGCONT");
    }

    await answersAgain(agent, notes);
    // The cancelled call did not run when the app woke up, and the same session works.
    const tree = await agent.call("ui_tree");
    assert.equal(tree.isError, false, tree.text);
    assert.doesNotMatch(tree.text, /Ghost/);
    assert.equal(await noteCount(agent), before);
    const added = await agent.call("add_note", { title: "After the stop" });
    assert.equal(added.isError, false, added.text);
    assert.equal(await noteCount(agent), before + 1);
    assert.match(agent.stderr, new RegExp(`${notes.app} is not answering: no answer to ping`));
    assert.match(agent.stderr, new RegExp(`${notes.app} answers again`));
  });
});

Deno.test("an app stopped before crownmcp starts is not waited for, and is selected once continued", async () => {
  await withScene(async (scene) => {
    const notes = await scene.app(NOTES);
    notes.process.kill("SIGSTOP");
    let agent: CrownmcpSession;
    try {
      agent = await scene.crownmcp();
      const tools = await timed(() => toolNames(agent));
      assert.deepEqual(tools.value, ["list_apps", "select_app"]);
      const apps = await timed(() => listed(agent, notes));
      assert.equal(apps.value.selected, false);
      console.log(
        `with the only app stopped from the start, crownmcp answered tools/list in ${tools.ms} ms and list_apps in ${apps.ms} ms`,
      );
      await until(
        async () => (await listed(agent, notes)).not_answering !== undefined,
        () => `list_apps to show ${notes.app} as not answering; crownmcp wrote:\n${agent.stderr}`,
      );
      assert.equal(
        (await listed(agent, notes)).not_answering,
        "no answer to initialize within 5 s",
      );
      const call = await agent.call("ui_tree");
      assert.equal(call.isError, true);
      assert.match(call.text, /^no app is selected/);
    } finally {
      notes.process.kill("SIGCONT");
    }
    await until(
      async () => (await toolNames(agent)).includes("note_count"),
      () => `the notes tools once it answers; crownmcp wrote:\n${agent.stderr}`,
    );
    assert.equal((await listed(agent, notes)).selected, true);
    const tree = await agent.call("ui_tree");
    assert.equal(tree.isError, false, tree.text);
  });
});

Deno.test("a hung server: crownmcp tries it again until it answers, and fails calls while it hangs", async () => {
  await withScene(async (scene) => {
    const tools = JSON.stringify([{ name: "echo", inputSchema: { type: "object" } }]);
    const rogue = await scene.app(ROGUE, { args: ["--tools", tools, "--hang"] });
    const agent = await scene.crownmcp();
    assert.deepEqual(await toolNames(agent), ["list_apps", "select_app"]);
    await until(
      async () => (await listed(agent, rogue)).not_answering !== undefined,
      "list_apps to show the hung server as not answering",
    );
    assert.equal((await listed(agent, rogue)).not_answering, "no answer to initialize within 5 s");

    rogue.process.kill("SIGUSR1"); // it answers from now on
    await until(async () => (await toolNames(agent)).includes("echo"), "the server's tools");
    assert.equal((await agent.call("echo")).text, "called echo");

    // It hangs again. It said "rogue: hanging" once already, when it started: wait for the
    // next one, or the call below may reach it before it took the signal in.
    const hangs = () => rogue.process.lines.filter((line) => line === "rogue: hanging").length;
    const before = hangs();
    rogue.process.kill("SIGUSR1");
    await until(
      () => hangs() > before,
      () => `the server to hang again; it wrote:\n${rogue.process.stderr}`,
    );
    const failed = await agent.call("echo");
    assert.equal(failed.isError, true);
    assert.match(failed.text, /is not answering \(no answer to ping within 5 s\)/);
    rogue.process.kill("SIGUSR1");
    await answersAgain(agent, rogue);
    assert.equal((await agent.call("echo")).text, "called echo");
  });
});

Deno.test("crowndev gives up on a stopped app after --timeout, with exit code 6", async () => {
  await withScene(async (scene) => {
    const notes = await scene.app(NOTES);
    notes.process.kill("SIGSTOP");
    try {
      for (const args of [["tree"], ["act", "role=button,name=Add", "click"]]) {
        const run = await timed(() => scene.crowndev("--timeout", "1500", ...args));
        assert.equal(run.value.code, 6, run.value.stderr);
        assert.match(
          run.value.stderr,
          new RegExp(`^crowndev: ${notes.app} did not answer within 1500 ms`),
        );
        console.log(`crowndev ${args[0]} --timeout 1500 gave up after ${run.ms} ms`);
      }
      // wait's own --timeout is the condition's; an app that does not answer at all ends it too.
      const wait = await scene.crowndev("wait", "role=button,name=Add", "--timeout", "500");
      assert.equal(wait.code, 6, wait.stderr);
    } finally {
      notes.process.kill("SIGCONT");
    }
    const tree = await scene.crowndev("tree", "--timeout", "10000");
    assert.equal(tree.code, 0, `${tree.stderr}\nthe app wrote:\n${notes.process.stderr}`);
  });
});
