/** Equal-width histogram over [min, max]; the last bin is closed. A constant sample gets one bin. */
export function histogram(values: ArrayLike<number>, bins: number): { edges: number[]; counts: number[] } {
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (!Number.isFinite(v)) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  if (lo === Infinity) return { edges: [], counts: [] };
  const { edges, bin } = histogramBins(lo, hi, bins);
  const counts = new Array<number>(edges.length - 1).fill(0);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (!Number.isFinite(v)) continue;
    counts[bin(v)]++;
  }
  return { edges, counts };
}

/**
 * The bins of an equal-width histogram of values from `lo` to `hi` (finite): its edges and the bin of a value, the
 * last bin closed. A constant sample gets one bin. Counted in memory or in a database, the bins are the same.
 */
export function histogramBins(lo: number, hi: number, bins: number): { edges: number[]; width: number; bin: (v: number) => number } {
  const k = hi > lo ? bins : 1;
  const width = hi > lo ? (hi - lo) / k : 1;
  const edges = Array.from({ length: k + 1 }, (_, i) => (i === k ? (hi > lo ? hi : lo + 1) : lo + i * width));
  return { edges, width, bin: (v) => Math.min(k - 1, Math.floor((v - lo) / width)) };
}
