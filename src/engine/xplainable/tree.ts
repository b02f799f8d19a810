import { lowerBound } from '../base/search';
import type { NumericStats } from '../model/types';

/** Split statistics of one numeric feature plus its missing-value totals (transparent-models.md §13 steps 1–2). */
export interface NumericFit {
  stats: NumericStats;
  missingCount: number;
  missingSum: number;
}

/**
 * One pass over the feature after a single sort of its values: distinct values with their row counts and target sums,
 * then the candidate splits of §2.2 with prefix counts/sums. NaN rows are left out of every split statistic.
 */
export function numericSplitStats(x: Float64Array, y: Float64Array, alpha: number): NumericFit {
  const { values, targets, missingCount, missingSum } = sortWithTargets(x, y);
  const m = values.length;
  let u = 0;
  for (let i = 0; i < m; i++) if (i === 0 || values[i] !== values[i - 1]) u++;
  const distinct = new Float64Array(u);
  const cnt = new Float64Array(u);
  const sum = new Float64Array(u);
  for (let i = 0, k = -1; i < m; i++) {
    if (i === 0 || values[i] !== values[i - 1]) distinct[++k] = values[i];
    cnt[k]++;
    sum[k] += targets[i];
  }
  const nb = Math.floor((Math.pow(u, 1 - alpha) - 1) / (1 - alpha)) + 1;
  const stride = Math.max(1, Math.floor(u / nb) || 1);
  const nSplits = u > 1 ? Math.floor((u - 2) / stride) + 1 : 0;
  const splits = new Float64Array(nSplits);
  const leftCounts = new Float64Array(nSplits);
  const leftSums = new Float64Array(nSplits);
  let cc = 0;
  let cs = 0;
  let k = 0;
  for (let c = 0; c < nSplits; c++) {
    const at = c * stride;
    for (; k <= at; k++) {
      cc += cnt[k];
      cs += sum[k];
    }
    splits[c] = (distinct[at] + distinct[at + 1]) / 2;
    leftCounts[c] = cc;
    leftSums[c] = cs;
  }
  for (; k < u; k++) {
    cc += cnt[k];
    cs += sum[k];
  }
  return { stats: { splits, leftCounts, leftSums, totalCount: cc, totalSum: cs }, missingCount, missingSum };
}

export interface GrowParams {
  maxDepth: number;
  minInfoGain: number;
  absMinLeafSize: number;
  /** Global sample count (missing rows included) and global target mean. */
  n: number;
  base: number;
}

let cachedTable: { n: number; table: Float64Array } | null = null;

/**
 * log2(100·count/N) for every integer count 0..N, tabulated once per N: the split search evaluates it millions of
 * times on large data. Null when the statistics hold counts the table cannot index (non-integer or beyond N).
 */
function shareLogTable(n: number, stats: NumericStats): Float64Array | null {
  if (!Number.isInteger(n) || n > 50_000_000 || !(stats.totalCount <= n)) return null;
  for (let c = 0; c < stats.leftCounts.length; c++) if (!Number.isInteger(stats.leftCounts[c])) return null;
  if (cachedTable?.n !== n) {
    const table = new Float64Array(n + 1);
    for (let c = 0; c <= n; c++) table[c] = Math.log2((100 * c) / n);
    cachedTable = { n, table };
  }
  return cachedTable.table;
}

export interface GrownLeaf {
  lower: number;
  upper: number;
  count: number;
  mean: number;
}

/**
 * Grows the depth-limited tree of §2.4 over candidate-index ranges (lo, hi) using the prefix sums (§13 step 3).
 * Leaves come out in ascending interval order; each interval is (lower, upper].
 */
export function growNumericTree(stats: NumericStats, p: GrowParams): GrownLeaf[] {
  const { splits, leftCounts, leftSums, totalCount, totalSum } = stats;
  const S = splits.length;
  const cAt = (i: number): number => (i < 0 ? 0 : i >= S ? totalCount : leftCounts[i]);
  const sAt = (i: number): number => (i < 0 ? 0 : i >= S ? totalSum : leftSums[i]);
  const leaves: GrownLeaf[] = [];
  const table = shareLogTable(p.n, stats);
  const { absMinLeafSize: minLeaf, base, minInfoGain: mig, n } = p;
  const visit = (lo: number, hi: number, depth: number, count: number, mean: number): void => {
    let best = 0;
    let idx = -1;
    if (depth < p.maxDepth) {
      const cLo = cAt(lo);
      const sLo = sAt(lo);
      const cHi = cAt(hi);
      const sHi = sAt(hi);
      // Counts grow with c, so the candidates leaving both sides at least minLeaf rows form one range.
      const first = lowerBound(leftCounts, cLo + minLeaf, lo + 1, hi);
      for (let c = first; c < hi; c++) {
        const lc = leftCounts[c] - cLo;
        const rc = cHi - leftCounts[c];
        if (rc < minLeaf) break;
        const ld = Math.abs((leftSums[c] - sLo) / lc - base);
        const rd = Math.abs((sHi - leftSums[c]) / rc - base);
        if (ld < mig && rd < mig) continue;
        const score = table
          ? ld * table[lc] + rd * table[rc]
          : ld * Math.log2((100 * lc) / n) + rd * Math.log2((100 * rc) / n);
        if (score > best) {
          best = score;
          idx = c;
        }
      }
    }
    if (idx < 0) {
      leaves.push({ lower: lo < 0 ? -Infinity : splits[lo], upper: hi >= S ? Infinity : splits[hi], count, mean });
      return;
    }
    const lc = leftCounts[idx] - cAt(lo);
    const rc = cAt(hi) - leftCounts[idx];
    visit(lo, idx, depth + 1, lc, (leftSums[idx] - sAt(lo)) / lc);
    visit(idx, hi, depth + 1, rc, (sAt(hi) - leftSums[idx]) / rc);
  };
  visit(-1, S, 0, p.n, p.base);
  return leaves;
}


/** [word, shift]: two 16-bit digits per 32-bit word, low word first. */
const RADIX_PASSES: [number, number][] = [
  [0, 0],
  [0, 16],
  [1, 0],
  [1, 16],
];

/**
 * Non-missing values sorted ascending with their targets alongside: an LSD radix sort on the order-preserving
 * 64-bit image of each float (16-bit digits, passes whose digit is constant are skipped). Much faster than a
 * comparison sort on millions of rows.
 */
function sortWithTargets(
  x: Float64Array,
  y: Float64Array,
): { values: Float64Array; targets: Float64Array; missingCount: number; missingSum: number } {
  const n = x.length;
  let m = 0;
  let missingCount = 0;
  let missingSum = 0;
  for (let i = 0; i < n; i++) {
    if (x[i] === x[i]) m++;
    else {
      missingCount++;
      missingSum += y[i];
    }
  }
  const buffer = new ArrayBuffer(m * 8);
  const keyWords = new Uint32Array(buffer);
  const keyFloats = new Float64Array(buffer);
  let lo = new Uint32Array(m);
  let hi = new Uint32Array(m);
  let ty = new Float64Array(m);
  for (let i = 0, j = 0; i < n; i++) {
    const v = x[i];
    if (v !== v) continue;
    keyFloats[j] = v;
    ty[j++] = y[i];
  }
  for (let j = 0; j < m; j++) {
    const l = keyWords[2 * j];
    const h = keyWords[2 * j + 1];
    const negative = h >>> 31 === 1;
    lo[j] = negative ? ~l >>> 0 : l;
    hi[j] = negative ? ~h >>> 0 : (h | 0x80000000) >>> 0;
  }
  let lo2 = new Uint32Array(m);
  let hi2 = new Uint32Array(m);
  let ty2 = new Float64Array(m);
  const counts = new Uint32Array(1 << 16);
  const mask = 0xffff;
  for (const [w, shift] of RADIX_PASSES) {
    const word = w === 0 ? lo : hi;
    counts.fill(0);
    for (let j = 0; j < m; j++) counts[(word[j] >>> shift) & mask]++;
    if (m === 0 || counts[(word[0] >>> shift) & mask] === m) continue;
    let total = 0;
    for (let d = 0; d <= mask; d++) {
      const c = counts[d];
      counts[d] = total;
      total += c;
    }
    for (let j = 0; j < m; j++) {
      const to = counts[(word[j] >>> shift) & mask]++;
      lo2[to] = lo[j];
      hi2[to] = hi[j];
      ty2[to] = ty[j];
    }
    [lo, lo2] = [lo2, lo];
    [hi, hi2] = [hi2, hi];
    [ty, ty2] = [ty2, ty];
  }
  for (let j = 0; j < m; j++) {
    const negative = hi[j] >>> 31 === 0;
    keyWords[2 * j] = negative ? ~lo[j] >>> 0 : lo[j];
    keyWords[2 * j + 1] = negative ? ~hi[j] >>> 0 : (hi[j] & 0x7fffffff) >>> 0;
  }
  return { values: keyFloats, targets: ty, missingCount, missingSum };
}
