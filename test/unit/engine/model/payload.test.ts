import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  DataFrame,
  EngineError,
  fitModel,
  fromPayloads,
  predict,
  refit,
  toPayloads,
  type PartitionModel,
} from '../../../../src/engine';
import { assertClose, goldenFrame, goldenTestRows, thrown } from '../helpers';

const hosted = JSON.parse(readFileSync(join(__dirname, '../../../fixtures/engine/hosted-golden.json'), 'utf8')) as {
  model_type: string;
  partitions: Record<string, unknown>[];
};

const GOLDEN_SCORES = [0.581236, 0.934211, 0.692982, 0.701182];

const fieldOf = (fn: () => unknown): string | undefined => thrown(fn, EngineError).field;

describe('engine model JSON', () => {
  it('imports the hosted format: profile as a string with NaN/Infinity tokens and mean-based constructs', () => {
    const model = fromPayloads(hosted.partitions, 'binary_classification', { target: 'y' });
    assertClose(predict(model, goldenTestRows()).scores, GOLDEN_SCORES);
    assert.deepEqual(model.targetLabels, [0, 1]);
  });

  it('refits a hosted import from its constructs to the reference numbers', () => {
    const model = fromPayloads(hosted.partitions, 'binary_classification');
    const r = refit(model, { features: ['x'], params: { weight: 0.5, power_degree: 3, sigmoid_exponent: 1 } });
    const p = r.model.partitions.get('__dataset__') as PartitionModel;
    assertClose(p.features[0].leaves.score.subarray(0, 4), [-0.395816, -0.479066, 0.141434, 0.327864]);
    assertClose(p.features[1].leaves.score, [-0.104268, -0.046341, 0.088802, 0.055501]);
  });

  it('routes a missing value to the missing-value bin even when the hosted JSON turned ±∞ bounds into null (§7 fixed)', () => {
    const part = { ...hosted.partitions[0] };
    part.profile = (part.profile as string).replace(/-?Infinity/g, 'null');
    const model = fromPayloads([part], 'binary_classification');
    const scores = predict(model, goldenTestRows()).scores;
    assertClose(scores, GOLDEN_SCORES);
  });

  it('predicts from a payload without constructs and refuses to refit it, naming the feature', () => {
    const { constructs: _dropped, ...part } = hosted.partitions[0];
    const model = fromPayloads([part], 'binary_classification');
    assertClose(predict(model, goldenTestRows()).scores, GOLDEN_SCORES);
    const e = thrown(() => refit(model, { features: ['x'], params: { max_depth: 1 } }), EngineError);
    assert.equal(e.field, 'x');
    assert.match(e.message, /no refit cache/);
  });

  it('exports JSON without non-finite numbers: null bounds and a flagged missing-value bin', () => {
    const model = fitModel(goldenFrame(), { method: 'xplainable', target: 'y', modelType: 'classifier', params: { max_depth: 2, min_leaf_size: 0.1 } });
    const [payload] = toPayloads(model);
    const text = JSON.stringify(payload);
    assert.doesNotMatch(text, /NaN|Infinity/);
    const profile = payload.profile as { numeric: Record<string, Record<string, unknown>[]>; categorical: Record<string, Record<string, unknown>[]> };
    const x = profile.numeric.x;
    assert.equal(x[0].lower, null);
    assert.equal(x[3].upper, null);
    assert.deepEqual(Object.keys(x[4]).sort(), ['freq', 'mean', 'missing', 'raw', 'score']);
    assert.equal(profile.categorical.c[3].category, null);
    assert.equal(profile.categorical.c[3].missing, true);
    assert.deepEqual(payload.feature_map, { c: { b: 0, a: 1, c: 2 } });
    assert.deepEqual(payload.target_map, { 0: 0, 1: 1 });
    assert.equal(Object.keys(payload.calibration_map ?? {}).length, 101);
    assert.equal(payload.constructs?.length, 2);
  });

  it('round-trips a partitioned model with its routing', () => {
    const rows = Array.from({ length: 80 }, (_, i) => ({ g: i % 2 ? 'odd' : 'even', x: i, y: (i % 2 ? i > 40 : i < 40) ? 'up' : 'down' }));
    const model = fitModel(DataFrame.fromRecords(rows), { method: 'xplainable', target: 'y', modelType: 'classifier', partitionOn: 'g' });
    const back = fromPayloads(JSON.parse(JSON.stringify(toPayloads(model))), 'classifier');
    assert.equal(back.partitionOn, 'g');
    assert.equal(back.target, 'y');
    assert.deepEqual([...back.partitions.keys()], [...model.partitions.keys()]);
    const probe = DataFrame.fromRecords([{ g: 'odd', x: 10 }, { g: 'even', x: 10 }, { g: 'other', x: 70 }, { g: null, x: 70 }]);
    const a = predict(model, probe);
    const b = predict(back, probe);
    assert.deepEqual(b.scores, a.scores);
    assert.deepEqual(b.baseValues, a.baseValues);
    assert.deepEqual(b.predictions, a.predictions);
  });

  it('rejects malformed payloads with the path of the bad field', () => {
    assert.equal(fieldOf(() => fromPayloads(hosted.partitions, 'multiclass' as never)), 'model_type');
    assert.equal(fieldOf(() => fromPayloads([], 'regression')), 'partitions');
    const noDataset = [{ ...hosted.partitions[0], partition: 'a' }, { ...hosted.partitions[0], partition: 'b' }];
    assert.equal(fieldOf(() => fromPayloads(noDataset, 'binary_classification')), 'partitions');
    const badProfile = [{ ...hosted.partitions[0], profile: '[[1, 2' }];
    assert.equal(fieldOf(() => fromPayloads(badProfile, 'binary_classification')), 'partitions[0].profile');
    const badParam = [{ ...hosted.partitions[0], parameters: { max_depth: -3 } }];
    assert.equal(fieldOf(() => fromPayloads(badParam, 'binary_classification')), 'max_depth');
  });
});
