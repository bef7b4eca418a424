/**
 * Long app tools end to end (issue 17 point 11): an app running as a `deno run` child
 * (tests/fixtures/long_tools_app.ts) is driven at once through its socket with the SDK client
 * and through `crownmcp` as agents launch it. A tool that declares 10 s takes 8 and answers,
 * its progress reaching the client's `onprogress` across the worker seam and crownmcp; a tool
 * past its 1.5 s deadline fails with the message that names the deadline; a burst of reports
 * is thinned out; and a client that sent no progress token gets no progress notification.
 *
 * @module
 */

import { markedContent } from "./_marked.ts";
import assert from "node:assert/strict";
import { Client } from "../runtime/agent/transport/sdk.ts";
import {
  callTool,
  connect,
  REQUEST_TIMEOUT_MS,
  runtimeDir,
  startApp,
  withTimeout,
} from "./_app_process.ts";
import { crownmcpTransport } from "./_crownmcp.ts";
import { BURST_REPORTS, STUCK_STARTED } from "./fixtures/long_tools_app.ts";

const APP = "tests/fixtures/long_tools_app.ts";

/** One progress notification as the SDK client hands it to `onprogress`. */
interface Progress {
  progress: number;
  total?: number | undefined;
  message?: string | undefined;
}

/** Calls `name` with a progress token; returns the result's text and the reports seen. */
async function callWithProgress(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<{ text: string; isError: boolean; reports: Progress[] }> {
  const reports: Progress[] = [];
  const result = await client.callTool({ name, arguments: args }, undefined, {
    timeout: REQUEST_TIMEOUT_MS,
    onprogress: (progress) => reports.push(progress),
  });
  const [first] = result.content as { type: string; text: string }[];
  return { text: first!.text, isError: result.isError === true, reports };
}

/** What a client reads of the long tools; `where` names it in failure messages. */
async function checkLongTools(client: Client, where: string): Promise<void> {
  const errors: Error[] = [];
  client.onerror = (error) => errors.push(error);

  // Both at once: the UI thread runs the 8 s count while the stuck tool runs out its time.
  const [slow, stuck] = await Promise.all([
    callWithProgress(client, "slow_count", { steps: 8, step_ms: 1000 }),
    callWithProgress(client, "stuck", {}),
  ]);

  assert.equal(slow.isError, false, `${where}: ${slow.text}`);
  assert.deepEqual(markedContent(slow.text), { counted: 8 }, where);
  assert.deepEqual(
    slow.reports,
    Array.from({ length: 8 }, (_, at) => ({
      progress: at + 1,
      total: 8,
      message: `step ${at + 1} of 8`,
    })),
    `${where}: every step's report reached onprogress`,
  );

  assert.equal(stuck.isError, true, `${where}: ${stuck.text}`);
  assert.equal(
    stuck.text,
    "the app did not answer within 1.5 seconds, the deadline of stuck (an app tool has 5 seconds unless it declares a longer one, up to 60 seconds); it may still be running: read the app before calling it again",
    where,
  );
  assert.deepEqual(stuck.reports, [{ progress: 1 }], `${where}: the report before it stuck`);

  const burst = await callWithProgress(client, "burst", {});
  assert.equal(burst.isError, false, `${where}: ${burst.text}`);
  assert.ok(burst.reports.length >= 1, `${where}: the burst's first report arrives`);
  assert.ok(
    burst.reports.length <= 10,
    `${where}: ${burst.reports.length} of ${BURST_REPORTS} reports reached the agent`,
  );
  const values = burst.reports.map((report) => report.progress);
  assert.deepEqual(values, [...values].sort((a, b) => a - b), `${where}: reports only grow`);

  // No progress token, no progress: a notification the client cannot match would be an error.
  const quiet = await callTool(client, "slow_count", { steps: 2, step_ms: 10 });
  assert.equal(quiet.isError, false, `${where}: ${quiet.text}`);
  assert.deepEqual(errors, [], `${where}: the client saw no stray notification`);
}

Deno.test("long app tools: deadlines and progress through a socket and through crownmcp", async () => {
  await using runtime = await runtimeDir();
  await using app = startApp(APP, { env: { XDG_RUNTIME_DIR: runtime.path } });
  const socket = await app.listening();
  await using direct = await connect(socket);

  const agent = new Client({ name: "long-tools-test", version: "0.1.0" }, { capabilities: {} });
  await withTimeout(
    agent.connect(crownmcpTransport({ XDG_RUNTIME_DIR: runtime.path })),
    REQUEST_TIMEOUT_MS,
    "crownmcp to start",
  );
  try {
    const apps = JSON.parse((await callTool(agent, "list_apps")).text) as {
      apps: { app: string }[];
    };
    const selected = await callTool(agent, "select_app", { app: apps.apps[0]!.app });
    assert.equal(selected.isError, false, selected.text);

    await Promise.all([
      checkLongTools(direct, "through the socket"),
      checkLongTools(agent, "through crownmcp"),
    ]);
    await app.waitFor(new RegExp(`^${STUCK_STARTED}$`));

    // The app kept serving: the stuck calls still run, and the counts went through.
    const { text } = await callTool(direct, "ui_tree");
    assert.match(text, /text "20 steps done"/);
  } finally {
    await agent.close();
  }
});
