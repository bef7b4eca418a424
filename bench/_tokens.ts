/**
 * Counting what an agent pays: tokens by the legacy Claude tokenizer
 * (`@anthropic-ai/tokenizer` from the npm registry: counted, never estimated) and bytes, for
 * tests and benchmarks alike. A {@link Tally} adds up the calls of one task.
 *
 * @module
 */

import { countTokens } from "npm:@anthropic-ai/tokenizer@0.0.4";
import type { Client } from "../runtime/agent/transport/sdk.ts";

/** With `CROWNUI_BENCH_SHOW=1`, each counted call and its result's text are printed. */
const SHOW = Deno.env.get("CROWNUI_BENCH_SHOW") === "1";

/** The tokens of `text` by the legacy Claude tokenizer. */
export function tokens(text: string): number {
  return countTokens(text);
}

/** The UTF-8 bytes of `text`. */
export function bytes(text: string): number {
  return new TextEncoder().encode(text).length;
}

/** The text of a tool result: its text contents, joined. */
export function resultText(result: Record<string, unknown>): string {
  return ((result.content ?? []) as { type: string; text?: string }[])
    .map((block) => block.text ?? "").join("");
}

/**
 * The calls an agent made for one task, the bytes and tokens of their results (what the agent
 * reads), and the tokens of the calls' arguments (what it writes).
 */
export class Tally {
  calls = 0;
  bytes = 0;
  tokens = 0;
  argumentTokens = 0;
  readonly #client: Client;

  /** Counts the calls made with `client`. */
  constructor(client: Client) {
    this.#client = client;
  }

  /** Calls a tool, counts it and its result, and returns the result's text; a tool error throws. */
  async call(name: string, args: Record<string, unknown> = {}): Promise<string> {
    const result = await this.#client.callTool({ name, arguments: args });
    const text = resultText(result);
    this.calls++;
    this.bytes += bytes(text);
    this.tokens += tokens(text);
    this.argumentTokens += tokens(JSON.stringify(args));
    if (SHOW) console.log(`→ ${name} ${JSON.stringify(args)}\n← ${text}`);
    if (result.isError) throw new Error(`${name} failed: ${text}`);
    return text;
  }
}
