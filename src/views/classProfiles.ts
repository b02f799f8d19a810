import type { ModelProfile, PartitionProfile, Profile } from '../contract/models';
import { partitionLabel } from './format';

/** The entry that shows a partition's importances over all classes (mean over the class models). */
export const ALL_CLASSES = 'All classes';

/** The part of a version that a panel entry shows, as a hand edit names it. */
export interface EditScope {
  /** The partition's key. */
  partition: string;
  /** Multiclass: the class model shown. */
  class?: string;
  /** Whether edits name the partition: the version has more than one. */
  namesPartition: boolean;
}

/**
 * The profile as the panel shows it. A multiclass profile becomes one entry per class (per partition when partitioned)
 * and an all-classes entry with the overall importances, so the panel's picker chooses the class; `classes` is set
 * then. Binary and regression profiles pass through. `scopes` names the part of the version each entry shows (the
 * all-classes entries show none, and cannot be edited).
 */
export function panelProfile(profile: ModelProfile): { profile: Profile; classes?: string[]; scopes: Record<string, EditScope> } {
  const namesPartition = profile.partitions.length > 1;
  if (profile.model_type !== 'multiclass_classification') {
    const scopes = Object.fromEntries(profile.partitions.map((p) => [p.partition, { partition: p.partition, namesPartition }]));
    return { profile, scopes };
  }
  const name = (label: string, partition: string) => (namesPartition ? `${label} · ${partitionLabel(partition)}` : label);
  const scopes: Record<string, EditScope> = {};
  const partitions = profile.partitions.flatMap((p): PartitionProfile[] => [
    ...p.per_class.map(({ class: cls, ...rest }) => {
      const entry = name(cls, p.partition);
      scopes[entry] = { partition: p.partition, class: cls, namesPartition };
      return { partition: entry, ...rest };
    }),
    { partition: name(ALL_CLASSES, p.partition), base_value: NaN, feature_importances: p.feature_importances, numeric: {}, categorical: {} },
  ]);
  return {
    profile: { version_id: profile.version_id, model_type: 'binary_classification', target_name: profile.target_name, partitions },
    classes: profile.classes,
    scopes,
  };
}
