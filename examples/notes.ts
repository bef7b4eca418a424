/**
 * The Notes example, line for line as the agents page shows it in Rust: a count of notes
 * and an app tool `note_count` that agents call.
 *
 * Run it: `deno run --allow-env examples/notes.ts`
 *
 * @module
 */

import { AppConfig, AppTool, bind, component, run, text } from "../runtime/mod.ts";

/** The Notes root component. */
export const notes = component((cx) => {
  const notes = cx.signal<string[]>([], { name: "notes" });
  cx.registerTool(
    new AppTool(
      "note_count",
      "How many notes the user has",
      `{"type":"object","properties":{}}`,
      (cx, _arguments) => JSON.stringify({ count: notes.with(cx, (list) => list.length) }),
    ),
  );
  return text(bind((rt) => `${notes.with(rt, (list) => list.length)} notes`));
});

if (import.meta.main) {
  await run(notes, new AppConfig("Notes").mcp(true));
}
