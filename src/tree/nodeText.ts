import type { Metrics, ModelInfo, ModelVersion, Partition } from '../contract';
import { l10n } from '../l10n/l10n';
import { WHOLE_DATA_LABEL } from '../views/format';
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
    if (metrics.accuracy !== null) return l10n.t('accuracy {0}', format(metrics.accuracy));
    return undefined;
  }
  if ('r2' in metrics && metrics.r2 !== null) return `R² ${format(metrics.r2)}`;
  return undefined;
}

/** `classifier`, `regressor`, or `classifier (3 classes)` for a multiclass model. */
export function modelKindText(model: ModelInfo): string {
  if (model.model_type !== 'multiclass_classification') return modelTypeLabel(model.model_type);
  return model.classes ? l10n.t('classifier ({0} classes)', model.classes.length) : l10n.t('multiclass classifier');
}

export function modelDescription(model: ModelInfo): string {
  const versions = model.number_of_versions === 1 ? l10n.t('1 version') : l10n.t('{0} versions', model.number_of_versions);
  return `${modelKindText(model)} · ${model.target_name} · ${versions}`;
}

export function versionLabel(version: ModelVersion): string {
  return `v${version.version_number}`;
}

/**
 * `AUC 0.912 · refit · 2026-11-22 01:05`, plus `· preprocessor` when one is linked: the metric first, so a narrow
 * sidebar still shows it; an objective other than the default follows it (`R² 0.120 · poisson · train · …`).
 */
export function versionDescription(version: ModelVersion): string {
  const metric = headlineMetric(version.test_metrics);
  const objective = version.parameters?.objective;
  const shown = typeof objective === 'string' && objective !== 'squared_error' && objective !== 'log_loss' ? [objective] : [];
  const parts = [...(metric ? [metric] : []), ...shown, version.source, shortDate(version.created)];
  if (version.linked_preprocessor) parts.push(l10n.t('preprocessor'));
  return parts.join(' · ');
}

export function partitionLabel(partition: Partition, partitionOn: string | null): string {
  if (partition.partition === WHOLE_DATASET) return WHOLE_DATA_LABEL;
  return partitionOn ? `${partitionOn} = ${partition.partition}` : partition.partition;
}

export function partitionDescription(partition: Partition): string {
  return l10n.t('{0} train · {1} test', partition.n_train, partition.n_test);
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
    row(l10n.t('Type'), `${modelKindText(model)} (${model.algorithm})`),
    ...(model.classes ? [row(l10n.t('Classes'), model.classes.join(', '))] : []),
    row(l10n.t('Target'), model.target_name),
    model.partition_on ? row(l10n.t('Partitioned on'), model.partition_on) : '',
    row(l10n.t('Versions'), String(model.number_of_versions)),
    row(l10n.t('Created'), l10n.t('{0} by {1}', shortDate(model.created), model.created_by)),
    row(l10n.t('Model id'), model.model_id),
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
    row(l10n.t('Source'), version.source),
    row(l10n.t('Created'), l10n.t('{0} by {1}', shortDate(version.created), version.created_by)),
    row(l10n.t('Partitions'), String(version.partitions)),
    version.linked_preprocessor ? row(l10n.t('Preprocessor'), l10n.t('linked (version {0})', version.linked_preprocessor.version_id)) : '',
    ...metrics.map(([name, value]) => row(l10n.t('Test {0}', name), (value as number).toFixed(4))),
    row(l10n.t('Version id'), version.version_id),
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
    row(l10n.t('Training rows'), String(partition.n_train)),
    row(l10n.t('Test rows'), String(partition.n_test)),
    row(l10n.t('Base value'), partition.base_value.toFixed(4)),
    row(l10n.t('Partition id'), partition.partition_id),
  ].join('\n');
}

export function messageTooltip(node: MessageNode): string {
  return node.kind === 'error' ? `${escapeMarkdown(node.message)}\n\n${l10n.t('Click to open the log.')}` : escapeMarkdown(node.message);
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
