import assert from 'node:assert/strict';
import { evaluateMulticlass } from '../../../src/engine';
import type { MulticlassEvaluationMetrics } from '../../../src/contract/models';
import { classRocCurves, confusionHeat, isClassifierMetrics, isMulticlassMetrics, metricRows } from '../../../src/views/evaluationSeries';

describe('evaluation panel: multiclass series', () => {
  const metrics = evaluateMulticlass(
    ['a', 'b', 'c', 'c'],
    { a: [0.8, 0.1, 0.1, 0.2], b: [0.1, 0.2, 0.2, 0.1], c: [0.1, 0.7, 0.7, 0.7] },
    ['a', 'b', 'c'],
  ) as MulticlassEvaluationMetrics;

  it('recognises multiclass metrics and lists the macro metrics, not the binary or regression ones', () => {
    assert.ok(isMulticlassMetrics(metrics));
    assert.ok(!isClassifierMetrics(metrics));
    const rows = metricRows(metrics, metrics);
    assert.deepEqual(
      rows.map((r) => r.key),
      ['accuracy', 'roc_auc', 'roc_auc_weighted', 'f1', 'precision', 'recall', 'log_loss', 'mcc'],
    );
    assert.equal(rows[0].test, 0.75);
  });

  it('shades each confusion cell by its share of the actual class', () => {
    const heat = confusionHeat(metrics);
    assert.deepEqual(
      heat.map((r) => [r.actual, r.total]),
      [
        ['a', 1],
        ['b', 1],
        ['c', 2],
      ],
    );
    assert.deepEqual(
      heat[1].cells.map((c) => [c.predicted, c.count, c.share]),
      [
        ['a', 0, 0],
        ['b', 0, 0],
        ['c', 1, 1],
      ],
    );
  });

  it('gives one ROC curve per class, ordered by false positive rate', () => {
    const curves = classRocCurves(metrics);
    assert.deepEqual(
      curves.map((c) => c.label),
      ['a', 'b', 'c'],
    );
    assert.equal(curves[0].auc, 1);
    for (const c of curves) assert.deepEqual(c.points, [...c.points].sort((p, q) => p.x - q.x || p.y - q.y));
  });
});
