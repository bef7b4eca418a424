/**
 * Embedding the runtime as a library: this app imports CrownUI only through the package's
 * exports (`@crownui/runtime` and `@crownui/runtime/agent`), and starts the MCP server
 * itself instead of through `AppConfig.mcp(true)`, so that it can require a token as well as
 * the same user — what an app that several local tools share might want.
 *
 * ```sh
 * KIOSK_TOKEN=s3cret deno run --allow-env --allow-read --allow-write --allow-ffi --allow-net examples/embedded_server.ts
 * CROWNMCP_TOKEN=s3cret deno task crowndev tree kiosk
 * ```
 *
 * @module
 */

import { z } from "zod";
import { App, bind, button, column, component, HeadlessRenderer, text } from "@crownui/runtime";
import {
  AgentServer,
  AllGates,
  AppHost,
  getuid,
  SameUserGate,
  socketDirectory,
  socketPathFor,
  TokenGate,
} from "@crownui/runtime/agent";

/** The kiosk's root: a counter of visitors and a tool that reads it. */
export const kiosk = component((cx) => {
  const visitors = cx.signal(0, { name: "visitors" });
  cx.tool({
    name: "visitor_count",
    description: "How many visitors the kiosk has counted",
    input: z.object({}),
    run: () => ({ visitors: visitors.get() }),
  });
  return column(
    text("Welcome"),
    button("Count a visitor", () => visitors.set(visitors.get() + 1)),
    text(bind(() => `${visitors.get()} visitors`)),
  );
});

if (import.meta.main) {
  const token = Deno.env.get("KIOSK_TOKEN");
  if (token === undefined || token === "") {
    console.error("embedded_server.ts: set KIOSK_TOKEN to the token clients must send");
    Deno.exit(2);
  }
  const app = new App(kiosk, { title: "Kiosk", renderer: new HeadlessRenderer() });
  const uid = getuid();
  const server = new AgentServer({
    host: new AppHost(app),
    gate: new AllGates(new SameUserGate(uid), new TokenGate(token)),
    socketPath: socketPathFor(socketDirectory(uid), "Kiosk", Deno.pid),
    name: "kiosk",
  });
  await server.start();
  console.error(`MCP server listening ${server.socketPath}`);
  const stop = Promise.withResolvers<void>();
  for (const signal of ["SIGINT", "SIGTERM"] as const) Deno.addSignalListener(signal, stop.resolve);
  await stop.promise;
  await server.stop();
  app.close();
}
