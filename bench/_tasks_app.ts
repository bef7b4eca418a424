/**
 * The app the agent-economy benchmark drives: a settings form (two fields, a switch-like
 * checkbox, a Prepare button and a Download button that becomes enabled three seconds
 * after Prepare is clicked) above a scrolling list of rows, each a checkbox, a text and an
 * "Open" button.
 *
 * `deno run <app flags> bench/_tasks_app.ts <rows>`
 *
 * @module
 */

import {
  AppConfig,
  bind,
  button,
  checkbox,
  column,
  component,
  list,
  row,
  run,
  scrollView,
  text,
  textField,
} from "../runtime/mod.ts";

/** How long after Prepare the Download button becomes enabled. */
export const PREPARE_MS = 3000;

const rows = Number(Deno.args[0] ?? 1000);

const root = component((cx) => {
  const name = cx.signal("Ada", { name: "name" });
  const email = cx.signal("ada@example.org", { name: "email" });
  const notify = cx.signal(true, { name: "notifications" });
  const ready = cx.signal(false, { name: "download ready" });
  const opened = cx.signal("Nothing opened", { name: "opened" });
  const items = Array.from({ length: rows }, (_, index) => ({
    id: index,
    title: `Row ${index}`,
    done: cx.signal(false),
  }));
  let timer: ReturnType<typeof setTimeout> | undefined;
  cx.onCleanup(() => clearTimeout(timer));
  return column(
    textField({ label: "Name", value: name, columns: 24 }),
    textField({ label: "Email", value: email, columns: 24 }),
    checkbox("Notifications", notify),
    row(
      button("Prepare", () => {
        ready.set(false);
        clearTimeout(timer);
        timer = setTimeout(() => ready.set(true), PREPARE_MS);
      }),
      button("Download", () => {}).disabled(bind(() => !ready.get())),
    ),
    text(opened),
    scrollView(
      list(items, (item) =>
        row(
          checkbox("Done", item.done),
          text(item.title),
          button("Open", () => opened.set(`Opened ${item.title}`)),
        ), (item) => item.id),
    ).label("Rows"),
  );
});

await run(root, new AppConfig(`Tasks ${rows}`).mcp(true));
