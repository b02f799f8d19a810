import assert from 'node:assert/strict';
import { initialRefitValues, parseRefitForm, refitFields } from '../../../src/panels/shaping/refitForm';

describe('panels: refit form', () => {
  it('offers the parameters that affect the model type', () => {
    const names = (t: 'binary_classification' | 'regression') => refitFields(t).map((f) => f.name);
    assert.ok(names('binary_classification').includes('weight') && !names('binary_classification').includes('tail_sensitivity'));
    assert.ok(names('regression').includes('tail_sensitivity') && !names('regression').includes('weight'));
  });

  it('starts from the version\u2019s parameters, else the engine defaults', () => {
    const values = initialRefitValues('regression', { max_depth: 5, min_leaf_size: 'x' });
    assert.deepEqual(values, { max_depth: '5', min_info_gain: '0.0001', min_leaf_size: '0.0001', tail_sensitivity: '1' });
  });

  it('returns numbers for a valid form', () => {
    const result = parseRefitForm('regression', { max_depth: ' 4 ', min_info_gain: '0.01', min_leaf_size: '0.05', tail_sensitivity: '1.5' });
    assert.deepEqual(result, { ok: true, params: { max_depth: 4, min_info_gain: 0.01, min_leaf_size: 0.05, tail_sensitivity: 1.5 } });
  });

  it('names each bad field and value', () => {
    const result = parseRefitForm('binary_classification', {
      max_depth: '2.5',
      min_info_gain: 'abc',
      min_leaf_size: '1.5',
      weight: '-1',
      power_degree: '2',
      sigmoid_exponent: '0',
    });
    assert.equal(result.ok, false);
    if (result.ok) return;
    assert.deepEqual(
      result.errors.map((e) => e.message),
      [
        'Max depth must be a whole number (got 2.5).',
        'Min information gain must be a number (got "abc").',
        'Min leaf size must be between 0 and 1 (got 1.5).',
        'Weight must be at least 0 (got -1).',
        'Power degree must be one of 1, 3, 5 (got 2).',
      ],
    );
  });
});
