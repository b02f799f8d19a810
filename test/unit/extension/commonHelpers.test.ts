import assert from 'node:assert/strict';
import { describeError, isCancellation, isUnauthorized, isUnreachable } from '../../../src/common/errors';
import { maskSecrets } from '../../../src/common/mask';
import { changedParams, defaultParams, paramsFromVersion, parseParam, specsForModel } from '../../../src/common/trainingParams';
import { parseSettings } from '../../../src/common/settingsSchema';
import { LineSplitter, parseServiceLine } from '../../../src/connection/serviceLine';
import { XModelsApiError } from '../../../src/client';

describe('secret masking', () => {
  it('masks known secrets and key-like assignments', () => {
    const key = 'xm_live_1234567890';
    assert.equal(maskSecrets(`connect with ${key} failed`, [key]), 'connect with *** failed');
    assert.equal(maskSecrets('{"api_key":"abcdef","team":"t"}'), '{"api_key":"***","team":"t"}');
    assert.equal(maskSecrets('Authorization: Bearer tok.en-123'), 'Authorization: Bearer ***');
    assert.equal(maskSecrets('short ab', ['ab']), 'short ab', 'secrets under 4 characters are not masked');
  });
});

describe('error classification', () => {
  it('shows the service detail with its suggestion', () => {
    const error = new XModelsApiError({ status: 422, code: 'VALIDATION_ERROR', detail: 'test_size must be between 0 and 1 (got 1.5)', suggestion: 'Use a fraction such as 0.2.' });
    assert.equal(describeError(error), 'test_size must be between 0 and 1 (got 1.5) Use a fraction such as 0.2.');
    assert.equal(isUnreachable(error), false);
  });

  it('recognises unreachable services, rejected keys and cancellations', () => {
    assert.equal(isUnreachable(new XModelsApiError({ status: 0, code: 'CONNECTION_REFUSED', detail: 'refused' })), true);
    assert.equal(isUnreachable(Object.assign(new Error('x'), { cause: { code: 'ECONNREFUSED' } })), true);
    assert.equal(isUnreachable(new Error('plain')), false);
    assert.equal(isUnauthorized(new XModelsApiError({ status: 401, code: 'UNAUTHORIZED', detail: 'unknown key' })), true);
    assert.equal(isCancellation(new XModelsApiError({ status: 0, code: 'ABORTED', detail: 'cancelled' })), true);
    assert.equal(isCancellation(Object.assign(new Error('Canceled'), { name: 'Canceled' })), true);
    assert.equal(isCancellation(new Error('boom')), false);
  });
});

describe('training parameters', () => {
  it('validates typed values with a sentence naming the parameter and the value', () => {
    assert.deepEqual(parseParam('max_depth', ' 6 '), { value: 6 });
    assert.deepEqual(parseParam('max_depth', '2.5'), { problem: 'max_depth must be a whole number of at least 0 (got 2.5).' });
    assert.deepEqual(parseParam('test_size', '1'), { problem: 'test_size must be greater than 0 and less than 1 (got 1).' });
    assert.deepEqual(parseParam('power_degree', '2'), { problem: 'power_degree must be 1, 3 or 5 (got 2).' });
    assert.deepEqual(parseParam('weight', 'abc'), { problem: 'weight must be a number (got "abc").' });
  });

  it('offers only the parameters that matter for the model type', () => {
    const keys = (type: 'classifier' | 'regressor', scope: 'train' | 'feature') => specsForModel(type, scope).map((s) => s.key);
    assert.ok(keys('classifier', 'train').includes('weight'));
    assert.ok(!keys('classifier', 'train').includes('tail_sensitivity'));
    assert.ok(keys('regressor', 'train').includes('tail_sensitivity'));
    assert.ok(!keys('regressor', 'feature').includes('test_size'));
  });

  it('prefills from a version and reports only changed values', () => {
    const defaults = defaultParams(parseSettings({}).settings.training);
    const current = paramsFromVersion({ max_depth: 6, weight: 0.5, alpha: 0.1, note: 'x' }, defaults);
    assert.equal(current.max_depth, 6);
    assert.equal(current.weight, 0.5);
    assert.equal(current.seed, 42);
    assert.deepEqual(changedParams({ ...current, max_depth: 4 }, current), { max_depth: 4 });
  });
});

describe('service line', () => {
  it('reads the JSON line even when it arrives in pieces', () => {
    const splitter = new LineSplitter();
    assert.deepEqual(splitter.push('{"url":"http://127.0.0.1:4'), []);
    const [line] = splitter.push('567","api_key":"k1","team_id":"t1"}\nnext');
    assert.deepEqual(parseServiceLine(line), { url: 'http://127.0.0.1:4567', api_key: 'k1', team_id: 't1' });
  });

  it('ignores other output', () => {
    assert.equal(parseServiceLine('listening...'), undefined);
    assert.equal(parseServiceLine('{"url":"not a url","api_key":"k","team_id":"t"}'), undefined);
  });
});
