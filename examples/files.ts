/**
 * Files: a file viewer, built the way the README tells an app author to build. A directory's
 * entries in a table (Name, Size, Modified) with a filter field above it, and the selected
 * file's first lines beside it; keyboard only: type to filter, Tab to the table, the arrows
 * (PageUp/PageDown, Home/End, type-ahead) to move, Enter to open a directory, Backspace in the
 * table to go up, ArrowUp from the first row to the headers, where Enter sorts. Agents get
 * the same through the tree and two tools, `list_entries` and `open_path`.
 *
 * Run it: `deno task files` (the current directory) or `deno task files -- DIR`.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { z } from "zod";
import {
  AppConfig,
  bind,
  column,
  component,
  heading,
  list,
  row,
  run,
  scrollView,
  show,
  type Signal,
  span,
  table,
  text,
  textField,
} from "../runtime/mod.ts";

/** One entry of a directory. */
export interface Entry {
  /** Its name; a directory's ends in `/`. */
  name: string;
  /** True for a directory. */
  directory: boolean;
  /** Its size in bytes (0 for a directory). */
  size: number;
  /** When it was last changed, as `YYYY-MM-DD`; empty when not known. */
  modified: string;
}

/** How much of a file the preview reads, and how many of its lines it shows. */
const PREVIEW_BYTES = 16 * 1024;
const PREVIEW_LINES = 200;

/** The entries of `path`, directories first, then by name; `..` first unless at the root. */
export async function readEntries(path: string): Promise<Entry[]> {
  const entries: Entry[] = [];
  for await (const entry of Deno.readDir(path)) {
    let size = 0;
    let modified = "";
    try {
      const info = await Deno.stat(`${path}/${entry.name}`);
      if (entry.isFile) size = info.size;
      modified = info.mtime?.toISOString().slice(0, 10) ?? "";
    } catch {
      // Gone meanwhile, or not ours to read: listed all the same.
    }
    entries.push({
      name: entry.isDirectory ? `${entry.name}/` : entry.name,
      directory: entry.isDirectory,
      size,
      modified,
    });
  }
  entries.sort((a, b) =>
    a.directory === b.directory ? a.name.localeCompare(b.name) : a.directory ? -1 : 1
  );
  if (path !== "/") entries.unshift({ name: "../", directory: true, size: 0, modified: "" });
  return entries;
}

/** The first lines of a file, or what stands for them (a directory, a binary file, an error). */
export async function previewOf(path: string, entry: Entry | null): Promise<string[]> {
  if (entry === null) return ["(nothing selected)"];
  if (entry.directory) return [`${entry.name} — a directory; Enter opens it`];
  let file: Deno.FsFile | undefined;
  try {
    file = await Deno.open(`${path}/${entry.name}`, { read: true });
    const buffer = new Uint8Array(PREVIEW_BYTES);
    const read = (await file.read(buffer)) ?? 0;
    const bytes = buffer.subarray(0, read);
    if (bytes.includes(0)) return [`(a binary file of ${sizeText(entry.size)})`];
    const lines = new TextDecoder().decode(bytes).split(/\r?\n/).slice(0, PREVIEW_LINES);
    return lines.map((line) => line.replaceAll("\t", "    "));
  } catch (error) {
    return [`(cannot read it: ${error instanceof Error ? error.message : String(error)})`];
  } finally {
    file?.close();
  }
}

/** A size for people: `812 B`, `3.4 KB`, `12 MB`. */
export function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

/** The directory above `path`. */
function parentOf(path: string): string {
  const trimmed = path.replace(/\/+$/, "");
  const cut = trimmed.lastIndexOf("/");
  return cut <= 0 ? "/" : trimmed.slice(0, cut);
}

/** The file viewer, starting in `start` (an absolute path). */
export function filesApp(start: string) {
  return component((cx) => {
    const path = cx.signal(start, { name: "path" });
    const entries = cx.signal<Entry[]>([], { name: "entries" });
    const problem = cx.signal("", { name: "problem" });
    const filter = cx.signal("", { name: "filter" });
    const selected: Signal<unknown> = cx.signal<unknown>(null, { name: "selected" });
    const preview = cx.signal<string[]>([], { name: "preview" });

    const shown = cx.memo(() => {
      const needle = filter.get().toLowerCase();
      return needle === ""
        ? entries.get()
        : entries.get().filter((entry) => entry.name.toLowerCase().includes(needle));
    });
    const selectedEntry = () =>
      entries.get().find((entry) => entry.name === selected.get()) ?? null;

    // Reads finish after the app may have closed: their results are dropped then.
    let alive = true;
    cx.onCleanup(() => (alive = false));

    // Every change of directory reads it again; a read that fails says why and keeps the old.
    let reading = 0;
    const open = async (next: string) => {
      const ticket = ++reading;
      try {
        const read = await readEntries(next);
        if (!alive || ticket !== reading) return; // closed, or a later open won
        path.set(next);
        entries.set(read);
        filter.set("");
        problem.set("");
        selected.set(read.find((entry) => entry.name !== "../")?.name ?? read[0]?.name ?? null);
      } catch (error) {
        if (alive && ticket === reading) {
          problem.set(`cannot open ${next}: ${error instanceof Error ? error.message : error}`);
        }
      }
    };
    const enter = (entry: Entry) => {
      if (!entry.directory) return;
      const here = path.get().replace(/\/$/, "");
      void open(entry.name === "../" ? parentOf(here) : `${here}/${entry.name.slice(0, -1)}`);
    };
    void open(start);

    // The preview follows the selection; a slow read never overwrites a later one.
    let previewing = 0;
    cx.effect(() => {
      const entry = selectedEntry();
      const where = path.get();
      const ticket = ++previewing;
      void previewOf(where, entry).then((lines) => {
        if (alive && ticket === previewing) preview.set(lines);
      });
    });

    cx.tool({
      name: "list_entries",
      description: "The entries of the directory shown, with sizes",
      input: z.object({}),
      run: () => ({
        path: path.get(),
        entries: entries.get().map(({ name, size }) => ({ name, size })),
      }),
    });
    cx.tool({
      name: "open_path",
      description: "Opens a directory by absolute path",
      input: z.object({ path: z.string() }),
      run: async (_rt, { path: next }) => {
        await open(next);
        if (problem.get() !== "") throw new Error(problem.get());
        return { path: path.get(), count: entries.get().length };
      },
    });

    // Backspace goes up wherever the filter field, which deletes with it, does not have focus:
    // keys the focused widget leaves reach the app's bindings.
    cx.keybind("Backspace", "Up a directory", () => void open(parentOf(path.get())));

    const entryTable = table({
      label: "Entries",
      columns: [
        { header: "Name", cell: (entry: Entry) => entry.name, grow: 1 },
        {
          header: "Size",
          cell: (entry) => entry.directory ? "" : sizeText(entry.size),
          width: 8,
          align: "right",
          sort: (a, b) => a.size - b.size,
        },
        { header: "Modified", cell: (entry) => entry.modified, width: 10 },
      ],
      rows: shown,
      key: (entry) => entry.name,
    })
      .selection(selected)
      .onActivate((entry) => enter(entry))
      .width(50)
      .border("rounded", { title: "Entries" });

    return column(
      heading(bind(() => `Files — ${path.get()}`)),
      row(
        textField({ label: "Filter", value: filter, columns: 24 }),
        text(bind(() => `${shown.get().length} of ${entries.get().length} entries`))
          .style({ fg: "muted" }),
      ),
      show(bind(() => problem.get() !== ""), () => text(problem).style({ fg: "error" })),
      row(
        entryTable,
        scrollView(previewLines(preview))
          .label("Preview")
          .border("rounded", {
            title: bind(() => {
              const entry = selectedEntry();
              return entry === null || entry.directory ? "Preview" : entry.name;
            }),
          }),
      ),
      keysFooter([
        ["Tab", "filter/table"],
        ["↑↓ PgUp PgDn", "move"],
        ["Enter", "open"],
        ["Backspace", "up"],
        ["Ctrl+C", "quit"],
      ]),
    );
  });
}

/** A footer line of keys: each key in the accent colour, what it does in the muted one. */
function keysFooter(keys: [key: string, does: string][]) {
  return text(keys.flatMap(([key, does], index) => [
    ...(index === 0 ? [] : ["  "]),
    span(key, { fg: "accent", bold: true }),
    span(` ${does}`, { fg: "muted" }),
  ]));
}

/** The preview's lines, each a text, following the preview signal. */
function previewLines(preview: Signal<string[]>) {
  return list(preview, (line) => text(line === "" ? " " : line), (_line, index) => index)
    .label("Lines");
}

const USAGE = `Usage: deno task files [-- DIR]

A file viewer: the entries of DIR (the current directory by default) with a filter, and the
selected file's first lines beside them. Tab moves between the filter and the table; the arrows,
PageUp/PageDown, Home/End and typed letters move in the table; Enter opens a directory and
Backspace goes up; ArrowUp from the first row reaches the headers, where Enter sorts; Ctrl+C
quits.`;

if (import.meta.main) {
  const { positionals, values } = parseArgs({
    args: Deno.args,
    allowPositionals: true,
    options: { help: { type: "boolean", short: "h" } },
  });
  if (values.help || positionals.length > 1) {
    console.log(USAGE);
    Deno.exit(values.help ? 0 : 2);
  }
  const start = positionals[0] ?? Deno.cwd();
  const absolute = start.startsWith("/") ? start : `${Deno.cwd()}/${start}`;
  await run(filesApp(absolute.replace(/\/+$/, "") || "/"), new AppConfig("Files").mcp(true));
}
