import type { DatasetSummary, Insight, SummaryField } from '../../contract/autotrain';
import type { DataFrame } from '../../engine';
import { columnNumbers, columnTexts, levelCounts } from '../columns/columns';
import { fieldByName } from '../columns/fieldRoles';
import { correlationStrength, finite, fmt, mean, pearson, quantileSorted, round, skewness, sortedCopy, std } from '../columns/stats';
import { chartSpec, groupValues } from '../viz/chart';
import type { ChartPlan, ResolvedGoal } from '../viz/plan';

const MAX_COLUMN_INSIGHTS = 4;

function pct(share: number): string {
  return `${fmt(round(100 * share, 1))}%`;
}

function numericInsight(column: string, values: number[]): Insight | null {
  if (values.length < 2) return null;
  const sorted = sortedCopy(values);
  const q1 = quantileSorted(sorted, 0.25);
  const q3 = quantileSorted(sorted, 0.75);
  const iqr = q3 - q1;
  const outliers = values.filter((v) => v < q1 - 1.5 * iqr || v > q3 + 1.5 * iqr).length;
  const skew = skewness(values);
  const m = mean(values);
  const median = quantileSorted(sorted, 0.5);
  const shape = skew > 1 ? 'strongly right-skewed' : skew < -1 ? 'strongly left-skewed' : Math.abs(skew) > 0.5 ? 'moderately skewed' : 'roughly symmetric';
  return {
    title: `Distribution of ${column}`,
    detail: `${column} averages ${fmt(m)} (median ${fmt(median)}, std ${fmt(std(values))}) and is ${shape} (skew ${fmt(round(skew, 2))}); ${pct(outliers / values.length)} of values lie outside 1.5 IQR.`,
    columns: [column],
    evidence: {
      n: values.length,
      mean: round(m, 4),
      median: round(median, 4),
      std: round(std(values), 4),
      skew: round(skew, 4),
      min: sorted[0],
      max: sorted[sorted.length - 1],
      outlier_share: round(outliers / values.length, 4),
    },
  };
}

function categoryInsight(column: string, texts: (string | null)[]): Insight | null {
  const counts = levelCounts(texts);
  const total = counts.reduce((a, c) => a + c.count, 0);
  if (!counts.length || total === 0) return null;
  const [top, second] = counts;
  const evidence: Insight['evidence'] = { levels: counts.length, top: top.value, top_share: round(top.count / total, 4) };
  if (second) Object.assign(evidence, { second: second.value, second_share: round(second.count / total, 4) });
  return {
    title: `Most common ${column}`,
    detail: `'${top.value}' is the most common of ${counts.length} ${column} levels (${pct(top.count / total)} of rows)${second ? `, followed by '${second.value}' (${pct(second.count / total)})` : ''}.`,
    columns: [column],
    evidence,
  };
}

function missingInsight(column: string, missing: number, rows: number): Insight | null {
  if (missing === 0 || rows === 0) return null;
  return {
    title: `Missing values in ${column}`,
    detail: `${column} is missing in ${missing} of ${rows} rows (${pct(missing / rows)}).`,
    columns: [column],
    evidence: { missing, rows, missing_rate: round(missing / rows, 4) },
  };
}

function groupInsight(frame: DataFrame, category: string, numeric: string): Insight | null {
  const byGroup = groupValues(columnTexts(frame.column(category)), columnNumbers(frame.column(numeric)));
  const means = [...byGroup.entries()].map(([g, v]) => ({ g, m: mean(v) })).sort((a, b) => b.m - a.m);
  if (means.length < 2) return null;
  const hi = means[0];
  const lo = means[means.length - 1];
  const ratio = lo.m !== 0 ? hi.m / lo.m : null;
  return {
    title: `${numeric} by ${category}`,
    detail: `Mean ${numeric} is highest for '${hi.g}' (${fmt(hi.m)}) and lowest for '${lo.g}' (${fmt(lo.m)})${ratio !== null && ratio > 0 ? `, ${fmt(round(ratio, 2))} times as much` : ''}.`,
    columns: [category, numeric],
    evidence: { highest_group: hi.g, highest_mean: round(hi.m, 4), lowest_group: lo.g, lowest_mean: round(lo.m, 4), ratio: ratio === null ? null : round(ratio, 4), groups: means.length },
  };
}

function correlationInsight(frame: DataFrame, x: string, y: string): Insight | null {
  const { r, n } = pearson(columnNumbers(frame.column(x)), columnNumbers(frame.column(y)));
  if (r === null) return null;
  const strength = correlationStrength(r);
  return {
    title: `${x} and ${y}`,
    detail: `${x} and ${y} have a ${strength} ${r >= 0 ? 'positive' : 'negative'} linear relationship (Pearson r = ${fmt(round(r, 3))} over ${n} rows).`,
    columns: [x, y],
    evidence: { pearson_r: round(r, 4), strength, n },
  };
}

function trendInsight(frame: DataFrame, plan: Extract<ChartPlan, { kind: 'line' }>): Insight | null {
  const spec = chartSpec(plan, '', frame);
  if (spec.kind !== 'line' || spec.points.length < 2) return null;
  const first = spec.points[0];
  const last = spec.points[spec.points.length - 1];
  const peak = spec.points.reduce((a, b) => (b.y > a.y ? b : a));
  const change = first.y !== 0 ? (last.y - first.y) / Math.abs(first.y) : null;
  const measure = plan.y ?? 'row count';
  return {
    title: `${measure} over ${plan.x}`,
    detail: `${measure} went from ${fmt(first.y)} (${first.x}) to ${fmt(last.y)} (${last.x})${change === null ? '' : `, a ${fmt(round(100 * change, 1))}% change`}; it peaked at ${fmt(peak.y)} in ${peak.x}.`,
    columns: plan.y ? [plan.x, plan.y] : [plan.x],
    evidence: { first_period: first.x, first_value: first.y, last_period: last.x, last_value: last.y, pct_change: change === null ? null : round(100 * change, 4), peak_period: peak.x, peak_value: peak.y },
  };
}

function pairInsights(frame: DataFrame, fields: SummaryField[], plan: ChartPlan): Insight[] {
  const numeric = fields.filter((f) => f.properties.dtype === 'number').map((f) => f.column);
  const groups = fields.filter((f) => ['category', 'boolean'].includes(f.properties.dtype)).map((f) => f.column);
  const out: (Insight | null)[] = [];
  if (plan.kind === 'line') out.push(trendInsight(frame, plan));
  if (groups.length && numeric.length) out.push(groupInsight(frame, groups[0], numeric[0]));
  if (numeric.length >= 2) out.push(correlationInsight(frame, numeric[0], numeric[1]));
  return out.filter((i): i is Insight => i !== null);
}

function summaryOnlyInsight(field: SummaryField): Insight | null {
  const p = field.properties;
  if (p.dtype === 'number' && typeof p.min === 'number') {
    return {
      title: `Range of ${field.column}`,
      detail: `${field.column} ranges from ${fmt(p.min)} to ${fmt(p.max as number)} with mean ${fmt(p.mean as number)} and std ${fmt(p.std as number)}.`,
      columns: [field.column],
      evidence: { min: p.min, max: p.max as number, mean: round(p.mean as number, 4), std: round(p.std as number, 4) },
    };
  }
  if (p.dtype === 'date' && p.min !== undefined) {
    return {
      title: `Time span of ${field.column}`,
      detail: `${field.column} runs from ${p.min} to ${p.max}.`,
      columns: [field.column],
      evidence: { first: String(p.min), last: String(p.max) },
    };
  }
  return {
    title: `Levels of ${field.column}`,
    detail: `${field.column} has ${p.num_unique_values} distinct values, for example ${p.samples.map((s) => `'${s}'`).join(', ')}.`,
    columns: [field.column],
    evidence: { distinct: p.num_unique_values },
  };
}

/**
 * Facts about the goal's columns with the numbers they rest on (autotrain.md §7.6): computed from the rows when the
 * frame holds them, else from the summary's statistics.
 */
export function ruleInsights(summary: DatasetSummary, resolved: ResolvedGoal, frame: DataFrame | undefined): Insight[] {
  const fields = resolved.goal.columns.map((c) => fieldByName(summary, c)).filter((f): f is SummaryField => !!f).slice(0, MAX_COLUMN_INSIGHTS);
  const rows = frame && fields.every((f) => frame.has(f.column)) ? frame : undefined;
  const perColumn = fields.map((f) => {
    if (!rows) return summaryOnlyInsight(f);
    const col = rows.column(f.column);
    if (f.properties.dtype === 'number') return numericInsight(f.column, finite(columnNumbers(col)));
    if (f.properties.dtype === 'category' || f.properties.dtype === 'boolean') return categoryInsight(f.column, columnTexts(col));
    return summaryOnlyInsight(f);
  });
  const missing = fields.map((f) => missingInsight(f.column, summary.missing_values[f.column] ?? 0, summary.rows));
  return [...(rows ? pairInsights(rows, fields, resolved.plan) : []), ...perColumn, ...missing].filter((i): i is Insight => i !== null);
}
