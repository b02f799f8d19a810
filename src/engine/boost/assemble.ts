import type { BoostFeatureParams, BoostParams } from '../params/boosted';
import { emptyNumericStats } from '../model/featureStats';
import { DEFAULT_PARAMS } from '../params/xplainable';
import type { FeatureModel, Leaves, PartitionModel } from '../model/types';
import { orderedBins, type BinnedFeature } from './binning';
import type { BagResult } from './booster';
import { shapeSteps } from './shape';
import type { Link } from '../params/objective';

export interface BoostedPartitionInput {
  key: string;
  y: Float64Array;
  binned: BinnedFeature[];
  bags: BagResult[];
  params: BoostParams;
  featureParams: BoostFeatureParams;
  classifier: boolean;
  idColumns: string[];
  /** The rows each bag boosts on (its inner training and validation rows). */
  bagRows: number;
  /** A log link's predictions are not clipped: exp(score) × exposure exactly. */
  link?: Link;
}

/**
 * The model of one partition from its bags: the bags' steps averaged per bin, each feature's steps shaped
 * (smoothing, monotone constraint) and centred on the training rows so that the base value carries the average
 * prediction and every contribution says how far a row's value moves it.
 */
export function assembleBoostedPartition(input: BoostedPartitionInput): PartitionModel {
  const { y, binned, bags } = input;
  const n = y.length;
  let intercept = 0;
  for (const bag of bags) intercept += bag.intercept / bags.length;
  let yMin = Infinity;
  let yMax = -Infinity;
  let ySum = 0;
  for (let i = 0; i < n; i++) {
    ySum += y[i];
    if (y[i] < yMin) yMin = y[i];
    if (y[i] > yMax) yMax = y[i];
  }
  const features = binned.map((bf, j) => {
    const bins = bf.nBins;
    const avg = new Float64Array(bins);
    for (const bag of bags) for (let b = 0; b < bins; b++) avg[b] += bag.tables[j][b] / bags.length;
    const { feature, shift } = featureModel(bf, avg, y, ySum / n, input.featureParams, bags.map((bag) => bag.tables[j]), bagShare(input.bagRows, n, input.params.validation_size));
    intercept += shift;
    return feature;
  });
  return {
    key: input.key,
    nTrain: n,
    baseValue: intercept,
    params: { ...DEFAULT_PARAMS },
    alpha: 0,
    features,
    idColumns: input.idColumns,
    calibration: null,
    support: null,
    predictionRange: input.classifier || input.link === 'log' ? [-Infinity, Infinity] : [yMin, yMax],
    boost: { params: { ...input.params }, rounds: bags.map((b) => b.rounds) },
  };
}

/** Subtracts the count-weighted mean from steps in place and returns it. */
export function centre(steps: Float64Array, count: Float64Array): number {
  let total = 0;
  let weighted = 0;
  for (let b = 0; b < steps.length; b++) {
    total += count[b];
    weighted += count[b] * steps[b];
  }
  const mean = total > 0 ? weighted / total : 0;
  for (let b = 0; b < steps.length; b++) steps[b] -= mean;
  return mean;
}

/** The share of a partition's n rows each bag learns from: of its `rows`, those not held out to stop early. */
export function bagShare(rows: number, n: number, validationSize: number): number {
  return ((rows >= 20 ? 1 - validationSize : 1) * rows) / n;
}

/**
 * The standard error of each entry of the bags' average table, from the bags' spread: each bag learns from a share
 * `share` of the rows, so the bags differ less than fits on fresh data would, by √((1 − share)/share) (the
 * delete-d jackknife); their standard deviation is scaled back up by its inverse. 0 with one bag.
 */
export function spread(tables: readonly Float64Array[], share: number): Float64Array {
  const scale = share < 1 ? Math.sqrt(share / (1 - share)) : 1;
  const n = tables.length;
  const out = new Float64Array(n ? tables[0].length : 0);
  for (let k = 0; k < out.length; k++) {
    let mean = 0;
    for (const t of tables) mean += t[k] / n;
    let sq = 0;
    for (const t of tables) sq += (t[k] - mean) ** 2;
    out[k] = scale * Math.sqrt(sq / n);
  }
  return out;
}

/** Leaves are the bins (numeric) or the categories (categorical), then the missing-value bin. */
function featureModel(
  bf: BinnedFeature,
  binSteps: Float64Array,
  y: Float64Array,
  base: number,
  params: BoostFeatureParams,
  bagSteps: Float64Array[],
  share: number,
): { feature: FeatureModel; shift: number } {
  const n = y.length;
  const leafBins = bf.categoryBin ? Int32Array.from([...bf.categoryBin, bf.nBins - 1]) : Int32Array.from({ length: bf.nBins }, (_, b) => b);
  const leafOfRow = bf.categoryOfRow ?? bf.codes;
  const L = leafBins.length;
  const count = new Float64Array(L);
  const sum = new Float64Array(L);
  for (let i = 0; i < n; i++) {
    count[leafOfRow[i]]++;
    sum[leafOfRow[i]] += y[i];
  }
  const steps = Float64Array.from(leafBins, (b) => binSteps[b]);
  let shift = centre(steps, count);
  const score = shapeSteps(steps, count, orderedBins(bf), params);
  shift += centre(score, count);
  // Each bag's steps shaped and centred as the average's, so their spread is that of comparable scores.
  const bagScores = bagSteps.map((t) => {
    const bag = shapeSteps(Float64Array.from(leafBins, (b) => t[b]), count, orderedBins(bf), params);
    centre(bag, count);
    return bag;
  });
  const lower = new Float64Array(L).fill(NaN);
  const upper = new Float64Array(L).fill(NaN);
  if (bf.cuts) {
    for (let l = 0; l < L - 1; l++) {
      lower[l] = l === 0 ? -Infinity : bf.cuts[l - 1];
      upper[l] = l === L - 2 ? Infinity : bf.cuts[l];
    }
  }
  const mean = Float64Array.from(count, (c, l) => (c > 0 ? sum[l] / c : 0));
  const leaves: Leaves = {
    lower,
    upper,
    mean,
    count,
    freq: Float64Array.from(count, (c) => c / n),
    raw: steps,
    score,
    std: spread(bagScores, share),
  };
  const feature: FeatureModel = {
    name: bf.name,
    type: bf.type,
    params: { ...DEFAULT_PARAMS },
    nSamples: n,
    baseValue: base,
    missingCount: count[L - 1],
    missingSum: sum[L - 1],
    numeric: bf.type === 'numeric' ? emptyNumericStats() : null,
    categorical:
      bf.type === 'categorical' ? { categories: bf.categories as string[], counts: count.slice(0, L - 1), sums: sum.slice(0, L - 1) } : null,
    leaves,
    coef: null,
    boost: { params: { ...params }, steps },
    ...(bf.ordinal ? { ordinal: true as const } : {}),
  };
  return { feature, shift };
}
