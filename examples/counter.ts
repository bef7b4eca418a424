/**
 * The smallest CrownUI app: a window titled "Counter" with a `+1` button and the count.
 *
 * Run it: `deno task counter`. In a terminal it draws itself (Enter, Space or a click on `+1`
 * counts; `q` or Ctrl+C quits); without one it runs headless.
 *
 * @module
 */

import { AppConfig, bind, button, component, row, run, text } from "../runtime/mod.ts";

/** The counter's root component. */
export const counter = component((cx) => {
  const count = cx.signal(0, { name: "count" });
  return row(
    button("+1", () => count.set(count.get() + 1)),
    text(bind(() => `Count: ${count.get()}`)),
  );
});

if (import.meta.main) {
  await run(counter, new AppConfig("Counter").mcp(true));
}
