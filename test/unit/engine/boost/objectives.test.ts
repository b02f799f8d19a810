import { strict as assert } from 'node:assert';
import {
  DataFrame,
  evaluateBaselines,
  evaluateModel,
  fittedSubject,
  fitModel,
  fromPayloads,
  inferColumn,
  modelProfile,
  numberColumn,
  predict,
  toPayloads,
  type FitOptions,
  type RegressorEvaluation,
  type TransparentModel,
} from '../../../../src/engine';
import { unitLoss } from '../../../../src/engine/model/objectiveLoss';
import { resolveObjective, type Objective } from '../../../../src/engine/params/objective';
import { loadDataset } from '../helpers';
import { objectiveFrame, type ObjectiveTask } from '../objectiveTasks';

const FEATURES = ['age', 'power', 'region', 'bonus', 'noise'];

function fitTask(task: ObjectiveTask, objective: Objective, extra: Partial<FitOptions> = {}, n = 6000): TransparentModel {
  return fitModel(objectiveFrame(task, n, 11), { target: 'y', modelType: 'regressor', features: FEATURES, objective, ...extra });
}

/** The mean loss of a model's predictions on held-out rows, and of the training rows' constant rate. */
function heldOutLoss(model: TransparentModel, task: ObjectiveTask, objective: Objective): { model: number; constant: number } {
  const o = resolveObjective(objective, 'regressor');
  const train = objectiveFrame(task, 6000, 11);
  const test = objectiveFrame(task, 4000, 12);
  const y = (f: DataFrame, c: string) => (f.column(c) as { values: Float64Array }).values;
  const exposure = model.exposureColumn ? y(test, 'exposure') : null;
  const rate = y(train, 'y').reduce((a, b) => a + b, 0) / (model.exposureColumn ? y(train, 'exposure').reduce((a, b) => a + b, 0) : train.nRows);
  const p = predict(model, test).predictions as number[];
  let fitted = 0;
  let constant = 0;
  y(test, 'y').forEach((v, i) => {
    fitted += unitLoss(o, v, p[i]) / test.nRows;
    constant += unitLoss(o, v, rate * (exposure ? exposure[i] : 1)) / test.nRows;
  });
  return { model: fitted, constant };
}

describe('boosted objectives', () => {
  it('fits a regressor and a classifier given their default objective explicitly to the same model JSON, byte for byte', () => {
    const cars = loadDataset('cars');
    const reg: FitOptions = { target: 'Miles_per_Gallon', modelType: 'regressor', dropColumns: ['Name'] };
    assert.equal(JSON.stringify(toPayloads(fitModel(cars, { ...reg, objective: { name: 'squared_error' } }))), JSON.stringify(toPayloads(fitModel(cars, reg))));
    const counts = objectiveFrame('frequency', 3000, 18);
    const y = (counts.column('y') as { values: Float64Array }).values;
    const claims = new DataFrame([...counts.columns.filter((c) => c.name !== 'y'), inferColumn('claimed', Array.from(y, (v) => (v > 0 ? 'yes' : 'no')))]);
    const cls: FitOptions = { target: 'claimed', modelType: 'classifier' };
    const plain = JSON.stringify(toPayloads(fitModel(claims, cls)));
    assert.equal(JSON.stringify(toPayloads(fitModel(claims, { ...cls, objective: { name: 'log_loss' } }))), plain);
    assert.ok(!plain.includes('"objective"'), 'a default model records no objective');
  });

  it('fits claim counts with a Poisson objective and the exposure as an offset: prediction = exposure × exp(base + Σ contributions)', () => {
    const objective: Objective = { name: 'poisson' };
    const model = fitTask('frequency', objective, { exposureColumn: 'exposure' });
    assert.deepEqual(model.objective, { name: 'poisson' });
    assert.equal(model.exposureColumn, 'exposure');
    const test = objectiveFrame('frequency', 500, 13);
    const result = predict(model, test, { explain: true });
    const exposure = (test.column('exposure') as { values: Float64Array }).values;
    for (let i = 0; i < test.nRows; i++) {
      let score = result.baseValues[i];
      for (const c of Object.values(result.contributions ?? {})) score += c[i];
      const expected = exposure[i] * Math.exp(score);
      assert.ok(Math.abs((result.predictions[i] as number) - expected) <= 1e-9 * expected, `row ${i}`);
    }
    assert.ok(!('exposure' in (result.contributions ?? {})), 'the exposure is no feature');
    const loss = heldOutLoss(model, 'frequency', objective);
    assert.ok(loss.model < loss.constant * 0.985, `held-out Poisson deviance ${loss.model} vs constant ${loss.constant}`);
  });

  it('gives the profile of a log-link model its link, each bin its factor and the base value its rate; the factors multiply back to the prediction', () => {
    const model = fitTask('frequency', { name: 'poisson' }, { exposureColumn: 'exposure' }, 3000);
    const profile = modelProfile(model);
    assert.equal(profile.link, 'log');
    const part = profile.partitions[0];
    assert.ok(Math.abs((part.base_rate as number) - Math.exp(part.base_value)) < 1e-12);
    const row = DataFrame.fromRecords([{ age: 30, power: 12, region: 'South', bonus: 80, noise: 0.5, exposure: 0.5 }], [...FEATURES, 'exposure']);
    let product = 0.5 * (part.base_rate as number);
    const bin = (bins: { lower?: number | null; upper?: number | null; factor?: number; missing?: true }[], x: number) =>
      bins.find((b) => !b.missing && (b.lower ?? -Infinity) < x && x <= (b.upper ?? Infinity));
    for (const [name, x] of [['age', 30], ['power', 12], ['bonus', 80], ['noise', 0.5]] as const) product *= bin(part.numeric[name], x)?.factor as number;
    product *= part.categorical.region.find((b) => b.category === 'South')?.factor as number;
    const predicted = predict(model, row).predictions[0] as number;
    assert.ok(Math.abs(product - predicted) <= 1e-9 * predicted, `${product} vs ${predicted}`);
    assert.equal(modelProfile(fitModel(loadDataset('cars'), { target: 'Miles_per_Gallon', modelType: 'regressor', dropColumns: ['Name'] })).link, 'identity');
  });

  for (const [task, objective, exposed] of [
    ['severity', { name: 'gamma' }, false],
    ['premium', { name: 'tweedie', tweediePower: 1.6 }, true],
  ] as const) {
    it(`fits ${task} with a ${objective.name} objective below the constant rate's held-out deviance, and keeps it through the model JSON`, () => {
      const model = fitTask(task, objective, exposed ? { exposureColumn: 'exposure' } : {});
      const loss = heldOutLoss(model, task, objective);
      assert.ok(loss.model < loss.constant * 0.99, `held-out deviance ${loss.model} vs constant ${loss.constant}`);
      const back = fromPayloads(JSON.parse(JSON.stringify(toPayloads(model))), 'regression');
      assert.deepEqual(back.objective, model.objective);
      assert.equal(back.exposureColumn, model.exposureColumn);
      const test = objectiveFrame(task, 200, 14);
      assert.deepEqual(predict(back, test).predictions, predict(model, test).predictions);
    });
  }

  it('fits the 0.9 quantile so that about 90% of held-out rows lie at or below the prediction', () => {
    const model = fitTask('quantile', { name: 'quantile', quantileAlpha: 0.9 }, {}, 8000);
    const test = objectiveFrame('quantile', 4000, 15);
    const y = (test.column('y') as { values: Float64Array }).values;
    const p = predict(model, test).predictions as number[];
    const coverage = p.filter((v, i) => y[i] <= v).length / test.nRows;
    assert.ok(Math.abs(coverage - 0.9) < 0.02, `coverage ${coverage}`);
  });

  it('fits Huber loss on the identity link, clipped to the training range like squared error', () => {
    const model = fitTask('quantile', { name: 'huber', huberDelta: 2 });
    assert.equal(modelProfile(model).link, 'identity');
    const loss = heldOutLoss(model, 'quantile', { name: 'huber', huberDelta: 2 });
    assert.ok(loss.model < loss.constant * 0.8, `held-out Huber loss ${loss.model} vs constant ${loss.constant}`);
  });

  it('weighs rows: the weight column is no feature, doubling every weight changes nothing, and a heavier region pulls the base value', () => {
    const frame = objectiveFrame('quantile', 3000, 16);
    const options: FitOptions = { target: 'y', modelType: 'regressor', weightColumn: 'weight', dropColumns: ['exposure'] };
    const model = fitModel(frame, options);
    assert.equal(model.weightColumn, 'weight');
    assert.ok(!model.partitions.get('__dataset__')?.features.some((f) => f.name === 'weight'));
    const doubled = new DataFrame(frame.columns.map((c) => (c.name === 'weight' ? numberColumn('weight', (c as { values: Float64Array }).values.map((v) => 2 * v)) : c)));
    assert.equal(JSON.stringify(toPayloads(fitModel(doubled, options))), JSON.stringify(toPayloads(model)));
    const y = (frame.column('y') as { values: Float64Array }).values;
    const heavy = new DataFrame(frame.columns.map((c) => (c.name === 'weight' ? numberColumn('weight', Float64Array.from(y, (v) => (v > 20 ? 50 : 1))) : c)));
    const base = (m: TransparentModel) => m.partitions.get('__dataset__')?.baseValue as number;
    assert.ok(base(fitModel(heavy, options)) > base(model) + 1, 'rows weighted 50× pull the mean towards them');
  });

  it('names the field and the count for what an objective cannot take', () => {
    const frame = objectiveFrame('quantile', 400, 17);
    const fit = (o: Partial<FitOptions>) => () => fitModel(frame, { target: 'y', modelType: 'regressor', ...o });
    const y = (frame.column('y') as { values: Float64Array }).values;
    const negatives = y.filter((v) => v < 0).length;
    const shifted = new DataFrame(frame.columns.map((c) => (c.name === 'y' ? numberColumn('y', y.map((v, i) => (i < 3 ? -1 : v))) : c)));
    assert.throws(() => fitModel(shifted, { target: 'y', modelType: 'regressor', objective: { name: 'poisson' } }), new RegExp(`${3 + negatives} row\\(s\\) of y are not non-negative, which objective "poisson" needs`));
    assert.throws(fit({ objective: { name: 'poisson', tweediePower: 1.2 } }), /tweedie_power belongs to objective "tweedie", not "poisson"/);
    assert.throws(fit({ objective: { name: 'tweedie', tweediePower: 2 } }), /tweedie_power must be above 1 and below 2 \(got 2\)/);
    assert.throws(fit({ exposureColumn: 'exposure' }), /exposure_column needs a log-link objective/);
    assert.throws(fit({ weightColumn: 'nope' }), /weight_column nope is not a column/);
    assert.throws(fit({ objective: { name: 'log_loss' } }), /objective "log_loss" does not fit a regressor/);
    assert.throws(fit({ objective: { name: 'gamma' }, method: 'xplainable' }), /xplainable method fits squared error or log loss only/);
    const zeros = new DataFrame(frame.columns.map((c) => (c.name === 'weight' ? numberColumn('weight', Float64Array.from({ length: frame.nRows }, (_, i) => (i < 5 ? 0 : 1))) : c)));
    assert.throws(() => fitModel(zeros, { target: 'y', modelType: 'regressor', weightColumn: 'weight' }), /weight_column weight is zero or negative on 5 row\(s\)/);
  });

  it('judges a Poisson model against a constant rate and a Poisson GLM fitted with the same exposure, every metric weighted', () => {
    const train = objectiveFrame('frequency', 6000, 11);
    const test = objectiveFrame('frequency', 4000, 12);
    const model = fitModel(train, { target: 'y', modelType: 'regressor', features: FEATURES, objective: { name: 'poisson' }, exposureColumn: 'exposure', weightColumn: 'weight' });
    const yardsticks = evaluateBaselines(fittedSubject(model), train, test);
    const ours = evaluateModel(model, test) as RegressorEvaluation;
    const constant = yardsticks?.constant as RegressorEvaluation;
    const glm = yardsticks?.linear as RegressorEvaluation;
    assert.ok(typeof ours.poisson_deviance === 'number' && typeof glm.poisson_deviance === 'number' && typeof constant.poisson_deviance === 'number');
    assert.ok(glm.poisson_deviance < constant.poisson_deviance, `GLM ${glm.poisson_deviance} vs constant ${constant.poisson_deviance}`);
    assert.ok(ours.poisson_deviance < glm.poisson_deviance, `model ${ours.poisson_deviance} vs GLM ${glm.poisson_deviance}: age's effect is curved`);
    const [qTrain, qTest] = [objectiveFrame('quantile', 4000, 11), objectiveFrame('quantile', 4000, 12)];
    const quantile = fitModel(qTrain, { target: 'y', modelType: 'regressor', features: FEATURES, objective: { name: 'quantile', quantileAlpha: 0.8 } });
    const q = evaluateBaselines(fittedSubject(quantile), qTrain, qTest);
    assert.ok(Math.abs(((q?.constant as RegressorEvaluation).coverage as number) - 0.8) < 0.03, 'the constant is the training rows’ 0.8 quantile');
    assert.ok(Math.abs(((q?.linear as RegressorEvaluation).coverage as number) - 0.8) < 0.05, 'the linear quantile fit covers about 80%');
  });
});
