/**
 * App tools: verbs an app gives agents (`add_note`, `note_count`). A tool lives as long as
 * the component that registered it; registering a name again replaces the earlier tool.
 * The registry here holds them and tells listeners when the list changes; the agent layer
 * serves them.
 *
 * @module
 */

import { z } from "zod";
import type { Rt } from "./rt.ts";

/** A JSON Schema object, as tools advertise their input. */
export type JsonSchema = { [key: string]: unknown };

/**
 * Handles one call: gets the arguments as JSON text, returns JSON text (text that is not
 * JSON reaches the agent as a string). A thrown error becomes a tool error.
 */
export type ToolHandler = (rt: Rt, argumentsJson: string) => string | Promise<string>;

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
 * Names an app tool cannot take: the tools every app offers, and `crownmcp`'s own, which an
 * agent would otherwise see twice and could call only one of.
 */
export const RESERVED_TOOL_NAMES: ReadonlySet<string> = new Set([
  "ui_tree",
  "ui_query",
  "ui_act",
  "ui_screenshot",
  "inspect_snapshot",
  "list_apps",
  "select_app",
]);

/** A tool an app registers with `cx.registerTool()`. */
export class AppTool {
  /** The name agents call, such as `add_note`. */
  readonly name: string;
  /** What the tool does, for a reader who sees nothing else. */
  readonly description: string;
  /** The JSON Schema of the arguments object (without the `confirm` of destructive tools). */
  readonly inputSchema: JsonSchema;
  /** Runs on the UI thread with the arguments as JSON text. */
  readonly handler: ToolHandler;
  #destructive = false;

  /**
   * Creates a tool; throws TypeError for a name that is invalid or reserved, or for an input
   * schema that does not describe an object.
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
    this.inputSchema = typeof inputSchema === "string"
      ? schemaFromText(inputSchema)
      : schemaFromText(JSON.stringify(z.toJSONSchema(inputSchema)));
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
