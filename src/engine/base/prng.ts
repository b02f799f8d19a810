/** mulberry32: a small seeded PRNG returning floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** About k of the rows 0..n−1, each kept with probability k/n (seeded), in ascending order; all of them when n ≤ k. */
export function sampleRows(n: number, k: number, seed: number): Int32Array {
  if (n <= k) return Int32Array.from({ length: n }, (_, i) => i);
  const random = mulberry32(seed);
  const keep = k / n;
  const rows = new Int32Array(n);
  let m = 0;
  for (let i = 0; i < n; i++) if (random() < keep) rows[m++] = i;
  return rows.slice(0, m);
}
