/**
 * Percentiles and a one-line summary of timing samples, for the benchmark scripts.
 *
 * @module
 */

/** The `p`th percentile (0–100) of `samples`, by the nearest rank below. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) throw new RangeError("percentile() needs at least one sample");
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** The median of `samples`. */
export function median(samples: readonly number[]): number {
  return percentile(samples, 50);
}

/** Milliseconds as `850 µs` below one, `1.25 ms` above. */
export function formatMs(ms: number): string {
  return ms < 1 ? `${(ms * 1000).toFixed(0)} µs` : `${ms.toFixed(2)} ms`;
}

/** `p50 …, p99 …, n=…` for samples in milliseconds. */
export function summary(samples: readonly number[]): string {
  return `p50 ${formatMs(percentile(samples, 50))}, p99 ${
    formatMs(percentile(samples, 99))
  }, n=${samples.length}`;
}
