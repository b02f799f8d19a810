import type { ChartKind, DatasetSummary, Goal, GoalInput, SummaryField } from '../../contract/autotrain';
import { needsDayFirst } from '../columns/columns';
import { exactColumns, fieldByName, mentionedColumns } from '../columns/fieldRoles';

/** A goal the dataset cannot answer (no known column, or none of the right type); the message says which. */
export class AutotrainInputError extends Error {
  constructor(message: string, readonly field: string) {
    super(message);
    this.name = 'AutotrainInputError';
  }
}

/** How a line chart groups timestamps. */
export type Period = 'exact' | 'day' | 'month';

export type ChartPlan =
  | { kind: 'histogram'; x: string }
  /** `share`: the bars are each level's percentage of the rows (a class balance) rather than counts. */
  | { kind: 'bar'; x: string; y: string | null; share?: true }
  | { kind: 'scatter'; x: string; y: string }
  | { kind: 'line'; x: string; y: string | null; period: Period; dayFirst: boolean }
  | { kind: 'box'; x: string | null; y: string }
  | { kind: 'heatmap'; value: 'correlation'; columns: string[] }
  | { kind: 'heatmap'; value: 'count'; x: string; y: string };

export interface ResolvedGoal {
  goal: Goal;
  title: string;
  plan: ChartPlan;
}

const KIND_KEYWORDS: [ChartKind, RegExp][] = [
  ['heatmap', /\bheat ?map|correlation matrix|correlations\b/i],
  ['box', /\bbox ?(plot|chart|and whisker)?s?\b|\bviolin/i],
  ['scatter', /\bscatter|\bmap\b/i],
  ['line', /\bline\b|\btrend|over time|time series/i],
  ['histogram', /\bhistogram|\bdistribution/i],
  ['bar', /\bbar\b|\bbars\b|\bcount|\bpie\b|\bcolumn chart/i],
];
const MAX_DISTINCT_EXACT = 500;
const DAY_MS = 86_400_000;
const MAX_HEATMAP_COLUMNS = 12;
const SHARE_RE = /\bbalance|\bshares?\b|\bproportions?\b|\bpercent/i;

function kindFromText(text: string): ChartKind | null {
  return KIND_KEYWORDS.find(([, re]) => re.test(text))?.[0] ?? null;
}

function linePeriod(field: SummaryField): Period {
  const p = field.properties;
  if (p.num_unique_values <= MAX_DISTINCT_EXACT) return 'exact';
  const span = (Date.parse(String(p.max)) - Date.parse(String(p.min))) / DAY_MS;
  return Number.isFinite(span) && span <= MAX_DISTINCT_EXACT ? 'day' : 'month';
}

function linePlan(date: SummaryField, y: string | null): ChartPlan {
  return { kind: 'line', x: date.column, y, period: linePeriod(date), dayFirst: needsDayFirst(date.properties.samples.map(String)) };
}

/** The chart of a kind for these columns, or null when the columns do not fit that kind. */
function planFor(kind: ChartKind, fields: SummaryField[], text: string): ChartPlan | null {
  const numeric = fields.filter((f) => f.properties.dtype === 'number');
  const groups = fields.filter((f) => ['category', 'boolean', 'string'].includes(f.properties.dtype));
  const dates = fields.filter((f) => f.properties.dtype === 'date');
  switch (kind) {
    case 'histogram':
      return numeric.length ? { kind, x: numeric[0].column } : null;
    case 'bar': {
      const x = groups[0] ?? (numeric.length === 1 && !/\bmean|average|avg\b/i.test(text) ? numeric[0] : undefined);
      if (!x) return null;
      const y = numeric.find((f) => f !== x)?.column ?? null;
      return y === null && SHARE_RE.test(text) ? { kind, x: x.column, y, share: true } : { kind, x: x.column, y };
    }
    case 'scatter':
      return numeric.length >= 2 ? { kind, x: numeric[0].column, y: numeric[1].column } : null;
    case 'line':
      return dates.length ? linePlan(dates[0], numeric[0]?.column ?? null) : null;
    case 'box':
      return numeric.length ? { kind, x: groups[0]?.column ?? null, y: numeric[0].column } : null;
    case 'heatmap':
      if (numeric.length >= 2) return { kind, value: 'correlation', columns: numeric.slice(0, MAX_HEATMAP_COLUMNS).map((f) => f.column) };
      return groups.length >= 2 ? { kind, value: 'count', y: groups[0].column, x: groups[1].column } : null;
  }
}

/** The chart the column types suggest (autotrain.md §7.5) when the text names no kind that fits. */
function planFromTypes(fields: SummaryField[], text: string): ChartPlan | null {
  const numeric = fields.filter((f) => f.properties.dtype === 'number').length;
  const order: ChartKind[] = fields.some((f) => f.properties.dtype === 'date')
    ? ['line']
    : numeric >= 3
      ? ['heatmap']
      : numeric === 2
        ? ['scatter']
        : numeric === 1 && fields.length > 1
          ? ['bar']
          : numeric === 1
            ? ['histogram']
            : ['bar', 'heatmap'];
  for (const kind of [...order, 'histogram', 'bar'] as ChartKind[]) {
    const plan = planFor(kind, fields, text);
    if (plan) return plan;
  }
  return null;
}

function goalFromText(text: string, columns: string[]): Goal {
  return { index: 0, question: text, visualization: text, rationale: '', columns };
}

/** Finds the goal's columns (listed, else mentioned in its text) and the chart that answers it. */
export function resolveGoal(summary: DatasetSummary, input: GoalInput): ResolvedGoal {
  const text = typeof input === 'string' ? input : `${input.visualization} ${input.question}`;
  const listed = typeof input === 'string' || !input.columns.length ? null : exactColumns(input.columns, summary.field_names);
  const columns = listed ?? mentionedColumns(text, summary.field_names);
  if (!columns.length) {
    throw new AutotrainInputError(
      `goal "${typeof input === 'string' ? input : input.visualization}" names no column of the dataset; name one of: ${summary.field_names.join(', ')}`,
      'goal',
    );
  }
  const goal = typeof input === 'string' ? goalFromText(input, columns) : { ...input, columns };
  const fields = columns.map((c) => fieldByName(summary, c)).filter((f): f is SummaryField => !!f);
  const wanted = kindFromText(typeof input === 'string' ? input : input.visualization) ?? kindFromText(text);
  const plan = (wanted && planFor(wanted, fields, text)) ?? planFromTypes(fields, text);
  if (!plan) {
    throw new AutotrainInputError(`goal "${goal.visualization}" uses only columns that cannot be charted (${columns.join(', ')})`, 'goal');
  }
  return { goal, title: goal.question, plan };
}

/** The columns a plan draws, in the order the chart uses them. */
export function planColumns(plan: ChartPlan): string[] {
  switch (plan.kind) {
    case 'histogram':
      return [plan.x];
    case 'heatmap':
      return plan.value === 'correlation' ? plan.columns : [plan.y, plan.x];
    case 'box':
      return plan.x ? [plan.x, plan.y] : [plan.y];
    default:
      return plan.y ? [plan.x, plan.y] : [plan.x];
  }
}
