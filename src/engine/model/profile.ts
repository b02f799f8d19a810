import { cellRows, partitionPairs } from './pairs';
import { datasetPartition, modelLink } from './predict';
import type { Link } from '../params/objective';
import type {
  FeatureImportance,
  FeatureModel,
  PairAxis,
  PairTerm,
  PartitionModel,
  Profile,
  ProfileAxisBin,
  ProfileCategoryBin,
  ProfileInteraction,
  ProfileNumericBin,
  ProfilePartition,
  TransparentModel,
} from './types';

/** §6: gini(bin frequencies, missing bin included) × Σ |bin score|, for a feature's leaves or a pair's cells. */
function importanceWeight(freq: ArrayLike<number>, score: ArrayLike<number>): number {
  let sq = 0;
  let abs = 0;
  for (let i = 0; i < freq.length; i++) {
    sq += freq[i] * freq[i];
    abs += Math.abs(score[i]);
  }
  return Math.min(1, Math.max(0, 1 - sq)) * abs;
}

/** Every feature's and pair's importance weight, normalised so that together they sum to 1 (all 0 when every score is). */
function importances(part: PartitionModel): { features: number[]; pairs: number[] } {
  const features = part.features.map((f) => importanceWeight(f.leaves.freq, f.leaves.score));
  const pairs = partitionPairs(part).map((p) => importanceWeight(cellFreq(p, part.nTrain), p.score));
  const total = [...features, ...pairs].reduce((a, b) => a + b, 0);
  const share = (w: number) => (total > 0 ? w / total : 0);
  return { features: features.map(share), pairs: pairs.map(share) };
}

function cellFreq(pair: PairTerm, nTrain: number): Float64Array {
  return Float64Array.from(pair.count, (c) => (nTrain > 0 ? c / nTrain : 0));
}

/**
 * §6: importance ∝ gini(leaf frequencies) × Σ |leaf score|, normalised with the pair terms' (same rule over their
 * cells) to sum 1. Sorted by descending importance. Defaults to the `__dataset__` model.
 */
export function featureImportances(model: TransparentModel | PartitionModel): FeatureImportance[] {
  const part = 'partitions' in model ? datasetPartition(model) : model;
  const shares = importances(part).features;
  return part.features.map((f, i) => ({ feature: f.name, importance: shares[i] })).sort((a, b) => b.importance - a.importance);
}

/** A pair axis' bins as the profile lists them: its value bins, then the missing-value bin. */
export function axisBins(axis: PairAxis): ProfileAxisBin[] {
  const bins: ProfileAxisBin[] = axis.upper
    ? Array.from(axis.upper, (upper, b) => ({ lower: b === 0 ? null : (axis.upper as Float64Array)[b - 1], upper: finiteOrNull(upper) }))
    : (axis.categories ?? []).map((categories) => ({ categories: [...categories] }));
  bins.push({ missing: true });
  return bins;
}

/** A partition's pair terms as the profile lists them, most important first. */
export function pairProfiles(part: PartitionModel): ProfileInteraction[] {
  const shares = importances(part).pairs;
  return partitionPairs(part)
    .map((pair, k): ProfileInteraction => {
      return {
        features: [pair.axes[0].feature, pair.axes[1].feature],
        importance: shares[k],
        bins: [axisBins(pair.axes[0]), axisBins(pair.axes[1])],
        scores: cellRows(pair, pair.score),
        scores_std: cellRows(pair, pair.std ?? new Float64Array(pair.score.length)),
        freq: cellRows(pair, cellFreq(pair, part.nTrain)),
      };
    })
    .sort((a, b) => b.importance - a.importance);
}

function wireModelType(model: TransparentModel): Profile['model_type'] {
  return model.modelType === 'classifier' ? 'binary_classification' : 'regression';
}

const finiteOrNull = (v: number): number | null => (Number.isFinite(v) ? v : null);

/** A feature's bins as the profile lists them: its value bins (or categories), then the missing-value bin. */
export function featureBins(f: FeatureModel): ProfileNumericBin[] | ProfileCategoryBin[] {
  const { lower, upper, score, mean, freq } = f.leaves;
  const std = (i: number) => f.leaves.std?.[i] ?? 0;
  const last = score.length - 1;
  if (f.type === 'numeric') {
    return Array.from(score, (_, i) =>
      i === last
        ? { score: score[i], score_std: std(i), mean: mean[i], freq: freq[i], missing: true as const }
        : { lower: finiteOrNull(lower[i]), upper: finiteOrNull(upper[i]), score: score[i], score_std: std(i), mean: mean[i], freq: freq[i] },
    );
  }
  const cats = f.categorical?.categories ?? [];
  return Array.from(score, (_, i) =>
    i === last
      ? { category: null, score: score[i], score_std: std(i), mean: mean[i], freq: freq[i], missing: true as const }
      : { category: cats[i], score: score[i], score_std: std(i), mean: mean[i], freq: freq[i] },
  );
}

/** A partition's profile; with a log link, every bin also carries its factor and the base value its rate. */
export function partitionProfile(part: PartitionModel, link: Link = 'identity'): ProfilePartition {
  const numeric: Record<string, ProfileNumericBin[]> = {};
  const categorical: Record<string, ProfileCategoryBin[]> = {};
  const withFactor = <T extends { score: number }>(bins: T[]): T[] => (link === 'log' ? bins.map((b) => ({ ...b, factor: Math.exp(b.score) })) : bins);
  for (const f of part.features) {
    if (f.type === 'numeric') numeric[f.name] = withFactor(featureBins(f) as ProfileNumericBin[]);
    else categorical[f.name] = withFactor(featureBins(f) as ProfileCategoryBin[]);
  }
  const interactions = pairProfiles(part);
  const ordinal = ordinalFeatures(part);
  return {
    partition: part.key,
    base_value: part.baseValue,
    ...(link === 'log' ? { base_rate: Math.exp(part.baseValue) } : {}),
    feature_importances: featureImportances(part),
    numeric,
    categorical,
    ...(interactions.length ? { interactions } : {}),
    ...(ordinal.length ? { ordinal } : {}),
  };
}

function ordinalFeatures(part: PartitionModel): string[] {
  return part.features.filter((f) => f.ordinal).map((f) => f.name);
}

/** The contract's Profile (without `version_id`, which the service adds). */
export function modelProfile(model: TransparentModel): Profile {
  const link = modelLink(model);
  return {
    model_type: wireModelType(model),
    link,
    target_name: model.target,
    partitions: [...model.partitions.values()].map((part) => partitionProfile(part, link)),
  };
}
