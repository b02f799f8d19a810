import { strict as assert } from 'node:assert';
import {
  DEFAULT_BOOST_PARAMS,
  DEFAULT_PARAMS,
  EngineError,
  LARGE_DATA_ROWS,
  SMALL_DATA_ROWS,
  fitModel,
  predict,
  refit,
  resolveBoostParams,
  validateParams,
} from '../../../../src/engine';
import { goldenFrame, goldenTestRows, thrown } from '../helpers';

const engineError = (fn: () => unknown): EngineError => thrown(fn, EngineError);

describe('engine parameters', () => {
  it('has the reference library\'s defaults for the xplainable method', () => {
    const documented = 'max_depth=8 min_info_gain=0.0001 min_leaf_size=0.0001 ignore_nan=false weight=1 power_degree=1 sigmoid_exponent=0 tail_sensitivity=1';
    assert.equal(Object.entries(DEFAULT_PARAMS).map(([k, v]) => `${k}=${v}`).join(' '), documented);
  });

  const bad: [string, unknown, RegExp][] = [
    ['max_depth', -1, /max_depth must be a whole number between 0 and 64 \(got -1\)/],
    ['max_depth', 65, /max_depth must be a whole number between 0 and 64 \(got 65\)/],
    ['max_depth', 2.5, /max_depth .*\(got 2.5\)/],
    ['min_info_gain', 1, /min_info_gain must be at least -1 and less than 1 \(got 1\)/],
    ['min_leaf_size', -1.5, /min_leaf_size .*\(got -1.5\)/],
    ['weight', 3.5, /weight must be between 0 and 3 \(got 3.5\)/],
    ['power_degree', 2, /power_degree must be one of 1, 3, 5 \(got 2\)/],
    ['sigmoid_exponent', 1.1, /sigmoid_exponent .*\(got 1.1\)/],
    ['tail_sensitivity', 11, /tail_sensitivity .*\(got 11\)/],
    ['weight', 'heavy', /weight must be a finite number \(got "heavy"\)/],
    ['ignore_nan', 'yes', /ignore_nan must be true or false \(got yes\)/],
    ['depth', 3, /Unknown parameter depth/],
  ];
  for (const [name, value, message] of bad) {
    it(`rejects ${name} = ${JSON.stringify(value)} naming the parameter and the value`, () => {
      const e = engineError(() => validateParams({ [name]: value }));
      assert.equal(e.field, name);
      assert.match(e.message, message);
    });
  }

  it('resolves the boosted defaults by training size, keeping every given parameter', () => {
    assert.deepEqual(resolveBoostParams({}, SMALL_DATA_ROWS + 1), DEFAULT_BOOST_PARAMS);
    assert.equal(resolveBoostParams({}, SMALL_DATA_ROWS).max_leaves, 2);
    const large = resolveBoostParams({}, LARGE_DATA_ROWS + 1);
    assert.deepEqual(
      [large.outer_bags, large.max_leaves, large.learning_rate],
      [DEFAULT_BOOST_PARAMS.outer_bags / 2, 5, 0.3],
    );
    const given = { outer_bags: 3, max_leaves: 3, learning_rate: 0.1 };
    assert.deepEqual(resolveBoostParams(given, LARGE_DATA_ROWS + 1), { ...DEFAULT_BOOST_PARAMS, ...given });
    assert.deepEqual(resolveBoostParams({}, LARGE_DATA_ROWS), DEFAULT_BOOST_PARAMS);
  });

  it('accepts boundary values and keeps unspecified ones', () => {
    const p = validateParams({ max_depth: 0, weight: 3, power_degree: 5, sigmoid_exponent: 1, min_leaf_size: -1 });
    assert.equal(p.max_depth, 0);
    assert.equal(p.weight, 3);
    assert.equal(p.min_info_gain, DEFAULT_PARAMS.min_info_gain);
  });

  it('validates fit options: alpha, target, feature names and a non-binary target', () => {
    const frame = goldenFrame();
    assert.equal(engineError(() => fitModel(frame, { method: 'xplainable', target: 'y', modelType: 'classifier', alpha: 1 })).field, 'alpha');
    assert.equal(engineError(() => fitModel(frame, { method: 'xplainable', target: 'nope', modelType: 'classifier' })).field, 'nope');
    assert.equal(engineError(() => fitModel(frame, { method: 'xplainable', target: 'y', modelType: 'classifier', features: ['x', 'q'] })).field, 'q');
    assert.equal(engineError(() => fitModel(frame, { method: 'xplainable', target: 'y', modelType: 'classifier', params: { max_depth: -2 } })).field, 'max_depth');
    const multi = engineError(() => fitModel(frame, { method: 'xplainable', target: 'c', modelType: 'classifier' }));
    assert.match(multi.message, /exactly two values; column c has 3 \(a, b, c\)/);
    assert.match(engineError(() => fitModel(frame, { method: 'xplainable', target: 'c', modelType: 'regressor' })).message, /numeric target/);
  });

  it('max_depth 0 gives one leaf per numeric feature with contribution 0', () => {
    const m = fitModel(goldenFrame(), { method: 'xplainable', target: 'y', modelType: 'classifier', params: { max_depth: 0 }, features: ['x'] });
    const x = m.partitions.get('__dataset__')?.features[0];
    assert.equal(x?.leaves.score.length, 2);
    assert.deepEqual(Array.from(x?.leaves.score ?? []), [0, 0]);
  });

  it('rejects bad refit and predict options naming the feature, parameter or threshold', () => {
    const m = fitModel(goldenFrame(), { method: 'xplainable', target: 'y', modelType: 'classifier' });
    assert.equal(engineError(() => refit(m, { features: ['zz'] })).field, 'zz');
    assert.equal(engineError(() => refit(m, { featureParams: { x: { weight: 9 } } })).field, 'weight');
    assert.equal(engineError(() => predict(m, goldenTestRows(), { threshold: 1.5 })).field, 'threshold');
  });
});
