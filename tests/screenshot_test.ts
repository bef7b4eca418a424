/**
 * Screenshots from the app's own cells, through the harness's `screenshot()` (the code
 * `ui_screenshot` runs when no compositor offers a picture). Each PNG is decoded with an
 * independent decoder (fast-png) and read back pixel by pixel.
 */

import assert from "node:assert/strict";
import { decode } from "npm:fast-png@8.0.0";
import {
  button,
  column,
  component,
  DARK_THEME,
  defineTheme,
  dialog,
  LIGHT_THEME,
  row,
  text,
  textField,
  type View,
} from "../runtime/mod.ts";
import { render, type Screenshot } from "../runtime/testing.ts";
import { paletteRgb } from "../runtime/render/terminal/colour.ts";

/** Each pixel of the decoded PNG as `#rrggbb`, row by row. */
function decodedPixels(
  png: Uint8Array,
): { width: number; height: number; at(x: number, y: number): string } {
  const image = decode(png);
  const palette = image.palette;
  return {
    width: image.width,
    height: image.height,
    at(x, y) {
      const i = y * image.width + x;
      // Indices of fewer than 8 bits come packed, each row starting on a byte.
      const perByte = 8 / image.depth;
      const rowBytes = Math.ceil(image.width / perByte);
      const packed = image.data[y * rowBytes + Math.floor(x / perByte)]!;
      const shift = 8 - image.depth * (1 + (x % perByte));
      const index = image.depth >= 8
        ? image.data[i]!
        : (packed >> shift) & ((1 << image.depth) - 1);
      const rgb = palette === undefined
        ? [...image.data.subarray(i * image.channels, i * image.channels + 3)]
        : palette[index]!;
      return "#" + rgb.slice(0, 3).map((c) => c.toString(16).padStart(2, "0")).join("");
    },
  };
}

/** The colours found in cell (column, row) of a picture at scale 1. */
function cellColours(shot: Screenshot, column: number, row: number): Set<string> {
  const colours = new Set<string>();
  for (let y = row * 16; y < (row + 1) * 16; y++) {
    for (let x = column * 8; x < (column + 1) * 8; x++) colours.add(shot.pixel(x, y));
  }
  return colours;
}

/** The cell's pixels as one string, to compare two cells' looks. */
function cellPixels(shot: Screenshot, column: number, row: number, cells = 1): string {
  const out: string[] = [];
  for (let y = row * 16; y < (row + 1) * 16; y++) {
    for (let x = column * 8; x < (column + cells) * 8; x++) out.push(shot.pixel(x, y));
  }
  return out.join(",");
}

const hex = (rgb: number) => `#${rgb.toString(16).padStart(6, "0")}`;

Deno.test("screenshot: the PNG's size in pixels follows the window's cells and the scale", async () => {
  for (const [width, height, scale] of [[80, 24, 1], [40, 10, 2], [7, 3, 3]] as const) {
    await using app = await render(text("hello"), { width, height });
    const shot = await app.screenshot({ scale });
    const decoded = decodedPixels(shot.png);
    assert.deepEqual([decoded.width, decoded.height], [width * 8 * scale, height * 16 * scale]);
    assert.deepEqual([shot.width, shot.height, shot.columns, shot.rows, shot.scale], [
      decoded.width,
      decoded.height,
      width,
      height,
      scale,
    ]);
    assert.equal(shot.revision, app.revision);
    assert.equal(shot.cellColours(0, 0).length, 2, "h: background and text");
    assert.throws(() => shot.cellColours(width, 0), RangeError);
  }
});

Deno.test("screenshot: a scale outside 1 to 3 is refused", async () => {
  await using app = await render(text("hello"));
  for (const scale of [0, 4, 1.5, Number.NaN]) {
    await assert.rejects(app.screenshot({ scale }), TypeError);
  }
});

Deno.test("screenshot: the decoded pixels are the ones pixel() reads back", async () => {
  await using app = await render(column(text("Status: ok"), button("Save", () => {})), {
    width: 20,
    height: 3,
  });
  const shot = await app.screenshot();
  const decoded = decodedPixels(shot.png);
  for (let y = 0; y < shot.height; y++) {
    for (let x = 0; x < shot.width; x++) assert.equal(decoded.at(x, y), shot.pixel(x, y));
  }
});

Deno.test("screenshot: pictures of 17 and of 300 colours decode to the same pixels", async () => {
  for (const count of [17, 300]) {
    const words = Array.from(
      { length: count },
      (_, i) =>
        text("█").style({
          fg: `#${(i * 4099).toString(16).padStart(6, "0").slice(-6)}` as `#${string}`,
        }),
    );
    const rows = Array.from(
      { length: Math.ceil(count / 20) },
      (_, r) => row(...words.slice(r * 20, r * 20 + 20)).gap(0),
    );
    await using app = await render(column(...rows), { width: 20, height: rows.length });
    const shot = await app.screenshot();
    const decoded = decodedPixels(shot.png);
    const seen = new Set<string>();
    for (let y = 0; y < shot.height; y++) {
      for (let x = 0; x < shot.width; x++) {
        assert.equal(decoded.at(x, y), shot.pixel(x, y), `${count} colours, pixel (${x}, ${y})`);
        seen.add(shot.pixel(x, y));
      }
    }
    assert.ok(seen.size >= count, `${seen.size} colours seen of ${count}`);
  }
});

Deno.test("screenshot: a word styled error is drawn in the theme's error colour", async () => {
  const view = (): View =>
    row(text("Status: "), text("failed").style({ fg: "error" }), text(" ok"));
  for (
    const theme of [
      DARK_THEME,
      LIGHT_THEME,
      defineTheme(DARK_THEME, { name: "ember", colours: { error: "#ff8700" } }),
    ]
  ) {
    await using app = await render(view(), { width: 20, height: 1, theme });
    const start = app.screen().lines[0]!.indexOf("failed");
    const shot = await app.screenshot();
    const error = typeof theme.colours.error === "number"
      ? hex(paletteRgb(theme.colours.error))
      : String(theme.colours.error);
    // Each cell of "failed" has background and error pixels, and nothing else.
    for (let column = start; column < start + 6; column++) {
      const colours = cellColours(shot, column, 0);
      assert.ok(colours.has(error), `${theme.name}: column ${column} has ${[...colours]}`);
      assert.equal(colours.size, 2, `${theme.name}: column ${column} has ${[...colours]}`);
    }
    // cellColours(): the background (most pixels), then the error colour.
    assert.deepEqual(shot.cellColours(start, 0), [shot.pixel(start * 8, 0), error]);
    // The words beside it are not in the error colour.
    for (const column of [0, 1, start - 1, start + 6, start + 8]) {
      assert.ok(!cellColours(shot, column, 0).has(error), `${theme.name}: column ${column}`);
    }
  }
});

Deno.test("screenshot: a focused button's cells differ from an unfocused one's", async () => {
  await using app = await render(
    row(button("Same", () => {}), text(" "), button("Same", () => {})),
    {
      width: 20,
      height: 1,
    },
  );
  const [first, second] = app.query({ role: "button" });
  const line = app.screen().lines[0]!;
  const [a, b] = [line.indexOf("[ Same ]"), line.lastIndexOf("[ Same ]")];
  assert.ok(a >= 0 && b > a, line);
  const same = (x: string, y: string) => x === y; // no assert.equal: the strings are long
  await app.act(first!.id, { action: "focus" });
  const focusedFirst = await app.screenshot();
  assert.ok(!same(cellPixels(focusedFirst, a, 0, 8), cellPixels(focusedFirst, b, 0, 8)));
  await app.act(second!.id, { action: "focus" });
  const focusedSecond = await app.screenshot();
  // Focus moved: the looks swapped places.
  assert.ok(same(cellPixels(focusedFirst, a, 0, 8), cellPixels(focusedSecond, b, 0, 8)));
  assert.ok(same(cellPixels(focusedFirst, b, 0, 8), cellPixels(focusedSecond, a, 0, 8)));
});

Deno.test("screenshot: box drawing meets at the cell's edges; the dialog's corner is a corner", async () => {
  await using app = await render(column(text("behind"), dialog("Confirm", text("Sure?"))), {
    width: 30,
    height: 10,
  });
  const lines = app.screen().lines;
  const top = lines.findIndex((line) => line.includes("┌"));
  assert.ok(top >= 0, lines.join("\n"));
  const left = lines[top]!.indexOf("┌");
  const shot = await app.screenshot();
  const x0 = left * 8;
  const y0 = top * 16;
  // The ─ to the corner's right: one pixel row of it is all one colour, the border's.
  const background = shot.pixel(x0 + 8, y0);
  let line = -1;
  for (let y = 0; y < 16 && line < 0; y++) {
    const row = new Set(Array.from({ length: 8 }, (_, x) => shot.pixel(x0 + 8 + x, y0 + y)));
    if (row.size === 1 && !row.has(background)) line = y;
  }
  assert.ok(line > 0, "the ─ has a line");
  const ink = shot.pixel(x0 + 8, y0 + line);
  // ┌ meets it at the cell's right edge and goes down to the bottom edge; its top-left
  // corner and its top edge are bare.
  assert.equal(shot.pixel(x0 + 7, y0 + line), ink);
  const down = Array.from({ length: 8 }, (_, x) => x).find((x) =>
    shot.pixel(x0 + x, y0 + 15) === ink
  );
  assert.ok(down !== undefined, "┌ reaches the bottom edge");
  assert.equal(shot.pixel(x0 + down, y0 + line + 1), ink);
  assert.notEqual(shot.pixel(x0, y0), ink);
  assert.notEqual(shot.pixel(x0 + down, y0), ink);
});

Deno.test("screenshot: wide characters take two cells; a character without a glyph is a box", async () => {
  await using app = await render(column(text("日本"), text("a\u{10fffd}b"), text("é █")), {
    width: 10,
    height: 3,
  });
  const shot = await app.screenshot();
  const foreground = (x0: number, y0: number, cells: number) => {
    let ink = 0;
    const background = shot.pixel(x0 * 8 + 7, y0 * 16); // a corner of the first cell
    for (let y = y0 * 16; y < (y0 + 1) * 16; y++) {
      for (let x = x0 * 8; x < (x0 + cells) * 8; x++) if (shot.pixel(x, y) !== background) ink++;
    }
    return ink;
  };
  // 日 spans 16 pixels: both of its cells have ink.
  assert.ok(foreground(0, 0, 1) > 10 && foreground(1, 0, 1) > 10);
  // U+10FFFD has no glyph: a hollow box, its edges inked, its middle not.
  const x0 = 8;
  const y0 = 16;
  const ink = shot.pixel(x0 + 1, y0 + 2);
  assert.notEqual(ink, shot.pixel(x0, y0));
  assert.equal(shot.pixel(x0 + 6, y0 + 13), ink);
  assert.notEqual(shot.pixel(x0 + 3, y0 + 7), ink);
  // █ (a block element) fills its whole cell.
  assert.equal(cellColours(shot, 2, 2).size, 1);
  assert.notEqual([...cellColours(shot, 2, 2)][0], shot.pixel(1 * 8, 2 * 16));
});

Deno.test("screenshot: a secure field shows its mask, never its secret", async () => {
  const SECRET = "hunter2!";
  const secure = component((cx) => {
    const password = cx.secret(SECRET, { name: "password" });
    return column(textField({ label: "Password", value: password }).secure(), text("end"));
  });
  const shown = component((cx) => {
    const masked = cx.signal("•".repeat(SECRET.length));
    const plain = cx.signal(SECRET);
    return column(
      textField({ label: "Password", value: masked }),
      text("end"),
      textField({ label: "Password", value: plain }),
    );
  });
  await using withSecret = await render(secure, { width: 30, height: 3 });
  await using withMask = await render(shown, { width: 30, height: 3 });
  const secret = await withSecret.screenshot();
  const mask = await withMask.screenshot();
  // The secure field's row is the row of a plain field holding the mask, and not the row of
  // one holding the secret.
  const rowPixels = (shot: Screenshot, row: number) => cellPixels(shot, 0, row, 30);
  assert.equal(rowPixels(secret, 0), rowPixels(mask, 0));
  assert.notEqual(rowPixels(secret, 0), rowPixels(mask, 2));
});

Deno.test("screenshot: bold, underline and inverse change the pixels; the text stays", async () => {
  await using app = await render(
    column(
      text("Ab"),
      text("Ab").style({ bold: true }),
      text("Ab").style({ underline: true }),
      text("Ab").style({ inverse: true }),
    ),
    { width: 4, height: 4 },
  );
  const shot = await app.screenshot();
  const plain = cellPixels(shot, 0, 0, 2);
  for (const row of [1, 2, 3]) assert.notEqual(cellPixels(shot, 0, row, 2), plain, `row ${row}`);
  // Underline: the cell's last pixel row is all text colour.
  const ink = new Set<string>();
  for (let x = 0; x < 16; x++) ink.add(shot.pixel(x, 2 * 16 + 15));
  assert.equal(ink.size, 1);
  assert.notEqual([...ink][0], shot.pixel(0, 2 * 16));
});

Deno.test("screenshot: dim mixes the text colour half way; strikethrough and italic draw", async () => {
  await using app = await render(
    column(
      text("Ab").style({ fg: "#ff0000", bg: "#000000" }),
      text("Ab").style({ fg: "#ff0000", bg: "#000000", dim: true }),
      text("Ab").style({ fg: "#ff0000", bg: "#000000", strikethrough: true }),
      text("Ab").style({ fg: "#ff0000", bg: "#000000", italic: true }),
    ),
    { width: 4, height: 4 },
  );
  const shot = await app.screenshot();
  assert.ok(cellColours(shot, 0, 0).has("#ff0000"));
  const dim = cellColours(shot, 0, 1);
  assert.ok(dim.has("#7f0000") && !dim.has("#ff0000"), [...dim].join());
  // Strikethrough: a pixel row across both cells in the text colour, which the plain word
  // does not have.
  const across = (row: number, y: number) =>
    Array.from({ length: 16 }, (_, x) => shot.pixel(x, row * 16 + y)).every((c) => c === "#ff0000");
  assert.ok(Array.from({ length: 16 }, (_, y) => y).some((y) => across(2, y)));
  assert.ok(!Array.from({ length: 16 }, (_, y) => y).some((y) => across(0, y)));
  assert.notEqual(cellPixels(shot, 0, 3, 2), cellPixels(shot, 0, 0, 2), "italic");
});

Deno.test("screenshot: 80×24 stays within 150 KB, every cell in two colours of its own", async () => {
  const colour = (n: number) => `#${(n & 0xffffff).toString(16).padStart(6, "0")}` as `#${string}`;
  const rows = Array.from({ length: 24 }, (_, r) =>
    row(
      ...Array.from({ length: 80 }, (_, c) => {
        const i = r * 80 + c;
        return text("W").style({ fg: colour((i * 2654435761) >>> 8), bg: colour(i * 3928771) });
      }),
    ).gap(0));
  await using app = await render(column(...rows));
  const shot = await app.screenshot();
  assert.ok(new Set(rows.flatMap((_, r) => shot.cellColours(r, r))).size > 16);
  assert.ok(shot.png.length <= 150 * 1024, `${shot.png.length} bytes`);
});
