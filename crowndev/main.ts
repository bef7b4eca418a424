/**
 * `crowndev`: look at and poke running CrownUI apps from a shell.
 *
 * @module
 */

import { parseArgs } from "node:util";
import denoJson from "../deno.json" with { type: "json" };
import { readEnv } from "../runtime/app/env.ts";
import { clientSocketDirectory, clientUid } from "../runtime/agent/clients/discovery.ts";
import {
  actCommand,
  appsCommand,
  type CommandContext,
  inspectCommand,
  screenshotCommand,
  treeCommand,
  waitCommand,
  watchCommand,
} from "./commands.ts";
import { CliError, EXIT, palette, terminalSafe, useColour, writeLine } from "./output.ts";
import {
  parseCliAction,
  parseQuery,
  parseWhole,
  treeArguments,
  UsageError,
  waitArguments,
} from "./parse.ts";
import { DEFAULT_WAIT_MS } from "../runtime/agent/hosts/tree_watch.ts";
import { MAX_SCALE } from "../runtime/render/picture/scale.ts";

/** How long crowndev waits for an app to connect and to answer a request, by default (ms). */
const DEFAULT_TIMEOUT_MS = 10_000;

/** The longest `--timeout` outside `wait`, in milliseconds. */
const MAX_TIMEOUT_MS = 600_000;

/** How much longer than its condition's timeout `wait` gives the app to answer at all (ms). */
const WAIT_GRACE_MS = 5_000;

/** The version crowndev reports. */
export const VERSION: string = denoJson.version;

const EXIT_CODES = `Exit codes:
  0  success
  1  the app refused (a tool error: stale revision, disabled node, ...); for wait: the
     condition did not hold before the timeout (the app's message on stderr)
  2  usage error
  3  no app running, or none matches the name given; for apps: a socket directory or
     socket was refused as unsafe
  4  the query matched no node
  5  several apps or nodes matched where one was needed
  6  the app could not be reached, or did not answer within --timeout`;

const HELP = `crowndev ${VERSION}: look at and drive running CrownUI apps

Usage: crowndev [--socket-dir DIR] [--json] [--timeout MS] <command> [arguments]

Commands:
  apps                         list the running apps
  tree [app]                   print the semantic tree, a part of it, or what changed
  inspect [app]                print the inspect snapshot as JSON
  act [app] <query> <action>   find exactly one node, then act on it at the revision read
  wait [app] <query>           wait until a node matches (or, with --gone, none does)
  watch [app]                  print the tree again whenever it changes, until Ctrl+C
  screenshot [app] -o FILE     save a PNG of the app's window
  help [command]               show help for a command

[app] is a name (counter) or a name-pid (counter-4242); leave it out while exactly one
app runs.

Options:
  --socket-dir DIR   read sockets from DIR instead of $XDG_RUNTIME_DIR/crownui
                     (or \${TMPDIR:-/tmp}/crownui-<uid>)
  --json             print JSON instead of text (apps, tree, act, wait, watch)
  --timeout MS       how long to wait for the app to connect and answer each request
                     (default ${DEFAULT_TIMEOUT_MS}, at most ${MAX_TIMEOUT_MS}); then exit 6. For wait:
                     how long the condition may take, see crowndev wait --help
  -h, --help         show help
  -V, --version      show the version

Environment:
  CROWNMCP_TOKEN     sent to the app as a TOKEN line, for apps that require a token
  NO_COLOR           no colour, even on a terminal

${EXIT_CODES}`;

const COMMAND_HELP: Record<string, string> = {
  apps: `Usage: crowndev apps [--json]

Lists the running CrownUI apps: app (name-pid), pid and socket. Sockets whose app is gone
are removed. A socket directory or socket another user could have placed (not the user's
own, open to others, or under a directory others may write to) is not read: the reason goes
to standard error ("refused" with --json) and the exit code is 3.`,
  tree: `Usage: crowndev tree [app] [--root N] [--depth N] [--from N] [--visible]
                     [--max-bytes N] [--json]
       crowndev tree [app] --since R [--max-bytes N] [--json]

Prints the app's semantic tree, one node a line: role, name, #id, value and states. A part
cut to keep within the budget is one line starting with … that names the ui_tree arguments
showing it (--root, --from, --depth and --visible here).

  --root N        only the subtree of node #N (N or #N)
  --depth N       only N levels below the root (0: the root's line alone)
  --from N        skip the root's first N children
  --visible       only the nodes on screen
  --max-bytes N   budget for the text in bytes (the app's default: 32768; at most 3500000;
                  with --since at least 256)
  --since R       only what changed since revision R, one line a change: + added (in #parent),
                  - removed, ~ changed; the whole tree instead when the app no longer keeps R.
                  --json shows the revision to pass next time

Example:
  crowndev tree notes --root 5 --depth 1
  crowndev tree notes --since 12`,
  inspect: `Usage: crowndev inspect [app]

Prints the inspect snapshot as JSON: the tree, every node's layout in window cells, the live
signals and recent frame timings.`,
  act: `Usage: crowndev act [app] <query> <action> [--confirm] [--json]

Finds the one node that matches the query, then acts on it at the revision just read.

<query>   role=..,name=..,text=..,within=#N,state=.. or #N, any of them joined by commas,
          e.g. 'role=button,name=+1' or '#12'
          role and name match exactly; text is a substring of the name or value;
          within=#N: under node #N; state=S: the node has state S (enabled: not disabled);
          #N: node #N itself.
          Zero or several matches are errors that list what matched.
<action>  click | double_click | hover | focus | type_text=hello | press_key=Ctrl+A |
          scroll=0,120 | drag=40,300 | a raw action object such as '{"action":"click"}'
  --confirm   sends "confirm": true: a node with the state destructive (a Delete button)
              refuses a click, a double click, Enter or Space without it (exit 1)

Prints ok, the node and the revisions, then what the action changed (the app's receipt:
+ added, - removed, ~ changed), when anything did.

Example:
  crowndev act counter 'role=button,name=+1' click
  crowndev act notes '#12' click
  crowndev act notes '#11' click --confirm
  crowndev tree counter

${EXIT_CODES}`,
  wait: `Usage: crowndev wait [app] <query> [--state S] [--gone] [--timeout MS] [--json]

Waits until a node matches the query (at once if one does), then prints the nodes that
match, one a line: #id role "name" states. The app answers at the first frame where the
condition holds; nothing is polled.

<query>          as for act: role=..,name=..,text=..,within=#N,state=.. or #N
  --state S      the node must have state S (enabled: not disabled; also focused, checked,
                 selected, expanded, collapsed, disabled, secure, hovered, offscreen, modal)
  --gone         wait until no node matches instead (prints nothing)
  --timeout MS   give up after MS milliseconds (default 5000, at most 30000)

On timeout the app's message (ids and states, such as "timed out after 5000 ms: #31 is
still disabled") goes to standard error and the exit code is 1. An app that does not
answer at all within ${WAIT_GRACE_MS} ms more ends it with exit code 6.

Example:
  crowndev wait notes '#31' --state enabled
  crowndev wait notes 'role=dialog,name=Settings' --gone --timeout 10000

${EXIT_CODES}`,
  screenshot: `Usage: crowndev screenshot [app] -o FILE.png [--scale N] [--json]

Saves a PNG of the app's window (ui_screenshot): the compositor's picture when it offers
one, else the app's own cells drawn in its theme's colours, 8×16 pixels a cell. Prints the
file, its size in pixels and bytes, and the revision it shows.

  -o, --output FILE   where to write the PNG; - for standard output (the summary then
                      goes to standard error)
  --scale N           1 to 3: each pixel drawn N×N (pictures of cells only; default 1)

Example:
  crowndev screenshot notes -o notes.png
  crowndev screenshot --scale 2 -o - | display

${EXIT_CODES}`,
  watch: `Usage: crowndev watch [app] [--json]

Prints the tree, then prints it again each time it changes (the app tells crowndev; nothing
is polled). Stops on Ctrl+C, or when the app exits (exit code 3).`,
};

function report(message: string, hint?: string): void {
  const colours = palette(useColour(Deno.stderr));
  // The message may carry app text (names, the app's own error messages): made safe.
  console.error(`${colours.red("crowndev:")} ${terminalSafe(message)}${hint ? `\n${hint}` : ""}`);
}

function fail(code: number, message: string, hint?: string): number {
  report(message, hint);
  return code;
}

/** Runs crowndev with `args`; returns the exit code. */
export async function main(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: {
        "socket-dir": { type: "string" },
        json: { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
        version: { type: "boolean", short: "V", default: false },
        timeout: { type: "string" },
        // tree
        root: { type: "string" },
        depth: { type: "string" },
        from: { type: "string" },
        visible: { type: "boolean" },
        since: { type: "string" },
        "max-bytes": { type: "string" },
        // act
        confirm: { type: "boolean" },
        // screenshot
        output: { type: "string", short: "o" },
        scale: { type: "string" },
        // wait
        state: { type: "string" },
        gone: { type: "boolean" },
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    return fail(EXIT.usage, (error as Error).message, "Run crowndev --help for usage.");
  }
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;
  if (values.version) {
    console.log(`crowndev ${VERSION}`);
    return EXIT.ok;
  }
  if (command === "help" || (values.help && command !== undefined)) {
    const topic = command === "help" ? rest[0] : command;
    if (topic !== undefined && COMMAND_HELP[topic] === undefined) {
      return fail(
        EXIT.usage,
        `unknown command ${JSON.stringify(topic)}`,
        "Run crowndev --help for usage.",
      );
    }
    console.log(topic === undefined ? HELP : COMMAND_HELP[topic]);
    return EXIT.ok;
  }
  if (values.help || command === undefined) {
    if (command === undefined && !values.help) {
      console.error(HELP);
      return EXIT.usage;
    }
    console.log(HELP);
    return EXIT.ok;
  }
  let socketDir: string;
  let uid: number;
  try {
    uid = clientUid();
    socketDir = values["socket-dir"] ?? clientSocketDirectory(uid);
  } catch (error) {
    return fail(EXIT.usage, (error as Error).message);
  }
  const context: CommandContext = {
    socketDir,
    uid,
    timeoutMs: DEFAULT_TIMEOUT_MS,
    token: readEnv("CROWNMCP_TOKEN"),
    json: values.json,
    colours: palette(!values.json && useColour(Deno.stdout)),
    out: writeLine,
    warn: (line) => report(line),
  };
  const arity = (min: number, max: number) => {
    if (rest.length < min || rest.length > max) {
      throw new UsageError(`wrong number of arguments for ${command}\n\n${COMMAND_HELP[command!]}`);
    }
  };
  const flagsOnly = (owner: string, flags: readonly string[]) => {
    if (command === owner) return;
    const given = flags.filter((flag) => values[flag as keyof typeof values] !== undefined);
    if (given.length > 0) {
      throw new UsageError(`--${given[0]} works only with crowndev ${owner}`);
    }
  };
  try {
    flagsOnly("tree", ["root", "depth", "from", "visible", "since", "max-bytes"]);
    flagsOnly("wait", ["state", "gone"]);
    flagsOnly("act", ["confirm"]);
    flagsOnly("screenshot", ["output", "scale"]);
    if (command !== "wait" && values.timeout !== undefined) {
      context.timeoutMs = parseWhole("--timeout", values.timeout, 1, MAX_TIMEOUT_MS);
    }
    switch (command) {
      case "apps":
        arity(0, 0);
        return await appsCommand(context);
      case "tree":
        arity(0, 1);
        return await treeCommand(
          context,
          rest[0],
          treeArguments({
            root: values.root,
            depth: values.depth,
            from: values.from,
            visible: values.visible,
            since: values.since,
            maxBytes: values["max-bytes"],
          }),
        );
      case "inspect":
        arity(0, 1);
        return await inspectCommand(context, rest[0]);
      case "act": {
        arity(2, 3);
        const [app, query, action] = rest.length === 3 ? rest : [undefined, ...rest];
        return await actCommand(
          context,
          app,
          parseQuery(query!),
          parseCliAction(action!),
          values.confirm === true,
        );
      }
      case "wait": {
        arity(1, 2);
        const [app, query] = rest.length === 2 ? rest : [undefined, ...rest];
        const args = waitArguments(parseQuery(query!), {
          state: values.state,
          gone: values.gone,
          timeout: values.timeout,
        });
        // The app answers when the condition holds or its timeout passes; a little more.
        context.timeoutMs = (args.timeout_ms as number | undefined ?? DEFAULT_WAIT_MS) +
          WAIT_GRACE_MS;
        return await waitCommand(context, app, args);
      }
      case "screenshot": {
        arity(0, 1);
        if (values.output === undefined || values.output === "") {
          throw new UsageError(
            `crowndev screenshot needs -o FILE.png (- for standard output)\n\n${COMMAND_HELP.screenshot}`,
          );
        }
        const scale = values.scale === undefined
          ? undefined
          : parseWhole("--scale", values.scale, 1, MAX_SCALE);
        return await screenshotCommand(context, rest[0], values.output, scale);
      }
      case "watch": {
        arity(0, 1);
        const stop = Promise.withResolvers<void>();
        const onInterrupt = () => stop.resolve();
        Deno.addSignalListener("SIGINT", onInterrupt);
        try {
          return await watchCommand(context, rest[0], stop.promise);
        } finally {
          Deno.removeSignalListener("SIGINT", onInterrupt);
        }
      }
      default:
        throw new UsageError(
          `unknown command ${
            JSON.stringify(command)
          }; commands: apps, tree, inspect, act, wait, watch, screenshot`,
        );
    }
  } catch (error) {
    // Whoever read the output has stopped reading (`crowndev inspect | head`): not a failure.
    if (error instanceof Deno.errors.BrokenPipe) return EXIT.ok;
    if (error instanceof UsageError) {
      return fail(EXIT.usage, error.message, "Run crowndev --help for usage.");
    }
    if (error instanceof CliError) return fail(error.code, error.message);
    return fail(EXIT.connection, (error as Error).message);
  }
}

if (import.meta.main) Deno.exit(await main(Deno.args));
