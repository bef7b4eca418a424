/**
 * Text styles: the colours and attributes an app gives a view or a run of text. Colours are
 * named by meaning (`accent`, `success`, `warning`, `error`, `muted`, ...), which the theme
 * maps, or given outright (`#rrggbb`, a 256-colour index, one of the 16 terminal names); the
 * renderer brings them down to what the terminal can show. Styles are for people: they never
 * reach the semantic tree (states do).
 *
 * @module
 */

/** The colours a theme gives by meaning. */
export const MEANING_COLOURS = [
  "text",
  "muted",
  "accent",
  "success",
  "warning",
  "error",
  "info",
  "background",
  "surface",
  "panel",
  "selection",
  "border",
] as const;

/** A colour named by what it means; the theme says which colour that is. */
export type MeaningColour = typeof MEANING_COLOURS[number];

/** The 16 colours every terminal has, as ANSI numbers them (0–15). */
export const TERMINAL_COLOURS = [
  "black",
  "red",
  "green",
  "yellow",
  "blue",
  "magenta",
  "cyan",
  "white",
  "bright_black",
  "bright_red",
  "bright_green",
  "bright_yellow",
  "bright_blue",
  "bright_magenta",
  "bright_cyan",
  "bright_white",
] as const;

/** One of the terminal's 16 colours. */
export type TerminalColour = typeof TERMINAL_COLOURS[number];

/**
 * A colour: by meaning (`"error"`), one of the 16 terminal colours (`"bright_blue"`),
 * `#rrggbb`, an index into the 256-colour palette (0–255), or `"default"`, the terminal's own.
 */
export type Colour = MeaningColour | TerminalColour | `#${string}` | number | "default";

/** How a run of text looks. Every field is optional: what is left out comes from below. */
export interface TextStyle {
  /** The text's colour. */
  fg?: Colour;
  /** The background colour. */
  bg?: Colour;
  /** Bold (or bright) text. */
  bold?: boolean;
  /** Faint text. */
  dim?: boolean;
  /** Italic text, where the terminal has it. */
  italic?: boolean;
  /** Underlined text. */
  underline?: boolean;
  /** Struck-through text, where the terminal has it. */
  strikethrough?: boolean;
  /** Text and background colours swapped. */
  inverse?: boolean;
}

/** A run of text with a style of its own, inside a `text()`. */
export interface Span {
  /** The text. */
  readonly text: string;
  /** How it looks, over the text's own style. */
  readonly style: Readonly<TextStyle>;
}

/** What a `text()` shows: a string, or strings and styled spans one after another. */
export type TextContent = string | readonly (string | Span)[];

const MEANINGS: ReadonlySet<string> = new Set(MEANING_COLOURS);
const TERMINAL: ReadonlySet<string> = new Set(TERMINAL_COLOURS);
const STYLE_KEYS: ReadonlySet<string> = new Set([
  "fg",
  "bg",
  "bold",
  "dim",
  "italic",
  "underline",
  "strikethrough",
  "inverse",
]);

/** True when `colour` is a colour by meaning. */
export function isMeaning(colour: Colour): colour is MeaningColour {
  return typeof colour === "string" && MEANINGS.has(colour);
}

/** Checks a colour given by an app; throws a TypeError that names the forms a colour takes. */
export function checkColour(colour: unknown, where: string): Colour {
  if (typeof colour === "number") {
    if (Number.isInteger(colour) && colour >= 0 && colour <= 255) return colour;
  } else if (typeof colour === "string") {
    if (colour === "default" || MEANINGS.has(colour) || TERMINAL.has(colour)) {
      return colour as Colour;
    }
    if (/^#[0-9a-fA-F]{6}$/.test(colour)) return colour as Colour;
  }
  throw new TypeError(
    `${where} is not a colour: ${JSON.stringify(colour)}; use a meaning (${
      MEANING_COLOURS.join(", ")
    }), a terminal colour such as "bright_blue", "#rrggbb" or an index 0-255`,
  );
}

/** Checks a style given by an app, field by field; returns it frozen. */
export function checkStyle(style: unknown, where = "style()"): Readonly<TextStyle> {
  if (typeof style !== "object" || style === null || Array.isArray(style)) {
    throw new TypeError(`${where} takes a style object such as { fg: "error", bold: true }`);
  }
  for (const [key, value] of Object.entries(style)) {
    if (!STYLE_KEYS.has(key)) {
      throw new TypeError(
        `${where} has no field ${JSON.stringify(key)}; a style has ${[...STYLE_KEYS].join(", ")}`,
      );
    }
    if (key === "fg" || key === "bg") checkColour(value, `${where}'s ${key}`);
    else if (typeof value !== "boolean") {
      throw new TypeError(`${where}'s ${key} must be true or false, got ${JSON.stringify(value)}`);
    }
  }
  return Object.freeze({ ...style });
}

/**
 * A run of text with a style of its own, for `text()`: `text(["Saved ", span("3", { bold:
 * true }), " notes"])`. The text node's name is the plain text, without styles.
 */
export function span(text: string, style: TextStyle): Span {
  if (typeof text !== "string") throw new TypeError("span() takes a text and a style");
  return Object.freeze({ text, style: checkStyle(style, "span()") });
}

/** The plain text of a text's content, as its node's name. */
export function plainText(content: TextContent): string {
  if (typeof content === "string") return content;
  let text = "";
  for (const part of content) text += typeof part === "string" ? part : part.text;
  return text;
}

/** `over` laid on `under`: each field `over` gives wins. */
export function mergeStyles(
  under: Readonly<TextStyle> | null,
  over: Readonly<TextStyle> | null,
): Readonly<TextStyle> | null {
  if (over === null) return under;
  if (under === null) return over;
  return { ...under, ...over };
}
