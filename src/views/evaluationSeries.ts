/** Turns an Evaluation into what the evaluation panel draws (pure: no DOM, no vscode). */
import type {
  Baseline,
  ClassifierEvaluationMetrics,
  EvaluationMetrics,
  MulticlassEvaluationMetrics,
  RegressorEvaluationMetrics,
  SplitRecord,
  ThresholdScore,
} from '../contract/models';
import { splitSentence } from '../engine/params/split';
import { l10n } from '../l10n/l10n';

export function isClassifierMetrics(metrics: EvaluationMetrics): metrics is ClassifierEvaluationMetrics {
  return 'scores' in metrics && Array.isArray(metrics.scores);
}

export function isMulticlassMetrics(metrics: EvaluationMetrics): metrics is MulticlassEvaluationMetrics {
  return 'per_class' in metrics && Array.isArray(metrics.per_class);
}

export function isRegressorMetrics(metrics: EvaluationMetrics): metrics is RegressorEvaluationMetrics {
  return 'charts' in metrics && typeof metrics.charts === 'object' && metrics.charts !== null;
}

export interface MetricRow {
  key: string;
  label: string;
  train: number | null;
  test: number | null;
  /** The same metric of the linear and constant baselines on the test rows (null when not reported). */
  linear: number | null;
  constant: number | null;
  /** Why the metric has no value, when that is not a failure (shown beside the name). */
  note?: string;
}

/** Metrics the service reports as null for a reason the reader should see, not as a missing row. */
const UNDEFINED_WHY: Readonly<Record<string, string>> = { mape: 'undefined: an actual value is 0' };

const CLASSIFIER_METRICS: readonly [string, string][] = [
  ['accuracy', 'Accuracy'],
  ['roc_auc', 'ROC AUC'],
  ['auc_pr', 'PR AUC'],
  ['f1', 'F1'],
  ['precision', 'Precision'],
  ['recall', 'Recall'],
  ['log_loss', 'Log loss'],
  ['brier', 'Brier score'],
  ['mcc', 'MCC'],
];

const MULTICLASS_METRICS: readonly [string, string][] = [
  ['accuracy', 'Accuracy'],
  ['roc_auc', 'ROC AUC (macro, one-vs-rest)'],
  ['roc_auc_weighted', 'ROC AUC (weighted by class)'],
  ['f1', 'F1 (macro)'],
  ['precision', 'Precision (macro)'],
  ['recall', 'Recall (macro)'],
  ['log_loss', 'Log loss'],
  ['mcc', 'MCC'],
];

const REGRESSOR_METRICS: readonly [string, string][] = [
  ['r2', 'R²'],
  ['rmse', 'RMSE'],
  ['mae', 'MAE'],
  ['mape', 'MAPE'],
  ['explained_variance', 'Explained variance'],
];

export type MetricsKind = 'classifier' | 'multiclass' | 'regressor';

/** The metrics of a kind of model, with their names, in the order the panels list them. */
export function metricNames(kind: MetricsKind): readonly [key: string, label: string][] {
  return kind === 'classifier' ? CLASSIFIER_METRICS : kind === 'multiclass' ? MULTICLASS_METRICS : REGRESSOR_METRICS;
}

export function metricValue(metrics: object | null | undefined, key: string): number | null {
  const value = (metrics as Record<string, unknown> | null | undefined)?.[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** The service sent the metric as null on either side (not left it out). */
function reportedNull(train: EvaluationMetrics, test: EvaluationMetrics, key: string): boolean {
  return [train, test].some((m) => key in m && (m as Record<string, unknown>)[key] === null);
}

/** The train-vs-test table, with the baselines' test scores beside: the metrics either side reports, in a fixed order. */
export function metricRows(train: EvaluationMetrics, test: EvaluationMetrics, baseline?: Baseline | null): MetricRow[] {
  const kind: MetricsKind =
    isClassifierMetrics(test) || isClassifierMetrics(train)
      ? 'classifier'
      : isMulticlassMetrics(test) || isMulticlassMetrics(train)
        ? 'multiclass'
        : 'regressor';
  return metricNames(kind)
    .map(([key, label]) => ({
      key,
      label,
      train: metricValue(train, key),
      test: metricValue(test, key),
      linear: metricValue(baseline?.linear, key),
      constant: metricValue(baseline?.constant, key),
      ...(UNDEFINED_WHY[key] && reportedNull(train, test, key) ? { note: UNDEFINED_WHY[key] } : {}),
    }))
    .filter((row) => row.train !== null || row.test !== null || row.note !== undefined);
}

/**
 * How the evaluation panel names the splits: the training metrics are in-sample (the model was fitted on those rows),
 * so the panel leads with the test metrics and says they are the ones to judge the model by.
 */
export function splitTexts() {
  return {
    heading: l10n.t('Test and training metrics'),
    judgeBy: l10n.t('Judge the model by its test metrics, measured on rows it did not see while fitting. Training metrics are in-sample: the model was fitted on those rows, so they read high (often 1.0 on a small classifier) and say little about new data.'),
    caption: l10n.t('Metrics on the test rows and, in-sample, on the training rows, with the baselines on the test rows'),
    testCharts: l10n.t('Test set'),
    trainCharts: l10n.t('Training set (in-sample)'),
  };
}

/**
 * Which rows the test metrics come from, as a sentence under them ("This version was tested on the latest 20% by `date`, from 2024-03-02 (1,234 rows).");
 * undefined for a version that records no split (trained before splits were recorded, or uploaded).
 */
export function testRowsText(split: SplitRecord | null | undefined): string | undefined {
  if (split === undefined) return undefined;
  return split === null ? l10n.t('This version was tested on a separate test dataset.') : `This version was ${splitSentence(split)}.`;
}

export interface MetricColumn {
  header: string;
  value(row: MetricRow): number | null;
}

/** The number columns of the metrics table: the test metrics first, the in-sample ones beside, then the baselines. */
export function metricColumns(withBaselines: boolean): MetricColumn[] {
  return [
    { header: l10n.t('Test'), value: (row) => row.test },
    { header: l10n.t('Train (in-sample)'), value: (row) => row.train },
    ...(withBaselines
      ? [
        { header: l10n.t('Linear model (test)'), value: (row: MetricRow) => row.linear },
        { header: l10n.t('Constant (test)'), value: (row: MetricRow) => row.constant },
      ]
      : []),
  ];
}

export interface ThresholdView {
  threshold: number;
  /** [[tn, fp], [fn, tp]] */
  confusion: [[number, number], [number, number]];
  precision: number | null;
  recall: number | null;
  f1: number | null;
  accuracy: number | null;
}

function ratio(numerator: number, denominator: number): number | null {
  return denominator > 0 ? numerator / denominator : null;
}

/** The threshold score nearest to `threshold` (the service reports 101 thresholds 0.00–1.00). */
export function nearestScore(scores: readonly ThresholdScore[], threshold: number): ThresholdScore | undefined {
  let best: ThresholdScore | undefined;
  for (const score of scores) {
    if (!best || Math.abs(score.threshold - threshold) < Math.abs(best.threshold - threshold)) best = score;
  }
  return best;
}

/** Confusion matrix and precision/recall/F1/accuracy at a threshold, computed from the counts. */
export function thresholdView(scores: readonly ThresholdScore[], threshold: number): ThresholdView | undefined {
  const score = nearestScore(scores, threshold);
  if (!score) return undefined;
  const { tp, fp, tn, fn } = score;
  const precision = ratio(tp, tp + fp);
  const recall = ratio(tp, tp + fn);
  const f1 = precision !== null && recall !== null && precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : null;
  return {
    threshold: score.threshold,
    confusion: [
      [tn, fp],
      [fn, tp],
    ],
    precision,
    recall,
    f1,
    accuracy: ratio(tp + tn, tp + tn + fp + fn),
  };
}

export interface XY {
  x: number;
  y: number;
}

/** The finite points ordered by x, and at equal x by y rising (`yOnTies` 1) or falling (−1). */
function zipSorted(xs: readonly number[], ys: readonly number[], yOnTies: 1 | -1): XY[] {
  const n = Math.min(xs.length, ys.length);
  const points: XY[] = [];
  for (let i = 0; i < n; i++) {
    if (Number.isFinite(xs[i]) && Number.isFinite(ys[i])) points.push({ x: xs[i], y: ys[i] });
  }
  return points.sort((a, b) => a.x - b.x || yOnTies * (a.y - b.y));
}

/** ROC curve points (x = false positive rate, y = true positive rate), ordered by x. */
export function rocPoints(metrics: ClassifierEvaluationMetrics): XY[] {
  return zipSorted(metrics.roc.fpr, metrics.roc.tpr, 1);
}

/**
 * Precision-recall curve points (x = recall, y = precision) in the order of falling thresholds: by recall, and at
 * equal recall the higher precision first (a lower threshold adds false positives before the next true one). The
 * curve so starts at recall 0 at the precision the evaluation gives there (1, as scikit-learn has it), and the
 * area under the line drawn is `auc_pr`.
 */
export function prPoints(metrics: ClassifierEvaluationMetrics): XY[] {
  return zipSorted(metrics.precision_recall_curve.recall, metrics.precision_recall_curve.precision, -1);
}

export interface ClassDistribution {
  label: string;
  /** Share of the class's rows in each probability group. */
  shares: number[];
}

export interface ProbabilityDistributions {
  /** Each group's probability range ("0.00–0.05"). */
  labels: string[];
  classes: ClassDistribution[];
}

/**
 * Probability distributions per class: the 101 bins (0.00–1.00) merged into `groups` equal groups and normalised
 * to shares, so classes of different sizes compare and small test sets do not look spiky.
 */
export function probabilityDistributions(metrics: ClassifierEvaluationMetrics, groups = 20): ProbabilityDistributions {
  const bins = Math.max(0, ...metrics.probability_bins.map((b) => b.values.length));
  const count = Math.max(1, Math.min(groups, bins));
  const start = (group: number) => Math.floor((group * bins) / count);
  const labels = Array.from({ length: count }, (_, g) => `${(start(g) / 100).toFixed(2)}–${(Math.min(start(g + 1), bins - 1) / 100).toFixed(2)}`);
  const classes = metrics.probability_bins.map((bin) => {
    const total = bin.values.reduce((sum, v) => sum + v, 0);
    const shares = Array.from({ length: count }, (_, g) => {
      const sum = bin.values.slice(start(g), start(g + 1)).reduce((a, v) => a + v, 0);
      return total > 0 ? sum / total : 0;
    });
    return { label: bin.class, shares };
  });
  return { labels, classes };
}

/** Predicted (y) against actual (x) points of a regressor. */
export function predictedVsActual(metrics: RegressorEvaluationMetrics): XY[] {
  const { true: actual, prediction } = metrics.charts;
  const n = Math.min(actual.length, prediction.length);
  const points: XY[] = [];
  for (let i = 0; i < n; i++) {
    if (Number.isFinite(actual[i]) && Number.isFinite(prediction[i])) points.push({ x: actual[i], y: prediction[i] });
  }
  return points;
}

export interface HistogramBin {
  lower: number;
  upper: number;
  count: number;
}

/** Equal-width histogram of values (the maximum falls in the last bin). Empty input gives no bins. */
export function histogram(values: readonly number[], binCount: number): HistogramBin[] {
  const finite = values.filter((v) => Number.isFinite(v));
  if (!finite.length || binCount < 1) return [];
  let min = finite[0];
  let max = finite[0];
  for (const v of finite) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  if (min === max) return [{ lower: min, upper: max, count: finite.length }];
  const width = (max - min) / binCount;
  const bins = Array.from({ length: binCount }, (_, i) => ({ lower: min + i * width, upper: min + (i + 1) * width, count: 0 }));
  for (const v of finite) bins[Math.min(binCount - 1, Math.floor((v - min) / width))].count++;
  return bins;
}

/**
 * Histogram of residuals (actual − predicted) of a regressor: the service's bins when it sent them, else
 * computed from the chart points.
 */
export function residualHistogram(metrics: RegressorEvaluationMetrics, binCount = 30): HistogramBin[] {
  const { edges, counts } = metrics.residual_bins ?? { edges: [], counts: [] };
  const n = Math.min(counts.length, edges.length - 1);
  if (n > 0) return Array.from({ length: n }, (_, i) => ({ lower: edges[i], upper: edges[i + 1], count: counts[i] }));
  return histogram(
    predictedVsActual(metrics).map((p) => p.x - p.y),
    binCount,
  );
}

export interface ConfusionHeatCell {
  predicted: string;
  count: number;
  /** Share of the actual class's rows (0 when the class has none): the heat of the cell. */
  share: number;
}
export interface ConfusionHeatRow {
  actual: string;
  total: number;
  cells: ConfusionHeatCell[];
}

/** The K×K confusion matrix (rows actual, columns predicted) with each cell's share of its row. */
export function confusionHeat(metrics: MulticlassEvaluationMetrics): ConfusionHeatRow[] {
  const { labels, matrix } = metrics.confusion_matrix;
  return labels.map((actual, i) => {
    const row = matrix[i] ?? [];
    const total = row.reduce((s, v) => s + v, 0);
    return { actual, total, cells: labels.map((predicted, j) => ({ predicted, count: row[j] ?? 0, share: total > 0 ? (row[j] ?? 0) / total : 0 })) };
  });
}

/** Each class's one-vs-rest ROC curve, ordered by false positive rate. */
export function classRocCurves(metrics: MulticlassEvaluationMetrics): { label: string; auc: number | null; points: XY[] }[] {
  return metrics.per_class.map((c) => ({ label: c.class, auc: c.roc_auc, points: zipSorted(c.roc.fpr, c.roc.tpr, 1) }));
}
