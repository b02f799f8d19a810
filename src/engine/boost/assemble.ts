import type { BoostFeatureParams, BoostParams } from '../params/boosted';
import { emptyNumericStats } from '../model/featureStats';
import { DEFAULT_PARAMS } from '../params/xplainable';
import type { FeatureModel, Leaves, PartitionModel } from '../model/types';
import type { BinnedFeature } from './binning';
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
    const { feature, shift } = featureModel(bf, avg, y, ySum / n, input.featureParams);
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

/** Leaves are the bins (numeric) or the categories (categorical), then the missing-value bin. */
function featureModel(
  bf: BinnedFeature,
  binSteps: Float64Array,
  y: Float64Array,
  base: number,
  params: BoostFeatureParams,
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
  const score = shapeSteps(steps, count, bf.type === 'numeric', params);
  shift += centre(score, count);
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
  };
  return { feature, shift };
}
