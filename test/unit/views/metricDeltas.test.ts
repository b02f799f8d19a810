import assert from 'node:assert/strict';
import type { ClassifierMetrics, MulticlassMetrics, RegressorMetrics } from '../../../src/contract/models';
import { metricDeltas, metricsKind } from '../../../src/views/metricDeltas';

const classifier: ClassifierMetrics = {
  accuracy: 0.8, roc_auc: 0.85, f1: 0.7, precision: 0.75, recall: 0.66, log_loss: 0.42, brier: 0.14, mcc: 0.5, confusion_matrix: [[40, 5], [10, 45]],
};
const regressor: RegressorMetrics = { r2: 0.7, rmse: 3.2, mae: 2.5, mape: null, explained_variance: 0.71 };

describe('views: metrics before and after hand edits', () => {
  it('tells a classifier, a multiclass model and a regressor apart by their metrics', () => {
    assert.equal(metricsKind(classifier), 'classifier');
    assert.equal(metricsKind(regressor), 'regressor');
    const multiclass: MulticlassMetrics = { ...classifier, roc_auc_weighted: 0.8, confusion_matrix: { labels: ['a', 'b'], matrix: [[1, 0], [0, 1]] } };
    assert.equal(metricsKind(multiclass), 'multiclass');
  });

  it('gives each metric of both splits before → after, better or worse in the metric\u2019s own sense', () => {
    const before = { train_metrics: classifier, test_metrics: classifier };
    const after = { train_metrics: { ...classifier, roc_auc: 0.86 }, test_metrics: { ...classifier, roc_auc: 0.84, log_loss: 0.4 } };
    const rows = metricDeltas(before, after);
    assert.deepEqual(rows.map((r) => r.key), ['accuracy', 'roc_auc', 'f1', 'precision', 'recall', 'log_loss', 'brier', 'mcc']);
    const auc = rows.find((r) => r.key === 'roc_auc')!;
    assert.deepEqual(auc.train, { before: 0.85, after: 0.86, delta: '+0.01', trend: 'better' });
    assert.deepEqual(auc.test, { before: 0.85, after: 0.84, delta: '-0.01', trend: 'worse' });
    const logLoss = rows.find((r) => r.key === 'log_loss')!;
    assert.equal(logLoss.test.trend, 'better', 'a lower log loss is better');
    assert.deepEqual(rows.find((r) => r.key === 'accuracy')!.test, { before: 0.8, after: 0.8, delta: '±0', trend: 'same' });
  });

  it('leaves out a metric neither side has, and keeps one that only lacks a value after', () => {
    const rows = metricDeltas({ train_metrics: regressor, test_metrics: regressor }, { train_metrics: regressor, test_metrics: { ...regressor, rmse: null } });
    assert.deepEqual(rows.map((r) => r.key), ['r2', 'rmse', 'mae', 'explained_variance'], 'no MAPE on either side');
    assert.deepEqual(rows[1].test, { before: 3.2, after: null, delta: '', trend: 'same' });
  });
});
