import assert from 'node:assert/strict';
import { describeError, isCancellation, isUnauthorized, isUnreachable } from '../../../src/common/errors';
import { maskSecrets } from '../../../src/common/mask';
import {
  changedParams,
  defaultParams,
  methodOfVersion,
  paramSpecs,
  paramsFromVersion,
  parseParam,
  specFor,
  specsForModel,
  trainRequestParams,
} from '../../../src/views/trainingParams';
import { TrainRequestSchema } from '../../../src/contract';
import { BOOST_FEATURE_PARAM_RANGES, BOOST_PARAM_RANGES, PARAM_RANGES, SPLIT_RANGES, trainTestSplit } from '../../../src/engine';
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
    assert.deepEqual(parseParam('max_depth', '2.5'), { problem: 'max_depth must be a whole number between 0 and 64 (got 2.5).' });
    assert.deepEqual(parseParam('test_size', '1'), { problem: 'test_size must be greater than 0 and less than 1 (got 1).' });
    assert.deepEqual(parseParam('power_degree', '2'), { problem: 'power_degree must be one of 1, 3, 5 (got 2).' });
    assert.deepEqual(parseParam('learning_rate', '0'), { problem: 'learning_rate must be greater than 0 and at most 1 (got 0).' });
    assert.deepEqual(parseParam('weight', 'abc'), { problem: 'weight must be a number (got "abc").' });
  });

  it('offers only the parameters that matter for the model type and fit method', () => {
    const keys = (type: 'classifier' | 'regressor', scope: 'train' | 'feature', method: 'boosted' | 'xplainable') =>
      specsForModel(type, scope, method).map((s) => s.key);
    assert.ok(keys('classifier', 'train', 'xplainable').includes('weight'));
    assert.ok(!keys('classifier', 'train', 'xplainable').includes('tail_sensitivity'));
    assert.ok(keys('regressor', 'train', 'xplainable').includes('tail_sensitivity'));
    assert.ok(!keys('regressor', 'feature', 'xplainable').includes('test_size'));
    assert.deepEqual(keys('classifier', 'feature', 'boosted'), ['smoothing', 'monotone']);
    assert.ok(keys('regressor', 'train', 'boosted').includes('learning_rate') && !keys('regressor', 'train', 'boosted').includes('max_depth'));
  });

  it('takes every range from the engine, the one definition the service checks too', () => {
    for (const spec of paramSpecs) {
      const range = { ...SPLIT_RANGES, ...PARAM_RANGES, ...BOOST_PARAM_RANGES, ...BOOST_FEATURE_PARAM_RANGES }[spec.key];
      assert.deepEqual(spec.range, range, spec.key);
    }
    // The split too: the wire, the settings and the engine's own split refuse what the editor refuses.
    for (const [key, bad] of [['test_size', 1], ['seed', -1], ['seed', 2.5]] as const) {
      const issue = TrainRequestSchema.safeParse({ target_column: 'y', [key]: bad }).error?.issues[0];
      assert.equal(`${issue?.path.join('.')} ${issue?.message}`, `${key} ${specFor(key).check(bad)}`);
    }
    const { problems } = parseSettings({ training: { testSize: 0, seed: -3 } });
    assert.equal(problems.length, 2, problems.join('\n'));
    assert.throws(() => trainTestSplit(10, 1, 1), new RegExp(`test_size ${specFor('test_size').check(1)}`));
    const wire = TrainRequestSchema.safeParse({ target_column: 'y', max_depth: 65, learning_rate: 2 });
    assert.equal(wire.success, false);
    const messages = wire.error?.issues.map((i) => `${i.path.join('.')} ${i.message}`).sort();
    assert.deepEqual(messages, [`learning_rate ${specFor('learning_rate').check(2)}`, `max_depth ${specFor('max_depth').check(65)}`]);
  });

  it('sends the boosted parameters only where they differ from the engine defaults, the reference ones as set', () => {
    const defaults = defaultParams(parseSettings({}).settings.training);
    assert.deepEqual(trainRequestParams('boosted', { ...defaults, max_bins: 64, max_depth: 3 }, defaults), { test_size: 0.2, seed: 42, max_bins: 64 });
    const xplainable = trainRequestParams('xplainable', defaults, defaults);
    assert.equal(xplainable.max_depth, 8);
    assert.equal(xplainable.learning_rate, undefined);
  });

  it('prefills from a version and reports only changed values', () => {
    const defaults = defaultParams(parseSettings({}).settings.training);
    const current = paramsFromVersion({ method: 'xplainable', max_depth: 6, weight: 0.5, alpha: 0.1, note: 'x' }, defaults);
    assert.equal(methodOfVersion({ max_depth: 6 }), 'xplainable', 'versions from before the boosted method');
    assert.equal(methodOfVersion({ method: 'boosted' }), 'boosted');
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
