/**
 * The terminal's status line learns where the MCP server listens from the app, which the
 * agent bridge tells (`App.announceServer()`), never from the text of a log line: a line that
 * merely reads like the listening line (an app can log anything) changes nothing.
 */

import assert from "node:assert/strict";
import { App } from "../runtime/app/app.ts";
import { log, setLogSink } from "../runtime/app/log.ts";
import type { Renderer } from "../runtime/app/renderer.ts";
import { HeadlessRenderer } from "../runtime/render/headless.ts";
import { TerminalLog } from "../runtime/render/terminal/terminal_log.ts";
import { component, text } from "../runtime/mod.ts";

const root = () => component(() => text("hello"));

Deno.test("TerminalLog takes the socket from serverListening(), not from a log line", () => {
  const terminalLog = new TerminalLog("status test", () => {});
  terminalLog.start();
  let farewell: string[] = [];
  try {
    log("MCP server listening /tmp/forged.sock");
    assert.equal(terminalLog.socketPath, null, "a log line does not set the socket");
    assert.equal(terminalLog.otherLines, 1);
    terminalLog.serverListening("/tmp/real.sock");
    assert.equal(terminalLog.socketPath, "/tmp/real.sock");
    assert.equal(terminalLog.otherLines, 1, "the listening line is not counted");
    log("agent access revoked by the compositor: MCP server stopped");
    assert.equal(terminalLog.socketPath, "/tmp/real.sock", "nor does a line clear it");
    terminalLog.serverListening(null);
    assert.equal(terminalLog.socketPath, null);
  } finally {
    farewell = terminalLog.stop("Status Test");
  }
  assert.ok(
    farewell.some((line) => line.includes("was listening at /tmp/real.sock")),
    farewell.join("\n"),
  );
  if (terminalLog.path !== null) {
    const content = Deno.readTextFileSync(terminalLog.path);
    Deno.removeSync(terminalLog.path);
    assert.match(content, /MCP server listening \/tmp\/real\.sock/);
  }
});

Deno.test("App.announceServer() tells a renderer that shows the socket", () => {
  const told: (string | null)[] = [];
  const headless = new HeadlessRenderer();
  const renderer: Renderer = {
    kind: "headless",
    size: () => headless.size(),
    render: (source) => headless.render(source),
    close: () => headless.close(),
    serverListening: (socketPath) => told.push(socketPath),
  };
  const lines: string[] = [];
  const restore = setLogSink((line) => lines.push(line));
  const app = new App(root(), { title: "Announce", renderer });
  try {
    app.announceServer("/tmp/a.sock");
    assert.equal(app.serverSocket, "/tmp/a.sock");
    app.announceServer(null);
    assert.equal(app.serverSocket, null);
    assert.deepEqual(told, ["/tmp/a.sock", null]);
    assert.deepEqual(lines, [], "the renderer records the line itself");
  } finally {
    app.close();
    restore();
  }
});

Deno.test("App.announceServer() logs the listening line when the renderer does not show it", () => {
  const lines: string[] = [];
  const restore = setLogSink((line) => lines.push(line));
  const app = new App(root(), { title: "Announce", renderer: new HeadlessRenderer() });
  try {
    app.announceServer("/tmp/b.sock");
    app.announceServer(null);
    assert.deepEqual(lines, ["MCP server listening /tmp/b.sock"]);
  } finally {
    app.close();
    restore();
  }
});
