import { growNumericTree, numericSplitStats } from './tree';
import type { CategoryStats, FeatureModel, Leaves, ModelParams } from '../model/types';

/** §2.6 activation of a leaf's frequency (classifier only). */
function activation(freq: number, p: ModelParams): number {
  const n = Math.pow(freq, p.weight);
  const half = Math.pow(50, p.power_degree);
  const dv = (Math.pow(100 * n - 50, p.power_degree) + half) / (2 * half);
  return p.sigmoid_exponent < 1 ? dv : 1 / (1 + Math.exp(-(dv - 0.5) * Math.pow(10, p.sigmoid_exponent)));
}

function rawScore(mean: number, freq: number, base: number, p: ModelParams, regressor: boolean): number {
  const d = mean - base;
  if (regressor) return Math.sign(d) * Math.pow(Math.abs(d), p.tail_sensitivity);
  return activation(freq, p) * d;
}

/** `min_leaf_size` as a row count: max(1, floor(fraction × N)), recomputed on every refit (§4 fixed). */
function absMinLeafSize(minLeafSize: number, n: number): number {
  return Math.max(1, Math.floor(minLeafSize * n));
}

/**
 * Rebuilds a feature's leaves from its cached statistics and its own params: the tree (numeric) or one leaf per
 * category, then the missing-value bin, each with its raw score. `score` starts equal to `raw`; the model-level
 * normalisation (classifier) or Ridge scaling (regressor) overwrites it.
 */
export function buildLeaves(f: Omit<FeatureModel, 'leaves' | 'coef'>, regressor: boolean): Leaves {
  const p = f.params;
  const lower: number[] = [];
  const upper: number[] = [];
  const mean: number[] = [];
  const count: number[] = [];
  if (f.numeric) {
    const grown = growNumericTree(f.numeric, {
      maxDepth: p.max_depth,
      minInfoGain: p.min_info_gain,
      absMinLeafSize: absMinLeafSize(p.min_leaf_size, f.nSamples),
      n: f.nSamples,
      base: f.baseValue,
    });
    for (const leaf of grown) {
      lower.push(leaf.lower);
      upper.push(leaf.upper);
      mean.push(leaf.mean);
      count.push(leaf.count);
    }
  } else {
    const c = f.categorical as CategoryStats;
    for (let k = 0; k < c.categories.length; k++) {
      lower.push(NaN);
      upper.push(NaN);
      count.push(c.counts[k]);
      mean.push(c.sums[k] / c.counts[k]);
    }
  }
  lower.push(NaN);
  upper.push(NaN);
  count.push(f.missingCount);
  mean.push(f.missingCount > 0 ? f.missingSum / f.missingCount : 0);
  const L = mean.length;
  const freq = new Float64Array(L);
  const raw = new Float64Array(L);
  for (let i = 0; i < L; i++) {
    freq[i] = count[i] / f.nSamples;
    raw[i] = i === L - 1 && f.missingCount === 0 ? 0 : rawScore(mean[i], freq[i], f.baseValue, p, regressor);
  }
  return {
    lower: Float64Array.from(lower),
    upper: Float64Array.from(upper),
    mean: Float64Array.from(mean),
    count: Float64Array.from(count),
    freq,
    raw,
    score: raw.slice(),
  };
}

export interface FeatureInput {
  name: string;
  params: ModelParams;
  base: number;
  regressor: boolean;
}

export function fitNumericFeature(input: FeatureInput, x: Float64Array, y: Float64Array, alpha: number): FeatureModel {
  const { stats, missingCount, missingSum } = numericSplitStats(x, y, alpha);
  return finishFeature(input, y.length, {
    type: 'numeric',
    numeric: stats,
    categorical: null,
    missingCount,
    missingSum,
  });
}

/**
 * §1.5: categories ordered by ascending mean target (ties by key), so codes follow their relation to the target.
 * Levels absent from these rows are left out; code −1 rows form the missing-value statistics.
 */
export function fitCategoricalFeature(
  input: FeatureInput,
  codes: Int32Array,
  levels: readonly string[],
  y: Float64Array,
): FeatureModel {
  const counts = new Float64Array(levels.length);
  const sums = new Float64Array(levels.length);
  let missingCount = 0;
  let missingSum = 0;
  for (let i = 0; i < codes.length; i++) {
    const c = codes[i];
    if (c < 0) {
      missingCount++;
      missingSum += y[i];
    } else {
      counts[c]++;
      sums[c] += y[i];
    }
  }
  const order = [...levels.keys()].filter((k) => counts[k] > 0);
  order.sort((a, b) => sums[a] / counts[a] - sums[b] / counts[b] || (levels[a] < levels[b] ? -1 : levels[a] > levels[b] ? 1 : 0));
  const stats: CategoryStats = {
    categories: order.map((k) => levels[k]),
    counts: Float64Array.from(order, (k) => counts[k]),
    sums: Float64Array.from(order, (k) => sums[k]),
  };
  return finishFeature(input, y.length, { type: 'categorical', numeric: null, categorical: stats, missingCount, missingSum });
}

function finishFeature(
  input: FeatureInput,
  n: number,
  parts: Pick<FeatureModel, 'type' | 'numeric' | 'categorical' | 'missingCount' | 'missingSum'>,
): FeatureModel {
  const core = { name: input.name, params: { ...input.params }, nSamples: n, baseValue: input.base, ...parts };
  return { ...core, leaves: buildLeaves(core, input.regressor), coef: null };
}
