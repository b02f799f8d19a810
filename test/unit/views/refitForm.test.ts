import assert from 'node:assert/strict';
import { initialRefitValues, parseRefitForm, refitFields } from '../../../src/views/refitForm';

const XPLAINABLE = { method: 'xplainable' };

describe('views: refit form', () => {
  it('offers the per-feature parameters of the version\u2019s fit method and model type', () => {
    const names = (t: 'binary_classification' | 'regression', parameters: Record<string, unknown>) => refitFields(t, parameters).map((f) => f.name);
    assert.ok(names('binary_classification', XPLAINABLE).includes('weight') && !names('binary_classification', XPLAINABLE).includes('tail_sensitivity'));
    assert.ok(names('regression', XPLAINABLE).includes('tail_sensitivity') && !names('regression', XPLAINABLE).includes('weight'));
    assert.deepEqual(names('regression', { method: 'boosted' }), ['smoothing', 'monotone']);
  });

  it('starts from the version\u2019s parameters, else the defaults', () => {
    const values = initialRefitValues('regression', { ...XPLAINABLE, max_depth: 5, min_leaf_size: 'x' });
    assert.deepEqual(values, { max_depth: '5', min_info_gain: '0.0001', min_leaf_size: '0.0001', tail_sensitivity: '1' });
    assert.deepEqual(initialRefitValues('regression', { method: 'boosted', smoothing: 2 }), { smoothing: '2', monotone: '0' });
  });

  it('returns numbers for a valid form', () => {
    const result = parseRefitForm('regression', { max_depth: ' 4 ', min_info_gain: '0.01', min_leaf_size: '0.05', tail_sensitivity: '1.5' }, XPLAINABLE);
    assert.deepEqual(result, { ok: true, params: { max_depth: 4, min_info_gain: 0.01, min_leaf_size: 0.05, tail_sensitivity: 1.5 } });
  });

  it('names each bad field and value with the ranges the engine and the service enforce', () => {
    const result = parseRefitForm(
      'binary_classification',
      { max_depth: '65', min_info_gain: 'abc', min_leaf_size: '1.5', weight: '3.5', power_degree: '2', sigmoid_exponent: '0' },
      XPLAINABLE,
    );
    assert.equal(result.ok, false);
    if (result.ok) return;
    assert.deepEqual(
      result.errors.map((e) => e.message),
      [
        'Max depth must be a whole number between 0 and 64 (got 65).',
        'Min info gain must be a number (got "abc").',
        'Min leaf size must be at least -1 and less than 1 (got 1.5).',
        'Weight must be between 0 and 3 (got 3.5).',
        'Power degree must be one of 1, 3, 5 (got 2).',
      ],
    );
    const boosted = parseRefitForm('regression', { smoothing: '2.5', monotone: '2' }, { method: 'boosted' });
    assert.deepEqual(boosted.ok ? [] : boosted.errors.map((e) => e.message), [
      'Smoothing must be a whole number between 0 and 50 (got 2.5).',
      'Monotone must be one of -1, 0, 1 (got 2).',
    ]);
  });
});
