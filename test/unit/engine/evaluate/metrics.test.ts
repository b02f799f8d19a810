import { strict as assert } from 'node:assert';
import { binaryLabels, categoryColumn, evaluateClassifier, evaluateModel, evaluateRegressor, fitModel, numberColumn, trainTestSplit, mulberry32 } from '../../../../src/engine';
import { assertClose, goldenFrame } from '../helpers';

describe('engine metrics', () => {
  it('computes the classifier metric set at the threshold', () => {
    const m = evaluateClassifier([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]);
    assert.deepEqual(m.confusion_matrix, [
      [2, 0],
      [1, 1],
    ]);
    assertClose(
      [m.accuracy, m.precision, m.recall, m.f1, m.roc_auc as number, m.log_loss as number, m.brier, m.mcc as number],
      [0.75, 1, 0.5, 2 / 3, 0.75, 0.472288, 0.158125, 2 / Math.sqrt(12)],
    );
    const low = evaluateClassifier([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], { threshold: 0.3 });
    assert.deepEqual(low.confusion_matrix, [
      [1, 1],
      [0, 2],
    ]);
  });

  it('gives 101 threshold rows, ROC and PR curves and per-class probability histograms', () => {
    const m = evaluateClassifier([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], { labels: ['no', 'yes'] });
    assert.equal(m.scores.length, 101);
    assert.deepEqual(
      [m.scores[0].threshold, m.scores[0].tp, m.scores[0].fp, m.scores[0].tn, m.scores[0].fn],
      [0, 2, 2, 0, 0],
    );
    const at35 = m.scores[35];
    assert.deepEqual([at35.threshold, at35.tp, at35.fp], [0.35, 1, 1], 'p > t is strict: 0.35 is not above 0.35');
    assert.deepEqual([m.scores[100].tp, m.scores[100].fp], [0, 0]);
    assert.equal(m.roc.fpr.length, 101);
    assert.equal(m.precision_recall_curve.precision.length, 101);
    assert.deepEqual(m.probability_bins.map((b) => b.class), ['no', 'yes']);
    assert.equal(m.probability_bins[1].values[35], 1);
    assert.equal(m.probability_bins[1].values[80], 1);
    assert.equal(m.probability_bins[0].values.reduce((a, b) => a + b, 0), 2);
    const perfect = evaluateClassifier([0, 0, 1, 1], [0, 0.2, 0.9, 1]);
    assertClose([perfect.roc_auc as number, perfect.auc_pr as number], [1, 1]);
  });

  it('starts the precision-recall curve at recall 0 with precision 1, as scikit-learn does, and gives the area under it', () => {
    const m = evaluateClassifier([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]);
    const { precision, recall } = m.precision_recall_curve;
    // By hand, thresholds 0.00…1.00 with p > t: up to 0.09 every row is positive (2 tp, 2 fp); up to 0.34 the 0.1 row
    // is not (2 tp, 1 fp); up to 0.39 only 0.4 and 0.8 (1 tp, 1 fp); up to 0.79 only 0.8 (1 tp); from 0.80 none.
    // scikit-learn's precision_recall_curve gives the same points: precision [0.5, 2/3, 0.5, 1, 1], recall [1, 1, 0.5, 0.5, 0].
    const at = (k: number) => [recall[k], precision[k]];
    assertClose(at(0), [1, 0.5], 1e-8);
    assertClose(at(10), [1, 2 / 3], 1e-8);
    assertClose(at(35), [0.5, 0.5], 1e-8);
    assertClose(at(40), [0.5, 1], 1e-8);
    for (const k of [80, 90, 100]) assert.deepEqual(at(k), [0, 1], `threshold ${k / 100} predicts no positive: the curve's start`);
    assert.ok(precision.every((p, k) => recall[k] > 0 || p === 1), 'no point at recall 0 and precision 0');
    // The trapezoids under (0, 1) → (0.5, 1) → (0.5, 0.5) → (1, 2/3): 0.5 + 0.5 × (0.5 + 2/3) / 2 = 19/24.
    assertClose([m.auc_pr as number], [19 / 24], 1e-8);
  });

  it('averages tied ranks in the AUC and returns null for metrics undefined on one class', () => {
    assert.equal(evaluateClassifier([0, 1], [0.5, 0.5]).roc_auc, 0.5);
    const one = evaluateClassifier([1, 1, 1], [0.2, 0.5, 0.9]);
    assert.equal(one.roc_auc, null);
    assert.equal(one.mcc, null);
  });

  it('reads a binary target as 1, 0 or -1 per row, from numbers and from text', () => {
    const numbers = numberColumn('y', Float64Array.from([1, 0, NaN, 2, 1]));
    assert.deepEqual([...binaryLabels(numbers, 5, '0', '1')], [1, 0, -1, -1, 1]);
    const text = categoryColumn('y', Int32Array.from([0, 1, -1, 2]), ['yes', 'no', 'maybe']);
    assert.deepEqual([...binaryLabels(text, 4, 'no', 'yes')], [1, 0, -1, -1]);
  });

  it('gives the AUC of counting every positive-negative pair, ties as a half', () => {
    const random = mulberry32(5);
    for (const levels of [4, 1000]) {
      const y = Array.from({ length: 200 }, () => (random() < 0.4 ? 1 : 0));
      const p = y.map(() => Math.round(random() * levels) / levels);
      let pairs = 0;
      let wins = 0;
      y.forEach((yi, i) => y.forEach((yj, j) => {
        if (yi !== 1 || yj === 1) return;
        pairs++;
        wins += p[i] > p[j] ? 1 : p[i] === p[j] ? 0.5 : 0;
      }));
      assertClose([evaluateClassifier(y, p).roc_auc as number], [wins / pairs]);
    }
  });

  it('computes the regressor metric set, charts and residual bins', () => {
    const m = evaluateRegressor([1, 2, 3, 4], [1, 2, 3, 5]);
    assertClose([m.r2 as number, m.rmse, m.mae, m.mape as number, m.explained_variance as number], [0.8, 0.5, 0.25, 0.0625, 0.85]);
    assert.deepEqual(m.charts, { true: [1, 2, 3, 4], prediction: [1, 2, 3, 5] });
    assert.equal(m.residual_bins.counts.reduce((a, b) => a + b, 0), 4);
    assert.equal(m.residual_bins.edges.length, m.residual_bins.counts.length + 1);
    assert.equal(evaluateRegressor([2, 2], [1, 3]).r2, null);
    const many = evaluateRegressor(new Float64Array(12000).fill(1), new Float64Array(12000));
    assert.equal(many.charts.true.length, 10000);
  });

  it('reports mape as null when an actual value is 0, where it is undefined', () => {
    const counts = evaluateRegressor([0, 3, 5, 2], [0.5, 2, 5, 2]);
    assert.equal(counts.mape, null);
    assert.ok(Number.isFinite(counts.rmse));
  });

  it('evaluates a fitted model on a frame holding the target', () => {
    const model = fitModel(goldenFrame(), { method: 'xplainable', target: 'y', modelType: 'classifier', params: { max_depth: 2, min_leaf_size: 0.1 } });
    const m = evaluateModel(model, goldenFrame());
    assert.ok('roc_auc' in m);
    assert.equal(m.confusion_matrix.flat().reduce((a, b) => a + b, 0), 12);
    assert.ok((m.roc_auc as number) > 0.8);
  });
});

describe('engine train/test split and PRNG', () => {
  it('splits reproducibly into disjoint sorted index sets', () => {
    const a = trainTestSplit(100, 0.2, 7);
    assert.equal(a.test.length, 20);
    assert.equal(a.train.length, 80);
    assert.deepEqual(new Set([...a.train, ...a.test]).size, 100);
    assert.deepEqual(trainTestSplit(100, 0.2, 7), a);
    assert.notDeepEqual(trainTestSplit(100, 0.2, 8).test, a.test);
    assert.deepEqual([...a.test], [...a.test].sort((x, y) => x - y));
  });

  it('stratifies by class and validates test_size', () => {
    const y = Array.from({ length: 100 }, (_, i) => (i < 10 ? 1 : 0));
    const { test } = trainTestSplit(100, 0.3, 1, y);
    assert.equal([...test].filter((i) => y[i] === 1).length, 3);
    assert.equal(test.length, 30);
    assert.throws(() => trainTestSplit(10, 1.5, 1), /test_size must be greater than 0 and less than 1 \(got 1.5\)/);
  });

  it('mulberry32 is deterministic and uniform in [0, 1)', () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const xs = Array.from({ length: 1000 }, () => a());
    assert.deepEqual(xs.slice(0, 5), Array.from({ length: 5 }, () => b()));
    assert.ok(xs.every((x) => x >= 0 && x < 1));
    const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
    assert.ok(Math.abs(mean - 0.5) < 0.05);
  });
});
