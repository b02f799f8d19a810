import { strict as assert } from 'node:assert';
import {
  categoryColumn,
  DataFrame,
  evaluateBaselines,
  fittedSubject,
  plannedSubject,
  evaluateModel,
  evaluateRegressor,
  fitLinearBaseline,
  fitModel,
  fromPayloads,
  mulberry32,
  numberColumn,
  predict,
  refit,
  toPayloads,
  trainTestSplit,
  type ClassifierEvaluation,
  type FeatureModel,
  type RegressorEvaluation,
  type TransparentModel,
} from '../../../../src/engine';
import { loadDataset } from '../helpers';

function gaussian(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

function feature(model: TransparentModel, name: string): FeatureModel {
  const f = model.partitions.get('__dataset__')?.features.find((x) => x.name === name);
  assert.ok(f, `feature ${name}`);
  return f;
}

/** Contribution of a numeric feature at a value (the step of the bin holding it). */
function contributionAt(f: FeatureModel, x: number): number {
  const L = f.leaves.upper.length - 1;
  for (let l = 0; l < L; l++) if (x <= f.leaves.upper[l]) return f.leaves.score[l];
  return f.leaves.score[L - 1];
}

function range(f: FeatureModel, lo: number, hi: number): number {
  return contributionAt(f, hi) - contributionAt(f, lo);
}

describe('engine boosted method (the default)', () => {
  it('is the default and records its parameters and the rounds each bag ran', () => {
    const random = mulberry32(1);
    const x = Float64Array.from({ length: 400 }, () => random() * 10);
    const y = x.map((v) => v + gaussian(random));
    const model = fitModel(new DataFrame([numberColumn('x', x), numberColumn('y', y)]), { target: 'y', modelType: 'regressor' });
    assert.equal(model.method, 'boosted');
    const part = model.partitions.get('__dataset__');
    assert.equal(part?.boost?.rounds.length, part?.boost?.params.outer_bags);
  });

  it('two perfectly correlated features share the effect instead of doubling it', () => {
    const random = mulberry32(2);
    const n = 2000;
    const x = Float64Array.from({ length: n }, () => random() * 10);
    const y = x.map((v) => 2 * v + gaussian(random));
    const frame = new DataFrame([numberColumn('a', x), numberColumn('b', x.slice()), numberColumn('y', y)]);
    const model = fitModel(frame, { target: 'y', modelType: 'regressor' });
    const total = range(feature(model, 'a'), 1, 9) + range(feature(model, 'b'), 1, 9);
    // The true effect from x = 1 to x = 9 is 16; fitted separately and added, two copies would give about 32.
    assert.ok(Math.abs(total - 16) < 2, `a + b effect over [1, 9]: ${total}`);
    const r2 = evaluateRegressor(y, predict(model, frame).predictions as number[]).r2 as number;
    assert.ok(r2 > 0.95, `train R² ${r2}`);
  });

  it('a confounded feature gets the sign of its own effect, not of its correlation with the target', () => {
    const random = mulberry32(3);
    const n = 3000;
    const a = Float64Array.from({ length: n }, () => random() * 10);
    // b rises with a, but its own effect on y is negative: marginally b correlates positively with y.
    const b = a.map((v) => v + gaussian(random));
    const y = a.map((v, i) => 3 * v - b[i] + 0.5 * gaussian(random));
    let marginal = 0;
    for (let i = 0; i < n; i++) marginal += (b[i] - 5) * (y[i] - 10);
    assert.ok(marginal > 0, 'the data are confounded as intended');
    const model = fitModel(new DataFrame([numberColumn('a', a), numberColumn('b', b), numberColumn('y', y)]), { target: 'y', modelType: 'regressor' });
    const effect = range(feature(model, 'b'), 2, 8);
    assert.ok(effect < -3, `b's effect from 2 to 8: ${effect} (true −6)`);
  });

  it('does not memorise a 300-row dataset: the train–test gap stays small', () => {
    const random = mulberry32(4);
    const n = 300;
    const cols = Array.from({ length: 6 }, () => Float64Array.from({ length: n }, () => random() * 4));
    const y = Float64Array.from({ length: n }, (_, i) => Math.sin(cols[0][i]) * 2 + cols[1][i] + 1.5 * gaussian(random));
    const frame = new DataFrame([...cols.map((c, j) => numberColumn(`x${j}`, c)), numberColumn('y', y)]);
    const split = trainTestSplit(n, 0.3, 9);
    const model = fitModel(frame.take(split.train), { target: 'y', modelType: 'regressor' });
    const train = (evaluateModel(model, frame.take(split.train)) as RegressorEvaluation).r2 as number;
    const test = (evaluateModel(model, frame.take(split.test)) as RegressorEvaluation).r2 as number;
    assert.ok(test > 0.4, `test R² ${test}`);
    assert.ok(train - test < 0.2, `train R² ${train} vs test R² ${test}`);
  });

  it('early stopping stops: on noise the bags stop long before max_rounds', () => {
    const random = mulberry32(5);
    const n = 1000;
    const frame = new DataFrame([
      numberColumn('x', Float64Array.from({ length: n }, () => random())),
      categoryColumn('c', Int32Array.from({ length: n }, () => Math.floor(random() * 5)), ['a', 'b', 'c', 'd', 'e']),
      numberColumn('y', Float64Array.from({ length: n }, () => gaussian(random))),
    ]);
    const model = fitModel(frame, { target: 'y', modelType: 'regressor', boost: { max_rounds: 5000, early_stopping_rounds: 20 } });
    const rounds = model.partitions.get('__dataset__')?.boost?.rounds ?? [];
    assert.ok(rounds.length > 0 && Math.max(...rounds) < 200, `rounds per bag: ${rounds.join(', ')}`);
  });

  it('early stopping stops on a class the features separate: scores stop growing once its rows are certain', () => {
    const random = mulberry32(9);
    const n = 1000;
    const x = Float64Array.from({ length: n }, () => random());
    const frame = new DataFrame([
      numberColumn('x', x),
      numberColumn('noise', Float64Array.from({ length: n }, () => random())),
      categoryColumn('y', Int32Array.from(x, (v) => (v > 0.5 ? 1 : 0)), ['no', 'yes']),
    ]);
    const model = fitModel(frame, { target: 'y', modelType: 'classifier' });
    const rounds = model.partitions.get('__dataset__')?.boost?.rounds ?? [];
    assert.ok(rounds.length > 0 && Math.max(...rounds) < 500, `rounds per bag: ${rounds.join(', ')}`);
    const p = predict(model, frame).probabilities as Float64Array;
    assert.ok(p.every((v, r) => (x[r] > 0.5 ? v > 0.99 : v < 0.01)), 'every row certain of its class');
  });

  it('classifier: probabilities are calibrated log-odds (mean probability ≈ positive rate) and partitions work', () => {
    const random = mulberry32(6);
    const n = 3000;
    const x = Float64Array.from({ length: n }, () => random() * 6 - 3);
    const g = Int32Array.from({ length: n }, () => Math.floor(random() * 2));
    const t = Int32Array.from(x, (v, i) => (random() < 1 / (1 + Math.exp(-(1.5 * v + (g[i] ? 1 : -1)))) ? 1 : 0));
    const frame = new DataFrame([numberColumn('x', x), categoryColumn('g', g, ['p', 'q']), categoryColumn('t', t, ['no', 'yes'])]);
    const model = fitModel(frame, { target: 't', modelType: 'classifier', partitionOn: 'g' });
    assert.deepEqual([...model.partitions.keys()], ['__dataset__', 'p', 'q']);
    const result = predict(model, frame);
    const p = result.probabilities as Float64Array;
    const meanP = p.reduce((s, v) => s + v, 0) / n;
    const rate = t.reduce((s, v) => s + v, 0) / n;
    assert.ok(Math.abs(meanP - rate) < 0.02, `mean probability ${meanP} vs positive rate ${rate}`);
    for (let i = 0; i < n; i++) assert.ok(Math.abs(p[i] - 1 / (1 + Math.exp(-result.scores[i]))) < 1e-12, 'probability = logistic(score)');
    const auc = (evaluateModel(model, frame) as ClassifierEvaluation).roc_auc as number;
    assert.ok(auc > 0.8, `AUC ${auc}`);
  });

  it('round-trips through the model JSON with identical predictions, also after a data-free refit', () => {
    const random = mulberry32(7);
    const n = 800;
    const x = Float64Array.from({ length: n }, () => (random() < 0.05 ? NaN : random() * 10));
    const c = Int32Array.from({ length: n }, () => Math.floor(random() * 4) - (random() < 0.05 ? 10 : 0)).map((v) => (v < 0 ? -1 : v));
    const y = Float64Array.from(x, (v, i) => (Number.isNaN(v) ? 3 : Math.log1p(v)) + c[i] + gaussian(random));
    const frame = new DataFrame([numberColumn('x', x), categoryColumn('c', c, ['a', 'b', 'c', 'd']), numberColumn('y', y)]);
    const model = fitModel(frame, { target: 'y', modelType: 'regressor' });
    const same = (a: TransparentModel, b: TransparentModel) => {
      const pa = predict(a, frame, { explain: true });
      const pb = predict(b, frame, { explain: true });
      assert.deepEqual(Array.from(pb.scores), Array.from(pa.scores));
      assert.deepEqual(Array.from(pb.contributions?.x ?? []), Array.from(pa.contributions?.x ?? []));
    };
    const back = fromPayloads(JSON.parse(JSON.stringify(toPayloads(model))), 'regression');
    assert.equal(back.method, 'boosted');
    same(model, back);
    const refitted = refit(back, { features: ['x'], params: { smoothing: 2, monotone: 1 } }).model;
    same(refitted, fromPayloads(JSON.parse(JSON.stringify(toPayloads(refitted))), 'regression'));
  });

  it('refit without data: monotone and smoothing reshape one feature, removal drops it, tree parameters are refused', () => {
    const random = mulberry32(8);
    const n = 1500;
    const x = Float64Array.from({ length: n }, () => random() * 10);
    const z = Float64Array.from({ length: n }, () => random() * 10);
    const y = Float64Array.from(x, (v, i) => v + Math.sin(3 * v) + 0.3 * z[i] + 0.5 * gaussian(random));
    const frame = new DataFrame([numberColumn('x', x), numberColumn('z', z), numberColumn('y', y)]);
    const model = fitModel(frame, { target: 'y', modelType: 'regressor' });
    const { model: mono, parametersChanged } = refit(model, { featureParams: { x: { monotone: 1 } } });
    assert.deepEqual(parametersChanged, { x: { monotone: { from: 0, to: 1 } } });
    const steps = feature(mono, 'x').leaves.score;
    for (let l = 1; l < steps.length - 1; l++) assert.ok(steps[l] >= steps[l - 1] - 1e-12, `step ${l} decreases`);
    assert.deepEqual(Array.from(feature(mono, 'z').leaves.score), Array.from(feature(model, 'z').leaves.score), 'z unchanged');
    // Re-centred: the mean prediction on the training rows is kept.
    const mean = (m: TransparentModel) => (predict(m, frame).scores as Float64Array).reduce((s, v) => s + v, 0) / n;
    assert.ok(Math.abs(mean(mono) - mean(model)) < 1e-9, 'mean prediction kept');
    const smooth = refit(model, { features: ['x'], params: { smoothing: 5 } }).model;
    const roughness = (m: TransparentModel) => {
      const s = feature(m, 'x').leaves.score;
      let r = 0;
      for (let l = 2; l < s.length - 1; l++) r += Math.abs(s[l] - 2 * s[l - 1] + s[l - 2]);
      return r;
    };
    assert.ok(roughness(smooth) < roughness(model) / 2, 'smoothing makes the steps smoother');
    const removed = refit(model, { removeFeatures: ['z'] }).model;
    assert.deepEqual(
      removed.partitions.get('__dataset__')?.features.map((f) => f.name),
      ['x'],
    );
    assert.ok(Math.abs(mean(removed) - mean(model)) < 1e-9, 'removing a centred feature keeps the mean prediction');
    assert.throws(() => refit(model, { features: ['x'], params: { max_depth: 3 } }), /max_depth cannot be refit on a model fitted with the boosted method/);
  });

  it('on the sample data, does at least as well as the linear baseline where the reference algorithm did not', () => {
    const cars = loadDataset('cars').drop(['Name']);
    let boosted = 0;
    let linear = 0;
    let reference = 0;
    for (const seed of [1, 2, 3]) {
      const split = trainTestSplit(cars.nRows, 0.2, seed);
      const train = cars.take(split.train);
      const test = cars.take(split.test);
      const r2 = (method: 'boosted' | 'xplainable') =>
        (evaluateModel(fitModel(train, { method, target: 'Miles_per_Gallon', modelType: 'regressor' }), test) as RegressorEvaluation).r2 as number;
      boosted += r2('boosted') / 3;
      reference += r2('xplainable') / 3;
      const rows = [...split.train].filter((r) => !Number.isNaN((cars.column('Miles_per_Gallon') as { values: Float64Array }).values[r]));
      const yTrain = Float64Array.from(rows, (r) => (cars.column('Miles_per_Gallon') as { values: Float64Array }).values[r]);
      const features = cars.names.filter((n) => n !== 'Miles_per_Gallon');
      const baseline = fitLinearBaseline(cars.take(rows), features, yTrain, 'regressor');
      const testRows = [...split.test].filter((r) => !Number.isNaN((cars.column('Miles_per_Gallon') as { values: Float64Array }).values[r]));
      const yTest = Array.from(testRows, (r) => (cars.column('Miles_per_Gallon') as { values: Float64Array }).values[r]);
      linear += (evaluateRegressor(yTest, baseline.predict(cars.take(testRows))).r2 as number) / 3;
    }
    assert.ok(boosted >= linear - 0.01, `boosted R² ${boosted} vs linear ${linear}`);
    assert.ok(boosted > reference, `boosted R² ${boosted} vs reference ${reference}`);
  });
});

describe('engine baselines', () => {
  it('scores the constant and linear yardsticks on the test rows, fitted on the training rows', () => {
    const random = mulberry32(21);
    const n = 600;
    const x = Float64Array.from({ length: n }, () => random() * 10);
    const y = x.map((v) => 3 * v + gaussian(random));
    const frame = new DataFrame([numberColumn('x', x), numberColumn('y', y)]);
    const split = trainTestSplit(n, 0.25, 3);
    const train = frame.take(split.train);
    const test = frame.take(split.test);
    const model = fitModel(train, { target: 'y', modelType: 'regressor' });
    const baseline = evaluateBaselines(fittedSubject(model), train, test);
    assert.ok(baseline);
    const constant = baseline.constant as RegressorEvaluation;
    const linear = baseline.linear as RegressorEvaluation;
    assert.ok(Math.abs(constant.r2 as number) < 0.05, `constant R² ${constant.r2}`);
    assert.ok((linear.r2 as number) > 0.95, `linear R² ${linear.r2}`);
    const t = Int32Array.from(x, (v) => (v + gaussian(random) > 5 ? 1 : 0));
    const cframe = new DataFrame([numberColumn('x', x), categoryColumn('t', t, ['no', 'yes'])]);
    const cmodel = fitModel(cframe.take(split.train), { target: 't', modelType: 'classifier' });
    const cb = evaluateBaselines(fittedSubject(cmodel), cframe.take(split.train), cframe.take(split.test));
    assert.equal((cb?.constant as ClassifierEvaluation).roc_auc, 0.5);
    assert.ok(((cb?.linear as ClassifierEvaluation).roc_auc as number) > 0.9);
  });

  it('knows before the fit the subject the fitted model has, so the yardsticks can be scored while it fits', () => {
    const cars = loadDataset('cars');
    const penguins = loadDataset('penguins');
    const twoSpecies = penguins.take([...Array(penguins.nRows).keys()].filter((r) => penguins.value(r, 'Species') !== 'Chinstrap'));
    const cases = [
      { frame: cars, options: { target: 'Miles_per_Gallon', modelType: 'regressor' as const, dropColumns: ['Name'] } },
      { frame: cars, options: { target: 'Miles_per_Gallon', modelType: 'regressor' as const, method: 'xplainable' as const } },
      { frame: twoSpecies, options: { target: 'Species', modelType: 'classifier' as const } },
    ];
    for (const { frame, options } of cases) {
      assert.deepEqual(plannedSubject(frame, options), fittedSubject(fitModel(frame, options)), `${options.target} ${options.method ?? 'boosted'}`);
    }
    assert.throws(() => plannedSubject(cars, { target: 'Name', modelType: 'regressor' }), /numeric target/);
  });
});
