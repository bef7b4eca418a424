/**
 * Gallery: every built-in widget once, with names a person, a test and an agent can all find
 * (`ui_query {"name": "Colour"}`): a select "Colour", a radio group "Size", a switch "Wi-Fi",
 * a text area "Notes", a progress bar "Download" that the Start button fills, a spinner
 * "Syncing", tabs "General" and "Advanced", a table "Files", a tree "Folders", and a button
 * "Notify" that shows a status message.
 *
 * Run it: `deno task gallery`. Tab moves between widgets; the status line lists the keys.
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
  heading,
  progressBar,
  radioGroup,
  row,
  run,
  select,
  spinner,
  tab,
  tabs,
  text,
  textArea,
  toggleSwitch,
} from "../runtime/mod.ts";

/** The gallery's root component. */
export function galleryApp() {
  return component((cx) => {
    const colour = cx.signal("Red", { name: "colour" });
    const size = cx.signal("Medium", { name: "size" });
    const wifi = cx.signal(true, { name: "wifi" });
    const notes = cx.signal("", { name: "notes" });
    const choices = column(
      select({ label: "Colour", options: ["Red", "Green", "Blue"], value: colour }),
      radioGroup({ label: "Size", options: ["Small", "Medium", "Large"], value: size }),
      toggleSwitch({ label: "Wi-Fi", value: wifi }),
      text(bind(() => `${colour.get()}, ${size.get()}, Wi-Fi ${wifi.get() ? "on" : "off"}`)),
      textArea({ label: "Notes", value: notes, columns: 27, rows: 4 }),
    ).gap(1);
    const download = cx.signal(0, { name: "download" });
    let timer: ReturnType<typeof setInterval> | undefined;
    const stop = () => {
      clearInterval(timer);
      timer = undefined;
    };
    cx.onCleanup(stop);
    // Start fills the bar in 2 s, a step of 5% each 100 ms; pressed again, it starts over.
    const start = () => {
      stop();
      download.set(0);
      timer = setInterval(() => {
        download.set(Math.min(100, download.get() + 5));
        if (download.get() === 100) stop();
      }, 100);
    };
    const work = column(
      row(progressBar({ label: "Download", value: download }), button("Start", start)),
      spinner({ label: "Syncing" }),
      button(
        "Notify",
        () => cx.notify(`Hello from the gallery (${colour.get()})`, { kind: "success" }),
      ),
    );
    const settings = tabs({
      label: "Settings",
      tabs: [
        tab("General", () => text("Shown in the General tab")),
        tab("Advanced", () => checkbox("Verbose logs", false)),
      ],
    });
    return column(
      heading("Gallery"),
      row(
        choices.width(28),
        column(
          work,
          settings,
          // GALLERY-SLOT: the table "Files" (2,000 rows: Name, Size, Modified) and the tree
          // "Folders" (items load when expanded) go here, side by side in a row.
        ).gap(1).grow(),
      ).grow(),
    );
  });
}

if (import.meta.main) {
  await run(galleryApp(), new AppConfig("Gallery").mcp(true));
}
