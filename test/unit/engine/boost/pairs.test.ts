import { strict as assert } from 'node:assert';
import {
  DataFrame,
  axisIndices,
  axisSize,
  categoryColumn,
  fitModel,
  fitMulticlass,
  fitModelParallel,
  fromPayloads,
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
import { purify } from '../../../../src/engine/boost/fitPairs';

/** Three numeric features in [−1, 1] and a category; `effect` gives each row's true score. */
function frame(n: number, seed: number, effect: (x: number[], c: string) => number, classifier = false): DataFrame {
  const random = mulberry32(seed);
  const x = [new Float64Array(n), new Float64Array(n), new Float64Array(n)];
  const codes = new Int32Array(n);
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    for (const col of x) col[i] = 2 * random() - 1;
    codes[i] = Math.floor(random() * 3);
    const s = effect([x[0][i], x[1][i], x[2][i]], 'abc'[codes[i]]);
    y[i] = classifier ? (random() < 1 / (1 + Math.exp(-s)) ? 1 : 0) : s + 0.3 * (random() - 0.5);
  }
  return new DataFrame([numberColumn('x0', x[0]), numberColumn('x1', x[1]), numberColumn('x2', x[2]), categoryColumn('c', codes, ['a', 'b', 'c']), numberColumn('y', y)]);
}

const xor = (x: number[]) => (x[0] > 0 === x[1] > 0 ? 1 : -1) + 0.5 * x[2];
const additive = (x: number[], c: string) => x[0] - 0.5 * x[1] + Math.sin(2 * x[2]) + (c === 'b' ? 0.7 : 0);

function dataset(model: TransparentModel): PartitionModel {
  return model.partitions.get('__dataset__') as PartitionModel;
}

function pairNames(part: PartitionModel): string[] {
  return (part.pairs ?? []).map((p) => p.axes.map((a) => a.feature).join(' × '));
}

function r2(y: Float64Array, yhat: ArrayLike<number>): number {
  const mean = y.reduce((a, b) => a + b, 0) / y.length;
  let ss = 0;
  let res = 0;
  y.forEach((v, i) => {
    ss += (v - mean) ** 2;
    res += (v - yhat[i]) ** 2;
  });
  return 1 - res / ss;
}

const regressor: FitOptions = { target: 'y', modelType: 'regressor' };

describe('engine: pairwise interaction terms (boosted)', () => {
  const train = frame(4000, 1, xor);
  const test = frame(2000, 2, xor);
  const model = fitModel(train, regressor);

  it('finds an XOR pair and recovers it: the test R² goes from none to nearly all of the signal', () => {
    assert.ok(pairNames(dataset(model)).includes('x0 × x1'), `pairs found: ${pairNames(dataset(model)).join(', ')}`);
    const y = (test.column('y') as { values: Float64Array }).values;
    const withPairs = r2(y, predict(model, test).predictions as number[]);
    const without = r2(y, predict(fitModel(train, { ...regressor, boost: { interactions: 0 } }), test).predictions as number[]);
    assert.ok(without < 0.3, `without pairs R² ${without}`);
    assert.ok(withPairs > 0.9, `with pairs R² ${withPairs}`);
    const pair = (dataset(model).pairs ?? []).find((p) => p.axes[0].feature === 'x0' && p.axes[1].feature === 'x1');
    assert.ok(pair);
    // The recovered term: cells where both are positive or both negative score above those where the signs differ.
    const width = pair.axes[1].upper?.length as number;
    const at = (a: number, b: number) => pair.score[a * (width + 1) + b];
    const last = (pair.axes[0].upper?.length as number) - 1;
    assert.ok(at(0, 0) > 0.5 && at(last, width - 1) > 0.5 && at(0, width - 1) < -0.5 && at(last, 0) < -0.5);
  });

  it('keeps no pair on additive data, numeric or categorical, regressor or classifier', () => {
    assert.deepEqual(pairNames(dataset(fitModel(frame(3000, 3, additive), regressor))), []);
    assert.deepEqual(pairNames(dataset(fitModel(frame(3000, 4, additive, true), { target: 'y', modelType: 'classifier' }))), []);
    assert.deepEqual(pairNames(dataset(fitModel(frame(300, 5, additive), regressor))), []);
  });

  it('keeps no pair on additive data of 50,000 rows, in a multiclass model, nor in any partition', function () {
    this.timeout(120_000);
    assert.deepEqual(pairNames(dataset(fitModel(frame(50_000, 6, additive), regressor))), []);
    // Each class's one-vs-rest log-odds must be additive too: the class follows x0 alone (and noise).
    const classes = frame(6000, 7, (x) => x[0]);
    const y = (classes.column('y') as { values: Float64Array }).values;
    const label = Int32Array.from(y, (v) => (v < -0.3 ? 0 : v < 0.3 ? 1 : 2));
    const multiclass = fitMulticlass(classes.withColumns([categoryColumn('y', label, ['low', 'mid', 'high'])]), { target: 'y', modelType: 'classifier' });
    assert.equal(multiclass.classModels.length, 3);
    for (const classModel of multiclass.classModels) assert.deepEqual(pairNames(dataset(classModel)), [], classModel.target);
    const partitioned = fitModel(frame(6000, 8, additive), { ...regressor, partitionOn: 'c' });
    assert.equal(partitioned.partitions.size, 4);
    for (const part of partitioned.partitions.values()) assert.deepEqual(pairNames(part), [], part.key);
  });

  it('keeps the XOR pair of a table with two features of pure noise, and no pair of noise beside it', function () {
    this.timeout(60_000);
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const random = mulberry32(seed);
      const n = 4000;
      const columns = { north: new Float64Array(n), east: new Float64Array(n), noise_a: new Float64Array(n), noise_b: new Float64Array(n) };
      const label = new Int32Array(n);
      for (let i = 0; i < n; i++) {
        for (const values of Object.values(columns)) values[i] = 2 * random() - 1;
        label[i] = columns.north[i] > 0 !== columns.east[i] > 0 ? 1 : 0;
      }
      const table = new DataFrame([...Object.entries(columns).map(([name, values]) => numberColumn(name, values)), categoryColumn('label', label, ['no', 'yes'])]);
      const pairs = pairNames(dataset(fitModel(table, { target: 'label', modelType: 'classifier', seed })));
      assert.deepEqual(pairs, ['north × east'], `seed ${seed}`);
    }
  });

  it('purifies each pair: its row and column means over the training rows are 0, and every cell keeps its total', () => {
    const pairs = dataset(model).pairs;
    assert.ok(pairs && pairs.length > 0, 'the model has pair terms');
    for (const pair of pairs) {
      const height = axisSize(pair.axes[0]) - 1;
      const width = axisSize(pair.axes[1]);
      // The training rows in each cell, counted again from the rows rather than read from the model.
      const count = new Float64Array(pair.count.length);
      const first = axisIndices(pair.axes[0], train.column(pair.axes[0].feature), train.nRows);
      const second = axisIndices(pair.axes[1], train.column(pair.axes[1].feature), train.nRows);
      for (let r = 0; r < train.nRows; r++) count[first[r] * width + second[r]]++;
      assert.equal(count.reduce((s, c) => s + c, 0), train.nRows);
      for (let a = 0; a <= height; a++) {
        let w = 0;
        let s = 0;
        for (let b = 0; b < width; b++) {
          w += count[a * width + b];
          s += count[a * width + b] * pair.score[a * width + b];
        }
        if (w > 0) assert.ok(Math.abs(s / w) < 1e-9, `row ${a} mean ${s / w}`);
      }
      for (let b = 0; b < width; b++) {
        let w = 0;
        let s = 0;
        for (let a = 0; a <= height; a++) {
          w += count[a * width + b];
          s += count[a * width + b] * pair.score[a * width + b];
        }
        if (w > 0) assert.ok(Math.abs(s / w) < 1e-9, `column ${b} mean ${s / w}`);
      }
    }
    const score = Float64Array.from([1, 2, 0, 5, -1, 3]);
    const before = score.slice();
    const count = Float64Array.from([1, 3, 0, 2, 2, 1]);
    const { rows, columns } = purify(score, count, 2, 3);
    for (let a = 0; a < 2; a++) for (let b = 0; b < 3; b++) assert.ok(Math.abs(score[a * 3 + b] + rows[a] + columns[b] - before[a * 3 + b]) < 1e-12);
  });

  it('explains every prediction: base value + feature contributions + pair contributions = score', () => {
    const out = predict(model, test, { explain: true });
    assert.ok(out.pairContributions && Object.keys(out.pairContributions).includes('x0 × x1'));
    for (let r = 0; r < 50; r++) {
      let sum = out.baseValues[r];
      for (const c of Object.values(out.contributions ?? {})) sum += c[r];
      for (const c of Object.values(out.pairContributions)) sum += c[r];
      assert.ok(Math.abs(sum - out.scores[r]) < 1e-9);
    }
  });

  it('lists pairs in the profile with bins ending in the missing-value bin, ranked on the features’ importance scale', () => {
    const [part] = modelProfile(model).partitions;
    const interactions = part.interactions ?? [];
    assert.ok(interactions.length > 0);
    const total = part.feature_importances.reduce((s, f) => s + f.importance, 0) + interactions.reduce((s, p) => s + p.importance, 0);
    assert.ok(Math.abs(total - 1) < 1e-9);
    const top = interactions[0];
    assert.deepEqual(top.features, ['x0', 'x1']);
    assert.deepEqual(top.bins[0].at(-1), { missing: true });
    assert.equal(top.scores.length, top.bins[0].length);
    assert.equal(top.scores[0].length, top.bins[1].length);
    const noPairs = fitModel(train, { ...regressor, boost: { interactions: 0 } });
    assert.equal('interactions' in modelProfile(noPairs).partitions[0], false);
  });

  it('round-trips pairs through the model JSON with identical predictions; a payload without pairs reads as before', () => {
    const back = fromPayloads(JSON.parse(JSON.stringify(toPayloads(model))), 'regression');
    assert.deepEqual(predict(back, test, { explain: true }).scores, predict(model, test, { explain: true }).scores);
    const payload = toPayloads(fitModel(train, { ...regressor, boost: { interactions: 0 } }))[0];
    assert.equal('interactions' in (payload.profile as Record<string, unknown>), false);
  });

  it('refuses a pair in the model JSON that names an unknown feature or has a wrong shape, naming the field', () => {
    const payloads = JSON.parse(JSON.stringify(toPayloads(model)));
    const bad = structuredClone(payloads);
    bad[0].profile.interactions[0].features[1] = 'nope';
    assert.throws(() => fromPayloads(bad, 'regression'), /partitions\[0\]\.profile\.interactions\[0\]\.features\[1\] is nope, not a feature/);
    const short = structuredClone(payloads);
    short[0].profile.interactions[0].scores.pop();
    assert.throws(() => fromPayloads(short, 'regression'), /interactions\[0\]\.scores must have \d+ rows/);
  });

  it('fits the same pairs on worker threads as on one thread', async () => {
    const parallel = await fitModelParallel(train, regressor, { threads: 2, minCells: 0 });
    assert.deepEqual(toPayloads(parallel), toPayloads(model));
  });

  it('fits pairs of each partition separately', () => {
    const partitioned = fitModel(train, { ...regressor, partitionOn: 'c' });
    for (const part of partitioned.partitions.values()) assert.ok(pairNames(part).includes('x0 × x1'), part.key);
  });

  it('removes a pair by refit, and the pairs of a removed feature with it, leaving other scores as they were', () => {
    const names = pairNames(dataset(model));
    const { model: without } = refit(model, { removePairs: [['x0', 'x1']] });
    assert.deepEqual(pairNames(dataset(without)), names.filter((n) => n !== 'x0 × x1'));
    const { model: noX0 } = refit(model, { removeFeatures: ['x0'] });
    assert.ok(pairNames(dataset(noX0)).every((n) => !n.split(' × ').includes('x0')));
    assert.throws(() => refit(model, { removePairs: [['x0', 'x9']] }), /x0 × x9 is not a pair term of the model/);
  });
});
