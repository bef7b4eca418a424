/**
 * Paints a frame into a `Screen`: each element kind drawn into its layout box (buttons in
 * brackets, checkboxes, text fields with their cursor and selection, sliders, menus,
 * dialogs with a frame), focus and hover shown, everything clipped to its ancestors' boxes.
 * Only what is visible is visited: a container asks for the children that overlap the
 * visible part of it (`childrenIn`), so a 10,000-row list paints the rows in view.
 * Dialogs are painted last, above the content.
 *
 * @module
 */

import type { RenderSource } from "../../app/renderer.ts";
import type { TextEditState } from "../../text/text_edit.ts";
import { graphemeWidth, splitGraphemes } from "../../text/cell_width.ts";
import { elementOrigin } from "../../layout/layout.ts";
import { childrenIn, intersectRects, isEmptyRect, type Rect } from "../../layout/visible.ts";
import type { Element } from "../../ui/element.ts";
import { SLIDER_TRACK } from "../../ui/widgets.ts";
import { type Screen, styleCode } from "./screen.ts";

/** The packed styles a frame is painted with. */
export interface Theme {
  /** Plain text. */
  text: number;
  /** Headings and titles. */
  heading: number;
  /** Buttons and menus at rest. */
  button: number;
  /** The focused widget. */
  focus: number;
  /** The widget under the pointer. */
  hover: number;
  /** Disabled widgets. */
  disabled: number;
  /** A text field's box. */
  field: number;
  /** A text field's cursor and selection. */
  cursor: number;
  /** The mark of a checked checkbox. */
  checked: number;
  /** A selected list row. */
  selectedRow: number;
  /** The focused list row. */
  focusedRow: number;
  /** A dialog's inside. */
  dialog: number;
  /** A dialog's frame. */
  border: number;
  /** A slider's or scroll bar's track. */
  track: number;
  /** A slider's or scroll bar's thumb. */
  thumb: number;
  /** The status line. */
  status: number;
}

/** The theme for a terminal with colors, or (`color` false, as `NO_COLOR` asks) without. */
export function makeTheme(color: boolean): Theme {
  const c = (style: Parameters<typeof styleCode>[0], plain = style) =>
    styleCode(color ? style : plain);
  return {
    text: 0,
    heading: styleCode({ bold: true }),
    button: c({ fg: 6 }, {}),
    focus: styleCode({ inverse: true, bold: true }),
    hover: c({ fg: 6, underline: true }, { underline: true }),
    disabled: c({ fg: 8 }, { dim: true }),
    field: c({ bg: 236 }, { underline: true }),
    cursor: styleCode({ inverse: true }),
    checked: c({ fg: 2, bold: true }, { bold: true }),
    selectedRow: c({ bg: 237 }, {}),
    focusedRow: c({ bg: 24 }, { bold: true }),
    dialog: c({ bg: 235 }, {}),
    border: c({ fg: 6, bg: 235 }, {}),
    track: c({ fg: 8 }, {}),
    thumb: c({ fg: 6, bold: true }, { bold: true }),
    status: styleCode({ inverse: true }),
  };
}

/** What painting keeps between frames: where each text field's visible text starts. */
export class PaintMemory {
  /** The first visible cell of each text field's text, so the cursor stays in view. */
  readonly fieldOffsets: WeakMap<Element, number> = new WeakMap();
}

interface Painter {
  screen: Screen;
  theme: Theme;
  focused: Element | null;
  memory: PaintMemory;
}

/**
 * Paints the frame of `source` into `screen` (which should be blank) within `area`, the
 * part of the screen the app owns.
 */
export function paintFrame(
  screen: Screen,
  source: RenderSource,
  theme: Theme,
  memory: PaintMemory,
  area: Rect = screen.area,
): void {
  const painter: Painter = { screen, theme, focused: source.focused, memory };
  paintElement(painter, source.root, 0, 0, area, false);
  for (const overlay of source.overlays) {
    if (!overlay.mounted || overlay.parent === null) continue;
    const origin = elementOrigin(overlay.parent);
    paintElement(painter, overlay, origin.x, origin.y, area, overlay.parent.effectivelyDisabled);
  }
}

function paintElement(
  painter: Painter,
  element: Element,
  originX: number,
  originY: number,
  clip: Rect,
  disabledAbove: boolean,
): void {
  const box = element.box;
  const bounds = { x: originX + box.x, y: originY + box.y, width: box.width, height: box.height };
  const visible = intersectRects(clip, bounds);
  if (isEmptyRect(visible)) return;
  const disabled = disabledAbove || element.disabled;
  drawElement(painter, element, bounds, visible, disabled);
  const area = {
    x: visible.x - bounds.x,
    y: visible.y - bounds.y,
    width: visible.width,
    height: visible.height,
  };
  for (const child of childrenIn(element, area)) {
    paintElement(painter, child, bounds.x, bounds.y, visible, disabled);
  }
  if (element.kind === "scroll_view") drawScrollbar(painter, element, bounds, visible);
}

function drawElement(
  painter: Painter,
  element: Element,
  bounds: Rect,
  clip: Rect,
  disabled: boolean,
): void {
  const { screen, theme } = painter;
  const label = typeof element.state.visual === "string" ? element.state.visual : "";
  const focused = painter.focused === element;
  const node = element.node;
  const inset = element.style.padding + (element.style.border ? 1 : 0);
  const x = bounds.x + inset;
  const y = bounds.y + inset;
  // How an interactive element looks in its state: disabled beats focus beats hover.
  const interactive = (normal: number) =>
    disabled ? theme.disabled : focused ? theme.focus : node?.has("hovered") ? theme.hover : normal;
  switch (element.kind) {
    case "text":
      screen.write(x, y, label, disabled ? theme.disabled : theme.text, clip);
      return;
    case "heading":
      screen.write(x, y, label, disabled ? theme.disabled : theme.heading, clip);
      return;
    case "button":
      screen.write(x, y, `[ ${label} ]`, interactive(theme.button), clip);
      return;
    case "checkbox": {
      const checked = element.state.checked === true;
      const style = interactive(theme.text);
      const after = screen.write(x, y, "[", style, clip);
      const mark = screen.write(
        after,
        y,
        checked ? "x" : " ",
        checked && style === theme.text ? theme.checked : style,
        clip,
      );
      screen.write(mark, y, `] ${label}`, style, clip);
      return;
    }
    case "text_field":
      drawTextField(painter, element, x, y, label, focused, disabled, clip);
      return;
    case "slider":
      drawSlider(painter, element, x, y, label, interactive(theme.text), disabled, clip);
      return;
    case "menu": {
      const open = node?.has("expanded") ?? false;
      screen.write(x, y, `${label} ${open ? "▴" : "▾"}`, interactive(theme.button), clip);
      return;
    }
    case "menu_item":
      screen.write(x, y, ` ${label} `, interactive(theme.text), clip);
      return;
    case "list_item":
      if (focused) screen.fill(bounds, theme.focusedRow, clip);
      else if (node?.has("selected")) screen.fill(bounds, theme.selectedRow, clip);
      return;
    case "dialog":
      drawDialog(painter, bounds, clip);
      // The title sits in the header row the layout keeps for it, inside the padding.
      screen.write(x, y, label, theme.heading | theme.dialog, clip);
      return;
    default:
      // An app's own widget shows its content line; containers draw nothing themselves.
      if (label !== "") screen.write(x, y, label, disabled ? theme.disabled : theme.text, clip);
  }
}

function drawDialog(painter: Painter, bounds: Rect, clip: Rect): void {
  const { screen, theme } = painter;
  const { x, y, width, height } = bounds;
  screen.fill(bounds, theme.dialog, clip);
  if (width < 2 || height < 2) return;
  const horizontal = "─".repeat(width - 2);
  screen.write(x, y, `┌${horizontal}┐`, theme.border, clip);
  for (let row = y + 1; row < y + height - 1; row++) {
    screen.write(x, row, "│", theme.border, clip);
    screen.write(x + width - 1, row, "│", theme.border, clip);
  }
  screen.write(x, y + height - 1, `└${horizontal}┘`, theme.border, clip);
}

/** One grapheme of a text field's shown text, with where it sits in the value. */
interface ShownGrapheme {
  text: string;
  width: number;
  /** UTF-16 offsets in the value. */
  start: number;
  end: number;
}

function shownGraphemes(value: string, secure: boolean): ShownGrapheme[] {
  const shown: ShownGrapheme[] = [];
  let offset = 0;
  for (const grapheme of splitGraphemes(value)) {
    const start = offset;
    offset += grapheme.length;
    if (secure) shown.push({ text: "•", width: 1, start, end: offset });
    else shown.push({ text: grapheme, width: graphemeWidth(grapheme), start, end: offset });
  }
  return shown;
}

function drawTextField(
  painter: Painter,
  element: Element,
  x: number,
  y: number,
  label: string,
  focused: boolean,
  disabled: boolean,
  clip: Rect,
): void {
  const { screen, theme } = painter;
  const edit = element.state.edit as TextEditState | undefined;
  const columns = typeof element.state.columns === "number" ? element.state.columns : 20;
  const labelStyle = disabled ? theme.disabled : focused ? theme.heading : theme.text;
  let cursor = screen.write(x, y, `${label}: `, labelStyle, clip);
  cursor = screen.write(cursor, y, "[", labelStyle, clip);
  const boxX = cursor;
  const boxClip = intersectRects(clip, { x: boxX, y, width: columns, height: 1 });
  screen.fill(
    { x: boxX, y, width: columns, height: 1 },
    disabled ? theme.disabled : theme.field,
    clip,
  );
  screen.write(boxX + columns, y, "]", labelStyle, clip);
  if (edit === undefined) return;

  const shown = shownGraphemes(edit.value, element.secure);
  const selection = edit.selection;
  // The cell the cursor is in, counted from the start of the text.
  let cursorCell = 0;
  for (const grapheme of shown) {
    if (grapheme.start >= edit.cursor) break;
    cursorCell += grapheme.width;
  }
  // Scroll the text sideways just enough to keep the cursor in the box.
  let offset = painter.memory.fieldOffsets.get(element) ?? 0;
  if (cursorCell < offset) offset = cursorCell;
  if (cursorCell >= offset + columns) offset = cursorCell - columns + 1;
  let total = 0;
  for (const grapheme of shown) total += grapheme.width;
  if (total < columns) offset = 0;
  painter.memory.fieldOffsets.set(element, offset);

  const fieldStyle = disabled ? theme.disabled : theme.field;
  let cell = 0;
  for (const grapheme of shown) {
    const at = cell;
    cell += grapheme.width;
    if (cell <= offset) continue;
    if (at - offset >= columns) break;
    const selected = selection !== null && grapheme.start >= selection.start &&
      grapheme.end <= selection.end;
    const style = focused && selected ? theme.cursor : fieldStyle;
    screen.write(boxX + at - offset, y, grapheme.text, style, boxClip);
  }
  if (focused && selection === null) {
    const at = cursorCell - offset;
    const under = shown.find((grapheme) => grapheme.start === edit.cursor);
    screen.write(boxX + at, y, under?.text ?? " ", theme.cursor, boxClip);
  }
}

function drawSlider(
  painter: Painter,
  element: Element,
  x: number,
  y: number,
  label: string,
  style: number,
  disabled: boolean,
  clip: Rect,
): void {
  const { screen, theme } = painter;
  const range = element.state.range as { min: number; max: number } | undefined;
  const value = Number(element.state.value ?? 0);
  let cursor = screen.write(x, y, `${label} [`, style, clip);
  const fraction = range === undefined || range.max === range.min
    ? 0
    : (value - range.min) / (range.max - range.min);
  const thumb = Math.round(Math.min(1, Math.max(0, fraction)) * (SLIDER_TRACK - 1));
  const trackStyle = disabled ? theme.disabled : theme.track;
  const thumbStyle = disabled ? theme.disabled : theme.thumb;
  cursor = screen.write(cursor, y, "━".repeat(thumb), thumbStyle, clip);
  cursor = screen.write(cursor, y, "●", thumbStyle, clip);
  cursor = screen.write(cursor, y, "─".repeat(SLIDER_TRACK - 1 - thumb), trackStyle, clip);
  screen.write(cursor, y, `] ${value}`, style, clip);
}

/**
 * A scroll bar in the scroll view's last column, when its content is taller than it and
 * narrower, so that the bar covers nothing.
 */
function drawScrollbar(painter: Painter, element: Element, bounds: Rect, clip: Rect): void {
  const content = element.children[0];
  if (content === undefined) return;
  const { height, width } = bounds;
  const total = content.box.height;
  if (total <= height || content.box.width >= width || height < 1) return;
  const { screen, theme } = painter;
  const column = bounds.x + width - 1;
  const thumbSize = Math.max(1, Math.round((height * height) / total));
  const thumbStart = Math.round((element.scroll.y / (total - height)) * (height - thumbSize));
  for (let row = 0; row < height; row++) {
    const onThumb = row >= thumbStart && row < thumbStart + thumbSize;
    screen.write(
      column,
      bounds.y + row,
      onThumb ? "┃" : "│",
      onThumb ? theme.thumb : theme.track,
      clip,
    );
  }
}
