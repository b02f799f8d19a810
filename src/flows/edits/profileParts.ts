import type { CategoricalBin, ModelProfile, NumericBin } from '../../contract';

/** One model of a version as its profile lists it: a partition, or a class model of a multiclass partition. */
export interface ProfilePart {
  partition: string;
  /** The class of a multiclass model's class model; null otherwise. */
  class: string | null;
  numeric: Record<string, NumericBin[]>;
  categorical: Record<string, CategoricalBin[]>;
}

/** A feature's bins in one part, without the missing-value bin: the bins an edit's `[first, last]` counts. */
export type ValueBins = { kind: 'numeric'; bins: NumericBin[] } | { kind: 'categorical'; bins: CategoricalBin[] };

/** Every part of a profile, in the profile's order (partitions, then the classes of each). */
export function profileParts(profile: ModelProfile): ProfilePart[] {
  if (profile.model_type !== 'multiclass_classification') {
    return profile.partitions.map((p) => ({ partition: p.partition, class: null, numeric: p.numeric, categorical: p.categorical }));
  }
  return profile.partitions.flatMap((p) => p.per_class.map((c) => ({ partition: p.partition, class: c.class, numeric: c.numeric, categorical: c.categorical })));
}

export function valueBins(part: ProfilePart, feature: string): ValueBins | undefined {
  const numeric = Object.hasOwn(part.numeric, feature) ? part.numeric[feature] : undefined;
  if (numeric) return { kind: 'numeric', bins: numeric.filter((b) => !b.missing) };
  const categorical = Object.hasOwn(part.categorical, feature) ? part.categorical[feature] : undefined;
  return categorical ? { kind: 'categorical', bins: categorical.filter((b) => !b.missing) } : undefined;
}

/** The features of a part, numeric then categorical, as the profile lists them. */
export function partFeatures(part: ProfilePart): string[] {
  return [...Object.keys(part.numeric), ...Object.keys(part.categorical)];
}

/** The bounds of a numeric bin, null for an unbounded side. */
export function binBounds(bin: NumericBin): [number | null, number | null] {
  return [bin.lower ?? null, bin.upper ?? null];
}
