/**
 * A PNG encoder for screenshots: indexed colour, 4 bits a pixel for at most 16 colours (most
 * screens) and 8 for at most 256, else 8-bit RGB; no interlace, each row unfiltered (what the
 * PNG specification advises for indexed images). The image data is compressed by the platform's `CompressionStream`
 * (`"deflate"` is the zlib stream PNG's IDAT chunk holds), so no dependency is needed.
 *
 * @module
 */

let crcTable: Uint32Array | null = null;

/** The CRC-32 PNG chunks end with (ISO 3309, as zlib computes it). */
export function crc32(bytes: Uint8Array, crc = 0xffffffff): number {
  if (crcTable === null) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  for (let i = 0; i < bytes.length; i++) crc = crcTable[(crc ^ bytes[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** Pixels to encode: each a colour index, and the colours (0xRRGGBB) the indices stand for. */
export interface IndexedPixels {
  /** The width in pixels. */
  width: number;
  /** The height in pixels. */
  height: number;
  /** Row by row, the index in `colours` of each pixel. */
  indices: Uint16Array;
  /** The colours, 0xRRGGBB. */
  colours: readonly number[];
}

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

async function deflate(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(
    new CompressionStream("deflate"),
  );
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/**
 * The rows as PNG filters them (filter type 0, "none", before each row), at `depth` bits a
 * palette index (4 or 8), or as RGB (`depth` 24).
 */
function scanlines(pixels: IndexedPixels, depth: 4 | 8 | 24): Uint8Array {
  const { width, height, indices, colours } = pixels;
  const rowBytes = 1 + (depth === 4 ? (width + 1) >> 1 : width * (depth / 8));
  const raw = new Uint8Array(rowBytes * height);
  for (let y = 0; y < height; y++) {
    let at = y * rowBytes + 1; // the filter byte stays 0
    const row = y * width;
    if (depth === 4) {
      for (let x = 0; x < width; x += 2) {
        raw[at++] = (indices[row + x]! << 4) | (x + 1 < width ? indices[row + x + 1]! : 0);
      }
    } else if (depth === 8) {
      for (let x = 0; x < width; x++) raw[at++] = indices[row + x]!;
    } else {
      for (let x = 0; x < width; x++) {
        const rgb = colours[indices[row + x]!]!;
        raw[at++] = rgb >> 16;
        raw[at++] = (rgb >> 8) & 0xff;
        raw[at++] = rgb & 0xff;
      }
    }
  }
  return raw;
}

/** The PNG file of `pixels`. */
export async function encodePng(pixels: IndexedPixels): Promise<Uint8Array> {
  const { width, height, colours } = pixels;
  if (width < 1 || height < 1) throw new RangeError("a PNG needs at least one pixel");
  const indexed = colours.length <= 256;
  const depth = colours.length <= 16 ? 4 : indexed ? 8 : 24;
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header[8] = depth === 4 ? 4 : 8; // bits per palette index (or per sample)
  header[9] = indexed ? 3 : 2; // indexed colour, or RGB
  const parts = [Uint8Array.from(SIGNATURE), chunk("IHDR", header)];
  if (indexed) {
    const palette = new Uint8Array(colours.length * 3);
    colours.forEach((rgb, i) => palette.set([rgb >> 16, (rgb >> 8) & 0xff, rgb & 0xff], i * 3));
    parts.push(chunk("PLTE", palette));
  }
  parts.push(chunk("IDAT", await deflate(scanlines(pixels, depth))));
  parts.push(chunk("IEND", new Uint8Array(0)));
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
