/**
 * The terminal modes the renderer switches on while it owns the screen, and the sequences
 * that switch them off again. They are left on every way out (the app quits, a crash, a
 * signal) and when the app is suspended (Ctrl+Z, SIGTSTP), and entered again when it
 * continues (`fg`, SIGCONT).
 *
 * @module
 */

/** A window title without control characters, which would end the OSC sequence early. */
function cleanTitle(title: string): string {
  return title.replace(/[\p{Cc}]/gu, " ");
}

/** Switches the modes on and sets the window title to `title`. */
export function enterModes(title: string): string {
  return [
    "\x1b[22;0t", // keep the window title, to give it back at the end
    "\x1b[?1049h", // alternate screen
    "\x1b[?25l", // hide the cursor
    "\x1b[?1000h\x1b[?1002h\x1b[?1003h\x1b[?1006h", // mouse: clicks, drags, motion; SGR encoding
    "\x1b[?2004h", // bracketed paste
    `\x1b]2;${cleanTitle(title)}\x07`,
  ].join("");
}

/** Switches every mode `enterModes` set off again, and gives the window title back. */
export const LEAVE_MODES: string = [
  "\x1b[?2026l", // synchronized output, in case a frame was cut short
  "\x1b[?2004l",
  "\x1b[?1006l\x1b[?1003l\x1b[?1002l\x1b[?1000l",
  "\x1b[0m",
  "\x1b[?25h",
  "\x1b[?1049l",
  "\x1b[23;0t",
].join("");

/** Starts a frame: the terminal shows nothing of it until `END_FRAME` (synchronized output). */
export const BEGIN_FRAME = "\x1b[?2026h";
/** Ends a frame: the terminal shows it whole. */
export const END_FRAME = "\x1b[?2026l";
