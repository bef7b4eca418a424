/**
 * A person's input, turned into the same actions agents use. A click at a point finds the
 * element drawn there (hit testing on the layout's boxes, through scroll views and above
 * everything the top dialog) and clicks it as `ui_act` would, but as the user, who may type
 * into secure fields; keys go to the focused element; the wheel scrolls the scroll view
 * under the pointer. So what a person does and what an agent does cannot drift apart: both
 * end in `performAction`.
 *
 * A refusal an agent would read as an error (a disabled button, a point over plain text)
 * is, for a person, a click that does nothing.
 *
 * @module
 */

import { childrenIn, intersectRects, isEmptyRect, type Rect } from "../layout/visible.ts";
import { splitGraphemes } from "../text/cell_width.ts";
import type { Widget } from "../ui/widget.ts";
import { takesFocus } from "../ui/focus.ts";
import { type Action, ActionError, type Actor, closest, type InputEnv } from "./action.ts";
import { formatKeybind, type Keybind } from "../text/keybind.ts";

/** What a person's input needs from the app: the `App` is one. */
export interface PersonEnv extends InputEnv {
  /** The window element. */
  readonly root: Widget;
  /** Open dialogs and popups, oldest first; the last dialog is modal. */
  readonly overlays: readonly Widget[];
  /** Performs a checked action on an element and runs its frame (`App.actOn`). */
  actOn(element: Widget, action: Action, actor: Actor): number;
  /** Reports an error from app code without stopping the app. */
  reportError(error: unknown, where: string): void;
  /** Runs a frame now. */
  frame(): unknown;
}

/** Performs an action as the user; a refusal is a no-op. Returns whether it was performed. */
function actAsPerson(env: PersonEnv, element: Widget, action: Action): boolean {
  try {
    env.actOn(element, action, "user");
    return true;
  } catch (error) {
    if (error instanceof ActionError) return false;
    throw error;
  }
}

/** The deepest element drawn at window point (x, y) under `element` placed at its origin. */
function deepestAt(
  element: Widget,
  originX: number,
  originY: number,
  clip: Rect,
  x: number,
  y: number,
): Widget | null {
  const box = element.layout;
  const left = originX + box.x;
  const top = originY + box.y;
  const visible = intersectRects(clip, { x: left, y: top, width: box.width, height: box.height });
  if (isEmptyRect(visible)) return null;
  if (x < visible.x || y < visible.y || x >= visible.x + visible.width) return null;
  if (y >= visible.y + visible.height) return null;
  const point = { x: x - left, y: y - top, width: 1, height: 1 };
  const candidates = childrenIn(element, point);
  // The last child is drawn last, so it is the one on top.
  for (let index = candidates.length - 1; index >= 0; index--) {
    const hit = deepestAt(candidates[index]!, left, top, visible, x, y);
    if (hit !== null) return hit;
  }
  // A widget that paints parts of its own (a table's rows) names the one under the point.
  return element.hitChild?.(point.x, point.y) ?? element;
}

/**
 * The element drawn at window point (x, y): the deepest one whose box holds the point, as
 * clipped by its ancestors (a row scrolled out of its scroll view is not hit). Open popups
 * come first, topmost first; while a dialog is open nothing under it can be hit, as it is
 * modal; the window otherwise.
 */
export function hitTest(env: PersonEnv, x: number, y: number): Widget | null {
  const window = {
    x: 0,
    y: 0,
    width: env.root.layout.width,
    height: env.root.layout.height,
  };
  const overlays = env.overlays;
  for (let index = overlays.length - 1; index >= 0; index--) {
    const overlay = overlays[index]!;
    if (!overlay.mounted || overlay.parent === null) continue;
    const parent = env.origin(overlay.parent);
    const hit = deepestAt(overlay, parent.x, parent.y, window, x, y);
    if (hit !== null || !overlay.layout.style.anchored) return hit; // a dialog is modal
  }
  return deepestAt(env.root, 0, 0, window, x, y);
}

/**
 * Clicks at window point (x, y) as the user. A second click of a double click (`count` 2)
 * also sends the double-click event, as `double_click` does after its two clicks. Returns
 * whether something was clicked.
 */
export function clickAt(env: PersonEnv, x: number, y: number, count: 1 | 2 = 1): boolean {
  const element = hitTest(env, x, y);
  if (element === null || !actAsPerson(env, element, { action: "click" })) return false;
  const pointed = element.mounted
    ? closest(element, (candidate) => candidate.clickAt !== undefined)
    : null;
  if (pointed !== null && !pointed.effectivelyDisabled) {
    const origin = env.origin(pointed);
    try {
      pointed.clickAt!(x - origin.x, y - origin.y, env.rt);
    } catch (error) {
      env.reportError(error, "the click");
    }
    env.frame();
  }
  if (count === 2 && element.mounted) {
    const target = closest(element, (candidate) => candidate.doubleClick !== undefined);
    if (target !== null && !target.effectivelyDisabled) {
      try {
        target.doubleClick!(env.rt);
      } catch (error) {
        env.reportError(error, "the double_click handler");
      }
      env.frame();
    }
  }
  return true;
}

/** Scrolls the scroll view under window point (x, y) by `dx`, `dy` cells. */
export function wheelAt(env: PersonEnv, x: number, y: number, dx: number, dy: number): boolean {
  const element = hitTest(env, x, y);
  return element !== null &&
    actAsPerson(env, element, { action: "scroll", delta: { x: dx, y: dy } });
}

/** The element that shows hover under window point (x, y): the nearest one a click acts on. */
function hoverTarget(env: PersonEnv, x: number, y: number): Widget | null {
  const element = hitTest(env, x, y);
  if (element === null) return null;
  return closest(
    element,
    (candidate) =>
      candidate.node !== null &&
      (candidate.activate !== undefined || takesFocus(candidate)),
  );
}

/**
 * Moves the pointer to window point (x, y): the element a click would act on there becomes
 * the hovered one. Moves over plain text change nothing, so a pointer crossing the screen
 * does not move the tree's revision at every cell.
 */
export function hoverAt(env: PersonEnv, x: number, y: number): void {
  const target = hoverTarget(env, x, y);
  if (target === null) env.hover(null);
  else actAsPerson(env, target, { action: "hover" });
}

/** The element a press-and-drag at window point (x, y) moves (a slider), if any. */
export function draggableAt(env: PersonEnv, x: number, y: number): Widget | null {
  const element = hitTest(env, x, y);
  return element === null ? null : closest(element, (c) => c.dragTo !== undefined);
}

/** Drags `element` (from `draggableAt`) to window point (x, y). */
export function dragTo(env: PersonEnv, element: Widget, x: number, y: number): boolean {
  return element.mounted && actAsPerson(env, element, { action: "drag", to: { x, y } });
}

/**
 * Presses a key as the user: it goes to the focused element, then up its ancestors; with
 * nothing focused, to the top dialog (so Escape closes it; an anchored overlay, such as the
 * status messages' line, is passed over), else to the window (so Tab moves focus).
 */
export function pressKey(env: PersonEnv, keybind: Keybind): boolean {
  const dialog = env.overlays.findLast((overlay) => !overlay.layout.style.anchored);
  const target = env.focused ?? dialog ?? env.root;
  return actAsPerson(env, target, { action: "press_key", keybind: formatKeybind(keybind) });
}

/** True when the focused element takes typed text (a text field). */
export function focusTakesText(env: PersonEnv): boolean {
  return env.focused?.insertText !== undefined;
}

/** The key a typed character is: `Space` for a space, else the character itself. */
export function characterKey(character: string): Keybind {
  return {
    key: character === " " ? "Space" : character,
    ctrl: false,
    shift: false,
    alt: false,
    meta: false,
  };
}

/** Every way of writing a line break. */
const LINE_BREAK = /\r\n?|[\n\u0085\u2028\u2029]/g;

/**
 * Pastes text as the user (a bracketed paste): into the focused widget that takes typed text,
 * whole. A widget that keeps line breaks (a text area) gets them; elsewhere they are dropped,
 * so that a pasted line break never presses Enter (submits a form). With no such widget
 * focused, a paste does nothing.
 */
export function pasteText(env: PersonEnv, text: string): void {
  const focused = env.focused;
  if (focused === null || !focusTakesText(env)) return;
  const pasted = focused.takesLineBreaks ? text : text.replace(LINE_BREAK, "");
  actAsPerson(env, focused, { action: "type_text", text: pasted });
}

/**
 * Types text as the user: into the focused text field at once, or else as one key press per
 * character (so Space on a focused button clicks it). A line break presses Enter, except in a
 * text area, where it is a line break.
 */
export function typeText(env: PersonEnv, text: string): void {
  if (focusTakesText(env)) {
    actAsPerson(env, env.focused!, { action: "type_text", text });
    return;
  }
  for (const character of splitGraphemes(text)) pressKey(env, characterKey(character));
}
