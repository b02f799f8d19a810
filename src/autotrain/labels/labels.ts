import type { DatasetSummary, Label, LabelsResponse } from '../../contract/autotrain';
import type { DataFrame } from '../../engine';
import { asList } from '../llm/jsonExtract';
import { trainability } from './labelRules';
import { askJson, compactFields, UnusableAnswerError, withRulesFallback } from '../llm/llmTask';
import { rowsOf, type Rows } from '../rows';
import { round } from '../columns/stats';
import { rareLabelClasses, type ScarceClass } from './trainingSplit';
import type { LlmEndpoint, TextGenContext } from '../llm/textgen';

const MODEL_TYPE_ALIASES: Record<string, Label['model_type']> = {
  classifier: 'classifier',
  classification: 'classifier',
  binary_classification: 'classifier',
  multiclass_classification: 'classifier',
  regressor: 'regressor',
  regression: 'regressor',
};

const SYSTEM = [
  'You are an expert machine-learning engineer. From a dataset summary, pick the columns that are good prediction targets.',
  'The training engine supports classification (a target with 2 to 50 values; rows of a class too rare to train are left out) and regression (a numeric target).',
  'Never pick identifiers, constants, dates or free text. Use the exact column names given.',
  'Answer with JSON only: {"labels": [{"column": string, "model_type": "classifier" | "regressor",',
  '"confidence": number between 0 and 1, "reasoning": string}]}, best first.',
].join(' ');

function validateLabels(summary: DatasetSummary, scarceByColumn: Record<string, ScarceClass[]>): (value: unknown) => Label[] {
  return (value) => {
    const problems: string[] = [];
    const labels: Label[] = [];
    for (const item of asList(value)) {
      const l = item as { column?: unknown; model_type?: unknown; confidence?: unknown; reasoning?: unknown };
      const field = summary.fields.find((f) => f.column === l?.column);
      if (!field) {
        problems.push(`column ${JSON.stringify(l?.column)} is not in the dataset`);
        continue;
      }
      const t = trainability(field, summary.missing_values[field.column] ?? 0, summary.rows);
      const modelType = MODEL_TYPE_ALIASES[String(l.model_type).toLowerCase()];
      if (!t.ok) {
        problems.push(`'${field.column}' cannot be a label because ${t.reason}`);
        continue;
      }
      if (modelType !== t.model_type) {
        problems.push(`'${field.column}' needs model_type ${t.model_type}, not ${JSON.stringify(l.model_type)}`);
        continue;
      }
      const scarce = modelType === 'classifier' ? (scarceByColumn[field.column] ?? []) : [];
      if (labels.some((x) => x.column === field.column)) continue;
      const confidence = typeof l.confidence === 'number' && Number.isFinite(l.confidence) ? Math.min(1, Math.max(0, l.confidence)) : 0.5;
      labels.push({
        column: field.column,
        model_type: modelType,
        confidence: round(confidence, 2),
        reasoning: typeof l.reasoning === 'string' ? l.reasoning : '',
        alternatives: [],
        ...(scarce.length ? { rare_classes: rareLabelClasses(scarce) } : {}),
      });
    }
    if (labels.length === 0) throw new UnusableAnswerError(problems.join('; ') || 'the answer names no label');
    const sorted = [...labels].sort((a, b) => b.confidence - a.confidence);
    return sorted.map((l) => ({ ...l, alternatives: sorted.filter((o) => o.column !== l.column).slice(0, 3).map((o) => o.column) }));
  };
}

/** The classes too rare to train of every column a model's answer may name as a classifier label. */
function scarceClassesOfCandidates(summary: DatasetSummary, rows: Rows): Promise<Record<string, ScarceClass[]>> {
  const candidates = summary.fields.filter((f) => f.properties.dtype !== 'number' && trainability(f, summary.missing_values[f.column] ?? 0, summary.rows).ok);
  return rows.answer({ rule: 'scarce-classes', columns: candidates.map((f) => f.column) });
}

async function labelsFromModel(llm: LlmEndpoint, summary: DatasetSummary, rows: Rows, signal?: AbortSignal): Promise<Label[]> {
  const scarce = await scarceClassesOfCandidates(summary, rows);
  const user = { name: summary.name, rows: summary.rows, fields: compactFields(summary.fields, summary.missing_values) };
  return askJson(llm, SYSTEM, user, validateLabels(summary, scarce), signal);
}

/**
 * Target-column candidates, best first (autotrain.md §7.3); the rows, when given, reveal rare classes, leaks and
 * consequences, and name the classes too rare to train of a model's answer (`rare_classes`).
 */
export async function generateLabels(summary: DatasetSummary, ctx: TextGenContext, frame?: DataFrame | Rows): Promise<LabelsResponse> {
  const rows = rowsOf(frame);
  const result = await withRulesFallback(
    ctx,
    'generate_labels',
    (llm) => labelsFromModel(llm, summary, rows, ctx.signal),
    () => rows.answer({ rule: 'label-ranking', summary }),
  );
  return { labels: result.value, source: result.source, warnings: result.warnings };
}

/** The label to train on: the most confident candidate, or null when there is none. */
export function pickLabel(labels: readonly Label[]): Label | null {
  return labels.reduce<Label | null>((best, l) => (best === null || l.confidence > best.confidence ? l : best), null);
}
