import type { CategoricalBin, ModelProfile, NumericBin, PartitionProfile } from '../../../../src/contract';

const MISSING = { score: 0, mean: null, freq: 0.05, missing: true as const };

/** Numeric bins cut at `cuts`: (−∞, c0], (c0, c1], …, (cn, +∞), then the missing-value bin; bin i scores i. */
export function numericBins(cuts: number[]): NumericBin[] {
  const lowers = [null, ...cuts];
  return [...lowers.map((lower, i) => ({ lower, upper: cuts[i] ?? null, score: i, mean: null, freq: 0.1 })), MISSING];
}

/** One bin per category, in this order, then the missing-value bin. */
export function categoryBins(categories: string[]): CategoricalBin[] {
  return [...categories.map((category, i) => ({ category, score: i, mean: null, freq: 0.1 })), { ...MISSING, category: null }];
}

type Features = Pick<PartitionProfile, 'numeric' | 'categorical'>;

export function regressionProfile(parts: Record<string, Features>): ModelProfile {
  return {
    version_id: 'target',
    model_type: 'regression',
    target_name: 'spend',
    partitions: Object.entries(parts).map(([partition, features]) => ({ partition, base_value: 0, feature_importances: [], ...features })),
  };
}

export function multiclassProfile(classes: Record<string, Features>): ModelProfile {
  return {
    version_id: 'target',
    model_type: 'multiclass_classification',
    target_name: 'species',
    classes: Object.keys(classes),
    partitions: [
      {
        partition: '__dataset__',
        classes: Object.keys(classes),
        feature_importances: [],
        per_class: Object.entries(classes).map(([cls, features]) => ({ class: cls, base_value: 0, feature_importances: [], ...features })),
      },
    ],
  };
}
