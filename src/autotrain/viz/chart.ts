import type { ChartSpec } from '../../contract/autotrain';
import type { DataFrame } from '../../engine';
import { columnNumbers, columnTexts, columnTimes, isoText, levelCounts } from '../columns/columns';
import { finite, mean, minMax, pearson, quantileSorted, round, sortedCopy } from '../columns/stats';
import { HISTOGRAM_BINS, TOP_LEVELS } from './code';
import { planColumns, type ChartPlan, type Period } from './plan';

const MAX_POINTS = 2000;

function histogramBins(values: number[]): Extract<ChartSpec, { kind: 'histogram' }>['bins'] {
  if (!values.length) return [];
  const { min, max } = minMax(values);
  if (min === max) return [{ lower: min, upper: max, count: values.length }];
  const width = (max - min) / HISTOGRAM_BINS;
  const counts = new Array<number>(HISTOGRAM_BINS).fill(0);
  for (const v of values) counts[Math.min(HISTOGRAM_BINS - 1, Math.floor((v - min) / width))]++;
  return counts.map((count, i) => ({ lower: round(min + i * width, 6), upper: round(i === HISTOGRAM_BINS - 1 ? max : min + (i + 1) * width, 6), count }));
}

/** The finite `ys` of every group (by the text of `groups`), groups in first-seen order. */
export function groupValues(groups: (string | null)[], ys: ArrayLike<number>): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (let i = 0; i < groups.length; i++) {
    const g = groups[i];
    if (g === null || !Number.isFinite(ys[i])) continue;
    const list = out.get(g);
    if (list) list.push(ys[i]);
    else out.set(g, [ys[i]]);
  }
  return out;
}

function periodLabel(ms: number, period: Period): string {
  if (period === 'month') return isoText(ms).slice(0, 7);
  if (period === 'day') return isoText(ms).slice(0, 10);
  return isoText(ms);
}

function periodStart(ms: number, period: Period): number {
  const d = new Date(ms);
  if (period === 'month') return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  if (period === 'day') return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  return ms;
}

function linePoints(frame: DataFrame, plan: Extract<ChartPlan, { kind: 'line' }>): { x: string; y: number }[] {
  const times = columnTimes(frame.column(plan.x));
  const ys = plan.y === null ? null : columnNumbers(frame.column(plan.y));
  const buckets = new Map<number, number[]>();
  for (let i = 0; i < times.length; i++) {
    if (!Number.isFinite(times[i]) || (ys && !Number.isFinite(ys[i]))) continue;
    const key = periodStart(times[i], plan.period);
    const list = buckets.get(key) ?? [];
    list.push(ys ? ys[i] : 1);
    buckets.set(key, list);
  }
  return [...buckets.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([t, list]) => ({ x: periodLabel(t, plan.period), y: round(ys ? mean(list) : list.length, 6) }));
}

function boxStats(label: string, values: number[]): Extract<ChartSpec, { kind: 'box' }>['groups'][number] {
  const s = sortedCopy(values);
  const q = (p: number): number => round(quantileSorted(s, p), 6);
  return { label, n: s.length, min: s[0], q1: q(0.25), median: q(0.5), q3: q(0.75), max: s[s.length - 1] };
}

/** A spec with empty data arrays, for when only the summary is known. */
function emptySpec(plan: ChartPlan, title: string): ChartSpec {
  const base = { title, columns: planColumns(plan) };
  switch (plan.kind) {
    case 'histogram':
      return { kind: 'histogram', ...base, x: plan.x, bins: [] };
    case 'bar':
      return { kind: 'bar', ...base, x: plan.x, y: plan.y, aggregate: plan.share ? 'share' : plan.y === null ? 'count' : 'mean', bars: [] };
    case 'scatter':
      return { kind: 'scatter', ...base, x: plan.x, y: plan.y, points: [] };
    case 'line':
      return { kind: 'line', ...base, x: plan.x, y: plan.y ?? 'count', points: [] };
    case 'box':
      return { kind: 'box', ...base, x: plan.x, y: plan.y, groups: [] };
    case 'heatmap':
      return plan.value === 'correlation'
        ? { kind: 'heatmap', ...base, value: 'correlation', x_labels: plan.columns, y_labels: plan.columns, matrix: [] }
        : { kind: 'heatmap', ...base, value: 'count', x_labels: [], y_labels: [], matrix: [] };
  }
}

function fillSpec(spec: ChartSpec, plan: ChartPlan, frame: DataFrame): ChartSpec {
  switch (spec.kind) {
    case 'histogram':
      return { ...spec, bins: histogramBins(finite(columnNumbers(frame.column(spec.x)))) };
    case 'bar': {
      const groups = columnTexts(frame.column(spec.x));
      if (spec.y === null) {
        const levels = levelCounts(groups);
        const total = levels.reduce((s, l) => s + l.count, 0);
        const value = (count: number): number => (spec.aggregate === 'share' ? round((count / total) * 100, 6) : count);
        return { ...spec, bars: levels.slice(0, TOP_LEVELS).map((l) => ({ label: l.value, value: value(l.count) })) };
      }
      const means = [...groupValues(groups, columnNumbers(frame.column(spec.y))).entries()].map(([label, ys]) => ({ label, value: round(mean(ys), 6) }));
      return { ...spec, bars: means.sort((a, b) => b.value - a.value).slice(0, TOP_LEVELS) };
    }
    case 'scatter': {
      const xs = columnNumbers(frame.column(spec.x));
      const ys = columnNumbers(frame.column(spec.y));
      const rows: number[] = [];
      for (let i = 0; i < xs.length; i++) if (Number.isFinite(xs[i]) && Number.isFinite(ys[i])) rows.push(i);
      const stride = Math.max(1, Math.ceil(rows.length / MAX_POINTS));
      return { ...spec, points: rows.filter((_, k) => k % stride === 0).map((i) => ({ x: xs[i], y: ys[i] })) };
    }
    case 'line':
      return { ...spec, points: linePoints(frame, plan as Extract<ChartPlan, { kind: 'line' }>) };
    case 'box': {
      const ys = columnNumbers(frame.column(spec.y));
      if (spec.x === null) {
        const values = finite(ys);
        return { ...spec, groups: values.length ? [boxStats(spec.y, values)] : [] };
      }
      const byGroup = groupValues(columnTexts(frame.column(spec.x)), ys);
      const order = [...byGroup.entries()].sort((a, b) => b[1].length - a[1].length).slice(0, TOP_LEVELS);
      return { ...spec, groups: order.map(([label, values]) => boxStats(label, values)) };
    }
    case 'heatmap': {
      if (spec.value === 'correlation') {
        const cols = spec.x_labels.map((c) => columnNumbers(frame.column(c)));
        return { ...spec, matrix: cols.map((a) => cols.map((b) => { const { r } = pearson(a, b); return r === null ? null : round(r, 4); })) };
      }
      const [yName, xName] = spec.columns;
      const ys = columnTexts(frame.column(yName));
      const xs = columnTexts(frame.column(xName));
      const yLabels = levelCounts(ys).slice(0, TOP_LEVELS).map((l) => l.value);
      const xLabels = levelCounts(xs).slice(0, TOP_LEVELS).map((l) => l.value);
      const matrix = yLabels.map(() => xLabels.map(() => 0));
      for (let i = 0; i < ys.length; i++) {
        const r = ys[i] === null ? -1 : yLabels.indexOf(ys[i] as string);
        const c = xs[i] === null ? -1 : xLabels.indexOf(xs[i] as string);
        if (r >= 0 && c >= 0) matrix[r][c]++;
      }
      return { ...spec, x_labels: xLabels, y_labels: yLabels, matrix };
    }
  }
}

/** The preview spec of a plan, with values computed from the rows when the frame holds every column it draws. */
export function chartSpec(plan: ChartPlan, title: string, frame: DataFrame | undefined): ChartSpec {
  const spec = emptySpec(plan, title);
  return frame && planColumns(plan).every((c) => frame.has(c)) ? fillSpec(spec, plan, frame) : spec;
}
