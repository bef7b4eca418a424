/**
 * App tools: verbs an app gives agents (`add_note`, `note_count`). A tool lives as long as
 * the component that registered it; registering a name again replaces the earlier tool.
 * The registry here holds them and tells listeners when the list changes; the agent layer
 * serves them.
 *
 * Arguments are checked before a tool runs: the server checks every call against the
 * advertised JSON Schema (as zod reads it, `z.fromJSONSchema`), and a typed tool
 * (`cx.tool()`) parses them with its own zod schema on top, so `run` sees only arguments
 * that match. A refusal is a {@link ToolArgumentsError} naming each problem's path.
 *
 * @module
 */

import { z } from "zod";
import type { Rt } from "./rt.ts";
import { RESERVED_TOOL_NAMES } from "./tool_names.ts";
import { checkToolTimeout, DEFAULT_TOOL_TIMEOUT_MS, type ToolCall } from "./tool_call.ts";

/** A JSON Schema object, as tools advertise their input. */
export type JsonSchema = { [key: string]: unknown };

/**
 * Handles one call: gets the arguments as JSON text, returns JSON text (text that is not
 * JSON reaches the agent as a string). A thrown error becomes a tool error. `call` reports
 * progress (`call.progress(done, total?, message?)`) while it runs; it has the tool's
 * deadline, 5 seconds unless the tool declares a longer one with `.timeout(ms)`.
 */
export type ToolHandler = (
  rt: Rt,
  argumentsJson: string,
  call: ToolCall,
) => string | Promise<string>;

function schemaFromText(text: string): JsonSchema {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new TypeError(
      `invalid input schema: not JSON: ${error instanceof Error ? error.message : error}`,
    );
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new TypeError('invalid input schema: expected a JSON object such as {"type":"object"}');
  }
  const schema = parsed as JsonSchema;
  if (schema.type !== "object") {
    throw new TypeError(
      `invalid input schema: a tool's arguments are an object, so "type" must be "object", got ${
        JSON.stringify(schema.type)
      }`,
    );
  }
  return schema;
}

/**
 * Checks arguments against a JSON Schema as written, through zod's reading of it. Throws a
 * TypeError naming the keyword when the schema uses one zod cannot check (`not`, `if`, ...),
 * so a tool is never served with a schema that is only half enforced.
 *
 * @param schema the arguments' JSON Schema, as the tool advertises it
 * @returns a zod schema that accepts exactly the arguments the JSON Schema accepts
 */
export function argumentsChecker(schema: JsonSchema): z.ZodType {
  try {
    return z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch (error) {
    throw new TypeError(
      `invalid input schema: it cannot be checked: ${
        error instanceof Error ? error.message : String(error)
      }`,
    );
  }
}

/** The JSON Schema of `{"type":"integer"}` carries these bounds from `z.int()`: noise to agents. */
const SAFE_INTEGER_BOUNDS: Readonly<Record<string, number>> = {
  minimum: Number.MIN_SAFE_INTEGER,
  maximum: Number.MAX_SAFE_INTEGER,
};

function withoutNoise(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNoise);
  if (typeof value !== "object" || value === null) return value;
  const cleaned: JsonSchema = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key === "$schema" || SAFE_INTEGER_BOUNDS[key] === inner) continue;
    cleaned[key] = withoutNoise(inner);
  }
  return cleaned;
}

/**
 * The JSON Schema agents see for a zod input schema: the input side (a property with a
 * default is optional), `additionalProperties: false` on every object that is not loose on
 * purpose (the arguments are checked that strictly), and no `$schema` or safe-integer bounds.
 * Throws TypeError when the schema is not an object or holds types JSON cannot carry.
 *
 * @param input the tool's arguments as a zod object schema
 */
export function advertisedSchema(input: z.ZodType): JsonSchema {
  let json: unknown;
  try {
    json = z.toJSONSchema(input, {
      io: "input",
      override: ({ zodSchema, jsonSchema }) => {
        const def = zodSchema._zod.def;
        if (def.type === "object" && !("catchall" in def && def.catchall !== undefined)) {
          jsonSchema.additionalProperties = false;
        }
      },
    });
  } catch (error) {
    const path = unrepresentablePath(input, []);
    throw new TypeError(
      `invalid input schema: ${path ? `${path}: ` : ""}${
        error instanceof Error ? error.message : String(error)
      }`,
    );
  }
  return schemaFromText(JSON.stringify(withoutNoise(json)));
}

/**
 * The path of the deepest part of `schema` that JSON Schema cannot carry (zod's error does
 * not say where it is), such as `when` or `events[].at`; undefined when no part alone fails.
 */
function unrepresentablePath(schema: z.ZodType, path: readonly string[]): string | undefined {
  const def = schema._zod.def as { type: string; [key: string]: unknown };
  const parts: [string[], unknown][] = [];
  if (def.type === "object") {
    for (const [key, inner] of Object.entries(def.shape as Record<string, unknown>)) {
      parts.push([[...path, key], inner]);
    }
  } else if (def.type === "array") {
    parts.push([[...path.slice(0, -1), `${path.at(-1) ?? ""}[]`], def.element]);
  } else if (def.innerType !== undefined) {
    parts.push([[...path], def.innerType]);
  }
  for (const [innerPath, inner] of parts) {
    if (!(inner instanceof z.ZodType)) continue;
    try {
      z.toJSONSchema(inner, { io: "input" });
    } catch {
      return unrepresentablePath(inner, innerPath) ?? innerPath.join(".");
    }
  }
  return undefined;
}

/** A call whose arguments do not match the tool's schema; the message names each problem. */
export class ToolArgumentsError extends TypeError {
  /** Each problem as `path: expectation`, such as `title: expected string, received number`. */
  readonly problems: readonly string[];

  /**
   * Creates the refusal `invalid arguments: <problem>; <problem>`.
   *
   * @param problems each problem as `path: expectation`
   */
  constructor(problems: readonly string[]) {
    super(`invalid arguments: ${problems.join("; ")}`);
    this.name = "ToolArgumentsError";
    this.problems = problems;
  }
}

/** zod's category words before the expectation, which the path makes redundant. */
const ZOD_PREFIX =
  /^(Invalid input|Too small|Too big|Invalid option|Invalid number|Invalid string): /;

function pathText(path: readonly PropertyKey[]): string {
  let text = "";
  for (const key of path) {
    text += typeof key === "number" ? `[${key}]` : `${text === "" ? "" : "."}${String(key)}`;
  }
  return text;
}

function problemsOf(issues: readonly z.core.$ZodIssue[]): string[] {
  const problems: string[] = [];
  for (const issue of issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        problems.push(`${pathText([...issue.path, key])}: unknown property`);
      }
      continue;
    }
    const path = pathText(issue.path);
    let expectation = issue.message.replace(ZOD_PREFIX, "");
    if (issue.input === undefined && issue.path.length > 0) {
      // A property left out: say so rather than "received undefined".
      expectation = `required, ${expectation.replace(/, received undefined$/, "")}`;
    }
    problems.push(path === "" ? expectation : `${path}: ${expectation}`);
  }
  return problems;
}

/**
 * Parses `args` with `schema`; throws {@link ToolArgumentsError} naming every problem.
 *
 * @returns what the schema makes of the arguments (defaults filled in)
 */
export function checkArguments<S extends z.ZodType>(schema: S, args: unknown): z.output<S> {
  const result = schema.safeParse(args, { reportInput: true });
  if (!result.success) throw new ToolArgumentsError(problemsOf(result.error.issues));
  return result.data;
}

/**
 * Each tool schema read once, as zod checks it, by the schema object (a host may make its
 * tool descriptions afresh on each call; the schema stays the tool's own) and by whether
 * `confirm` is taken out.
 */
const checkers = new WeakMap<JsonSchema, Map<boolean, z.ZodType>>();

/** A destructive tool's schema as its handler sees the arguments: `confirm` is the server's. */
function withoutConfirm(schema: JsonSchema): JsonSchema {
  const copy = structuredClone(schema);
  const properties = copy.properties as Record<string, unknown> | undefined;
  if (properties !== undefined) delete properties.confirm;
  if (Array.isArray(copy.required)) {
    copy.required = copy.required.filter((key: unknown) => key !== "confirm");
  }
  return copy;
}

/**
 * Refuses arguments that a tool's JSON Schema does not accept, naming each problem: the one
 * check the server makes before an app tool runs, and the test harness makes too. Throws
 * {@link ToolArgumentsError}, or a TypeError when the schema cannot be checked.
 *
 * @param schema the tool's JSON Schema, as advertised
 * @param args the arguments, `confirm` already taken out for a destructive tool
 * @param destructive true to check against the schema without its `confirm` property
 */
export function checkToolArguments(
  schema: JsonSchema,
  args: Record<string, unknown>,
  destructive = false,
): void {
  let bySchema = checkers.get(schema);
  if (bySchema === undefined) checkers.set(schema, bySchema = new Map());
  let checker = bySchema.get(destructive);
  if (checker === undefined) {
    checker = argumentsChecker(destructive ? withoutConfirm(schema) : schema);
    bySchema.set(destructive, checker);
  }
  checkArguments(checker, args);
}

export { RESERVED_TOOL_NAMES };

/** A tool an app registers with `cx.registerTool()`, or that `cx.tool()` makes. */
export class AppTool {
  /** The name agents call, such as `add_note`. */
  readonly name: string;
  /** What the tool does, for a reader who sees nothing else. */
  readonly description: string;
  /** The JSON Schema of the arguments object (without the `confirm` of destructive tools). */
  readonly inputSchema: JsonSchema;
  /** Runs on the UI thread with the arguments as JSON text, after the server checked them. */
  readonly handler: ToolHandler;
  #destructive = false;
  #timeoutMs = DEFAULT_TOOL_TIMEOUT_MS;

  /**
   * Creates a tool; throws TypeError for a name that is invalid or reserved, or for an input
   * schema that does not describe an object or uses a keyword that cannot be checked.
   *
   * @param name the name agents call, such as `add_note`
   * @param description what the tool does, for a reader who sees nothing else
   * @param inputSchema the arguments' JSON Schema as text, or a zod schema
   * @param handler runs on the UI thread with the arguments as JSON text
   */
  constructor(
    name: string,
    description: string,
    inputSchema: string | z.ZodType,
    handler: ToolHandler,
  ) {
    if (!/^[A-Za-z0-9_.-]{1,64}$/.test(name)) {
      throw new TypeError(
        `invalid tool name ${JSON.stringify(name)}: use 1 to 64 letters, digits, "_", "-" or "."`,
      );
    }
    if (RESERVED_TOOL_NAMES.has(name)) {
      throw new TypeError(
        `invalid tool name ${JSON.stringify(name)}: it is reserved for a built-in tool`,
      );
    }
    this.name = name;
    this.description = description;
    if (typeof inputSchema === "string") {
      this.inputSchema = schemaFromText(inputSchema);
      argumentsChecker(this.inputSchema); // refuses a schema the server could not enforce
    } else {
      try {
        this.inputSchema = advertisedSchema(inputSchema);
      } catch (error) {
        if (!(error instanceof TypeError)) throw error;
        throw new TypeError(
          error.message.replace(/^invalid input schema: /, `invalid input schema for ${name}: `),
        );
      }
    }
    this.handler = handler;
  }

  /** Marks the tool as one that deletes or overwrites user data; returns the tool. */
  destructive(): this {
    this.#destructive = true;
    return this;
  }

  /** True when marked with `.destructive()`. */
  get isDestructive(): boolean {
    return this.#destructive;
  }

  /**
   * Gives the tool `ms` milliseconds per call instead of the default 5,000: at most 60,000
   * (60 s), else this throws a RangeError, so a tool is never registered with a longer one.
   * Past the deadline the agent gets `the app did not answer within N seconds, the deadline
   * of <name> …`. Returns the tool.
   */
  timeout(ms: number): this {
    this.#timeoutMs = checkToolTimeout(this.name, ms);
    return this;
  }

  /** How long a call may take, in ms: 5,000 unless `.timeout()` gave another. */
  get timeoutMs(): number {
    return this.#timeoutMs;
  }
}

/**
 * A typed tool's `input`: a zod object schema such as `z.object({ title: z.string() })`.
 * Named by the one method the types need, so that `Args` is inferred from the schema.
 */
export interface ToolInput<Args extends Record<string, unknown>> {
  /** zod's parse that returns the outcome instead of throwing. */
  safeParse(value: unknown): { success: true; data: Args } | { success: false };
}

/** What `cx.tool()` takes: a tool whose arguments are typed by a zod object schema. */
export interface ToolOptions<Args extends Record<string, unknown>> {
  /** The name agents call, such as `add_note`: 1 to 64 letters, digits, `_`, `-` or `.`. */
  name: string;
  /** What the tool does, in a sentence; the schema's `.describe()` texts say the rest. */
  description: string;
  /**
   * The arguments, as `z.object({...})` from zod 4 (`npm:zod@4`; a zod 3 schema type-checks
   * but is refused when the tool is made, with a message that says so). It is strict: a property it does not name is
   * refused, unless the object is loose on purpose (`z.looseObject()`, `.passthrough()`).
   */
  input: ToolInput<Args>;
  /**
   * True when the tool deletes or overwrites user data: calls then need `"confirm": true`,
   * which agents are told to ask the user for, and which `run` never sees.
   */
  destructive?: boolean;
  /**
   * How long a call may take, in ms: 5,000 (5 s) unless given, at most 60,000 (60 s; more is
   * refused when the tool is made). Past it the agent gets `the app did not answer within N
   * seconds, the deadline of <name> …`, while `run` may still finish. A long tool reports
   * progress with `call.progress()`.
   */
  timeoutMs?: number;
  /**
   * Runs on the UI thread with the checked arguments. Its result goes to the agent as JSON
   * (any value `JSON.stringify` accepts; `undefined` becomes `null`), except a string, which
   * goes as that text. A thrown error becomes a tool error with its message. `call.progress(
   * done, total?, message?)` reports how far it got: the agent gets MCP progress
   * notifications when it asked for them.
   */
  run: (rt: Rt, args: Args, call: ToolCall) => unknown;
}

/**
 * Makes a typed tool: `run` gets `args` parsed by `options.input`, and a call whose
 * arguments do not match is refused with a {@link ToolArgumentsError} before `run` runs.
 * Components call `cx.tool()`, which registers it too.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { z } from "zod";
 * import { typedTool } from "@crownui/runtime";
 *
 * const addNote = typedTool({
 *   name: "add_note",
 *   description: "Adds a note",
 *   input: z.object({ title: z.string().min(1) }),
 *   run: (_rt, { title }) => ({ added: title }),
 * });
 * assert.deepEqual(addNote.inputSchema.required, ["title"]);
 * assert.equal(addNote.isDestructive, false);
 * ```
 */
export function typedTool<Args extends Record<string, unknown>>(
  options: ToolOptions<Args>,
): AppTool {
  const { run } = options;
  const input = options.input;
  if (!(input instanceof z.ZodType)) {
    // A zod 3 schema has the same `safeParse`, so it type-checks; it has `_def` but no `_zod`.
    const zod3 = typeof input === "object" && input !== null && "_def" in input &&
      !("_zod" in input);
    throw new TypeError(
      `invalid input schema for ${options.name}: ${
        zod3
          ? "cx.tool needs a zod 4 schema (npm:zod@4): this one is from zod 3"
          : "expected a zod schema such as z.object({...})"
      }`,
    );
  }
  // The advertised schema read back: it refuses the properties `input` would silently drop.
  let strict: z.ZodType | undefined;
  const tool = new AppTool(options.name, options.description, input, async (rt, json, call) => {
    const raw: unknown = JSON.parse(json);
    strict ??= argumentsChecker(tool.inputSchema);
    checkArguments(strict, raw);
    const result = await run(rt, checkArguments(input, raw) as Args, call);
    return typeof result === "string" ? result : JSON.stringify(result ?? null);
  });
  if (options.timeoutMs !== undefined) tool.timeout(options.timeoutMs);
  return options.destructive === true ? tool.destructive() : tool;
}

/** One registered tool and the registration it came from. */
export interface RegisteredTool {
  readonly tool: AppTool;
  /** Distinguishes a registration from a later one of the same name. */
  readonly registration: number;
}

/** The tools an app has now, in registration order. */
export class ToolRegistry {
  readonly #tools = new Map<string, RegisteredTool>();
  readonly #listeners = new Set<() => void>();
  #nextRegistration = 1;

  /** Adds or replaces a tool; returns a function that removes this registration. */
  register(tool: AppTool): () => void {
    const entry: RegisteredTool = { tool, registration: this.#nextRegistration++ };
    this.#tools.delete(tool.name); // a replacement goes to the end, like a new tool
    this.#tools.set(tool.name, entry);
    this.#changed();
    return () => {
      if (this.#tools.get(tool.name) !== entry) return; // replaced since: keep the newer one
      this.#tools.delete(tool.name);
      this.#changed();
    };
  }

  /** The tool registered under `name`. */
  get(name: string): AppTool | undefined {
    return this.#tools.get(name)?.tool;
  }

  /** Every tool, in registration order. */
  list(): AppTool[] {
    return [...this.#tools.values()].map((entry) => entry.tool);
  }

  /** Calls `listener` whenever a tool is added, replaced or removed. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #changed(): void {
    for (const listener of this.#listeners) listener();
  }
}
