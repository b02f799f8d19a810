import type { Dataset } from '../contract/datasets';
import type { Evaluation, FeatureInfoEntry, ModelInfo, ModelPayload, ModelProfile, ModelVersion, Partition, PartitionProfile } from '../contract/models';
import { scoringTablesFromPayload, type ExportTables, type ScoringTables } from '../modelExport';
import { partitionLabel } from '../views/format';
import type { Block } from './document';

/** Everything a model report shows, as the service's routes answer it, so that its numbers are theirs. */
export interface ModelReportInput {
  model: ModelInfo;
  version: ModelVersion;
  /** The dataset the version was fitted on, when it has one and the service still stores it. */
  dataset: Dataset | null;
  profile: ModelProfile;
  /** Every partition of the version with its evaluation (null when none is recorded), as GET evaluation answers it. */
  partitions: { partition: Partition; evaluation: Evaluation | null }[];
  featureInfo: FeatureInfoEntry[];
  payload: ModelPayload;
  /** When the report was made (ISO 8601). */
  generatedAt: string;
  /** What made it, e.g. "XModels 0.3.0". */
  generator: string;
}

export type ModelKind = 'binary' | 'regression' | 'multiclass';

/** A partition's profile as the report shows it: one per partition, and one per class of a multiclass model. */
export interface ProfileUnit {
  /** The class of a multiclass model's one-vs-rest model; undefined for the mean over classes and other models. */
  className?: string;
  /** The mean over the class models of a multiclass partition: importances only. */
  allClasses?: boolean;
  profile: PartitionProfile;
}

/** One partition of the version: its figures, evaluation and profile units. */
export interface ReportPart {
  key: string;
  label: string;
  index: number;
  partition: Partition | undefined;
  evaluation: Evaluation | null;
  units: ProfileUnit[];
}

export interface ReportView {
  input: ModelReportInput;
  /** "<model> v<N>". */
  name: string;
  kind: ModelKind;
  tables: ExportTables;
  /** How a score becomes the output (a multiclass model's class models share it). */
  link: ScoringTables['link'];
  /** The whole-data partition first. */
  parts: ReportPart[];
  partitioned: boolean;
}

const DATASET = '__dataset__';

function unitsOf(profile: ModelProfile, key: string): ProfileUnit[] {
  if (profile.model_type !== 'multiclass_classification') {
    const found = profile.partitions.find((p) => p.partition === key);
    return found ? [{ profile: found }] : [];
  }
  const found = profile.partitions.find((p) => p.partition === key);
  if (!found) return [];
  const mean: PartitionProfile = { partition: key, base_value: NaN, feature_importances: found.feature_importances, numeric: {}, categorical: {} };
  return [
    { allClasses: true, profile: mean },
    ...found.per_class.map(({ class: className, ...rest }) => ({ className, profile: { partition: key, ...rest } })),
  ];
}

export function reportView(input: ModelReportInput): ReportView {
  const name = `${input.model.model_name} v${input.version.version_number}`;
  const type = input.profile.model_type;
  const kind: ModelKind = type === 'multiclass_classification' ? 'multiclass' : type === 'regression' ? 'regression' : 'binary';
  const keys = [...new Set([...input.profile.partitions.map((p) => p.partition), ...input.partitions.map((p) => p.partition.partition)])];
  const ordered = [...keys.filter((k) => k === DATASET), ...keys.filter((k) => k !== DATASET)];
  const parts = ordered.map((key, index): ReportPart => {
    const stored = input.partitions.find((p) => p.partition.partition === key);
    return { key, label: partitionLabel(key), index, partition: stored?.partition, evaluation: stored?.evaluation ?? null, units: unitsOf(input.profile, key) };
  });
  const tables = scoringTablesFromPayload(input.payload, name);
  const link = tables.modelType === 'multiclass' ? tables.classTables[0].link : tables.link;
  return { input, name, kind, tables, link, parts, partitioned: parts.length > 1 };
}

/** A binary classifier's labels as text: [negative, positive]. */
export function binaryLabels(view: ReportView): [string, string] {
  const labels = view.tables.modelType === 'classifier' ? view.tables.labels : null;
  return labels ? [String(labels[0]), String(labels[1])] : ['0', '1'];
}

/** A part's heading under a section (none when the model has one partition), so a section reads the same either way. */
export function partHeading(view: ReportView, section: string, part: ReportPart): Block[] {
  if (!view.partitioned) return [];
  const text = part.key === DATASET ? `${part.label} (rows of any other ${view.input.model.partition_on ?? 'partition'} value)` : `${view.input.model.partition_on ?? 'Partition'} = ${part.label}`;
  return [{ kind: 'heading', level: 3, text, id: `${section}-p${part.index}` }];
}

/** A profile unit's heading under its part: the class, or all classes; none for a binary or regression model. */
export function unitHeading(view: ReportView, section: string, part: ReportPart, unit: ProfileUnit, index: number): Block[] {
  if (unit.className === undefined && !unit.allClasses) return [];
  const text = unit.allClasses ? 'All classes (the mean over the class models)' : `Class ${unit.className}`;
  return [{ kind: 'heading', level: view.partitioned ? 4 : 3, text, id: `${section}-p${part.index}-c${index}` }];
}

/** A date and time of the wire (ISO 8601, UTC) as "2025-01-31 14:05 UTC". */
export function dateText(iso: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(iso);
  return match ? `${match[1]} ${match[2]} UTC` : iso;
}
