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

/**
 * The tree of at most four leaves that best fits a pair's cells: a cut of one axis' bins, then on each side a cut of
 * the other's (as FAST screens pairs and EBM boosts them). Numeric axes keep their bins in order, the missing-value
 * bin last; categorical axes order theirs by gradient ratio. Every leaf holds at least `minLeaf` rows.
 */
export function crossTree(s: CellSums, ordered: readonly [boolean, boolean], minLeaf: number): CrossTree {
  const total = leafScore(sum(s.g), sum(s.h), sum(s.c));
  const byRows = bestOrientation(s, 0, ordered, minLeaf);
  const byColumns = bestOrientation(s, 1, ordered, minLeaf);
  const best = byColumns.gain > byRows.gain ? byColumns : byRows;
  return { gain: best.gain - total, leafOf: best.leafOf };
}

function sum(a: Float64Array): number {
  let t = 0;
  for (let i = 0; i < a.length; i++) t += a[i];
  return t;
}

function leafScore(g: number, h: number, c: number): number {
  return h >= MIN_LEAF_HESSIAN ? (g * g) / Math.max(h, MIN_HESSIAN * c) : 0;
}

/** Sums per bin of one axis. */
function margins(s: CellSums, axis: 0 | 1): { g: Float64Array; h: Float64Array } {
  const n = axis === 0 ? s.height : s.width;
  const g = new Float64Array(n);
  const h = new Float64Array(n);
  for (let a = 0; a < s.height; a++) {
    for (let b = 0; b < s.width; b++) {
      const k = axis === 0 ? a : b;
      g[k] += s.g[a * s.width + b];
      h[k] += s.h[a * s.width + b];
    }
  }
  return { g, h };
}

function binOrder(s: CellSums, axis: 0 | 1, ordered: boolean): number[] {
  const n = axis === 0 ? s.height : s.width;
  const order = Array.from({ length: n }, (_, i) => i);
  if (ordered) return order;
  const m = margins(s, axis);
  const ratio = (i: number) => (m.h[i] > 0 ? m.g[i] / m.h[i] : 0);
  return order.sort((a, b) => ratio(a) - ratio(b));
}

/** The best split of one side's sums along the second axis' order: its score (Σ leaf scores) and where. */
function bestCut(g: Float64Array, h: Float64Array, c: Float64Array, order: number[], minLeaf: number): { score: number; at: number } {
  let G = 0;
  let H = 0;
  let C = 0;
  for (const k of order) {
    G += g[k];
    H += h[k];
    C += c[k];
  }
  let best = { score: leafScore(G, H, C), at: order.length };
  let gl = 0;
  let hl = 0;
  let cl = 0;
  for (let t = 1; t < order.length; t++) {
    const k = order[t - 1];
    gl += g[k];
    hl += h[k];
    cl += c[k];
    if (cl < minLeaf) continue;
    if (C - cl < minLeaf) break;
    const score = leafScore(gl, hl, cl) + leafScore(G - gl, H - hl, C - cl);
    if (score > best.score) best = { score, at: t };
  }
  return best;
}

/** The best four-leaf tree whose first cut is on `first` (0: the first axis' bins, 1: the second's). */
function bestOrientation(s: CellSums, first: 0 | 1, ordered: readonly [boolean, boolean], minLeaf: number): { gain: number; leafOf: Int32Array } {
  const second = first === 0 ? 1 : 0;
  const outer = binOrder(s, first, ordered[first]);
  const inner = binOrder(s, second, ordered[second]);
  const m = inner.length;
  const cell = (o: number, i: number) => (first === 0 ? o * s.width + i : i * s.width + o);
  const side = () => ({ g: new Float64Array(m), h: new Float64Array(m), c: new Float64Array(m) });
  const all = side();
  for (const o of outer) {
    for (let i = 0; i < m; i++) {
      const k = cell(o, i);
      all.g[i] += s.g[k];
      all.h[i] += s.h[k];
      all.c[i] += s.c[k];
    }
  }
  const left = side();
  const right = side();
  let best = { gain: -Infinity, at: outer.length, leftCut: m, rightCut: m };
  for (let t = 1; t <= outer.length; t++) {
    const o = outer[t - 1];
    for (let i = 0; i < m; i++) {
      const k = cell(o, i);
      left.g[i] += s.g[k];
      left.h[i] += s.h[k];
      left.c[i] += s.c[k];
    }
    if (t === outer.length) break;
    let rows = 0;
    for (let i = 0; i < m; i++) {
      right.g[i] = all.g[i] - left.g[i];
      right.h[i] = all.h[i] - left.h[i];
      right.c[i] = all.c[i] - left.c[i];
      rows += left.c[i];
    }
    if (rows < minLeaf || sum(right.c) < minLeaf) continue;
    const l = bestCut(left.g, left.h, left.c, inner, minLeaf);
    const r = bestCut(right.g, right.h, right.c, inner, minLeaf);
    if (l.score + r.score > best.gain) best = { gain: l.score + r.score, at: t, leftCut: l.at, rightCut: r.at };
  }
  const leafOf = new Int32Array(s.height * s.width);
  if (best.gain === -Infinity) return { gain: -Infinity, leafOf };
  const innerRank = new Int32Array(m);
  inner.forEach((i, rank) => (innerRank[i] = rank));
  outer.forEach((o, rank) => {
    const onLeft = rank < best.at;
    const cut = onLeft ? best.leftCut : best.rightCut;
    for (let i = 0; i < m; i++) leafOf[cell(o, i)] = (onLeft ? 0 : 2) + (innerRank[i] < cut ? 0 : 1);
  });
  return { gain: best.gain, leafOf };
}
