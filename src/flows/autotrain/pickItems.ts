import type { DatasetSummary, Goal, Label, Recommendation, SummaryField } from '../../contract/autotrain';
import { l10n } from '../../l10n/l10n';
import type { PickItem } from '../../prompts/prompter';

export function percent(fraction: number): string {
  return `${Math.round(fraction * 100)}%`;
}

function missingText(missing: number, rows: number): string {
  if (missing === 0) return l10n.t('no missing values');
  return l10n.t('{0} missing ({1})', missing, rows > 0 ? percent(missing / rows) : '—');
}

/** One row per column: name, dtype and semantic type, then unique and missing counts. */
export function columnItems(summary: DatasetSummary): PickItem<SummaryField>[] {
  return summary.fields.map((field) => {
    const { dtype, semantic_type, num_unique_values } = field.properties;
    const missing = summary.missing_values[field.column] ?? 0;
    return {
      label: field.column,
      description: semantic_type && semantic_type !== 'generic' ? `${dtype} · ${semantic_type}` : dtype,
      detail: l10n.t('{0} unique · {1}', num_unique_values, missingText(missing, summary.rows)),
      value: field,
    };
  });
}

/** `1,000 rows × 12 columns`. */
export function shapeText(summary: DatasetSummary): string {
  return l10n.t('{0} rows × {1} columns', summary.rows.toLocaleString('en-US'), summary.columns.length);
}

/** Labels best first (confidence, then the service's order); the first is marked as recommended. */
export function rankLabels(labels: readonly Label[]): Label[] {
  return labels
    .map((label, order) => ({ label, order }))
    .sort((a, b) => b.label.confidence - a.label.confidence || a.order - b.order)
    .map(({ label }) => label);
}

/** `current` (the label chosen before going Back) starts as the active row. */
export function labelItems(labels: readonly Label[], current?: Label): PickItem<Label>[] {
  return rankLabels(labels).map((label, rank) => ({
    label: label.column,
    description: rank === 0
      ? l10n.t('{0} · {1} confidence · recommended', label.model_type, percent(label.confidence))
      : l10n.t('{0} · {1} confidence', label.model_type, percent(label.confidence)),
    detail: label.alternatives.length
      ? l10n.t('{0} Alternatives: {1}.', label.reasoning, label.alternatives.join(', '))
      : label.reasoning,
    picked: label.column === current?.column,
    value: label,
  }));
}

export function goalItems(goals: readonly Goal[], picked: readonly Goal[] | undefined): PickItem<Goal>[] {
  return goals.map((goal) => ({
    label: goal.question,
    description: goal.visualization,
    detail: goal.rationale,
    picked: picked ? picked.some((g) => g.index === goal.index) : false,
    value: goal,
  }));
}

/** Every recommendation is pre-selected until the user has made a choice (kept when coming back). */
export function recommendationItems(
  recommendations: readonly Recommendation[],
  picked: readonly Recommendation[] | undefined,
): PickItem<Recommendation>[] {
  return recommendations.map((rec) => ({
    label: rec.feature_name,
    description: l10n.t('{0} · {1} · {2} complexity', rec.step.type, rec.columns.join(', '), rec.complexity),
    detail: rec.expected_impact ? `${rec.description} ${rec.expected_impact}` : rec.description,
    picked: picked ? picked.some((r) => r.index === rec.index) : true,
    value: rec,
  }));
}
