/**
 * Notes: the app a newcomer runs first, and one a person and an agent can use at the same
 * time. A title field and an Add button, the notes (each with a Done checkbox and a Delete
 * button) in a list that scrolls, a count, and a Menu whose Settings dialog holds a secure
 * "Sync password" field and a Sync button that stays disabled until a password is set.
 * Agents get the tools `note_count`, `add_note` and `delete_note` (destructive), plus
 * `sync_status` and `close_settings` while the settings dialog is open. The Delete buttons
 * and the menu's "Delete done notes" are destructive too: an agent's click on one needs
 * `"confirm": true`, as `delete_note` does.
 *
 * Run it in a terminal: `deno task demo`, or `deno task demo -- my-notes.json` to load the
 * notes from that file and save every change to it (the title being typed too), so nothing
 * typed is lost between runs. The file is a `DurableFile`: one app at a time has it open,
 * and each save is written whole with the file's own mode. A save that fails is shown in
 * the window and told to the agent whose tool call made the change.
 *
 * The module also keeps the agents page's example, line for line: `notes`, a count of notes
 * and the `note_count` tool.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { z } from "zod";
import {
  AppConfig,
  AppTool,
  bind,
  button,
  checkbox,
  column,
  type Component,
  component,
  dialog,
  DurableFile,
  focusRef,
  list,
  menu,
  menuItem,
  row,
  run,
  scrollView,
  show,
  type Signal,
  span,
  text,
  textField,
} from "../runtime/mod.ts";

/** The agents page's Notes example: a count of notes and an app tool `note_count`. */
export const notes: Component = component((cx) => {
  const notes = cx.signal<string[]>([], { name: "notes" });
  cx.registerTool(
    new AppTool(
      "note_count",
      "How many notes the user has",
      `{"type":"object","properties":{}}`,
      (_cx, _arguments) => JSON.stringify({ count: notes.with((list) => list.length) }),
    ),
  );
  return text(bind(() => `${notes.with((list) => list.length)} notes`));
});

/** One note as it is saved. */
export interface SavedNote {
  /** What the note says. */
  title: string;
  /** Whether it was ticked off. */
  done: boolean;
}

/** What the notes file holds: the notes, and the title being typed. */
export interface NotesFile {
  /** The notes, in order. */
  notes: SavedNote[];
  /** What the title field held. */
  draft: string;
}

/** What `notesApp()` takes; all optional. */
export interface NotesAppOptions {
  /** The notes to start with (from the file). */
  initial?: NotesFile;
  /**
   * Called with the notes and the draft after each change that touched them; throws when
   * the save failed, which the app shows (and tells the agent whose tool made the change).
   */
  save?: (state: NotesFile) => void;
}

/** A note in the running app: `done` is its own signal, so a toggle touches one row. */
interface Note {
  id: number;
  title: string;
  done: Signal<boolean>;
}

/** How wide a note's title is shown, in cells; the Delete buttons line up after it. */
const TITLE_COLUMNS = 36;

/** The whole Notes app's root component. */
export function notesApp(options: NotesAppOptions = {}): Component {
  return component((cx) => {
    let nextId = 1;
    const makeNote = (title: string, done: boolean): Note => ({
      id: nextId++,
      title,
      done: cx.signal(done, { name: `done: ${title}` }),
    });
    const initial = options.initial ?? { notes: [], draft: "" };
    const notes = cx.signal<Note[]>(
      initial.notes.map((note) => makeNote(note.title, note.done)),
      { name: "notes" },
    );
    const draft = cx.signal(initial.draft, { name: "title being typed" });
    /** True after Add was pressed with a blank title, until a title is typed or added. */
    const triedBlank = cx.signal(false, { name: "tried a blank title" });
    const titleProblem = () =>
      triedBlank.get() && draft.get().trim() === "" ? "a note needs a title" : null;
    const settingsOpen = cx.signal(false, { name: "settings open" });
    /** Why the last save failed; empty once a save worked. */
    const saveProblem = cx.signal("", { name: "save problem" });
    const password = cx.secret("", { name: "sync password" });
    const lastSync = cx.signal("Not synced yet", { name: "last sync" });

    const addNote = (title: string): boolean => {
      const trimmed = title.trim();
      if (trimmed === "") return false;
      notes.update((list) => list.push(makeNote(trimmed, false)));
      return true;
    };
    const deleteNote = (id: number) => {
      notes.set(notes.get().filter((note) => note.id !== id));
    };
    const counts = () => {
      const list = notes.get();
      return { count: list.length, done: list.filter((note) => note.done.get()).length };
    };

    const currentState = (): NotesFile => ({
      notes: notes.get().map((note) => ({ title: note.title, done: note.done.get() })),
      draft: draft.get(),
    });
    // What is on disk; what was just loaded needs no saving.
    let saved = JSON.stringify(initial);
    /** Saves what changed since the last save that worked; returns why it failed, if it did. */
    const persist = (): string | null => {
      const state = currentState();
      const json = JSON.stringify(state);
      if (options.save === undefined || json === saved) return null;
      try {
        options.save(state);
      } catch (error) {
        const why = (error as Error).message;
        saveProblem.set(`Not saved: ${why}`);
        return why;
      }
      saved = json;
      saveProblem.set("");
      return null;
    };
    // Every change is saved at the next frame (the title being typed too); a tool that changes
    // the notes saves at once, so its answer can say whether the save worked.
    cx.effect(() => void persist());
    const savedOrThrow = (what: string) => {
      const why = persist();
      if (why !== null) {
        throw new Error(
          `${what} but not saved: ${why}; it stays in the app, and the next change saves again`,
        );
      }
    };

    cx.tool({
      name: "note_count",
      description: "Counts the notes, and those done",
      input: z.object({}),
      run: () => counts(),
    });
    cx.tool({
      name: "add_note",
      description: "Adds a note at the end",
      input: z.object({
        title: z.string().min(1).refine((title) => title.trim() !== "", {
          message: "a note needs a title with some text in it",
        }),
      }),
      run: (_rt, { title }) => {
        addNote(title);
        savedOrThrow("the note was added");
        return counts();
      },
    });
    cx.tool({
      name: "delete_note",
      description: "Deletes the first note with this exact title",
      input: z.object({ title: z.string() }),
      destructive: true,
      run: (_rt, { title }) => {
        const note = notes.get().find((candidate) => candidate.title === title);
        if (note === undefined) throw new Error(`no note titled ${JSON.stringify(title)}`);
        deleteNote(note.id);
        savedOrThrow("the note was deleted");
        return counts();
      },
    });

    // From the field or the Add button: a blank title is refused, in the error colour.
    const submit = (title: string) => {
      const added = addNote(title);
      if (added) draft.set("");
      triedBlank.set(!added);
    };

    const noteRow = (note: Note) =>
      row(
        checkbox("Done", note.done),
        text(note.title).width(TITLE_COLUMNS),
        button("Delete", () => deleteNote(note.id)).destructive(),
      );

    // The dialog is a component of its own: its tools live exactly as long as it is open.
    const settings = () =>
      component((dialogCx) => {
        dialogCx.tool({
          name: "sync_status",
          description: "Whether a sync password is set, and the last sync",
          input: z.object({}),
          run: () => ({ passwordSet: password.get() !== "", lastSync: lastSync.get() }),
        });
        dialogCx.tool({
          name: "close_settings",
          description: "Closes the settings dialog",
          input: z.object({}),
          run: () => {
            settingsOpen.set(false);
            return { closed: true };
          },
        });
        return dialog(
          "Settings",
          textField({ label: "Sync password", value: password, columns: 24 }).secure(),
          row(
            button("Sync", () => {
              // A demo: there is no server; the button shows what a sync would report.
              const { count } = counts();
              const time = new Date().toTimeString().slice(0, 8);
              lastSync.set(`Synced ${count} ${count === 1 ? "note" : "notes"} at ${time}`);
            }).disabled(bind(() => password.get() === "")),
            button("Close", () => settingsOpen.set(false)),
          ),
          text(lastSync),
        ).onClose(() => settingsOpen.set(false));
      });

    // Ctrl+N, from anywhere but the settings dialog: back to the title field for a new note.
    const title = focusRef();
    cx.keybind("Ctrl+N", "New note", () => title.focus());

    return column(
      row(
        textField({
          label: "Title",
          value: draft,
          columns: 30,
          onSubmit: (value) => submit(value),
        }).invalid(bind(titleProblem)).ref(title),
        button("Add", () => submit(draft.get())),
        menu(
          "Menu",
          menuItem("Settings", () => settingsOpen.set(true)),
          menuItem("Delete done notes", () => {
            notes.set(notes.get().filter((note) => !note.done.get()));
          }).destructive(),
          menuItem("Quit", (rt) => rt.quit()),
        ),
      ),
      // The count in colour; its node's name is the plain text, "2 notes, 1 done".
      text(bind(() => {
        const { count, done } = counts();
        return [
          span(String(count), { fg: "accent", bold: true }),
          ` ${count === 1 ? "note" : "notes"}, `,
          span(String(done), { fg: "success", bold: true }),
          " done",
        ];
      })),
      show(
        bind(() => titleProblem() !== null),
        () => text(bind(() => `Not added: ${titleProblem() ?? ""}`)).style({ fg: "error" }),
      ),
      show(
        bind(() => saveProblem.get() !== ""),
        () => text(saveProblem).style({ fg: "error", bold: true }),
      ),
      scrollView(list(notes, noteRow, (note) => note.id)).label("Notes"),
      show(settingsOpen, settings),
    ).padding(1);
  });
}

/** Reads notes from their file; no file yet is no notes. Throws when it is not a notes file. */
export function loadNotesFile(file: DurableFile): NotesFile {
  const textContent = file.readText();
  if (textContent === null) return { notes: [], draft: "" };
  const data = JSON.parse(textContent) as Partial<NotesFile> | null;
  const valid = typeof data === "object" && data !== null && Array.isArray(data.notes) &&
    data.notes.every((note) => typeof note?.title === "string" && typeof note.done === "boolean");
  if (!valid) {
    throw new TypeError(
      'expected {"notes": [{"title": "...", "done": false}, ...], "draft": "..."}',
    );
  }
  return { notes: data.notes!, draft: typeof data.draft === "string" ? data.draft : "" };
}

/** Writes the notes to their file, whole (see `DurableFile.write`); throws when that fails. */
export function saveNotesFile(file: DurableFile, state: NotesFile): void {
  file.write(JSON.stringify(state, null, 2) + "\n");
}

const USAGE = `Usage: deno task demo [-- NOTES.json]

Runs the Notes app. With a file, notes load from it and every change is saved to it; one
Notes app at a time may have a file open.`;

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
  const path = positionals[0];
  let file: DurableFile | undefined;
  let initial: NotesFile | undefined;
  if (path !== undefined) {
    try {
      // Another Notes app on the same file is refused, not raced: each would save over the
      // other's changes.
      file = DurableFile.open(path, { app: "Notes" });
      initial = loadNotesFile(file);
    } catch (error) {
      // Refuse to start rather than save an empty list over notes we could not read.
      console.error(`Notes: ${(error as Error).message}`);
      Deno.exit(1);
    }
  }
  /** What the last save that failed meant to write; undefined once a save worked. */
  let unsaved: NotesFile | undefined;
  const save = file === undefined ? undefined : (state: NotesFile) => {
    unsaved = state;
    saveNotesFile(file, state);
    unsaved = undefined;
  };
  await run(
    notesApp({ ...(initial && { initial }), ...(save && { save }) }),
    new AppConfig("Notes").mcp(true),
  );
  if (file !== undefined && unsaved !== undefined) {
    // The app quit with changes a save could not keep: one more try, then give them to the
    // person rather than lose them.
    try {
      saveNotesFile(file, unsaved);
    } catch (error) {
      console.error(`Notes: your last changes were not saved: ${(error as Error).message}`);
      console.error(JSON.stringify(unsaved, null, 2));
      file.close();
      Deno.exit(1);
    }
  }
  file?.close();
}
