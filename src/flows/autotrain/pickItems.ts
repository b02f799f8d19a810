import type { DatasetSummary, Goal, Label, Recommendation, SummaryField } from '../../contract/autotrain';
import type { PickItem } from '../../prompts/prompter';

export function percent(fraction: number): string {
  return `${Math.round(fraction * 100)}%`;
}

function missingText(missing: number, rows: number): string {
  if (missing === 0) return 'no missing values';
  return `${missing} missing (${rows > 0 ? percent(missing / rows) : '—'})`;
}

/** One row per column: name, dtype and semantic type, then unique and missing counts. */
export function columnItems(summary: DatasetSummary): PickItem<SummaryField>[] {
  return summary.fields.map((field) => {
    const { dtype, semantic_type, num_unique_values } = field.properties;
    const missing = summary.missing_values[field.column] ?? 0;
    return {
      label: field.column,
      description: semantic_type && semantic_type !== 'generic' ? `${dtype} · ${semantic_type}` : dtype,
      detail: `${num_unique_values} unique · ${missingText(missing, summary.rows)}`,
      value: field,
    };
  });
}

/** `1,000 rows × 12 columns`. */
export function shapeText(summary: DatasetSummary): string {
  return `${summary.rows.toLocaleString('en-US')} rows × ${summary.columns.length} columns`;
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
    description: `${label.model_type} · ${percent(label.confidence)} confidence${rank === 0 ? ' · recommended' : ''}`,
    detail: label.alternatives.length
      ? `${label.reasoning} Alternatives: ${label.alternatives.join(', ')}.`
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
    description: `${rec.step.type} · ${rec.columns.join(', ')} · ${rec.complexity} complexity`,
    detail: rec.expected_impact ? `${rec.description} ${rec.expected_impact}` : rec.description,
    picked: picked ? picked.some((r) => r.index === rec.index) : true,
    value: rec,
  }));
}
