import { strict as assert } from 'node:assert';
import {
  DataFrame,
  EngineError,
  categoryColumn,
  fitModel,
  fromPayloads,
  inferColumn,
  modelProfile,
  mulberry32,
  numberColumn,
  predict,
  refit,
  toPayloads,
  type FitOptions,
  type PartitionModel,
  type TransparentModel,
} from '../../../../src/engine';
import { thrown } from '../helpers';

const SIZES = ['small', 'medium', 'large', 'huge'];

/** x0 and x1 act together (an XOR), x2 alone; `size` is an ordinal whose effect rises with its order; `code` numbers. */
function table(n: number, seed: number): DataFrame {
  const random = mulberry32(seed);
  const x = [new Float64Array(n), new Float64Array(n), new Float64Array(n)];
  const size: string[] = [];
  const code = new Float64Array(n);
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    for (const col of x) col[i] = 2 * random() - 1;
    const s = Math.floor(random() * 4);
    size.push(SIZES[s]);
    code[i] = [101, 205, 307][Math.floor(random() * 3)];
    y[i] = (x[0][i] > 0 === x[1][i] > 0 ? 1 : -1) + 0.5 * x[2][i] + 0.4 * s + (code[i] === 205 ? 0.5 : 0) + 0.2 * (random() - 0.5);
  }
  return new DataFrame([
    numberColumn('x0', x[0]),
    numberColumn('x1', x[1]),
    numberColumn('x2', x[2]),
    inferColumn('size', size),
    numberColumn('code', code),
    // Numbers stored as text, as a reader that saw them quoted would keep them.
    categoryColumn('text_number', Int32Array.from(code, (c) => [101, 205, 307].indexOf(c)), ['1.01', '2.05', '3.07']),
    numberColumn('y', y),
  ]);
}

const regressor: FitOptions = { target: 'y', modelType: 'regressor', dropColumns: ['text_number'] };

function part(model: TransparentModel): PartitionModel {
  return model.partitions.get('__dataset__') as PartitionModel;
}

function pairNames(model: TransparentModel): string[] {
  return (part(model).pairs ?? []).map((p) => p.axes.map((a) => a.feature).join(' × '));
}

describe('engine: terms and column types under the user’s control', () => {
  const train = table(3000, 1);

  it('fits exactly the pairs listed, unscreened, and never a pair ruled out', () => {
    assert.ok(pairNames(fitModel(train, regressor)).includes('x0 × x1'));
    assert.deepEqual(pairNames(fitModel(train, { ...regressor, interactions: [['x2', 'x0']] })), ['x0 × x2']);
    assert.ok(!pairNames(fitModel(train, { ...regressor, excludeInteractions: [['x1', 'x0']] })).includes('x0 × x1'));
    assert.deepEqual(pairNames(fitModel(train, { ...regressor, interactions: 0 })), []);
  });

  it('names an unknown column, a pair of one feature with itself and a pair both asked for and ruled out', () => {
    assert.match(thrown(() => fitModel(train, { ...regressor, interactions: [['x0', 'nope']] }), EngineError).message, /interactions\[0\] names nope/);
    assert.match(thrown(() => fitModel(train, { ...regressor, interactions: [['x0', 'x0']] }), EngineError).message, /pairs x0 with itself/);
    assert.match(thrown(() => fitModel(train, { ...regressor, excludeInteractions: [['x0', 'text_number']] }), EngineError).message, /exclude_interactions\[0\] names text_number/);
    const both = thrown(() => fitModel(train, { ...regressor, interactions: [['x0', 'x1']], excludeInteractions: [['x1', 'x0']] }), EngineError);
    assert.match(both.message, /rules out/);
  });

  it('reads numeric codes as categories and numbers stored as text as numbers, and predicts raw input alike', () => {
    const model = fitModel(train, { ...regressor, featureTypes: { code: 'categorical' }, dropColumns: [] });
    const byName = new Map(part(model).features.map((f) => [f.name, f]));
    assert.equal(byName.get('code')?.type, 'categorical');
    assert.deepEqual([...(byName.get('code')?.categorical?.categories ?? [])].sort(), ['101', '205', '307']);
    assert.equal(byName.get('text_number')?.type, 'categorical');
    const numeric = fitModel(train, { ...regressor, dropColumns: ['code'], featureTypes: { text_number: 'numeric' } });
    assert.equal(part(numeric).features.find((f) => f.name === 'text_number')?.type, 'numeric');
    const fresh = table(50, 2);
    const scores = predict(numeric, fresh).scores;
    assert.ok(scores.every((s) => Number.isFinite(s)));
    assert.ok(new Set(scores).size > 1);
    const bad = train.withColumns([inferColumn('text_number', Array.from({ length: train.nRows }, (_, i) => (i === 7 ? 'n/a' : '1.5')))]);
    assert.match(thrown(() => fitModel(bad, { ...regressor, dropColumns: [], featureTypes: { text_number: 'numeric' } }), EngineError).message, /feature_types\.text_number: text_number holds "n\/a", which is not a number/);
  });

  it('bins an ordinal feature in its given order: its steps follow that order, the profile lists it so, and it survives the model JSON', () => {
    const order = [...SIZES];
    const model = fitModel(train, { ...regressor, featureTypes: { size: { ordinal: order } }, boostFeature: { monotone: 0 } });
    const size = part(model).features.find((f) => f.name === 'size');
    assert.ok(size?.ordinal);
    assert.deepEqual(size.categorical?.categories, order);
    const [profile] = modelProfile(model).partitions;
    assert.deepEqual(profile.ordinal, ['size']);
    assert.deepEqual(profile.categorical.size.slice(0, -1).map((b) => b.category), order);
    const steps = profile.categorical.size.slice(0, -1).map((b) => b.score);
    for (let i = 1; i < steps.length; i++) assert.ok(steps[i] > steps[i - 1], `steps ${steps.join(', ')}`);
    const back = fromPayloads(JSON.parse(JSON.stringify(toPayloads(model))), 'regression');
    assert.equal(part(back).features.find((f) => f.name === 'size')?.ordinal, true);
    assert.deepEqual(predict(back, train).scores, predict(model, train).scores);
    // A refit smooths an ordinal feature's steps along its order, as a numeric feature's.
    const smoothed = refit(back, { featureParams: { size: { smoothing: 1 } } }).model;
    const after = modelProfile(smoothed).partitions[0].categorical.size.slice(0, -1).map((b) => b.score);
    assert.notDeepEqual(after, steps);
  });

  it('names a category the ordinal order does not list, and a feature type of an unknown column', () => {
    const e = thrown(() => fitModel(train, { ...regressor, featureTypes: { size: { ordinal: ['small', 'medium', 'large'] } } }), EngineError);
    assert.match(e.message, /feature_types\.size: size holds the category "huge", which the ordinal order does not list/);
    assert.equal(e.field, 'feature_types.size');
    assert.match(thrown(() => fitModel(train, { ...regressor, featureTypes: { nope: 'numeric' } }), EngineError).message, /feature_types\.nope: there is no column nope/);
  });
});
