import { strict as assert } from 'node:assert';
import {
  DataFrame,
  EngineError,
  evaluateRegressor,
  featureImportances,
  fitModel,
  inferColumn,
  mulberry32,
  numberColumn,
  predict,
  toPayloads,
  trainTestSplit,
  type FitOptions,
} from '../../../../src/engine';
import { planFit } from '../../../../src/engine/plan/plan';
import { identifierReason } from '../../../../src/engine/data/identifiers';
import { loadDataset, thrown } from '../helpers';

const CARS: FitOptions = { target: 'Miles_per_Gallon', modelType: 'regressor' };

function testR2(frame: DataFrame, options: FitOptions, seed: number): { r2: number; importance: Map<string, number> } {
  const split = trainTestSplit(frame.nRows, 0.2, seed);
  const train = frame.take(split.train);
  const test = frame.take(split.test);
  const model = fitModel(train, { ...options, seed });
  const rows = [...Array(test.nRows).keys()].filter((r) => test.value(r, options.target) !== null);
  const kept = test.take(rows);
  const predicted = predict(model, kept).predictions as number[];
  const actual = rows.map((r) => test.value(r, options.target) as number);
  return { r2: evaluateRegressor(actual, predicted).r2 as number, importance: new Map(featureImportances(model).map((f) => [f.feature, f.importance])) };
}

describe('identifier-like columns and rare categories', () => {
  it('leaves the cars table’s Name out by default, with the reason, and gives the test R² of a train without it', () => {
    const cars = loadDataset('cars');
    const plan = planFit(cars, CARS);
    assert.deepEqual(plan.leftOut.map((l) => l.column), ['Name']);
    assert.match(plan.leftOut[0].reason, /free text/);
    assert.ok(!plan.features.includes('Name'));
    for (const seed of [1, 2]) {
      const withName = testR2(cars, CARS, seed);
      const without = testR2(cars.drop(['Name']), CARS, seed);
      assert.ok(Math.abs(withName.r2 - without.r2) <= 0.01, `seed ${seed}: R² ${withName.r2} with Name, ${without.r2} without`);
    }
  });

  it('keeps an identifier-like column asked for, and its rare names share one bin, so it carries no importance above 10%', () => {
    const cars = loadDataset('cars');
    assert.deepEqual(planFit(cars, { ...CARS, keepColumns: ['Name'] }).leftOut, []);
    assert.ok(planFit(cars, { ...CARS, featureTypes: { Name: 'categorical' } }).features.includes('Name'));
    for (const seed of [1, 2]) {
      const kept = testR2(cars, { ...CARS, keepColumns: ['Name'] }, seed);
      const without = testR2(cars.drop(['Name']), CARS, seed);
      assert.ok((kept.importance.get('Name') as number) <= 0.1, `Name: ${kept.importance.get('Name')}`);
      assert.ok(kept.r2 >= without.r2 - 0.01, `seed ${seed}: R² ${kept.r2} with Name kept, ${without.r2} without`);
    }
  });

  it('names a keep_columns entry that is not a column', () => {
    const e = thrown(() => planFit(loadDataset('cars'), { ...CARS, keepColumns: ['Nmae'] }), EngineError);
    assert.match(e.message, /keep_columns names Nmae/);
  });

  it('tells identifiers and free text from categories', () => {
    const n = 200;
    const ids = inferColumn('id', Array.from({ length: n }, (_, i) => `c${i}`));
    const mostlyIds = inferColumn('code', Array.from({ length: n }, (_, i) => `k${i % 190}`));
    const text = inferColumn('note', Array.from({ length: n }, (_, i) => `note number ${i % 120}`));
    const words = inferColumn('word', Array.from({ length: n }, (_, i) => `w${i % 120}`));
    const category = inferColumn('colour', Array.from({ length: n }, (_, i) => ['red', 'green', 'blue'][i % 3]));
    assert.match(identifierReason(ids) as string, /own value/);
    assert.match(identifierReason(mostlyIds) as string, /190 distinct in 200 rows/);
    assert.match(identifierReason(text) as string, /free text/);
    assert.equal(identifierReason(words), null);
    assert.equal(identifierReason(category), null);
    assert.equal(identifierReason(numberColumn('x', Float64Array.from({ length: n }, (_, i) => i))), null);
  });

  it('gives rare categories one shared step and leaves a table without them as it was', () => {
    const random = mulberry32(5);
    const n = 600;
    const group = Array.from({ length: n }, (_, i) => (i < 500 ? ['a', 'b', 'c', 'd'][i % 4] : `rare${i % 40}`));
    const x = Float64Array.from({ length: n }, () => random());
    const y = Float64Array.from({ length: n }, (_, i) => x[i] + (group[i] === 'a' ? 1 : 0) + 0.3 * random());
    const frame = new DataFrame([inferColumn('group', group), numberColumn('x', x), numberColumn('y', y)]);
    const model = fitModel(frame, { target: 'y', modelType: 'regressor' });
    const feature = model.partitions.get('__dataset__')?.features.find((f) => f.name === 'group');
    const categories = feature?.categorical?.categories ?? [];
    const rareScores = new Set(categories.flatMap((c, i) => (c.startsWith('rare') ? [feature?.leaves.score[i]] : [])));
    assert.equal(rareScores.size, 1, 'every rare category has the same step');
    assert.equal(categories.filter((c) => c.startsWith('rare')).length, 40);

    const common = frame.take(Int32Array.from({ length: 500 }, (_, i) => i));
    const asToday = JSON.stringify(toPayloads(fitModel(common, { target: 'y', modelType: 'regressor' })));
    const withDefaults = JSON.stringify(toPayloads(fitModel(common, { target: 'y', modelType: 'regressor', keepColumns: [], excludeInteractions: [], featureTypes: {} })));
    assert.equal(withDefaults, asToday);
  });
});
