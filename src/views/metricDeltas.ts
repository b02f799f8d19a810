/** The train and test metrics of a version before and after hand edits, as the profile panel lists them (pure). */
import type { Metrics, SplitMetrics } from '../contract/models';
import { metricNames, metricValue, type MetricsKind } from './evaluationSeries';
import { formatNumber } from './format';

/** Metrics where a smaller value is the better model. */
const LOWER_IS_BETTER = new Set(['log_loss', 'brier', 'rmse', 'mae', 'mape']);

export type Trend = 'better' | 'worse' | 'same';

export interface MetricChange {
  before: number | null;
  after: number | null;
  /** "+0.0123", "-0.5"; "±0" when unchanged, "" when either side is missing. */
  delta: string;
  trend: Trend;
}

export interface MetricDelta {
  key: string;
  label: string;
  train: MetricChange;
  test: MetricChange;
}

export function metricsKind(metrics: Metrics): MetricsKind {
  if ('r2' in metrics) return 'regressor';
  return Array.isArray(metrics.confusion_matrix) ? 'classifier' : 'multiclass';
}

/** Changes under this size (rounding of the metrics' computation) read as no change. */
const SAME = 1e-12;

function change(key: string, before: number | null, after: number | null): MetricChange {
  if (before === null || after === null) return { before, after, delta: '', trend: 'same' };
  const difference = after - before;
  if (Math.abs(difference) < SAME) return { before, after, delta: '±0', trend: 'same' };
  const improved = LOWER_IS_BETTER.has(key) ? difference < 0 : difference > 0;
  return { before, after, delta: `${difference > 0 ? '+' : ''}${formatNumber(difference)}`, trend: improved ? 'better' : 'worse' };
}

/** Every metric either split reports, before → after, with whether the edits made it better or worse. */
export function metricDeltas(before: SplitMetrics, after: SplitMetrics): MetricDelta[] {
  return metricNames(metricsKind(before.test_metrics))
    .map(([key, label]) => ({
      key,
      label,
      train: change(key, metricValue(before.train_metrics, key), metricValue(after.train_metrics, key)),
      test: change(key, metricValue(before.test_metrics, key), metricValue(after.test_metrics, key)),
    }))
    .filter((row) => [row.train, row.test].some((c) => c.before !== null || c.after !== null));
}
