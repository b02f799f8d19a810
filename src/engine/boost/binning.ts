import type { Column } from '../data/frame';
import { numericLeafIndices } from '../model/lookup';

/** Most distinct categories that get a bin of their own; rarer ones share one bin while boosting. */
const MAX_CATEGORY_BINS = 255;
/** Cut points are found on at most this many values (an evenly strided sample of larger columns). */
const CUT_SAMPLE = 50_000;
/** Bins hold about this many rows at least, so small data gets few, well-filled bins. */
const MIN_ROWS_PER_BIN = 10;
/**
 * A category seen on fewer training rows than this is rare: the rare ones share one bin (as LightGBM's
 * `min_data_per_group`, whose default of 100 rows would leave a table of a few hundred rows no categories). One step
 * per rare category would let a name or a code learn its few rows' targets.
 */
const MIN_CATEGORY_ROWS = MIN_ROWS_PER_BIN;

/**
 * One feature's rows as bin codes. Bins 0..nBins−2 hold values; bin nBins−1 is the missing-value bin (also unseen
 * categories at prediction time). Numeric bins are ordered intervals (cuts[b−1], cuts[b]]; categorical bins have no
 * order.
 */
export interface BinnedFeature {
  name: string;
  type: 'numeric' | 'categorical';
  nBins: number;
  codes: Uint16Array;
  /** Numeric: the nBins − 2 ascending cut points. */
  cuts: Float64Array | null;
  /** Categorical: the categories seen in the rows (leaf order), the bin of each, and each row's category index. */
  categories: string[] | null;
  categoryBin: Int32Array | null;
  categoryOfRow: Int32Array | null;
  /** Categorical: its value bins are ordered (an ordinal feature: the categories in their given order, one bin each). */
  ordinal?: true;
  /** Categorical: some of its categories are rare and share a bin. */
  rare?: true;
}

/** Whether a feature's value bins are ordered: numeric and ordinal features. */
export function orderedBins(bf: BinnedFeature): boolean {
  return bf.type === 'numeric' || bf.ordinal === true;
}

export function binColumn(col: Column, maxBins: number, ordinal = false): BinnedFeature {
  if (col.storage === 'number') return binNumeric(col.name, col.values, maxBins);
  return ordinal ? binOrdinal(col.name, col.codes, col.levels) : binCategorical(col.name, col.codes, col.levels);
}

function binNumeric(name: string, x: Float64Array, maxBins: number): BinnedFeature {
  const cuts = numericCuts(x, maxBins);
  const missing = cuts.length + 1;
  const upper = new Float64Array(missing);
  upper.set(cuts);
  upper[cuts.length] = Infinity;
  // Bin numbers (at most 1,025) fit the codes' 16 bits, so the leaves are written there directly.
  const codes = new Uint16Array(x.length).fill(missing);
  numericLeafIndices(upper, missing, x, codes);
  return { name, type: 'numeric', nBins: missing + 1, codes, cuts, categories: null, categoryBin: null, categoryOfRow: null };
}

/**
 * Quantile cut points: midpoints between neighbouring distinct values, chosen so that each bin holds about
 * n / maxBins rows; every distinct value gets its own bin when there are few.
 */
export function numericCuts(x: Float64Array, maxBins: number): Float64Array {
  const stride = Math.max(1, Math.ceil(x.length / CUT_SAMPLE));
  const sample: number[] = [];
  for (let i = 0; i < x.length; i += stride) if (x[i] === x[i]) sample.push(x[i]);
  const sorted = Float64Array.from(sample).sort();
  const values: number[] = [];
  const counts: number[] = [];
  for (let i = 0; i < sorted.length; i++) {
    if (i > 0 && sorted[i] === sorted[i - 1]) counts[counts.length - 1]++;
    else {
      values.push(sorted[i]);
      counts.push(1);
    }
  }
  const cuts: number[] = [];
  maxBins = Math.max(2, Math.min(maxBins, Math.floor(sorted.length / MIN_ROWS_PER_BIN)));
  if (values.length <= maxBins) {
    for (let k = 1; k < values.length; k++) cuts.push(midpoint(values[k - 1], values[k]));
    return Float64Array.from(cuts);
  }
  let remaining = sorted.length;
  let binsLeft = maxBins;
  let inBin = 0;
  for (let k = 0; k < values.length - 1; k++) {
    inBin += counts[k];
    remaining -= counts[k];
    const target = (inBin + remaining) / binsLeft;
    if (inBin >= target && binsLeft > 1) {
      cuts.push(midpoint(values[k], values[k + 1]));
      binsLeft--;
      inBin = 0;
    }
  }
  return Float64Array.from(cuts);
}

function midpoint(a: number, b: number): number {
  const m = a + (b - a) / 2;
  return m > a && m <= b ? m : b;
}

function binCategorical(name: string, codes: Int32Array, levels: readonly string[]): BinnedFeature {
  const counts = new Float64Array(levels.length);
  for (let i = 0; i < codes.length; i++) if (codes[i] >= 0) counts[codes[i]]++;
  const present = [...counts.keys()].filter((c) => counts[c] > 0);
  const byCount = present.slice().sort((a, b) => counts[b] - counts[a] || a - b);
  const frequent = byCount.filter((c) => counts[c] >= MIN_CATEGORY_ROWS);
  const rare = frequent.length < present.length;
  const own = new Set(rare ? frequent.slice(0, MAX_CATEGORY_BINS - 1) : byCount.slice(0, present.length > MAX_CATEGORY_BINS ? MAX_CATEGORY_BINS - 1 : present.length));
  const binOfLevel = new Int32Array(levels.length).fill(-1);
  let next = 0;
  for (const c of present) if (own.has(c)) binOfLevel[c] = next++;
  const shared = present.length > own.size ? next++ : -1;
  for (const c of present) if (!own.has(c)) binOfLevel[c] = shared;
  const missing = next;
  const indexOfLevel = new Int32Array(levels.length).fill(-1);
  present.forEach((c, i) => (indexOfLevel[c] = i));
  const out = new Uint16Array(codes.length);
  const categoryOfRow = new Int32Array(codes.length);
  for (let i = 0; i < codes.length; i++) {
    out[i] = codes[i] < 0 ? missing : binOfLevel[codes[i]];
    categoryOfRow[i] = codes[i] < 0 ? present.length : indexOfLevel[codes[i]];
  }
  return {
    name,
    type: 'categorical',
    nBins: missing + 1,
    codes: out,
    cuts: null,
    categories: present.map((c) => levels[c]),
    categoryBin: Int32Array.from(present, (c) => binOfLevel[c]),
    categoryOfRow,
    ...(rare ? { rare: true as const } : {}),
  };
}

/** An ordinal feature's categories in their given order (its levels), one bin each; the missing-value bin last. */
function binOrdinal(name: string, codes: Int32Array, levels: readonly string[]): BinnedFeature {
  const bins = levels.length + 1;
  const out = new Uint16Array(codes.length);
  const categoryOfRow = new Int32Array(codes.length);
  for (let i = 0; i < codes.length; i++) out[i] = categoryOfRow[i] = codes[i] < 0 ? levels.length : codes[i];
  return {
    name,
    type: 'categorical',
    nBins: bins,
    codes: out,
    cuts: null,
    categories: [...levels],
    categoryBin: Int32Array.from(levels, (_, c) => c),
    categoryOfRow,
    ordinal: true,
  };
}
