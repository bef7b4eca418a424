/**
 * The bound on a screenshot's `scale`, apart from the drawing code, so that the server's
 * tool list and `crowndev` can name it without loading the glyphs.
 *
 * @module
 */

/** The largest `scale` a screenshot takes. */
export const MAX_SCALE = 3;

/** The scale asked for (1 when not given), checked: a whole number from 1 to `MAX_SCALE`. */
export function checkScale(scale: unknown): number {
  if (scale === undefined) return 1;
  if (typeof scale !== "number" || !Number.isInteger(scale) || scale < 1 || scale > MAX_SCALE) {
    throw new TypeError(`scale must be a whole number from 1 to ${MAX_SCALE}`);
  }
  return scale;
}
