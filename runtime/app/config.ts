/**
 * `AppConfig`: how an app runs — its title, its app id, and whether agents may reach it over
 * MCP (off unless the app turns it on), and the theme it is drawn in.
 *
 * @module
 */

import { DARK_THEME, type Theme } from "../ui/theme.ts";

/** The settings an `AppConfig` holds. */
export interface AppSettings {
  /** The window title; it also names the app's socket. */
  readonly title: string;
  /** The reverse-DNS app id, such as `org.crownos.Notes`; undefined when none was set. */
  readonly appId: string | undefined;
  /** True when agents may reach the app over MCP. */
  readonly mcp: boolean;
  /** The theme it is drawn in: the dark one unless `theme()` chose another. */
  readonly theme: Theme;
}

/** How an app runs. Chain the setters: `new AppConfig("Notes").appId("org.crownos.Notes").mcp(true)`. */
export class AppConfig {
  readonly #title: string;
  #appId: string | undefined;
  #mcp = false;
  #theme: Theme = DARK_THEME;

  /**
   * Starts a config with no app id and MCP off; throws TypeError for an empty title.
   *
   * @param title the window title; it also names the app's socket
   */
  constructor(title: string) {
    if (typeof title !== "string" || title.trim() === "") {
      throw new TypeError('AppConfig needs a non-empty title, such as new AppConfig("Notes")');
    }
    this.#title = title;
  }

  /** Sets the app id (reverse-DNS, as in `org.crownos.Notes`); returns the config. */
  appId(id: string): this {
    if (typeof id !== "string" || id === "") {
      throw new TypeError('appId() takes a non-empty string such as "org.crownos.Notes"');
    }
    this.#appId = id;
    return this;
  }

  /** Turns the in-app MCP server on or off (off by default); returns the config. */
  mcp(on: boolean): this {
    this.#mcp = Boolean(on);
    return this;
  }

  /**
   * Draws the app in `theme`: `DARK_THEME` (the default), `LIGHT_THEME`, or one made with
   * `defineTheme()`; returns the config.
   */
  theme(theme: Theme): this {
    if (typeof theme !== "object" || theme === null || typeof theme.styles !== "object") {
      throw new TypeError("theme() takes a theme such as LIGHT_THEME or one from defineTheme()");
    }
    this.#theme = theme;
    return this;
  }

  /** The settings as plain data. */
  get settings(): AppSettings {
    return { title: this.#title, appId: this.#appId, mcp: this.#mcp, theme: this.#theme };
  }
}
