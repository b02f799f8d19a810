import { axisSize } from './lookup';
import { cellRows, partitionPairs } from './pairs';
import { fail, isObject, num, type Json } from './payloadReading';
import { axisBins } from './profile';
import type { FeatureType, PairAxis, PairTerm, PartitionModel, ProfileAxisBin } from './types';

/** A pair term in a partition's model JSON (`profile.interactions`): its profile entry with row counts for frequencies. */
export interface PairPayload {
  features: [string, string];
  bins: [ProfileAxisBin[], ProfileAxisBin[]];
  scores: number[][];
  /** The cells' standard deviations across the bags; absent in a model JSON written before them (read as none). */
  scores_std?: number[][];
  counts: number[][];
}

/** The partition's pair terms in model order, or nothing when it has none (its JSON then reads as before pairs). */
export function pairsPayload(part: PartitionModel): { interactions?: PairPayload[] } {
  const pairs = partitionPairs(part);
  if (!pairs.length) return {};
  return {
    interactions: pairs.map((pair) => {
      return {
        features: [pair.axes[0].feature, pair.axes[1].feature],
        bins: [axisBins(pair.axes[0]), axisBins(pair.axes[1])],
        scores: cellRows(pair, pair.score),
        ...(pair.std ? { scores_std: cellRows(pair, pair.std) } : {}),
        counts: cellRows(pair, pair.count),
      };
    }),
  };
}

/** The pair terms of `profile.interactions` (none when absent), checked against the partition's features. */
export function pairsFromPayload(v: unknown, featureTypes: ReadonlyMap<string, FeatureType>, path: string): PairTerm[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) return fail(path, 'must be an array of pair terms');
  return v.map((raw, k) => pairFromPayload(raw, featureTypes, `${path}[${k}]`));
}

function pairFromPayload(raw: unknown, featureTypes: ReadonlyMap<string, FeatureType>, path: string): PairTerm {
  if (!isObject(raw)) return fail(path, 'must be an object');
  const features = raw.features;
  if (!Array.isArray(features) || features.length !== 2 || features.some((f) => typeof f !== 'string')) {
    return fail(`${path}.features`, 'must name two features');
  }
  const [first, second] = features as string[];
  if (first === second) fail(`${path}.features`, `names ${first} twice`);
  const bins = Array.isArray(raw.bins) && raw.bins.length === 2 ? raw.bins : fail(`${path}.bins`, 'must hold the bins of both features');
  const axes = [first, second].map((feature, k) => {
    const type = featureTypes.get(feature) ?? fail(`${path}.features[${k}]`, `is ${feature}, not a feature of this partition`);
    return axisFromPayload(feature, type, bins[k], `${path}.bins[${k}]`);
  }) as [PairAxis, PairAxis];
  const shape = [axisSize(axes[0]), axisSize(axes[1])] as const;
  const std = raw.scores_std === undefined ? {} : { std: cells(raw.scores_std, shape, `${path}.scores_std`) };
  return { axes, score: cells(raw.scores, shape, `${path}.scores`), count: cells(raw.counts, shape, `${path}.counts`), ...std };
}

function axisFromPayload(feature: string, type: FeatureType, v: unknown, path: string): PairAxis {
  if (!Array.isArray(v) || v.length < 2) return fail(path, 'must list at least one value bin and the missing-value bin');
  if (!(isObject(v[v.length - 1]) && (v[v.length - 1] as Json).missing === true)) fail(path, 'must end with the missing-value bin (missing: true)');
  const valueBins = v.slice(0, -1).map((b, i) => (isObject(b) ? b : fail(`${path}[${i}]`, 'must be an object')));
  if (type === 'categorical') {
    const categories = valueBins.map((b, i) =>
      Array.isArray(b.categories) && b.categories.every((c) => typeof c === 'string') ? (b.categories as string[]) : fail(`${path}[${i}].categories`, 'must be a list of categories'),
    );
    return { feature, type, upper: null, categories };
  }
  const upper = Float64Array.from(valueBins, (b, i) => num(b.upper, `${path}[${i}].upper`, i === valueBins.length - 1 ? Infinity : NaN));
  upper.forEach((u, i) => {
    if (Number.isNaN(u)) fail(`${path}[${i}].upper`, 'must be a number (only the last value bin is open-ended)');
    if (i > 0 && !(u > upper[i - 1])) fail(`${path}[${i}].upper`, `must be above the bin before (${upper[i - 1]}), got ${u}`);
  });
  if (upper[upper.length - 1] !== Infinity) fail(`${path}[${upper.length - 1}].upper`, 'must be null: the last value bin is open-ended');
  return { feature, type, upper, categories: null };
}

function cells(v: unknown, [rows, width]: readonly [number, number], path: string): Float64Array {
  if (!Array.isArray(v) || v.length !== rows) return fail(path, `must have ${rows} rows, one per bin of the first feature`);
  const out = new Float64Array(rows * width);
  v.forEach((row, a) => {
    if (!Array.isArray(row) || row.length !== width) fail(`${path}[${a}]`, `must have ${width} values, one per bin of the second feature`);
    row.forEach((x, b) => {
      const value = num(x, `${path}[${a}][${b}]`);
      if (!Number.isFinite(value)) fail(`${path}[${a}][${b}]`, 'must be a finite number');
      out[a * width + b] = value;
    });
  });
  return out;
}
