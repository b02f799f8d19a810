import { numberKey, numericValues, type Column } from '../data/frame';
import { lowerBound } from '../base/search';
import type { FeatureModel, PairAxis } from './types';

/**
 * The leaf every row falls in (§3): numeric values by a lower-bound search over the leaves' upper bounds, so
 * intervals are (lower, upper]; categories by their training code. Missing values, unseen categories and an absent
 * column go to the last leaf, the missing-value bin.
 */
export function leafIndices(f: FeatureModel, col: Column | undefined, n: number, into?: Int32Array): Int32Array {
  const missingLeaf = f.leaves.raw.length - 1;
  const out = (into ?? new Int32Array(n)).fill(missingLeaf);
  if (!col) return out;
  if (f.type === 'numeric') {
    numericLeafIndices(f.leaves.upper, missingLeaf, numericValues(col), out);
    return out;
  }
  const index = new Map<string, number>();
  (f.categorical?.categories ?? []).forEach((c, i) => index.set(c, i));
  categoryIndices(index, col, n, missingLeaf, out);
  return out;
}

/** The number of bins of a pair term's axis, its missing-value bin included. */
export function axisSize(axis: PairAxis): number {
  return (axis.upper?.length ?? axis.categories?.length ?? 0) + 1;
}

/** The bin of a pair term's axis every row falls in, as leafIndices finds a feature's leaf. */
export function axisIndices(axis: PairAxis, col: Column | undefined, n: number, into?: Int32Array): Int32Array {
  const missing = axisSize(axis) - 1;
  const out = (into ?? new Int32Array(n)).fill(missing);
  if (!col) return out;
  if (axis.upper) {
    numericLeafIndices(axis.upper, missing, numericValues(col), out);
    return out;
  }
  const index = new Map<string, number>();
  (axis.categories ?? []).forEach((group, b) => group.forEach((c) => index.set(c, b)));
  categoryIndices(index, col, n, missing, out);
  return out;
}

/** Each row's index of its category in `index` (unseen categories: `missing`); missing values keep out's value. */
function categoryIndices(index: Map<string, number>, col: Column, n: number, missing: number, out: Int32Array): void {
  if (col.storage === 'category') {
    const byLevel = Int32Array.from(col.levels, (l) => index.get(l) ?? missing);
    for (let r = 0; r < n; r++) if (col.codes[r] >= 0) out[r] = byLevel[col.codes[r]];
    return;
  }
  for (let r = 0; r < n; r++) {
    const key = numberKey(col.values[r]);
    if (key !== null) out[r] = index.get(key) ?? missing;
  }
}

const GRID_PER_LEAF = 4;
const MAX_GRID = 4096;

/**
 * For every non-missing x, the first leaf j < `leaves` with upper[j] ≥ x (a lower bound). A uniform grid over the
 * finite bounds gives each value a starting leaf that is at most a step or two away, which is several times faster
 * on large data than a binary search whose branches the processor cannot predict. The short scans in both
 * directions make the result exact whatever the rounding of the grid arithmetic.
 */
export function numericLeafIndices(upper: Float64Array, leaves: number, x: Float64Array, out: Int32Array | Uint16Array): void {
  let finite = 0;
  while (finite < leaves && Number.isFinite(upper[finite])) finite++;
  const lo = upper[0];
  const hi = upper[finite - 1];
  const grid = finite > 1 && hi > lo ? Math.min(MAX_GRID, finite * GRID_PER_LEAF) : 0;
  if (grid === 0) {
    for (let r = 0; r < x.length; r++) if (x[r] === x[r]) out[r] = lowerBound(upper, x[r], 0, leaves);
    return;
  }
  const scale = grid / (hi - lo);
  const start = new Int32Array(grid);
  for (let b = 0; b < grid; b++) start[b] = lowerBound(upper, lo + b / scale, 0, leaves);
  for (let r = 0; r < x.length; r++) {
    const v = x[r];
    if (v !== v) continue;
    const cell = Math.floor((v - lo) * scale);
    let j = start[cell < 0 ? 0 : cell >= grid ? grid - 1 : cell];
    while (j > 0 && upper[j - 1] >= v) j--;
    while (j < leaves && upper[j] < v) j++;
    out[r] = j;
  }
}
