import { MIN_HESSIAN, MIN_LEAF_HESSIAN } from './booster';

/** One pair's gradient, hessian and row sums per cell (cell a·width + b for bin a of the first axis, b of the second). */
export interface CellSums {
  g: Float64Array;
  h: Float64Array;
  c: Float64Array;
  height: number;
  width: number;
}

export function cellSums(height: number, width: number): CellSums {
  const n = height * width;
  return { g: new Float64Array(n), h: new Float64Array(n), c: new Float64Array(n), height, width };
}

/** The best tree of a pair: its gain over no split, and the leaf (0–3) of every cell. */
export interface CrossTree {
  gain: number;
  leafOf: Int32Array;
}

/** Where the best tree of one orientation cuts: `at` bins of the outer order go left, then each side's inner cut. */
interface Cuts {
  gain: number;
  first: 0 | 1;
  outer: Int32Array;
  inner: Int32Array;
  at: number;
  leftCut: number;
  rightCut: number;
}

/**
 * The tree of at most four leaves that best fits a pair's cells: a cut of one axis' bins, then on each side a cut of
 * the other's (as FAST screens pairs and EBM boosts them). Numeric axes keep their bins in order, the missing-value
 * bin last; categorical axes order theirs by gradient ratio. Every leaf holds at least `minLeaf` rows.
 */
export function crossTree(s: CellSums, ordered: readonly [boolean, boolean], minLeaf: number): CrossTree {
  const best = bestCuts(s, ordered, minLeaf);
  const leafOf = new Int32Array(s.height * s.width);
  if (best.gain === -Infinity) return { gain: -Infinity, leafOf };
  const [so, si] = best.first === 0 ? [s.width, 1] : [1, s.width];
  const innerRank = new Int32Array(best.inner.length);
  best.inner.forEach((i, rank) => (innerRank[i] = rank));
  best.outer.forEach((o, rank) => {
    const onLeft = rank < best.at;
    const cut = onLeft ? best.leftCut : best.rightCut;
    for (let i = 0; i < best.inner.length; i++) leafOf[o * so + i * si] = (onLeft ? 0 : 2) + (innerRank[i] < cut ? 0 : 1);
  });
  return { gain: best.gain, leafOf };
}

/** The gain of a pair's best four-leaf tree over no split (what screening needs, without the leaves). */
export function crossTreeGain(s: CellSums, ordered: readonly [boolean, boolean], minLeaf: number): number {
  return bestCuts(s, ordered, minLeaf).gain;
}

function bestCuts(s: CellSums, ordered: readonly [boolean, boolean], minLeaf: number): Cuts {
  const total = leafScore(sum(s.g), sum(s.h), sum(s.c));
  const byRows = bestOrientation(s, 0, ordered, minLeaf);
  const byColumns = bestOrientation(s, 1, ordered, minLeaf);
  const best = byColumns.gain > byRows.gain ? byColumns : byRows;
  return { ...best, gain: best.gain - total };
}

function sum(a: Float64Array): number {
  let t = 0;
  for (let i = 0; i < a.length; i++) t += a[i];
  return t;
}

function leafScore(g: number, h: number, c: number): number {
  return h >= MIN_LEAF_HESSIAN ? (g * g) / Math.max(h, MIN_HESSIAN * c) : 0;
}

/** An axis' bins in the order its cuts run: as they are (numeric), or by the ratio of their gradient sums. */
function binOrder(s: CellSums, axis: 0 | 1, ordered: boolean): Int32Array {
  const n = axis === 0 ? s.height : s.width;
  const order = Int32Array.from({ length: n }, (_, i) => i);
  if (ordered) return order;
  const g = new Float64Array(n);
  const h = new Float64Array(n);
  for (let a = 0; a < s.height; a++) {
    for (let b = 0; b < s.width; b++) {
      const k = axis === 0 ? a : b;
      g[k] += s.g[a * s.width + b];
      h[k] += s.h[a * s.width + b];
    }
  }
  const ratio = Float64Array.from(g, (v, i) => (h[i] > 0 ? v / h[i] : 0));
  return order.sort((a, b) => ratio[a] - ratio[b]);
}

/** One side's best split along the inner order: its score (Σ leaf scores) and where (the order's length: no split). */
interface SideCut {
  score: number;
  at: number;
}

/**
 * The best split of one side's sums (gradients in [0, m), hessians in [m, 2m), rows in [2m, 3m), per inner bin)
 * along the inner order, written into `cut`.
 */
function bestCut(sums: Float64Array, m: number, order: Int32Array, minLeaf: number, cut: SideCut): void {
  let G = 0;
  let H = 0;
  let C = 0;
  for (let t = 0; t < order.length; t++) {
    G += sums[order[t]];
    H += sums[m + order[t]];
    C += sums[2 * m + order[t]];
  }
  let score = leafScore(G, H, C);
  let at = order.length;
  let gl = 0;
  let hl = 0;
  let cl = 0;
  for (let t = 1; t < order.length; t++) {
    const k = order[t - 1];
    gl += sums[k];
    hl += sums[m + k];
    cl += sums[2 * m + k];
    if (cl < minLeaf) continue;
    if (C - cl < minLeaf) break;
    const split = leafScore(gl, hl, cl) + leafScore(G - gl, H - hl, C - cl);
    if (split > score) {
      score = split;
      at = t;
    }
  }
  cut.score = score;
  cut.at = at;
}

/** The best four-leaf tree whose first cut is on `first` (0: the first axis' bins, 1: the second's). */
function bestOrientation(s: CellSums, first: 0 | 1, ordered: readonly [boolean, boolean], minLeaf: number): Cuts {
  const outer = binOrder(s, first, ordered[first]);
  const inner = binOrder(s, first === 0 ? 1 : 0, ordered[first === 0 ? 1 : 0]);
  const m = inner.length;
  // Cell of outer bin o and inner bin i: o·so + i·si.
  const [so, si] = first === 0 ? [s.width, 1] : [1, s.width];
  const all = new Float64Array(3 * m);
  const left = new Float64Array(3 * m);
  const right = new Float64Array(3 * m);
  for (let t = 0; t < outer.length; t++) {
    const base = outer[t] * so;
    for (let i = 0; i < m; i++) {
      const k = base + i * si;
      all[i] += s.g[k];
      all[m + i] += s.h[k];
      all[2 * m + i] += s.c[k];
    }
  }
  let allRows = 0;
  for (let i = 0; i < m; i++) allRows += all[2 * m + i];
  const best: Cuts = { gain: -Infinity, first, outer, inner, at: outer.length, leftCut: m, rightCut: m };
  const l: SideCut = { score: 0, at: 0 };
  const r: SideCut = { score: 0, at: 0 };
  let leftRows = 0;
  for (let t = 1; t < outer.length; t++) {
    const base = outer[t - 1] * so;
    for (let i = 0; i < m; i++) {
      const k = base + i * si;
      left[i] += s.g[k];
      left[m + i] += s.h[k];
      left[2 * m + i] += s.c[k];
      leftRows += s.c[k];
    }
    if (leftRows < minLeaf || allRows - leftRows < minLeaf) continue;
    for (let i = 0; i < 3 * m; i++) right[i] = all[i] - left[i];
    bestCut(left, m, inner, minLeaf, l);
    bestCut(right, m, inner, minLeaf, r);
    if (l.score + r.score > best.gain) Object.assign(best, { gain: l.score + r.score, at: t, leftCut: l.at, rightCut: r.at });
  }
  return best;
}
