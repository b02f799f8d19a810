import { ComplexitySchema, type DatasetSummary, type FeatureEngineeringResponse, type Recommendation } from '../../contract/autotrain';
import { PreprocessorStepSchema, type PreprocessorStep } from '../../contract/datasets';
import type { DataFrame } from '../../engine';
import { isMeasureField, stepColumns } from './featureRules';
import { asList } from '../llm/jsonExtract';
import { askJson, compactFields, UnusableAnswerError, withRulesFallback } from '../llm/llmTask';
import { rowsOf, type Rows } from '../rows';
import type { LlmEndpoint, TextGenContext } from '../llm/textgen';

type Draft = Omit<Recommendation, 'index'>;

const STEP_REFERENCE = [
  '{"type": "drop_columns", "columns": [string]}',
  '{"type": "fill_missing", "column": string, "strategy": "mean" | "median" | "mode" | "constant", "value"?: string | number}',
  '{"type": "log1p", "column": string}',
  '{"type": "clip", "column": string, "min"?: number, "max"?: number}',
  '{"type": "date_parts", "column": string, "parts": ["year" | "month" | "day" | "weekday" | "hour"]}',
  '{"type": "condense_categories", "column": string, "min_freq": number between 0 and 1}',
  '{"type": "text_clean", "column": string, "lower"?: boolean, "trim"?: boolean}',
  '{"type": "quantile_bins", "column": string, "bins": integer 2..100}',
  '{"type": "ratio", "numerator": string, "denominator": string, "name": string (a new column name)}',
].join('\n');

function systemPrompt(n: number): string {
  return [
    `You are an expert machine-learning engineer. Recommend ${n} feature-engineering steps for the dataset summarised by the user.`,
    'Each recommendation is exactly one preprocessor step of these shapes, using exact column names from field_names:',
    STEP_REFERENCE,
    'Answer with JSON only: {"recommendations": [{"feature_name": string, "description": string, "columns": [string],',
    '"step": <step>, "expected_impact": string, "complexity": "low" | "medium" | "high"}]}.',
  ].join('\n');
}

/** Steps that compute on a column's numbers, meaningless on flags and category codes. */
const NUMERIC_TRANSFORMS = new Set<PreprocessorStep['type']>(['log1p', 'clip', 'quantile_bins', 'ratio']);

function stepKey(step: PreprocessorStep): string {
  return JSON.stringify(step);
}

/** The step's problem with this dataset, or null when every column it reads exists (and a ratio's new name does not). */
function stepProblem(step: PreprocessorStep, summary: DatasetSummary): string | null {
  const columns = summary.field_names;
  const reads = step.type === 'ratio' ? [step.numerator, step.denominator] : stepColumns(step);
  const unknown = reads.filter((c) => !columns.includes(c));
  if (unknown.length) return `step ${step.type} names unknown column(s) ${unknown.map((c) => `'${c}'`).join(', ')}`;
  if (NUMERIC_TRANSFORMS.has(step.type)) {
    const codes = reads.filter((c) => !summary.fields.some((f) => f.column === c && isMeasureField(f)));
    if (codes.length) return `step ${step.type} transforms ${codes.map((c) => `'${c}'`).join(', ')}, which is a flag or a code, not a measurement`;
  }
  if (step.type === 'ratio' && columns.includes(step.name)) return `ratio name '${step.name}' already is a column`;
  return null;
}

function validateRecommendations(summary: DatasetSummary): (value: unknown) => Draft[] {
  return (value) => {
    const out: Draft[] = [];
    const problems: string[] = [];
    for (const item of asList(value)) {
      const r = item as Record<string, unknown>;
      const parsed = PreprocessorStepSchema.safeParse(r?.step);
      if (!parsed.success) {
        problems.push(`step ${JSON.stringify(r?.step)} is not a valid preprocessor step`);
        continue;
      }
      const problem = stepProblem(parsed.data, summary);
      if (problem) {
        problems.push(problem);
        continue;
      }
      const complexity = ComplexitySchema.safeParse(r.complexity);
      out.push({
        feature_name: typeof r.feature_name === 'string' && r.feature_name.trim() ? r.feature_name.trim() : `${parsed.data.type}_${stepColumns(parsed.data)[0]}`,
        description: typeof r.description === 'string' ? r.description.trim() : '',
        columns: stepColumns(parsed.data).filter((c) => summary.field_names.includes(c)),
        step: parsed.data,
        expected_impact: typeof r.expected_impact === 'string' ? r.expected_impact.trim() : '',
        complexity: complexity.success ? complexity.data : 'medium',
      });
    }
    if (out.length === 0) throw new UnusableAnswerError(problems.join('; ') || 'the answer holds no recommendations');
    return out;
  };
}

async function recommendationsFromModel(
  llm: LlmEndpoint,
  summary: DatasetSummary,
  n: number,
  rules: () => Promise<Recommendation[]>,
  signal?: AbortSignal,
): Promise<Recommendation[]> {
  const user = { n, name: summary.name, rows: summary.rows, field_names: summary.field_names, fields: compactFields(summary.fields, summary.missing_values) };
  const drafts = await askJson(llm, systemPrompt(n), user, validateRecommendations(summary), signal);
  const seen = new Set(drafts.map((d) => stepKey(d.step)));
  const fillers = (await rules()).filter((r) => !seen.has(stepKey(r.step)));
  return [...drafts, ...fillers].slice(0, n).map(({ index: _index, ...r }: Draft & { index?: number }, index) => ({ index, ...r }));
}

/** `n` feature-engineering recommendations, each a valid preprocessor step (autotrain.md §7.4). */
export async function generateFeatureEngineering(
  summary: DatasetSummary,
  n: number,
  ctx: TextGenContext,
  options: { frame?: DataFrame | Rows } = {},
): Promise<FeatureEngineeringResponse> {
  const rules = () => rowsOf(options.frame).answer({ rule: 'recommendations', summary });
  const result = await withRulesFallback(
    ctx,
    'generate_feature_engineering',
    (llm) => recommendationsFromModel(llm, summary, n, rules, ctx.signal),
    async () => (await rules()).slice(0, n),
  );
  return { recommendations: result.value, source: result.source, warnings: result.warnings };
}

/**
 * The recommendations' steps in order, ready for a preprocessor version: steps that touch the target are left out,
 * as are repeats and steps on columns an earlier step dropped.
 */
export function stepsFromRecommendations(recs: readonly Pick<Recommendation, 'step'>[], target?: string): PreprocessorStep[] {
  const steps: PreprocessorStep[] = [];
  const seen = new Set<string>();
  const dropped = new Set<string>();
  for (const { step } of recs) {
    let s = step;
    if (s.type === 'drop_columns') {
      const columns = s.columns.filter((c) => c !== target && !dropped.has(c));
      if (!columns.length) continue;
      s = { type: 'drop_columns', columns };
    } else if (stepColumns(s).some((c) => c === target || dropped.has(c))) continue;
    const key = stepKey(s);
    if (seen.has(key)) continue;
    seen.add(key);
    if (s.type === 'drop_columns') s.columns.forEach((c) => dropped.add(c));
    steps.push(s);
  }
  return steps;
}
