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
  const k = hi > lo ? bins : 1;
  const width = hi > lo ? (hi - lo) / k : 1;
  const edges = Array.from({ length: k + 1 }, (_, i) => (i === k ? (hi > lo ? hi : lo + 1) : lo + i * width));
  const counts = new Array<number>(k).fill(0);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (!Number.isFinite(v)) continue;
    counts[Math.min(k - 1, Math.floor((v - lo) / width))]++;
  }
  return { edges, counts };
}
