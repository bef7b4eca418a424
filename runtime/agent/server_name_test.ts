import assert from "node:assert/strict";
import { AgentServer, McpServer } from "./mod.ts";

Deno.test("McpServer is the deprecated name of AgentServer: the same class", () => {
  assert.equal(McpServer, AgentServer);
  assert.equal(McpServer.name, "AgentServer");
});
