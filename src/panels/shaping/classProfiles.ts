import type { ModelProfile, PartitionProfile, Profile } from '../../contract/models';
import { partitionLabel } from './format';

/** The entry that shows a partition's importances over all classes (mean over the class models). */
export const ALL_CLASSES = 'All classes';

/**
 * The profile as the panel shows it. A multiclass profile becomes one entry per class (per partition when partitioned)
 * and an all-classes entry with the overall importances, so the panel's picker chooses the class; `classes` is set
 * then. Binary and regression profiles pass through.
 */
export function panelProfile(profile: ModelProfile): { profile: Profile; classes?: string[] } {
  if (profile.model_type !== 'multiclass_classification') return { profile };
  const partitioned = profile.partitions.length > 1;
  const name = (label: string, partition: string) => (partitioned ? `${label} · ${partitionLabel(partition)}` : label);
  const partitions = profile.partitions.flatMap((p): PartitionProfile[] => [
    ...p.per_class.map(({ class: cls, ...rest }) => ({ partition: name(cls, p.partition), ...rest })),
    { partition: name(ALL_CLASSES, p.partition), base_value: NaN, feature_importances: p.feature_importances, numeric: {}, categorical: {} },
  ]);
  return {
    profile: { version_id: profile.version_id, model_type: 'binary_classification', target_name: profile.target_name, partitions },
    classes: profile.classes,
  };
}
