import type { Metrics, ModelInfo, ModelVersion, Partition } from '../contract';
import { WHOLE_DATA_LABEL } from '../panels/shaping/format';
import type { MessageNode, ModelNode, PartitionNode, VersionNode } from './nodes';

const WHOLE_DATASET = '__dataset__';

export function modelTypeLabel(modelType: ModelInfo['model_type']): 'classifier' | 'regressor' {
  return modelType === 'regression' ? 'regressor' : 'classifier';
}

/** `2026-11-22T01:05:09Z` -> `2026-11-22 01:05` (UTC, so the text is the same for every viewer). */
export function shortDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toISOString().slice(0, 16).replace('T', ' ');
}

/** The headline test metric: ROC AUC (else accuracy) for classifiers, R² for regressors. */
export function headlineMetric(metrics: Metrics | null | undefined): string | undefined {
  if (!metrics) return undefined;
  const format = (value: number) => value.toFixed(3);
  if ('roc_auc' in metrics) {
    if (metrics.roc_auc !== null) return `AUC ${format(metrics.roc_auc)}`;
    if (metrics.accuracy !== null) return `accuracy ${format(metrics.accuracy)}`;
    return undefined;
  }
  if ('r2' in metrics && metrics.r2 !== null) return `R² ${format(metrics.r2)}`;
  return undefined;
}

/** `classifier`, `regressor`, or `classifier (3 classes)` for a multiclass model. */
export function modelKindText(model: ModelInfo): string {
  if (model.model_type !== 'multiclass_classification') return modelTypeLabel(model.model_type);
  return model.classes ? `classifier (${model.classes.length} classes)` : 'multiclass classifier';
}

export function modelDescription(model: ModelInfo): string {
  const versions = `${model.number_of_versions} version${model.number_of_versions === 1 ? '' : 's'}`;
  return `${modelKindText(model)} · ${model.target_name} · ${versions}`;
}

export function versionLabel(version: ModelVersion): string {
  return `v${version.version_number}`;
}

/** `AUC 0.912 · refit · 2026-11-22 01:05`, plus `· preprocessor` when one is linked: the metric first, so a narrow sidebar still shows it. */
export function versionDescription(version: ModelVersion): string {
  const metric = headlineMetric(version.test_metrics);
  const parts = [...(metric ? [metric] : []), version.source, shortDate(version.created)];
  if (version.linked_preprocessor) parts.push('preprocessor');
  return parts.join(' · ');
}

export function partitionLabel(partition: Partition, partitionOn: string | null): string {
  if (partition.partition === WHOLE_DATASET) return WHOLE_DATA_LABEL;
  return partitionOn ? `${partitionOn} = ${partition.partition}` : partition.partition;
}

export function partitionDescription(partition: Partition): string {
  return `${partition.n_train} train · ${partition.n_test} test`;
}

/** Escapes text for a Markdown tooltip so names cannot inject links or formatting. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+!|<>~]/g, '\\$&');
}

const row = (name: string, value: string) => `| ${name} | ${escapeMarkdown(value)} |`;

export function modelTooltip({ model }: ModelNode): string {
  return [
    `**${escapeMarkdown(model.model_name)}**`,
    model.model_description ? `\n${escapeMarkdown(model.model_description)}` : '',
    '',
    '| | |',
    '|---|---|',
    row('Type', `${modelKindText(model)} (${model.algorithm})`),
    ...(model.classes ? [row('Classes', model.classes.join(', '))] : []),
    row('Target', model.target_name),
    model.partition_on ? row('Partitioned on', model.partition_on) : '',
    row('Versions', String(model.number_of_versions)),
    row('Created', `${shortDate(model.created)} by ${model.created_by}`),
    row('Model id', model.model_id),
  ]
    .filter((line) => line !== '')
    .join('\n');
}

export function versionTooltip({ version, model }: VersionNode): string {
  const metrics = version.test_metrics ? Object.entries(version.test_metrics).filter(([, value]) => typeof value === 'number') : [];
  return [
    `**${escapeMarkdown(model.model_name)} ${versionLabel(version)}**`,
    '',
    '| | |',
    '|---|---|',
    row('Source', version.source),
    row('Created', `${shortDate(version.created)} by ${version.created_by}`),
    row('Partitions', String(version.partitions)),
    version.linked_preprocessor ? row('Preprocessor', `linked (version ${version.linked_preprocessor.version_id})`) : '',
    ...metrics.map(([name, value]) => row(`Test ${name}`, (value as number).toFixed(4))),
    row('Version id', version.version_id),
  ]
    .filter((line) => line !== '')
    .join('\n');
}

export function partitionTooltip({ partition, model }: PartitionNode): string {
  return [
    `**${escapeMarkdown(partitionLabel(partition, model.partition_on))}**`,
    '',
    '| | |',
    '|---|---|',
    row('Training rows', String(partition.n_train)),
    row('Test rows', String(partition.n_test)),
    row('Base value', partition.base_value.toFixed(4)),
    row('Partition id', partition.partition_id),
  ].join('\n');
}

export function messageTooltip(node: MessageNode): string {
  return node.kind === 'error' ? `${escapeMarkdown(node.message)}\n\nClick to open the log.` : escapeMarkdown(node.message);
}

/** Versions newest first; partitions with the whole-data model first, then by value. */
export function sortVersions(versions: ModelVersion[]): ModelVersion[] {
  return [...versions].sort((a, b) => b.version_number - a.version_number);
}

export function sortPartitions(partitions: Partition[]): Partition[] {
  return [...partitions].sort((a, b) =>
    a.partition === WHOLE_DATASET ? -1 : b.partition === WHOLE_DATASET ? 1 : a.partition.localeCompare(b.partition, undefined, { numeric: true }),
  );
}
