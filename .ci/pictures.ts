/**
 * Makes the README's pictures from the examples: `docs/pictures/notes.png` (the Notes demo),
 * `docs/pictures/gallery.png` (the widget gallery) and `docs/pictures/files.png` (the file
 * viewer on a small project made for the picture). Each is the example's real component run
 * headless with the harness and drawn by `app.screenshot()`, the code `ui_screenshot` uses,
 * so a change of look shows in the pictures the next time they are made:
 *
 *   deno task pictures           write them
 *   deno task pictures --check   exit 1 if a committed picture differs from what is made now
 *
 * @module
 */

import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { render, type TestApp } from "../runtime/testing.ts";
import type { View } from "../runtime/mod.ts";
import { notesApp } from "../examples/notes.ts";
import { filesApp } from "../examples/files.ts";

const OUT = fileURLToPath(new URL("../docs/pictures/", import.meta.url));

/** One picture: its file, the window, and what is done before it is taken. */
interface Picture {
  file: string;
  title: string;
  width: number;
  height: number;
  view: () => View | Promise<View>;
  /** `manual` for an example with timers, so that the picture is the same every time. */
  clock?: "manual";
  before?: (app: TestApp) => Promise<void>;
}

/** Waits (on the real clock, at most 5 s) until `ready` holds, running frames meanwhile. */
async function until(app: TestApp, ready: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!ready()) {
    if (Date.now() > deadline) {
      throw new Error(`${what} did not happen within 5 seconds:\n${app.screen().text}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
    await app.settle();
  }
}

/**
 * A small project for the file viewer to show, the same every time: `weather/` in a fresh
 * temporary directory made the working directory, so that the path the viewer shows is
 * `weather` wherever the picture is made.
 */
async function sampleProject(): Promise<string> {
  const parent = await Deno.makeTempDir({ prefix: "crownui-pictures-" });
  made.push(parent);
  Deno.chdir(parent);
  const root = "weather";
  const files: Record<string, string> = {
    "README.md": "# Weather\n\nA terminal weather board built with CrownUI.\n",
    "deno.json": '{\n  "tasks": { "start": "deno run -A main.ts" }\n}\n',
    "main.ts": [
      'import { AppConfig, column, heading, run, text } from "@crownui/runtime";',
      'import { forecast } from "./src/forecast.ts";',
      "",
      "const days = await forecast();",
      "await run(",
      "  column(",
      '    heading("Weather"),',
      "    ...days.map((day) => text(`${day.name}: ${day.summary}, ${day.high}°`)),",
      "  ),",
      '  new AppConfig("Weather").mcp(true),',
      ");",
      "",
    ].join("\n"),
    "src/forecast.ts": "export async function forecast() {\n  return [];\n}\n",
    "src/units.ts": "export const celsius = (f: number) => ((f - 32) * 5) / 9;\n",
    "tests/forecast_test.ts": 'Deno.test("forecast", () => {});\n',
  };
  for (const [path, content] of Object.entries(files)) {
    const full = join(root, path);
    await Deno.mkdir(join(full, ".."), { recursive: true });
    await Deno.writeTextFile(full, content);
  }
  // One date for every entry, noon UTC, so that the Modified column is the same everywhere.
  const when = new Date("2026-01-15T12:00:00Z");
  for (const path of [...Object.keys(files), "src", "tests"]) {
    await Deno.utime(join(root, path), when, when);
  }
  return root;
}

/** Temporary directories to remove at the end. */
const made: string[] = [];

const PICTURES: Picture[] = [
  {
    file: "notes.png",
    title: "Notes",
    width: 80,
    height: 8,
    view: () =>
      notesApp({
        initial: {
          notes: [
            { title: "Buy milk", done: true },
            { title: "Call the plumber", done: false },
            { title: "Book train tickets to Lyon", done: false },
          ],
          draft: "",
        },
      }),
    async before(app) {
      await app.act(app.get({ role: "text_field", name: "Title" }).id, { action: "focus" });
      await app.type("Water the plants");
    },
  },
  {
    file: "files.png",
    title: "Files",
    width: 100,
    height: 14,
    view: async () => filesApp(await sampleProject()),
    async before(app) {
      await until(app, () => app.query({ role: "row" }).length > 3, "the listing");
      const selected = () => app.query({ role: "row", state: "selected" })[0]?.name ?? "";
      await app.act(app.get({ name: "Entries" }).id, { action: "focus" });
      for (let i = 0; i < 10 && !selected().startsWith("main.ts"); i++) {
        await app.press("ArrowDown");
      }
      await until(app, () => app.screen().text.includes("await run("), "the preview");
    },
  },
];

/** The gallery, when the example exists (it arrived after the others). */
async function galleryPicture(): Promise<Picture | null> {
  let module: { galleryApp?: () => View };
  try {
    module = await import("../examples/gallery.ts");
  } catch {
    return null;
  }
  if (typeof module.galleryApp !== "function") return null;
  const galleryApp = module.galleryApp;
  return {
    file: "gallery.png",
    title: "Gallery",
    width: 100,
    height: 24,
    view: galleryApp,
    clock: "manual",
    async before(app) {
      // The download started and some way along: the bar and the spinner show their looks.
      await app.act(app.get({ role: "button", name: "Start" }).id, { action: "click" });
      await app.advance(1300);
    },
  };
}

async function make(picture: Picture): Promise<Uint8Array> {
  await using app = await render(await picture.view(), {
    title: picture.title,
    width: picture.width,
    height: picture.height,
    ...(picture.clock === undefined ? {} : { clock: picture.clock }),
  });
  await app.settle();
  await picture.before?.(app);
  await app.settle();
  return (await app.screenshot()).png;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    args: Deno.args,
    options: { check: { type: "boolean", default: false } },
  });
  const gallery = await galleryPicture();
  const pictures = gallery === null ? PICTURES : [PICTURES[0]!, gallery, PICTURES[1]!];
  await Deno.mkdir(OUT, { recursive: true });
  let stale = 0;
  for (const picture of pictures) {
    const png = await make(picture);
    const path = join(OUT, picture.file);
    if (values.check) {
      const committed = await Deno.readFile(path).catch(() => new Uint8Array(0));
      const same = committed.length === png.length && committed.every((b, i) => b === png[i]);
      if (!same) {
        stale++;
        console.error(`docs/pictures/${picture.file} is not what the example shows now`);
      }
      continue;
    }
    await Deno.writeFile(path, png);
    console.log(
      `docs/pictures/${picture.file}: ${picture.width}×${picture.height} cells, ${
        (png.length / 1024).toFixed(1)
      } KB`,
    );
  }
  for (const dir of made) await Deno.remove(dir, { recursive: true });
  if (stale > 0) console.error("run deno task pictures to make them again");
  return stale > 0 ? 1 : 0;
}

if (import.meta.main) Deno.exit(await main());
