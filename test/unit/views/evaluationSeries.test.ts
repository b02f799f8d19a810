import assert from 'node:assert/strict';
import {
  histogram,
  isClassifierMetrics,
  isRegressorMetrics,
  metricColumns,
  metricRows,
  nearestScore,
  predictedVsActual,
  probabilityDistributions,
  prPoints,
  residualHistogram,
  rocPoints,
  splitTexts,
  thresholdView,
} from '../../../src/views/evaluationSeries';
import { evaluateClassifier, mulberry32 } from '../../../src/engine';
import { classifierMetrics, regressorMetrics, thresholdScores } from '../panels/fixtures';

describe('views: evaluation shaping', () => {
  it('tells classifier metrics from regressor metrics', () => {
    assert.ok(isClassifierMetrics(classifierMetrics) && !isRegressorMetrics(classifierMetrics));
    assert.ok(isRegressorMetrics(regressorMetrics) && !isClassifierMetrics(regressorMetrics));
  });

  it('builds the confusion matrix and precision/recall/F1 from the counts at a threshold', () => {
    const view = thresholdView(thresholdScores(), 0.5);
    assert.ok(view);
    // At 0.5 the fixture has tp = 5, fp = round(2.5) = 3, tn = 7, fn = 5.
    assert.deepEqual(view.confusion, [
      [7, 3],
      [5, 5],
    ]);
    assert.equal(view.precision, 5 / 8);
    assert.equal(view.recall, 5 / 10);
    assert.ok(Math.abs((view.f1 ?? 0) - (2 * (5 / 8) * 0.5) / (5 / 8 + 0.5)) < 1e-12);
    assert.equal(view.accuracy, 12 / 20);
  });

  it('moves with the slider to the nearest of the 101 thresholds', () => {
    assert.equal(nearestScore(thresholdScores(), 0.304)?.threshold, 0.3);
    assert.equal(thresholdView(thresholdScores(), 0.996)?.threshold, 1);
    const high = thresholdView(thresholdScores(), 1);
    assert.equal(high?.precision, null, 'no positive prediction: precision is undefined, not 0');
    assert.equal(high?.f1, null);
    assert.equal(thresholdView([], 0.5), undefined);
  });

  it('lists train and test metrics in a fixed order, skipping ones neither side has', () => {
    const rows = metricRows(classifierMetrics, { ...classifierMetrics, roc_auc: 0.7, mcc: null });
    assert.deepEqual(rows.map((r) => r.key), ['accuracy', 'roc_auc', 'auc_pr', 'f1', 'precision', 'recall', 'log_loss', 'brier', 'mcc']);
    assert.deepEqual(rows[1], { key: 'roc_auc', label: 'ROC AUC', train: 0.85, test: 0.7, linear: null, constant: null });
    assert.equal(rows.at(-1)?.test, null);
    const regression = metricRows(regressorMetrics, regressorMetrics);
    assert.deepEqual(regression.map((r) => r.key), ['r2', 'rmse', 'mae', 'mape', 'explained_variance']);
    assert.deepEqual(regression[3], { key: 'mape', label: 'MAPE', train: null, test: null, linear: null, constant: null, note: 'undefined: an actual value is 0' });
    const { mape: _mape, ...withoutMape } = regressorMetrics;
    assert.ok(!metricRows(withoutMape as typeof regressorMetrics, withoutMape as typeof regressorMetrics).some((r) => r.key === 'mape'), 'a metric not reported at all has no row');
    const testOnly = metricRows({ ...regressorMetrics, mape: 0.12 }, regressorMetrics).find((r) => r.key === 'mape');
    assert.deepEqual([testOnly?.train, testOnly?.test, testOnly?.note], [0.12, null, 'undefined: an actual value is 0']);
  });

  it('puts the baseline test scores beside the model scores', () => {
    const baseline = {
      constant: { r2: 0, rmse: 9, mae: 7, mape: null, explained_variance: 0 },
      linear: { r2: 0.61, rmse: 5, mae: 4, mape: 0.2, explained_variance: 0.62 },
    };
    const r2 = metricRows(regressorMetrics, regressorMetrics, baseline).find((r) => r.key === 'r2');
    assert.deepEqual([r2?.linear, r2?.constant], [0.61, 0]);
    const withoutLinear = metricRows(regressorMetrics, regressorMetrics, { ...baseline, linear: null }).find((r) => r.key === 'rmse');
    assert.deepEqual([withoutLinear?.linear, withoutLinear?.constant], [null, 9]);
  });

  it('leads with the test metrics and labels the training ones in-sample, saying which to judge the model by', () => {
    const rows = metricRows(classifierMetrics, { ...classifierMetrics, accuracy: 0.7 }, { constant: { accuracy: 0.5 }, linear: { accuracy: 0.6 } } as never);
    const accuracy = rows[0];
    const columns = metricColumns(true);
    assert.deepEqual(columns.map((c) => c.header), ['Test', 'Train (in-sample)', 'Linear model (test)', 'Constant (test)']);
    assert.deepEqual(columns.map((c) => c.value(accuracy)), [0.7, 0.8, 0.6, 0.5]);
    assert.deepEqual(metricColumns(false).map((c) => c.header), ['Test', 'Train (in-sample)']);
    const texts = splitTexts();
    assert.equal(texts.trainCharts, 'Training set (in-sample)');
    assert.match(texts.judgeBy, /^Judge the model by its test metrics, .* Training metrics are in-sample: /);
    assert.match(texts.caption, /in-sample/);
  });

  it('orders ROC and PR points along x', () => {
    assert.deepEqual(rocPoints(classifierMetrics), [
      { x: 0, y: 0 },
      { x: 0.5, y: 0.8 },
      { x: 1, y: 1 },
    ]);
    assert.deepEqual(prPoints(classifierMetrics).map((p) => p.x), [0, 0.6, 1]);
  });

  it('draws the precision-recall curve from (0, 1) in the order of falling thresholds, with auc_pr the area under the line drawn', () => {
    const random = mulberry32(11);
    // Top-scored negatives make thresholds with predicted positives at recall 0 (precision 0) beside the curve's start.
    const y = [0, 0, ...Array.from({ length: 300 }, () => (random() < 0.3 ? 1 : 0))];
    const p = [0.99, 0.97, ...y.slice(2).map((yi) => Math.min(0.95, Math.max(0, (yi ? 0.55 : 0.35) + (random() - 0.5) * 0.7)))];
    const metrics = evaluateClassifier(y, p);
    const points = prPoints(metrics);
    assert.deepEqual(points[0], { x: 0, y: 1 }, 'the curve starts at recall 0 with precision 1');
    assert.ok(Math.abs(points[points.length - 1].x - 1) < 1e-9, 'and ends at recall 1');
    assert.ok(points.some((q) => q.x === 0 && q.y === 0), 'the thresholds that only catch negatives are drawn after the start');
    let area = 0;
    for (let i = 1; i < points.length; i++) area += ((points[i].x - points[i - 1].x) * (points[i].y + points[i - 1].y)) / 2;
    assert.ok(Math.abs(area - (metrics.auc_pr as number)) < 1e-12, `area under the drawn line ${area} vs auc_pr ${metrics.auc_pr}`);
    const tied = prPoints({ ...classifierMetrics, precision_recall_curve: { recall: [1, 0.5, 0.5, 0], precision: [0.5, 0.5, 1, 1] } });
    assert.deepEqual(tied, [{ x: 0, y: 1 }, { x: 0.5, y: 1 }, { x: 0.5, y: 0.5 }, { x: 1, y: 0.5 }], 'at equal recall the higher precision comes first');
  });

  it('merges the 101 probability bins into groups of shares per class', () => {
    const { labels, classes } = probabilityDistributions(classifierMetrics, 20);
    assert.equal(labels.length, 20);
    assert.equal(labels[0], '0.00–0.05');
    assert.equal(labels[19], '0.95–1.00');
    const [negatives, positives] = classes;
    assert.ok(Math.abs(negatives.shares.reduce((a, b) => a + b, 0) - 1) < 1e-12);
    assert.ok(Math.abs(negatives.shares[0] - 0.1) < 1e-12, 'five of the fifty 0.00–0.49 bins fall in the first group');
    assert.equal(positives.shares[18], 1, 'the 0.90 bin falls in the 0.90–0.94 group');
    assert.equal(probabilityDistributions(classifierMetrics, 101).labels.length, 101);
  });

  it('pairs actual and predicted values, dropping non-finite ones', () => {
    assert.deepEqual(predictedVsActual(regressorMetrics), [
      { x: 1, y: 1.5 },
      { x: 2, y: 2 },
      { x: 3, y: 2 },
      { x: 4, y: 4 },
    ]);
  });

  it('uses the service\u2019s residual bins when it sends them', () => {
    const bins = residualHistogram({ ...regressorMetrics, residual_bins: { edges: [-1, 0, 1], counts: [4, 6] } });
    assert.deepEqual(bins, [
      { lower: -1, upper: 0, count: 4 },
      { lower: 0, upper: 1, count: 6 },
    ]);
  });

  it('bins residuals in equal widths with the maximum in the last bin', () => {
    const bins = residualHistogram(regressorMetrics, 3);
    assert.equal(bins.length, 3);
    assert.deepEqual(bins.map((b) => b.count), [1, 2, 1]);
    assert.equal(bins[0].lower, -0.5);
    assert.equal(bins[2].upper, 1);
    assert.deepEqual(histogram([2, 2, 2], 5), [{ lower: 2, upper: 2, count: 3 }]);
    assert.deepEqual(histogram([], 5), []);
  });
});
