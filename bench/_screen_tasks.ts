/**
 * The agent tasks of `bench/peers.ts` done through terminalcp, as an agent that reads screens
 * does them: it starts the app in terminalcp's pty (80×24), reads the screen, types, and
 * clicks or scrolls with SGR mouse reports at the cells it read the controls at. The script
 * is the peer's best case: it never reads a screen it does not need, batches what it types
 * and computes how far to scroll from one trial notch. Only the agent's calls count; waiting
 * for the app to draw (the bench polls the screen meanwhile) is not charged to it.
 *
 * @module
 */

import type { Client } from "../runtime/agent/transport/sdk.ts";
import { Tally } from "./_tokens.ts";

/** The name the app runs under in terminalcp. */
const SESSION = "app";
/** The pty's rows (terminalcp's default size is 80×24). */
const ROWS = 24;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A cell of the screen, counted from 0. */
interface Cell {
  x: number;
  y: number;
}

/** An app in terminalcp's pty, driven by the counted calls of one {@link Tally}. */
export class ScreenAgent {
  readonly tally: Tally;
  readonly #client: Client;

  /** Counts the calls made with `client` in `tally`. */
  constructor(client: Client, tally: Tally) {
    this.#client = client;
    this.tally = tally;
  }

  #call(args: Record<string, unknown>): Promise<string> {
    return this.tally.call("terminalcp", { args });
  }

  /** Starts `command` in `cwd` (counted) and waits, uncounted, until its screen shows `ready`. */
  async start(command: string, cwd: string, ready: string): Promise<void> {
    await this.#call({ action: "start", command, cwd, name: SESSION });
    await this.settle((screen) => screen.includes(ready));
  }

  /** Reads the screen (counted). */
  screen(): Promise<string> {
    return this.#call({ action: "stdout", id: SESSION });
  }

  /** Sends `data` to the app's standard input (counted). */
  async type(data: string): Promise<void> {
    await this.#call({ action: "stdin", id: SESSION, data });
  }

  /** Clicks the left button at `cell` (counted). */
  click(cell: Cell): Promise<void> {
    const at = `${cell.x + 1};${cell.y + 1}`;
    return this.type(`\x1b[<0;${at}M\x1b[<0;${at}m`);
  }

  /** Turns the wheel down `notches` times over `cell` (counted, one call). */
  wheelDown(cell: Cell, notches: number): Promise<void> {
    return this.type(`\x1b[<65;${cell.x + 1};${cell.y + 1}M`.repeat(notches));
  }

  /** Stops the app (counted), as terminalcp's description asks. */
  async stop(): Promise<void> {
    await this.#call({ action: "stop", id: SESSION });
  }

  /** Waits, uncounted, until the screen satisfies `done` (at most 20 s). */
  async settle(done: (screen: string) => boolean): Promise<void> {
    const deadline = Date.now() + 20_000;
    let last = "";
    while (Date.now() < deadline) {
      const result = await this.#client.callTool({
        name: "terminalcp",
        arguments: { args: { action: "stdout", id: SESSION } },
      });
      last = (result.content as { text?: string }[]).map((block) => block.text ?? "").join("");
      if (done(last)) {
        await sleep(150); // let the frame finish drawing
        return;
      }
      await sleep(100);
    }
    throw new Error(`the screen never showed what was waited for:\n${last}`);
  }
}

/**
 * The cell where `text` starts on `screen`, the screen's lines aligned to the pty's bottom
 * row (terminalcp leaves out trailing blank lines, and may put scrollback above); `after`
 * finds it on the first line below one that holds `after`.
 */
export function cellOf(screen: string, text: string, after?: string): Cell {
  const lines = screen.split("\n");
  const start = after === undefined ? 0 : lines.findIndex((line) => line.includes(after)) + 1;
  for (let index = start; index < lines.length; index++) {
    const x = lines[index]!.indexOf(text);
    if (x !== -1) return { x, y: ROWS - (lines.length - index) };
  }
  throw new Error(`${JSON.stringify(text)} is not on the screen:\n${screen}`);
}

/** The numbers of the rows `Row N` the screen shows, in order. */
export function rowsShown(screen: string): number[] {
  return [...screen.matchAll(/Row (\d+)\b/g)].map((match) => Number(match[1]));
}

/** The Notes demo, as the README starts it. */
const NOTES_COMMAND = "deno task demo";

/** Adds a note and sees it: start, read, type it with Enter, read, stop. */
export async function screenAddAndSee(agent: ScreenAgent, cwd: string): Promise<void> {
  await agent.start(NOTES_COMMAND, cwd, "0 notes");
  await agent.screen();
  await agent.type("Buy milk\r");
  await agent.settle((screen) => screen.includes("1 note,"));
  const seen = await agent.screen();
  if (!seen.includes("Buy milk")) throw new Error(`the note is not on the screen:\n${seen}`);
  await agent.stop();
}

/**
 * Adds three notes, ticks the first, deletes the second and reads the count: start, read,
 * type the three (one call, as the crownmcp agent does), read, click the first `[ ]`, click the second row's
 * `[ Delete ]`, read, stop.
 */
export async function screenThreeNotes(agent: ScreenAgent, cwd: string): Promise<void> {
  await agent.start(NOTES_COMMAND, cwd, "0 notes");
  await agent.screen();
  await agent.type(["Buy milk", "Walk the dog", "Write the README"].map((t) => `${t}\r`).join(""));
  await agent.settle((screen) => screen.includes("3 notes"));
  const rows = await agent.screen();
  await agent.click(cellOf(rows, "[ ]"));
  await agent.settle((screen) => screen.includes("1 done"));
  await agent.click(cellOf(rows, "[ Delete ]", "Buy milk"));
  await agent.settle((screen) => screen.includes("2 notes"));
  const end = await agent.screen();
  if (!end.includes("2 notes, 1 done")) throw new Error(`the count is not right:\n${end}`);
  await agent.stop();
}

/**
 * Finds row 437 of the 1,000-row app (`command` runs it) and clicks its Open button: start,
 * read, one wheel notch over the list, read (to learn how far a notch scrolls), as many notches
 * as bring row 437 into view, read, click its `[ Open ]`, read, stop. Misses scroll on.
 */
export async function screenOpenRow437(agent: ScreenAgent, command: string, cwd: string) {
  const target = 437;
  await agent.start(command, cwd, "Row 0");
  let screen = await agent.screen();
  const over = cellOf(screen, "Row 0");
  const first = rowsShown(screen);
  await agent.wheelDown(over, 1);
  await agent.settle((now) => rowsShown(now)[0] !== first[0]);
  screen = await agent.screen();
  const step = rowsShown(screen)[0]! - first[0]!;
  for (let tries = 0; !rowsShown(screen).includes(target); tries++) {
    if (tries > 5) throw new Error(`row ${target} never came into view:\n${screen}`);
    const last = rowsShown(screen).at(-1)!;
    const before = rowsShown(screen)[0];
    await agent.wheelDown(over, Math.max(1, Math.ceil((target - last) / step)));
    await agent.settle((now) => rowsShown(now)[0] !== before);
    screen = await agent.screen();
  }
  const lines = screen.split("\n");
  const at = lines.findIndex((line) => new RegExp(`Row ${target}\\b`).test(line));
  await agent.click(cellOf(lines.slice(at).join("\n"), "Open"));
  await agent.settle((now) => now.includes(`Opened Row ${target}`));
  screen = await agent.screen();
  await agent.stop();
}
