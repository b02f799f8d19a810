import type { CategoryColumn, DataFrame, NumberColumn } from './frame';
import { histogram } from './histogram';
import { IDENTIFIER_SHARE } from './identifiers';
import { sortNumbers } from './radixSort';

/** Column health (transparent-models.md §10) and a distribution for display. */
export type HealthType = 'numeric' | 'categorical' | 'date' | 'text' | 'id' | 'empty';
export interface HealthInfo {
  missing_pct: number;
  min?: number | null;
  '25%'?: number | null;
  '75%'?: number | null;
  variance?: number | null;
  max?: number | null;
  mean?: number | null;
  median?: number | null;
  std?: number | null;
  skewness?: number | null;
  kurtosis?: number | null;
  nunique?: number;
  mode?: string | null;
  cardinality?: number;
  mixed_case?: number;
  mixed_type?: number;
  category_imbalance?: number;
}
export type Distribution =
  | { kind: 'histogram'; edges: number[]; counts: number[] }
  | { kind: 'categories'; values: { value: string; count: number }[] };
export interface ColumnHealth {
  feature: string;
  type: HealthType;
  health_info: HealthInfo;
  distribution: Distribution;
}

const HISTOGRAM_BINS = 20;
const TOP_CATEGORIES = 30;
const OTHER = '(other)';

const finite = (v: number): number | null => (Number.isFinite(v) ? v : null);

/**
 * Data-quality scan of every column (transparent-models.md §10) with a display distribution: a 20-bin histogram
 * for numbers and dates, the 30 most frequent values (plus an "(other)" bucket) for text.
 */
export function scanHealth(frame: DataFrame): ColumnHealth[] {
  // One buffer holds each numeric column's sorted values in turn, rather than a copy per column.
  let scratch: Float64Array | null = null;
  return frame.columns.map((c) => (c.storage === 'number' ? scanNumbers(c, frame.nRows, (scratch ??= new Float64Array(frame.nRows))) : scanCategories(c, frame.nRows)));
}

/** The values present (not NaN) sorted ascending, in the start of `scratch`. */
export function sortedPresent(values: Float64Array, scratch: Float64Array): Float64Array {
  let m = 0;
  for (const v of values) if (!Number.isNaN(v)) scratch[m++] = v;
  return sortNumbers(scratch.subarray(0, m));
}

function scanNumbers(col: NumberColumn, n: number, scratch: Float64Array): ColumnHealth {
  const present = sortedPresent(col.values, scratch);
  const m = present.length;
  const missing_pct = n ? (n - m) / n : 0;
  const distribution: Distribution = { kind: 'histogram', ...histogram(present, HISTOGRAM_BINS) };
  if (m === 0) return { feature: col.name, type: 'empty', health_info: { missing_pct: 1 }, distribution };
  if (col.type === 'date') return { feature: col.name, type: 'date', health_info: { missing_pct }, distribution };
  let unique = true;
  for (let i = 1; i < m && unique; i++) unique = present[i] !== present[i - 1];
  if (unique && m === n && n > 1) return { feature: col.name, type: 'id', health_info: { missing_pct }, distribution };
  const moments = sampleMoments(present);
  return {
    feature: col.name,
    type: 'numeric',
    health_info: {
      missing_pct,
      min: present[0],
      '25%': quantile(present, 0.25),
      mean: moments.mean,
      median: quantile(present, 0.5),
      '75%': quantile(present, 0.75),
      max: present[m - 1],
      std: finite(Math.sqrt(moments.variance)),
      skewness: finite(moments.skewness),
      kurtosis: finite(moments.kurtosis),
      variance: finite(moments.variance),
    },
    distribution,
  };
}

/** Linear-interpolation quantile of sorted values (pandas' default). */
export function quantile(sorted: Float64Array, q: number): number {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.min(sorted.length - 1, lo + 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

/** Sample variance and bias-corrected skewness/excess kurtosis, as pandas computes them. */
function sampleMoments(x: Float64Array): { mean: number; variance: number; skewness: number; kurtosis: number } {
  const n = x.length;
  let mean = 0;
  for (const v of x) mean += v;
  mean /= n;
  let m2 = 0;
  let m3 = 0;
  let m4 = 0;
  for (const v of x) {
    const d = v - mean;
    m2 += d * d;
    m3 += d * d * d;
    m4 += d * d * d * d;
  }
  const variance = n > 1 ? m2 / (n - 1) : NaN;
  m2 /= n;
  m3 /= n;
  m4 /= n;
  const skewness = n > 2 ? (m2 === 0 ? 0 : ((m3 / m2 ** 1.5) * Math.sqrt(n * (n - 1))) / (n - 2)) : NaN;
  const kurtosis =
    n > 3 ? (m2 === 0 ? 0 : (((n + 1) * (m4 / (m2 * m2) - 3) + 6) * (n - 1)) / ((n - 2) * (n - 3))) : NaN;
  return { mean, variance, skewness, kurtosis };
}

function scanCategories(col: CategoryColumn, n: number): ColumnHealth {
  const counts = new Float64Array(col.levels.length);
  let present = 0;
  for (const c of col.codes) {
    if (c >= 0) {
      counts[c]++;
      present++;
    }
  }
  const used = [...col.levels.keys()].filter((k) => counts[k] > 0).sort((a, b) => counts[b] - counts[a]);
  const top = used.slice(0, TOP_CATEGORIES).map((k) => ({ value: col.levels[k], count: counts[k] }));
  const rest = used.slice(TOP_CATEGORIES).reduce((s, k) => s + counts[k], 0);
  const distribution: Distribution = { kind: 'categories', values: rest ? [...top, { value: OTHER, count: rest }] : top };
  const missing_pct = n ? (n - present) / n : 0;
  if (present === 0) return { feature: col.name, type: 'empty', health_info: { missing_pct: 1 }, distribution };
  const nunique = used.length;
  const cardinality = nunique / present;
  let mixedCase = 0;
  let mixedType = 0;
  for (const k of used) {
    const s = col.levels[k];
    if (/[A-Z]/.test(s) && /[a-z]/.test(s)) mixedCase += counts[k];
    if (/\d/.test(s) && /\D/.test(s)) mixedType += counts[k];
  }
  const mixed = { mixed_case: mixedCase / present, mixed_type: mixedType / present };
  if (cardinality === 1 && nunique > 1) {
    const text = used.some((k) => col.levels[k].includes(' '));
    return { feature: col.name, type: text ? 'text' : 'id', health_info: { missing_pct }, distribution };
  }
  if (cardinality > IDENTIFIER_SHARE) return { feature: col.name, type: 'text', health_info: { missing_pct, ...mixed }, distribution };
  let imbalance = 0;
  for (const k of used) imbalance += Math.abs(counts[k] / n - 1 / nunique) * nunique;
  const info: HealthInfo = {
    missing_pct,
    nunique,
    mode: col.levels[used[0]],
    cardinality,
    ...mixed,
    category_imbalance: imbalance / nunique,
  };
  return { feature: col.name, type: 'categorical', health_info: info, distribution };
}
