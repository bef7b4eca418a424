/**
 * Themes: what each look widgets paint with (`StyleName`: `button`, `focus`, `field`, ...)
 * is, in colours by meaning, and which colour each meaning is. A dark and a light theme are
 * built in; an app makes its own from one of them with `defineTheme()` and gives it to
 * `AppConfig.theme()`. Each look may say how it shows without colour (`mono`), for
 * terminals that have none and for `NO_COLOR`.
 *
 * @module
 */

import {
  checkColour,
  checkStyle,
  type Colour,
  MEANING_COLOURS,
  type MeaningColour,
  type TextStyle,
} from "./style.ts";
import type { StyleName } from "./surface.ts";

/** A look of the theme: a style, and how it shows without colour. */
export interface ThemeStyle extends TextStyle {
  /** The look on a terminal without colour (or with `NO_COLOR`); its colours are dropped. */
  mono?: TextStyle;
}

/** A concrete colour: one a meaning stands for. */
export type ConcreteColour = Exclude<Colour, MeaningColour>;

/** A theme: the colour of each meaning, and the style of each look widgets paint with. */
export interface Theme {
  /** Its name, for logs and inspection. */
  readonly name: string;
  /** The colour each meaning stands for. */
  readonly colours: Readonly<Record<MeaningColour, ConcreteColour>>;
  /** The style of each look. */
  readonly styles: Readonly<Record<StyleName, Readonly<ThemeStyle>>>;
}

/** The looks, in terms of meanings: the same for both built-in themes. */
const LOOKS: Readonly<Record<StyleName, ThemeStyle>> = {
  text: { fg: "text" },
  heading: { fg: "text", bold: true },
  button: { fg: "accent" },
  focus: { inverse: true, bold: true },
  hover: { fg: "accent", underline: true, mono: { underline: true } },
  disabled: { fg: "muted", mono: { dim: true } },
  field: { bg: "panel", mono: { underline: true } },
  cursor: { inverse: true },
  checked: { fg: "success", bold: true, mono: { bold: true } },
  selectedRow: { bg: "surface", mono: {} },
  focusedRow: { bg: "selection", mono: { bold: true } },
  dialog: { bg: "surface", mono: {} },
  dialogTitle: { bold: true, bg: "surface", mono: { bold: true } },
  // No background: a border shows on what is under it (a dialog's surface, the window).
  border: { fg: "border", mono: {} },
  track: { fg: "muted", mono: {} },
  thumb: { fg: "accent", bold: true, mono: { bold: true } },
  status: { inverse: true },
};

/**
 * The dark theme: the terminal's own text colour on its own background, with the colours of
 * its palette (so a terminal's colour scheme still shows through).
 */
export const DARK_THEME: Theme = freezeTheme({
  name: "dark",
  colours: {
    text: "default",
    muted: 8,
    accent: 6,
    success: 2,
    warning: 3,
    error: 1,
    info: 4,
    background: "default",
    surface: 235,
    panel: 236,
    selection: 24,
    border: 6,
  },
  styles: LOOKS,
});

/** The light theme, for terminals with a light background. */
export const LIGHT_THEME: Theme = freezeTheme({
  name: "light",
  colours: {
    text: "default",
    muted: "#6c6c6c",
    accent: "#005f87",
    success: "#008700",
    warning: "#af5f00",
    error: "#d70000",
    info: "#005fd7",
    background: "default",
    surface: "#e4e4e4",
    panel: "#dadada",
    selection: "#afd7ff",
    border: "#005f87",
  },
  styles: LOOKS,
});

/** What `defineTheme()` changes. */
export interface ThemeChanges {
  /** The new theme's name. */
  name: string;
  /** Meanings to give other colours. */
  colours?: Partial<Record<MeaningColour, ConcreteColour>>;
  /** Looks to change; each given look replaces the base's whole. */
  styles?: Partial<Record<StyleName, ThemeStyle>>;
}

/**
 * A theme made from `base` with some colours and looks changed.
 *
 * @example A dark theme whose accent is orange
 * ```ts
 * import assert from "node:assert/strict";
 * import { DARK_THEME, defineTheme } from "@crownui/runtime";
 *
 * const ember = defineTheme(DARK_THEME, { name: "ember", colours: { accent: "#ff8700" } });
 * assert.equal(ember.colours.accent, "#ff8700");
 * assert.equal(ember.colours.error, DARK_THEME.colours.error);
 * ```
 */
export function defineTheme(base: Theme, changes: ThemeChanges): Theme {
  if (typeof changes?.name !== "string" || changes.name === "") {
    throw new TypeError("defineTheme() needs a name for the new theme");
  }
  const colours = { ...base.colours };
  for (const [meaning, colour] of Object.entries(changes.colours ?? {})) {
    if (!(MEANING_COLOURS as readonly string[]).includes(meaning)) {
      throw new TypeError(
        `defineTheme(): ${JSON.stringify(meaning)} is not a meaning; meanings are ${
          MEANING_COLOURS.join(", ")
        }`,
      );
    }
    const checked = checkColour(colour, `defineTheme()'s ${meaning}`);
    if ((MEANING_COLOURS as readonly Colour[]).includes(checked)) {
      throw new TypeError(`defineTheme()'s ${meaning} must be a colour, not another meaning`);
    }
    colours[meaning as MeaningColour] = checked as ConcreteColour;
  }
  const styles = { ...base.styles };
  for (const [name, style] of Object.entries(changes.styles ?? {})) {
    if (!Object.hasOwn(base.styles, name)) {
      throw new TypeError(
        `defineTheme(): ${JSON.stringify(name)} is not a look; looks are ${
          Object.keys(base.styles).join(", ")
        }`,
      );
    }
    const { mono, ...rest } = style as ThemeStyle;
    const checked: ThemeStyle = { ...checkStyle(rest, `defineTheme()'s ${name}`) };
    if (mono !== undefined) checked.mono = checkStyle(mono, `defineTheme()'s ${name}.mono`);
    styles[name as StyleName] = checked;
  }
  return freezeTheme({ name: changes.name, colours, styles });
}

function freezeTheme(theme: Theme): Theme {
  return Object.freeze({
    name: theme.name,
    colours: Object.freeze({ ...theme.colours }),
    styles: Object.freeze({ ...theme.styles }),
  });
}
