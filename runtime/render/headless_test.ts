import assert from "node:assert/strict";
import { App } from "../app/app.ts";
import { runRendererConformance } from "./_test_conformance.ts";
import { HeadlessRenderer } from "./headless.ts";
import { component, text } from "../ui/mod.ts";

runRendererConformance("HeadlessRenderer", ({ width, height }) => {
  const renderer = new HeadlessRenderer(width, height);
  return { renderer, screen: () => Promise.resolve(renderer.screen()) };
});

Deno.test("HeadlessRenderer counts the frames it was asked to draw", () => {
  const renderer = new HeadlessRenderer();
  const app = new App(component(() => text("hi")), { title: "Count", renderer });
  app.frame();
  assert.equal(renderer.frames, 2);
  app.close();
});
