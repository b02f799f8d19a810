import { strict as assert } from 'node:assert';
import {
  DataFrame,
  featureImportances,
  fitModel,
  inferColumn,
  numberColumn,
  predict,
  refit,
  type FeatureModel,
  type PartitionModel,
} from '../../../../src/engine';
import { assertClose, goldenFrame, goldenTestRows } from '../helpers';

const PARAMS = { max_depth: 2, min_leaf_size: 0.1 };

function dataset(model: { partitions: Map<string, PartitionModel> }): PartitionModel {
  return model.partitions.get('__dataset__') as PartitionModel;
}
function feature(p: PartitionModel, name: string): FeatureModel {
  return p.features.find((f) => f.name === name) as FeatureModel;
}

// Reference numbers of the xplainable method and their derivation: docs/reference-algorithm.md. The bug fixes of
// our engine do not change this example: x has no missing values (so the missing-value split-statistics fix is not
// exercised), the regressor uses x only (so the ridge category fix is not exercised) and calibration is off. Tests
// below name the cases where a fix does change the outcome.
describe('engine golden example of the xplainable method (docs/reference-algorithm.md)', () => {
  const model = fitModel(goldenFrame(), { method: 'xplainable', target: 'y', modelType: 'classifier', params: PARAMS, mapCalibration: false });
  const p = dataset(model);

  it('fits the base value and the category codes ordered by mean target', () => {
    assertClose([p.baseValue], [0.583333]);
    assert.deepEqual(feature(p, 'c').categorical?.categories, ['b', 'a', 'c']);
  });

  it('grows the x leaves with bounds, scores, means, frequencies and raw scores', () => {
    const x = feature(p, 'x').leaves;
    assert.deepEqual(Array.from(x.upper.subarray(0, 4)), [1.5, 3.5, 10.5, Infinity]);
    assert.deepEqual(Array.from(x.lower.subarray(0, 4)), [-Infinity, 1.5, 3.5, 10.5]);
    assertClose(x.score, [-0.177536, -0.355072, 0.241228, 0.219298, 0], 1e-6, 'x score');
    assertClose(x.mean, [0, 0, 0.714286, 1, 0], 1e-6, 'x mean');
    assertClose(x.freq, [0.083333, 0.166667, 0.583333, 0.166667, 0], 1e-6, 'x freq');
    assertClose(x.raw, [-0.048611, -0.097222, 0.076389, 0.069444, 0], 1e-6, 'x raw');
  });

  it('gives every category its own leaf plus the missing-value bin', () => {
    const c = feature(p, 'c').leaves;
    assertClose(c.score, [-0.228261, -0.101449, 0.175439, 0.109649], 1e-6, 'c score');
    assertClose(c.mean, [0.333333, 0.5, 0.75, 1], 1e-6, 'c mean');
    assertClose(c.freq, [0.25, 0.333333, 0.333333, 0.083333], 1e-6, 'c freq');
    assertClose(c.raw, [-0.0625, -0.027778, 0.055556, 0.034722], 1e-6, 'c raw');
  });

  it('predicts the four test rows, routing unseen and missing values to the missing-value bin', () => {
    const result = predict(model, goldenTestRows(), { explain: true });
    assertClose(result.scores, [0.581236, 0.934211, 0.692982, 0.701182]);
    // (6.5, 'zzz'): the unseen category gets c's missing-value bin score, 0.109649.
    assertClose([result.contributions?.c[1] as number], [0.109649]);
  });

  it('computes the feature importances', () => {
    const imp = Object.fromEntries(featureImportances(model).map((i) => [i.feature, i.importance]));
    assertClose([imp.c, imp.x], [0.423372, 0.576628]);
  });

  it('refits x without data and renormalises c globally', () => {
    const { model: refitted, parametersChanged } = refit(model, {
      features: ['x'],
      params: { weight: 0.5, power_degree: 3, sigmoid_exponent: 1 },
    });
    const r = dataset(refitted);
    assertClose(feature(r, 'x').leaves.score.subarray(0, 4), [-0.395816, -0.479066, 0.141434, 0.327864], 1e-6, 'x score');
    assertClose(feature(r, 'x').leaves.raw.subarray(0, 4), [-0.23726, -0.287161, 0.088482, 0.205115], 1e-6, 'x raw');
    assertClose(feature(r, 'c').leaves.score, [-0.104268, -0.046341, 0.088802, 0.055501], 1e-6, 'c score');
    assert.deepEqual(Object.keys(parametersChanged), ['x']);
    assert.deepEqual(parametersChanged.x?.weight, { from: 1, to: 0.5 });
    // The input model is left as it was.
    assertClose(feature(p, 'c').leaves.score, [-0.228261, -0.101449, 0.175439, 0.109649]);
  });

  it('fits the regressor on x with Ridge-scaled leaves and the intercept as base value', () => {
    const frame = new DataFrame([
      numberColumn(
        'x',
        Float64Array.from({ length: 12 }, (_, i) => i + 1),
      ),
      inferColumn('y', '1,2,2,5,3,6,7,8,8,4,9,10'.split(',')),
    ]);
    const reg = fitModel(frame, { method: 'xplainable', target: 'y', modelType: 'regressor', params: PARAMS });
    const r = dataset(reg);
    const x = feature(r, 'x').leaves;
    assert.deepEqual(Array.from(x.upper.subarray(0, 4)), [1.5, 5.5, 11.5, Infinity]);
    assertClose(x.mean.subarray(0, 4), [1, 3, 7, 10]);
    assertClose(x.raw.subarray(0, 4), [-4.416667, -2.416667, 1.583333, 4.583333]);
    assertClose(x.score.subarray(0, 4), [-4.484506, -2.602976, 1.205459, 4.090862]);
    assertClose([r.baseValue], [5.714399]);
    const preds = predict(reg, goldenTestRows().select(['x'])).predictions as number[];
    assertClose(preds, [1.229893, 6.919859, 5.714399, 9.805261]);
  });
});

describe('engine bug fixes that change reference results (docs/reference-algorithm.md)', () => {
  it('missing numeric values are left out of split statistics, so 0/1 leaf means stay within [0, 1]', () => {
    const x = [1, 2, NaN, 3, NaN, 4, 5, NaN, 6, 7, 8, NaN];
    const y = [0, 0, 1, 0, 1, 1, 0, 1, 1, 1, 0, 1];
    const frame = new DataFrame([numberColumn('x', Float64Array.from(x)), numberColumn('y', Float64Array.from(y))]);
    const f = dataset(fitModel(frame, { method: 'xplainable', target: 'y', modelType: 'classifier', params: PARAMS })).features[0];
    const leafRows = f.leaves.count.subarray(0, -1).reduce((a, b) => a + b, 0);
    assert.equal(leafRows, 8, 'non-missing leaves hold exactly the 8 non-missing rows');
    assert.equal(f.missingCount, 4);
    for (const m of f.leaves.mean) assert.ok(m >= 0 && m <= 1, `leaf mean ${m} outside [0, 1]`);
    assertClose([f.leaves.mean[f.leaves.mean.length - 1]], [1], 1e-12, 'missing-bin mean');
  });

  it('a regressor keeps the contributions of a categorical feature (the reference zeroes them)', () => {
    const levels = ['lo', 'mid', 'hi'];
    const rows = Array.from({ length: 60 }, (_, i) => ({ c: levels[i % 3], y: (i % 3) * 10 + (i % 2) }));
    const reg = fitModel(DataFrame.fromRecords(rows), { method: 'xplainable', target: 'y', modelType: 'regressor' });
    const c = dataset(reg).features[0].leaves.score;
    assert.ok(Math.abs(c[0]) > 5 && Math.abs(c[2]) > 5, `category scores ${Array.from(c)} should not be zero`);
    const preds = predict(reg, DataFrame.fromRecords([{ c: 'lo' }, { c: 'hi' }])).predictions as number[];
    assert.ok(preds[1] - preds[0] > 15, `hi − lo = ${preds[1] - preds[0]}`);
  });

  it('refit honours a new min_leaf_size (the reference keeps the old absolute leaf size)', () => {
    const model = fitModel(goldenFrame(), { method: 'xplainable', target: 'y', modelType: 'classifier', params: PARAMS, mapCalibration: false });
    const before = dataset(model).features[0].leaves.count.length;
    const { model: coarse } = refit(model, { features: ['x'], params: { min_leaf_size: 0.4 } });
    const counts = Array.from(dataset(coarse).features[0].leaves.count.subarray(0, -1));
    assert.ok(counts.length < before, `leaves ${counts.length} should be fewer than ${before}`);
    for (const c of counts) assert.ok(c >= Math.floor(0.4 * 12), `leaf of ${c} rows is below the minimum`);
  });

  it('the calibration map keeps empty bins, so every key 0..100 has a probability', () => {
    const model = fitModel(goldenFrame(), { method: 'xplainable', target: 'y', modelType: 'classifier', params: PARAMS });
    const cal = dataset(model).calibration as Float64Array;
    assert.equal(cal.length, 101);
    for (const v of cal) assert.ok(v >= 0 && v <= 1, `calibrated value ${v}`);
    const probs = predict(model, goldenTestRows()).probabilities as Float64Array;
    for (const v of probs) assert.ok(Number.isFinite(v));
  });
});
