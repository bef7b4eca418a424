/**
 * Focus: which elements can take it, and the one order Tab walks them in. The app, the
 * actions, lists and dialogs all ask here, so "focusable" means the same everywhere.
 *
 * @module
 */

import type { Widget } from "./widget.ts";

/**
 * True when the element's widget takes focus (a button, a field, a list row), whether or not
 * it is disabled just now; hover and hit testing use this.
 */
export function takesFocus(element: Widget): boolean {
  return element.focusable === true;
}

/** True when the element can take focus now: its widget takes focus and it is enabled. */
export function canFocus(element: Widget): boolean {
  return takesFocus(element) && !element.effectivelyDisabled;
}

/**
 * The elements under `scope` (itself included) that can take focus, in Tab order: depth
 * first, children in reading order. A disabled element's subtree is left out whole (the
 * scope's own ancestors are not asked: a dialog is walked from itself). A widget that is one
 * Tab stop over its children (a list) gives the one child walked (`tabEntry()`).
 * `visit` gets each in turn and stops the walk by returning true.
 */
export function walkFocusable(scope: Widget, visit: (element: Widget) => boolean | void): void {
  const stack = [scope];
  while (stack.length > 0) {
    const element = stack.pop()!;
    if (element.disabled) continue;
    if (takesFocus(element) && visit(element) === true) return;
    if (element.tabEntry !== undefined) {
      const entry = element.tabEntry(); // one Tab stop: only this child is walked
      if (entry !== null) stack.push(entry);
      continue;
    }
    for (let index = element.children.length - 1; index >= 0; index--) {
      stack.push(element.children[index]!);
    }
  }
}

/** The first element under `scope` that can take focus, or null. */
export function firstFocusable(scope: Widget): Widget | null {
  let found: Widget | null = null;
  walkFocusable(scope, (element) => {
    found = element;
    return true;
  });
  return found;
}

/**
 * The element Tab (`direction` 1) or Shift+Tab (-1) moves focus to from `current` within
 * `scope`, wrapping around; from outside the scope (or from nothing) the first or the last.
 * Null when nothing in the scope can take focus.
 */
export function nextFocus(
  scope: Widget,
  current: Widget | null,
  direction: 1 | -1,
): Widget | null {
  const order: Widget[] = [];
  walkFocusable(scope, (element) => void order.push(element));
  if (order.length === 0) return null;
  const index = current === null ? -1 : order.indexOf(current);
  if (index === -1) return direction === 1 ? order[0]! : order[order.length - 1]!;
  return order[(index + direction + order.length) % order.length]!;
}

/** The nearest ancestor of `element` (not itself) that can take focus, or null. */
export function focusableAncestor(element: Widget): Widget | null {
  for (let current = element.parent; current !== null; current = current.parent) {
    if (canFocus(current)) return current;
  }
  return null;
}
