import { strict as assert } from 'node:assert';
import {
  DataFrame,
  featureImportances,
  fitModel,
  modelProfile,
  predict,
  refit,
  type PartitionModel,
} from '../../../../src/engine';
import { goldenFrame, goldenTestRows } from '../helpers';

/** Two groups whose target depends on x in opposite directions. */
function groupedRows(): Record<string, unknown>[] {
  return Array.from({ length: 200 }, (_, i) => {
    const group = i % 2 === 0 ? 'up' : 'down';
    const x = i % 100;
    return { group, x, noise: (i * 7) % 13, y: (group === 'up') === x >= 50 ? 'yes' : 'no' };
  });
}

describe('engine prediction and partitions', () => {
  const model = fitModel(DataFrame.fromRecords(groupedRows()), { method: 'xplainable', target: 'y', modelType: 'classifier', partitionOn: 'group' });

  it('fits one model per partition value plus __dataset__, without the partition column as a feature', () => {
    assert.deepEqual([...model.partitions.keys()], ['__dataset__', 'up', 'down']);
    for (const p of model.partitions.values()) assert.deepEqual(p.features.map((f) => f.name), ['x', 'noise']);
    assert.equal(model.partitions.get('up')?.nTrain, 100);
  });

  it('routes rows by partition value and sends unknown or missing values to __dataset__', () => {
    const probe = DataFrame.fromRecords([
      { group: 'up', x: 90, noise: 1 },
      { group: 'down', x: 90, noise: 1 },
      { group: 'sideways', x: 90, noise: 1 },
      { group: null, x: 90, noise: 1 },
    ]);
    const r = predict(model, probe, { explain: true });
    assert.deepEqual(r.predictions.slice(0, 2), ['yes', 'no']);
    const base = (k: string) => (model.partitions.get(k) as PartitionModel).baseValue;
    assert.deepEqual(Array.from(r.baseValues), [base('up'), base('down'), base('__dataset__'), base('__dataset__')]);
    assert.equal(r.baseValue, base('__dataset__'));
    // Each partition model learnt its own direction, which the whole-data model cannot.
    assert.ok((r.probabilities as Float64Array)[0] > 0.8);
    assert.ok((r.probabilities as Float64Array)[1] < 0.2);
  });

  it('uses __dataset__ for every row, with a warning, when the partition column is absent', () => {
    const r = predict(model, DataFrame.fromRecords([{ x: 90, noise: 1 }]));
    assert.equal(r.baseValues[0], model.partitions.get('__dataset__')?.baseValue);
    assert.match(r.warnings.join('\n'), /Partition column group is missing/);
  });

  it('treats a missing feature column as missing values and names it in a warning', () => {
    const base = fitModel(goldenFrame(), { method: 'xplainable', target: 'y', modelType: 'classifier', params: { max_depth: 2, min_leaf_size: 0.1 } });
    const r = predict(base, goldenTestRows().select(['x']), { explain: true });
    assert.deepEqual(r.warnings, ['Feature column c is missing; its values are treated as missing']);
    // c's missing-value bin score from the golden example.
    assert.ok(Math.abs((r.contributions?.c[0] as number) - 0.109649) < 1e-6);
  });

  it('thresholds the score for labels and keeps the original label values', () => {
    const base = fitModel(goldenFrame(), { method: 'xplainable', target: 'y', modelType: 'classifier', params: { max_depth: 2, min_leaf_size: 0.1 } });
    // Golden scores: 0.581236, 0.934211, 0.692982, 0.701182.
    assert.deepEqual(predict(base, goldenTestRows(), { threshold: 0.69 }).predictions, [0, 1, 1, 1]);
    assert.deepEqual(predict(base, goldenTestRows(), { threshold: 0.7 }).predictions, [0, 1, 0, 1]);
    assert.equal(predict(base, goldenTestRows()).contributions, null);
  });

  it('builds the contract Profile with the missing-value bin last', () => {
    const profile = modelProfile(model);
    assert.equal(profile.model_type, 'binary_classification');
    assert.equal(profile.target_name, 'y');
    assert.deepEqual(profile.partitions.map((p) => p.partition), ['__dataset__', 'up', 'down']);
    const x = profile.partitions[1].numeric.x;
    assert.equal(x[0].lower, null);
    assert.equal(x[x.length - 2].upper, null);
    assert.deepEqual(x[x.length - 1], { score: 0, score_std: 0, mean: 0, freq: 0, missing: true });
    const imp = profile.partitions[1].feature_importances;
    assert.equal(imp[0].feature, 'x');
    assert.ok(Math.abs(imp.reduce((s, i) => s + i.importance, 0) - 1) < 1e-12);
    assert.deepEqual(featureImportances(model), profile.partitions[0].feature_importances);
  });

  it('refits every partition with per-feature parameters', () => {
    const { model: r, parametersChanged } = refit(model, { featureParams: { x: { max_depth: 1 } } });
    for (const p of r.partitions.values()) {
      assert.equal(p.features[0].params.max_depth, 1);
      assert.ok(p.features[0].leaves.score.length <= 3);
      assert.equal(p.features[1].params.max_depth, 8);
    }
    assert.deepEqual(parametersChanged, { x: { max_depth: { from: 8, to: 1 } } });
  });

  it('keeps regressor Ridge coefficients of surviving leaves on refit and clips nothing by default', () => {
    const rows = Array.from({ length: 120 }, (_, i) => ({ x: i, c: ['a', 'b', 'c'][i % 3], y: i * 0.5 + (i % 3) * 4 }));
    const reg = fitModel(DataFrame.fromRecords(rows), { method: 'xplainable', target: 'y', modelType: 'regressor', params: { max_depth: 3 } });
    const before = reg.partitions.get('__dataset__') as PartitionModel;
    const { model: after } = refit(reg, { features: ['c'], params: { tail_sensitivity: 1.5 } });
    const a = after.partitions.get('__dataset__') as PartitionModel;
    assert.deepEqual(a.features[0].leaves.score, before.features[0].leaves.score, 'x is untouched');
    assert.deepEqual(a.features[1].coef, before.features[1].coef, 'category coefficients are kept');
    const c = a.features[1];
    for (let i = 0; i < c.leaves.raw.length; i++) {
      assert.equal(c.leaves.score[i], c.leaves.raw[i] * (c.coef as Float64Array)[i] + 0);
    }
    const { model: deeper } = refit(reg, { features: ['x'], params: { max_depth: 5 } });
    const preds = predict(deeper, DataFrame.fromRecords(rows)).predictions as number[];
    const err = preds.reduce((s, p, i) => s + Math.abs(p - (rows[i].y as number)), 0) / rows.length;
    assert.ok(err < 5, `mean absolute error after a deeper refit: ${err}`);
  });
});
