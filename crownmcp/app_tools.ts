/**
 * The selected app's tools as crownmcp keeps them: asked for when the app is selected and
 * again each time it says they changed, so that the agent's `tools/list` is answered from
 * here and never waits on the app; and checked before the agent sees them (`checkTools`), so
 * that one broken tool cannot cost the agent the whole list (the SDK's client refuses a
 * `tools/list` with a single tool it cannot parse, crownmcp's own tools with it).
 *
 * A tool is dropped, and said so, when it is not an MCP `Tool` (the SDK's `ToolSchema`: an
 * `inputSchema` of type object, ...), when its name breaks MCP's naming rule (1 to 128 of
 * A–Z a–z 0–9 `_` `-` `.`), when it looks like one of crownmcp's own tools (the same after
 * `fold()`: `Select_App`, `select_app ` and `ｓｅｌｅｃｔ＿ａｐｐ` all fold to `selectapp`), when an
 * earlier tool has its name, or when its input or output schema does not compile as JSON
 * Schema (the SDK's client compiles each output schema when it lists tools, and fails the
 * list when one does not).
 *
 * @module
 */

import { AjvJsonSchemaValidator, type Tool, ToolSchema } from "../runtime/agent/transport/sdk.ts";

/** A JSON Schema as the SDK's validator takes it. */
type JsonSchema = Parameters<AjvJsonSchemaValidator["getValidator"]>[0];
import { PROXY_TOOL } from "../runtime/ui/tool_names.ts";
import type { AppLink } from "./app_link.ts";

/** How long the app may take to list its tools, in milliseconds. */
export const LIST_TOOLS_DEADLINE_MS = 5_000;

/** How many dropped tools are named; past it, one entry says how many more. */
export const MAX_DROPPED_LISTED = 20;

/** MCP's rule for a tool's name. */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/**
 * A name as it is compared with crownmcp's own: NFKC (full-width and other compatibility
 * forms become plain letters), lower case, and only `a`–`z` and `0`–`9` kept, so that case,
 * spaces, separators and invisible characters make no difference.
 */
export function fold(name: string): string {
  return name.normalize("NFKC").toLowerCase().replace(/[^a-z0-9]/g, "");
}

const OWN_FOLDED = new Map(Object.values(PROXY_TOOL).map((name) => [fold(name), name]));

/** What `checkTools` keeps and what it dropped. */
export interface CheckedTools {
  tools: Tool[];
  /** `"<name>: <reason>"` for each tool dropped (the first `MAX_DROPPED_LISTED`). */
  dropped: string[];
  /** Why each tool with a string name was dropped, by that name. */
  droppedNames: Map<string, string>;
}

/** The tools of `listed` (an app's `tools/list` result) fit for the agent, and the rest, why. */
export function checkTools(listed: unknown): CheckedTools {
  const droppedNames = new Map<string, string>();
  if (!Array.isArray(listed)) {
    const dropped = listed === undefined ? [] : ["tools: not a list"];
    return { tools: [], dropped, droppedNames };
  }
  const tools: Tool[] = [];
  const dropped: string[] = [];
  const names = new Set<string>();
  for (const candidate of listed) {
    const name = (candidate as { name?: unknown } | null)?.name;
    const reason = problem(candidate, name, names);
    if (reason === null) {
      tools.push(candidate as Tool);
      names.add(name as string);
      continue;
    }
    // A duplicate's name stays callable: it calls the tool of that name the agent sees.
    if (typeof name === "string" && !names.has(name)) droppedNames.set(name, reason);
    if (dropped.length < MAX_DROPPED_LISTED) {
      dropped.push(`${shown(name)}: ${reason}`);
    } else {
      dropped[MAX_DROPPED_LISTED] = `… and ${
        listed.length - tools.length - MAX_DROPPED_LISTED
      } more not listed`;
    }
  }
  return { tools, dropped, droppedNames };
}

/** Why `tool` is not fit for the agent, or null. */
function problem(tool: unknown, name: unknown, earlier: ReadonlySet<string>): string | null {
  if (typeof name === "string") {
    const own = OWN_FOLDED.get(fold(name));
    if (own !== undefined) return `looks like crownmcp's own tool ${own}`;
  }
  const parsed = ToolSchema.safeParse(tool);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.path.join(".");
    return `not an MCP tool: ${path === "" ? "" : `${path}: `}${issue.message}`;
  }
  const named = name as string;
  if (!TOOL_NAME.test(named)) {
    return "the name is not 1 to 128 of the characters A-Z a-z 0-9 _ - .";
  }
  if (earlier.has(named)) return "an earlier tool has this name";
  const { inputSchema, outputSchema } = tool as Tool;
  return compileProblem("inputSchema", inputSchema as JsonSchema) ??
    (outputSchema === undefined
      ? null
      : compileProblem("outputSchema", outputSchema as JsonSchema));
}

/** A name as a drop names it: as it is when it follows the rule, else quoted, and cut. */
function shown(name: unknown): string {
  if (typeof name === "string" && TOOL_NAME.test(name)) return name;
  if (typeof name !== "string") return "(no name)";
  const cut = [...name].slice(0, 64).join("");
  return JSON.stringify(cut.length < name.length ? `${cut}…` : cut);
}

let validator: AjvJsonSchemaValidator | undefined;

/** What compiling a schema said, by its JSON text: null when it compiled. */
const compiled = new Map<string, string | null>();

/** How many schemas `compiled` keeps before it starts afresh. */
const MAX_COMPILED = 1000;

/**
 * Why `schema` does not compile as JSON Schema (as the SDK's client compiles it), or null.
 * Unknown formats are only warned about by the compiler: those warnings are kept off
 * crownmcp's standard error, which holds its own log lines only.
 */
function compileProblem(field: string, schema: JsonSchema): string | null {
  const key = JSON.stringify(schema);
  let result = compiled.get(key);
  if (result === undefined) {
    validator ??= new AjvJsonSchemaValidator();
    const warn = console.warn;
    console.warn = () => {};
    try {
      validator.getValidator(schema);
      result = null;
    } catch (error) {
      result = (error as Error).message;
    } finally {
      console.warn = warn;
    }
    if (compiled.size >= MAX_COMPILED) compiled.clear();
    compiled.set(key, result);
  }
  return result === null ? null : `${field} does not compile: ${result}`;
}

/** One app's tools, as it last listed them, checked. */
export class AppTools {
  /** The tools fit for the agent. */
  list: Tool[];
  /** The tools dropped, as `"<name>: <reason>"`. */
  dropped: string[];
  /** Why each dropped tool was dropped, by its name. */
  droppedNames: Map<string, string>;
  /** Whether the app said its tools changed since `list` was asked for. */
  #stale = false;
  /** Whether the list is being asked for now. */
  #fetching = false;

  private constructor(checked: CheckedTools) {
    this.list = checked.tools;
    this.dropped = checked.dropped;
    this.droppedNames = checked.droppedNames;
  }

  /** Asks the app on `link` for its tools, within `timeoutMs`. */
  static async fetch(link: AppLink, timeoutMs: number): Promise<AppTools> {
    return new AppTools(await listed(link, timeoutMs));
  }

  /**
   * The app said its tools changed: its list is asked for again, once at a time, and once
   * more after that when it said so again meanwhile. Resolves to true when this call ended
   * the asking and the list differs from before; a list that does not come within
   * `LIST_TOOLS_DEADLINE_MS` leaves the last one (what watches the link says why).
   */
  async changed(link: AppLink): Promise<boolean> {
    this.#stale = true;
    if (this.#fetching) return false;
    this.#fetching = true;
    const before = JSON.stringify(this.list);
    try {
      while (this.#stale && !link.closed) {
        this.#stale = false;
        const checked = await listed(link, LIST_TOOLS_DEADLINE_MS);
        this.list = checked.tools;
        this.dropped = checked.dropped;
        this.droppedNames = checked.droppedNames;
      }
    } catch {
      // Not answered, or the link closed: the last list stays.
    } finally {
      this.#fetching = false;
    }
    return JSON.stringify(this.list) !== before;
  }
}

async function listed(link: AppLink, timeoutMs: number): Promise<CheckedTools> {
  const { tools } = await link.request("tools/list", undefined, timeoutMs);
  return checkTools(tools);
}
