/**
 * Makes `runtime/render/picture/glyph_data.ts`, the bitmap glyphs screenshots are drawn with,
 * from the font in the npm package `@fontsource/unifontex` (UnifontExMono 15.0.06: GNU
 * Unifont and Unifont Upper, SIL Open Font License 1.1). That font is an outline font whose
 * contours are the squares of Unifont's 8×16 and 16×16 pixel glyphs, so filling each outline at
 * the pixel centres of a 16-pixel em gives back Unifont's bitmaps exactly.
 *
 * The package is fetched with `npm pack` at the pinned version and checked against its
 * registry integrity before anything is read. Run it only to change the font:
 *
 *   deno task glyphs
 *
 * The data file it writes is committed: the published runtime, `deno compile`d programs and
 * workers read the glyphs from a module, with no file, network or npm permission.
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { Buffer } from "node:buffer";
import { createHash } from "node:crypto";

const PACKAGE = "@fontsource/unifontex@5.2.6";
const INTEGRITY =
  "sha512-y6PXONOAfsIx0v/7QevQrx+SFW6B2OBR7VZYel7ek/y8M89zfQBKOLyV8X9KmtAkS1q9JS9MFDkq78vcv1CwtQ==";
const WOFF = "package/files/unifontex-latin-400-normal.woff";
const OUT = fileURLToPath(new URL("../runtime/render/picture/glyph_data.ts", import.meta.url));

/** Font units per pixel: the em is 1,024 units and 16 pixels. */
const UNIT = 64;
/** The baseline's distance from the top of the cell, in units (the font's ascent). */
const ASCENT = 896;
const ROWS = 16;

async function inflate(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(
    new DecompressionStream("deflate"),
  );
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

async function deflate(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(
    new CompressionStream("deflate"),
  );
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

async function fetchPackage(): Promise<Uint8Array> {
  const dir = await Deno.makeTempDir({ prefix: "crownui-glyphs-" });
  try {
    const pack = await new Deno.Command("npm", {
      args: ["pack", PACKAGE, "--pack-destination", dir, "--silent"],
      stdout: "piped",
    }).output();
    if (!pack.success) throw new Error(`npm pack ${PACKAGE} failed`);
    const name = new TextDecoder().decode(pack.stdout).trim().split("\n").at(-1)!;
    const tarball = await Deno.readFile(join(dir, name));
    const integrity = "sha512-" + createHash("sha512").update(tarball).digest("base64");
    if (integrity !== INTEGRITY) {
      throw new Error(`${PACKAGE}: integrity ${integrity}, expected ${INTEGRITY}`);
    }
    const untar = await new Deno.Command("tar", { args: ["xzf", name, WOFF], cwd: dir }).output();
    if (!untar.success) throw new Error(`cannot extract ${WOFF}`);
    return await Deno.readFile(join(dir, WOFF));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** The tables of a WOFF 1.0 file, inflated. */
async function woffTables(woff: Uint8Array): Promise<Map<string, Uint8Array>> {
  const v = view(woff);
  if (v.getUint32(0) !== 0x774f4646) throw new Error("not a WOFF file");
  const tables = new Map<string, Uint8Array>();
  for (let i = 0; i < v.getUint16(12); i++) {
    const at = 44 + i * 20;
    const tag = String.fromCharCode(...woff.subarray(at, at + 4));
    const offset = v.getUint32(at + 4);
    const compressed = v.getUint32(at + 8);
    const original = v.getUint32(at + 12);
    const raw = woff.subarray(offset, offset + compressed);
    tables.set(tag, compressed < original ? await inflate(raw) : raw);
  }
  return tables;
}

function table(tables: Map<string, Uint8Array>, tag: string): Uint8Array {
  const found = tables.get(tag);
  if (found === undefined) throw new Error(`the font has no ${tag} table`);
  return found;
}

/** Code point → glyph id, from the format 12 subtable (Windows, full repertoire). */
function readCmap(cmap: Uint8Array): Map<number, number> {
  const v = view(cmap);
  for (let i = 0; i < v.getUint16(2); i++) {
    const platform = v.getUint16(4 + i * 8);
    const encoding = v.getUint16(6 + i * 8);
    const offset = v.getUint32(8 + i * 8);
    if (platform !== 3 || encoding !== 10 || v.getUint16(offset) !== 12) continue;
    const map = new Map<number, number>();
    for (let g = 0; g < v.getUint32(offset + 12); g++) {
      const at = offset + 16 + g * 12;
      const start = v.getUint32(at);
      const end = v.getUint32(at + 4);
      const glyph = v.getUint32(at + 8);
      for (let cp = start; cp <= end; cp++) map.set(cp, glyph + cp - start);
    }
    return map;
  }
  throw new Error("the font has no format 12 cmap");
}

interface Point {
  x: number;
  y: number;
}

/** The contours of glyph `id` (components of a composite placed by their offsets). */
function contoursOf(glyf: Uint8Array, loca: Uint32Array, id: number): Point[][] {
  const start = loca[id]!;
  const end = loca[id + 1]!;
  if (end <= start) return [];
  const v = view(glyf.subarray(start, end));
  const count = v.getInt16(0);
  if (count < 0) {
    const contours: Point[][] = [];
    let at = 10;
    for (;;) {
      const flags = v.getUint16(at);
      const component = v.getUint16(at + 2);
      at += 4;
      let dx: number, dy: number;
      if (flags & 1) {
        dx = v.getInt16(at);
        dy = v.getInt16(at + 2);
        at += 4;
      } else {
        dx = v.getInt8(at);
        dy = v.getInt8(at + 1);
        at += 2;
      }
      if (!(flags & 2)) throw new Error(`glyph ${id}: a component placed by points`);
      if (flags & (8 | 0x40 | 0x80)) throw new Error(`glyph ${id}: a scaled component`);
      for (const contour of contoursOf(glyf, loca, component)) {
        contours.push(contour.map((p) => ({ x: p.x + dx, y: p.y + dy })));
      }
      if (!(flags & 0x20)) return contours;
    }
  }
  const ends: number[] = [];
  for (let c = 0; c < count; c++) ends.push(v.getUint16(10 + c * 2));
  const points = ends.length === 0 ? 0 : ends.at(-1)! + 1;
  let at = 10 + count * 2;
  at += 2 + v.getUint16(at); // instructions
  const flags: number[] = [];
  while (flags.length < points) {
    const flag = v.getUint8(at++);
    flags.push(flag);
    if (flag & 8) {
      const repeat = v.getUint8(at++);
      for (let r = 0; r < repeat; r++) flags.push(flag);
    }
  }
  const readAxis = (short: number, same: number): number[] => {
    const values: number[] = [];
    let value = 0;
    for (const flag of flags) {
      if (flag & short) {
        const delta = v.getUint8(at++);
        value += flag & same ? delta : -delta;
      } else if (!(flag & same)) {
        value += v.getInt16(at);
        at += 2;
      }
      values.push(value);
    }
    return values;
  };
  const xs = readAxis(2, 16);
  const ys = readAxis(4, 32);
  const contours: Point[][] = [];
  let first = 0;
  for (const last of ends) {
    const points: (Point & { on: boolean })[] = [];
    for (let p = first; p <= last; p++) {
      points.push({ x: xs[p]!, y: ys[p]!, on: (flags[p]! & 1) === 1 });
    }
    contours.push(flatten(points));
    first = last + 1;
  }
  return contours;
}

/**
 * A TrueType contour as straight lines: each quadratic piece (an off-curve point between two
 * on-curve ones, real or implied half way between two off-curve points) in 8 steps. The
 * font's pieces are in fact straight (their control points lie on the pixel squares' edges).
 */
function flatten(points: (Point & { on: boolean })[]): Point[] {
  if (points.length === 0) return [];
  const startAt = points.findIndex((p) => p.on);
  const ring = startAt < 0
    ? [{
      x: (points[0]!.x + points.at(-1)!.x) / 2,
      y: (points[0]!.y + points.at(-1)!.y) / 2,
      on: true,
    }, ...points]
    : [...points.slice(startAt), ...points.slice(0, startAt)];
  const out: Point[] = [{ x: ring[0]!.x, y: ring[0]!.y }];
  let from: Point = ring[0]!;
  for (let i = 1; i <= ring.length; i++) {
    const p = ring[i % ring.length]!;
    if (p.on) {
      out.push({ x: p.x, y: p.y });
      from = p;
      continue;
    }
    const next = ring[(i + 1) % ring.length]!;
    const to = next.on ? next : { x: (p.x + next.x) / 2, y: (p.y + next.y) / 2 };
    for (let step = 1; step <= 8; step++) {
      const t = step / 8;
      const u = 1 - t;
      out.push({
        x: u * u * from.x + 2 * u * t * p.x + t * t * to.x,
        y: u * u * from.y + 2 * u * t * p.y + t * t * to.y,
      });
    }
    from = to;
    if (next.on) i++;
  }
  out.pop(); // the first point again
  return out;
}

/**
 * The glyph's pixels, `width` columns from `left` (font units) by 16 rows, by the nonzero
 * rule at each pixel's centre: one bit a pixel, rows of `width / 8` bytes, left pixel in the
 * high bit.
 */
function fillPixels(contours: Point[][], left: number, width: number): Uint8Array {
  const rowBytes = width / 8;
  const bits = new Uint8Array(ROWS * rowBytes);
  for (let row = 0; row < ROWS; row++) {
    const y = ASCENT - row * UNIT - UNIT / 2;
    const crossings: { x: number; winding: number }[] = [];
    for (const contour of contours) {
      for (let i = 0; i < contour.length; i++) {
        const a = contour[i]!;
        const b = contour[(i + 1) % contour.length]!;
        if ((a.y <= y) === (b.y <= y)) continue;
        const x = a.x + ((y - a.y) * (b.x - a.x)) / (b.y - a.y);
        crossings.push({ x, winding: b.y > a.y ? 1 : -1 });
      }
    }
    crossings.sort((p, q) => p.x - q.x);
    for (let column = 0; column < width; column++) {
      const x = left + column * UNIT + UNIT / 2;
      let winding = 0;
      for (const crossing of crossings) {
        if (crossing.x > x) break;
        winding += crossing.winding;
      }
      if (winding !== 0) bits[row * rowBytes + (column >> 3)]! |= 0x80 >> (column & 7);
    }
  }
  return bits;
}

async function main(): Promise<void> {
  const woff = await fetchPackage();
  const tables = await woffTables(woff);
  const head = view(table(tables, "head"));
  if (head.getUint16(18) !== 1024) throw new Error("expected an em of 1,024 units");
  const longLoca = head.getInt16(50) === 1;
  const glyphCount = view(table(tables, "maxp")).getUint16(4);
  const locaBytes = view(table(tables, "loca"));
  const loca = new Uint32Array(glyphCount + 1);
  for (let i = 0; i <= glyphCount; i++) {
    loca[i] = longLoca ? locaBytes.getUint32(i * 4) : locaBytes.getUint16(i * 2) * 2;
  }
  const metricCount = view(table(tables, "hhea")).getUint16(34);
  const hmtx = view(table(tables, "hmtx"));
  const advanceOf = (id: number) => hmtx.getUint16(Math.min(id, metricCount - 1) * 4);
  const glyf = table(tables, "glyf");
  const cmap = readCmap(table(tables, "cmap"));

  const codePoints = [...cmap.keys()].filter((cp) => cp >= 0x20 && cp < 0xe0000).sort((a, b) =>
    a - b
  );
  const kinds: number[] = [];
  const bitmaps: Uint8Array[] = [];
  let outside = 0;
  for (const cp of codePoints) {
    const id = cmap.get(cp)!;
    const advance = advanceOf(id);
    const contours = contoursOf(glyf, loca, id);
    let minX = Infinity;
    let maxX = -Infinity;
    for (const contour of contours) {
      for (const p of contour) {
        minX = Math.min(minX, p.x);
        maxX = Math.max(maxX, p.x);
      }
    }
    // A combining mark has no advance: it is drawn over the base, mostly to the left of the
    // pen (after the base), a few from the pen on. Its pixels are kept from where they start.
    const combining = advance === 0;
    const left = !combining || contours.length === 0 || minX >= 0
      ? 0
      : minX >= -8 * UNIT
      ? -8 * UNIT
      : -16 * UNIT;
    const width = combining ? (maxX - left > 8 * UNIT ? 16 : 8) : advance > 8 * UNIT ? 16 : 8;
    if (contours.length > 0 && (minX < left || maxX > left + width * UNIT)) outside++;
    kinds.push((width === 16 ? 1 : 0) | (combining ? 2 : 0));
    bitmaps.push(fillPixels(contours, left, width));
  }

  const ranges: [number, number][] = [];
  for (const cp of codePoints) {
    const last = ranges.at(-1);
    if (last !== undefined && last[0] + last[1] === cp) last[1]++;
    else ranges.push([cp, 1]);
  }
  const headerBytes = 12 + ranges.length * 8;
  const bitmapBytes = bitmaps.reduce((sum, b) => sum + b.length, 0);
  const data = new Uint8Array(headerBytes + kinds.length + bitmapBytes);
  const out = view(data);
  data.set([0x43, 0x55, 0x47, 0x31]); // "CUG1"
  out.setUint32(4, codePoints.length);
  out.setUint32(8, ranges.length);
  ranges.forEach(([start, count], i) => {
    out.setUint32(12 + i * 8, start);
    out.setUint32(16 + i * 8, count);
  });
  data.set(kinds, headerBytes);
  let at = headerBytes + kinds.length;
  for (const bitmap of bitmaps) {
    data.set(bitmap, at);
    at += bitmap.length;
  }
  const packed = await deflate(data);
  const base64 = Buffer.from(packed).toString("base64");
  const source = `// Made by .ci/glyphs.ts from ${PACKAGE} (${WOFF.slice(8)}); do not edit.
// The glyphs of UnifontExMono 15.0.06 (GNU Unifont 15.0.06 and Unifont Upper):
// Copyright © 1998-2023 Roman Czyborra, Paul Hardy, Qianqian Fang, Andrew Miller, Johnnie
// Weaver, David Corbett, Nils Moskopp, Rebecca Bettencourt, Minseo Lee, stgiga, et al.
// Licensed under the SIL Open Font License 1.1: see FONT-LICENSE.txt beside this file.
// ${codePoints.length} glyphs in ${ranges.length} ranges, ${data.length} bytes deflated to ${packed.length}.

/** The glyph bitmaps, deflated (zlib) and in base64: see glyphs.ts for the layout. */
export const GLYPH_DATA =
  "${base64}";
`;
  await Deno.writeTextFile(OUT, source);
  console.log(
    `${codePoints.length} glyphs, ${ranges.length} ranges, ${data.length} bytes, ${packed.length} deflated, ${base64.length} base64; ${outside} drawn outside their cell`,
  );
}

if (import.meta.main) await main();
