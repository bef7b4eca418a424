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
  table,
  tabs,
  text,
  textArea,
  toggleSwitch,
  treeView,
} from "../runtime/mod.ts";

/** One row of the gallery's table "Files". */
export interface GalleryFile {
  /** The file's name. */
  name: string;
  /** Its size in KB. */
  size: number;
  /** When it was last changed, as YYYY-MM-DD. */
  modified: string;
}

/** The table's 2,000 files, made up. */
export const GALLERY_FILES: readonly GalleryFile[] = Array.from({ length: 2000 }, (_, index) => ({
  name: `file-${String(index).padStart(4, "0")}.txt`,
  size: (index * 37) % 4096,
  modified: `2026-${String((index % 12) + 1).padStart(2, "0")}-${
    String((index % 28) + 1).padStart(2, "0")
  }`,
}));

/**
 * The folders in `path` of the tree "Folders", made up: three in each, three levels deep. They
 * come after 150 ms, as from a slow disk, so the item shows `⋯` (and `busy`) meanwhile.
 */
export function foldersIn(path: string): Promise<string[]> {
  const names = ["drafts", "photos", "archive"];
  return new Promise((resolve) =>
    setTimeout(() => resolve(names.map((name) => `${path}/${name}`)), 150)
  );
}

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
      textArea({ label: "Notes", value: notes, columns: 26, rows: 4 }),
    ).gap(1).border("rounded", { title: "Choices" }).padding({ x: 1 });
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
    ).border("rounded", { title: "Progress" }).padding({ x: 1 });
    const settings = tabs({
      label: "Settings",
      tabs: [
        tab("General", () => text("Shown in the General tab")),
        tab("Advanced", () => checkbox("Verbose logs", false)),
      ],
    }).border("rounded", { title: "Tabs" }).padding({ x: 1 });
    return column(
      heading("Gallery"),
      row(
        choices.width(30),
        column(
          work,
          settings,
          row(
            table({
              label: "Files",
              columns: [
                { header: "Name", cell: (file: GalleryFile) => file.name, grow: 1 },
                {
                  header: "Size",
                  cell: (file: GalleryFile) => file.size,
                  width: 6,
                  align: "right",
                },
                { header: "Modified", cell: (file: GalleryFile) => file.modified },
              ],
              rows: GALLERY_FILES,
              key: (file) => file.name,
            }).grow().border("rounded"),
            treeView({
              label: "Folders",
              items: ["home", "projects", "music"],
              name: (path: string) => path.slice(path.lastIndexOf("/") + 1),
              children: (path) => foldersIn(path),
              hasChildren: (path) => path.split("/").length < 4,
            }).width(24).border("rounded"),
          ).grow(),
        ).grow(),
      ).grow(),
    );
  });
}

if (import.meta.main) {
  await run(galleryApp(), new AppConfig("Gallery").mcp(true));
}
