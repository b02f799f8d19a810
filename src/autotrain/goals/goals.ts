import type { DatasetSummary, Goal, GoalsResponse } from '../../contract/autotrain';
import type { DataFrame } from '../../engine';
import { exactColumns, mentionedColumns } from '../columns/fieldRoles';
import { asList } from '../llm/jsonExtract';
import { askJson, compactFields, UnusableAnswerError, withRulesFallback } from '../llm/llmTask';
import { rowsOf, type Rows } from '../rows';
import type { LlmEndpoint, TextGenContext } from '../llm/textgen';

const DEFAULT_PERSONA = 'a highly skilled data analyst who looks for insightful, actionable patterns';

export interface GoalOptions {
  persona?: string;
  /** The dataset's rows, when available: lets the rules pick the most correlated pairs. */
  frame?: DataFrame | Rows;
}

function systemPrompt(n: number, persona: string): string {
  return [
    `You are an expert data analyst. Propose ${n} visualization goals for the dataset summarised by the user,`,
    `focused on the interests of ${persona}.`,
    'Follow visualization best practice: bar charts rather than pie charts for comparisons; histograms for distributions;',
    'scatter plots for two numeric columns; line charts over dates; box plots for a numeric column across groups; heatmaps for correlations.',
    'Each goal names the chart type and the exact column names from field_names in "visualization"; "columns" lists those exact names;',
    '"rationale" says which columns are used and what we learn.',
    'Answer with JSON only: {"goals": [{"question": string, "visualization": string, "rationale": string, "columns": [string]}]}.',
  ].join(' ');
}

function validateGoals(summary: DatasetSummary): (value: unknown) => Omit<Goal, 'index'>[] {
  return (value) => {
    const goals: Omit<Goal, 'index'>[] = [];
    const problems: string[] = [];
    for (const item of asList(value)) {
      const g = item as { question?: unknown; visualization?: unknown; rationale?: unknown; columns?: unknown };
      if (typeof g?.question !== 'string' || typeof g.visualization !== 'string' || !g.question.trim() || !g.visualization.trim()) {
        problems.push('a goal lacks question or visualization text');
        continue;
      }
      const listed = Array.isArray(g.columns) && g.columns.length ? exactColumns(g.columns, summary.field_names) : null;
      const columns = listed ?? mentionedColumns(`${g.visualization} ${g.question}`, summary.field_names);
      if (columns.length === 0) {
        problems.push(`goal "${g.visualization}" names no column of the dataset`);
        continue;
      }
      goals.push({
        question: g.question.trim(),
        visualization: g.visualization.trim(),
        rationale: typeof g.rationale === 'string' ? g.rationale.trim() : '',
        columns,
      });
    }
    if (goals.length === 0) throw new UnusableAnswerError(problems.join('; ') || 'the answer holds no goals');
    return goals;
  };
}

async function goalsFromModel(llm: LlmEndpoint, summary: DatasetSummary, n: number, rules: () => Promise<Goal[]>, persona: string, signal?: AbortSignal): Promise<Goal[]> {
  const user = {
    n,
    name: summary.name,
    rows: summary.rows,
    field_names: summary.field_names,
    fields: compactFields(summary.fields, summary.missing_values),
  };
  const drafts = await askJson(llm, systemPrompt(n, persona), user, validateGoals(summary), signal);
  const seen = new Set(drafts.map((d) => d.visualization.toLowerCase()));
  const fillers = (await rules()).filter((g) => !seen.has(g.visualization.toLowerCase()));
  return [...drafts, ...fillers].slice(0, n).map((g, index) => ({ ...g, index }));
}

/** `n` visualization goals (autotrain.md §7.2); model answers that name no real column are dropped and rules fill the gap. */
export async function generateGoals(summary: DatasetSummary, n: number, ctx: TextGenContext, options: GoalOptions = {}): Promise<GoalsResponse> {
  const rules = () => rowsOf(options.frame).answer({ rule: 'goals', summary, persona: options.persona });
  const result = await withRulesFallback(
    ctx,
    'generate_goals',
    (llm) => goalsFromModel(llm, summary, n, rules, options.persona ?? DEFAULT_PERSONA, ctx.signal),
    async () => (await rules()).slice(0, n),
  );
  return { goals: result.value, source: result.source, warnings: result.warnings };
}
