import { datasetPartition } from './predict';
import type {
  FeatureImportance,
  FeatureModel,
  PartitionModel,
  Profile,
  ProfileCategoryBin,
  ProfileNumericBin,
  ProfilePartition,
  TransparentModel,
} from './types';

/**
 * §6: importance_f ∝ gini(leaf frequencies, missing bin included) × Σ |leaf score|, normalised to sum 1
 * (all 0 when every score is 0). Sorted by descending importance. Defaults to the `__dataset__` model.
 */
export function featureImportances(model: TransparentModel | PartitionModel): FeatureImportance[] {
  const part = 'partitions' in model ? datasetPartition(model) : model;
  const weights = part.features.map((f) => {
    let sq = 0;
    let abs = 0;
    for (let i = 0; i < f.leaves.freq.length; i++) {
      sq += f.leaves.freq[i] * f.leaves.freq[i];
      abs += Math.abs(f.leaves.score[i]);
    }
    return Math.min(1, Math.max(0, 1 - sq)) * abs;
  });
  const total = weights.reduce((a, b) => a + b, 0);
  return part.features
    .map((f, i) => ({ feature: f.name, importance: total > 0 ? weights[i] / total : 0 }))
    .sort((a, b) => b.importance - a.importance);
}

function wireModelType(model: TransparentModel): Profile['model_type'] {
  return model.modelType === 'classifier' ? 'binary_classification' : 'regression';
}

const finiteOrNull = (v: number): number | null => (Number.isFinite(v) ? v : null);

/** A feature's bins as the profile lists them: its value bins (or categories), then the missing-value bin. */
export function featureBins(f: FeatureModel): ProfileNumericBin[] | ProfileCategoryBin[] {
  const { lower, upper, score, mean, freq } = f.leaves;
  const last = score.length - 1;
  if (f.type === 'numeric') {
    return Array.from(score, (_, i) =>
      i === last
        ? { score: score[i], mean: mean[i], freq: freq[i], missing: true as const }
        : { lower: finiteOrNull(lower[i]), upper: finiteOrNull(upper[i]), score: score[i], mean: mean[i], freq: freq[i] },
    );
  }
  const cats = f.categorical?.categories ?? [];
  return Array.from(score, (_, i) =>
    i === last
      ? { category: null, score: score[i], mean: mean[i], freq: freq[i], missing: true as const }
      : { category: cats[i], score: score[i], mean: mean[i], freq: freq[i] },
  );
}

export function partitionProfile(part: PartitionModel): ProfilePartition {
  const numeric: Record<string, ProfileNumericBin[]> = {};
  const categorical: Record<string, ProfileCategoryBin[]> = {};
  for (const f of part.features) {
    if (f.type === 'numeric') numeric[f.name] = featureBins(f) as ProfileNumericBin[];
    else categorical[f.name] = featureBins(f) as ProfileCategoryBin[];
  }
  return {
    partition: part.key,
    base_value: part.baseValue,
    feature_importances: featureImportances(part),
    numeric,
    categorical,
  };
}

/** The contract's Profile (without `version_id`, which the service adds). */
export function modelProfile(model: TransparentModel): Profile {
  return {
    model_type: wireModelType(model),
    target_name: model.target,
    partitions: [...model.partitions.values()].map(partitionProfile),
  };
}
