import { strict as assert } from 'node:assert';
import {
  evaluateModel,
  fitModel,
  numberColumn,
  trainTestSplit,
  type ClassifierEvaluation,
  type NumberColumn,
  type RegressorEvaluation,
} from '../../../src/engine';
import { loadDataset } from './helpers';

// The xplainable method; reference figures, measurements and why each floor is where it is: docs/reference-algorithm.md.
describe('engine accuracy on the sample datasets (80/20 split)', () => {
  it('cars: the regressor clearly beats the reference R² of 0.43 on several splits', () => {
    const cars = loadDataset('cars');
    for (const seed of [1, 2, 3, 42]) {
      const split = trainTestSplit(cars.nRows, 0.2, seed);
      const model = fitModel(cars.take(split.train), { method: 'xplainable', target: 'Miles_per_Gallon', modelType: 'regressor' });
      const r2 = (evaluateModel(model, cars.take(split.test)) as RegressorEvaluation).r2 as number;
      assert.ok(r2 > 0.65, `seed ${seed}: test R² ${r2}`);
    }
  });

  it('cars: Origin, a categorical feature, contributes to the regressor', () => {
    const model = fitModel(loadDataset('cars'), { method: 'xplainable', target: 'Miles_per_Gallon', modelType: 'regressor', dropColumns: ['Name'] });
    const origin = model.partitions.get('__dataset__')?.features.find((f) => f.name === 'Origin');
    assert.ok(origin && origin.leaves.score.some((s) => Math.abs(s) > 0.1), 'Origin scores are not all zero');
  });

  it('penguins: a classifier of Sex (MALE vs FEMALE rows) ranks well above chance', () => {
    const penguins = loadDataset('penguins');
    const rows = [...Array(penguins.nRows).keys()].filter((r) => ['MALE', 'FEMALE'].includes(String(penguins.value(r, 'Sex'))));
    const data = penguins.take(rows);
    const split = trainTestSplit(data.nRows, 0.2, 42);
    const model = fitModel(data.take(split.train), { method: 'xplainable', target: 'Sex', modelType: 'classifier' });
    assert.deepEqual(model.targetLabels, ['FEMALE', 'MALE']);
    const m = evaluateModel(model, data.take(split.test)) as ClassifierEvaluation;
    assert.ok((m.roc_auc as number) > 0.75, `test AUC ${m.roc_auc}`);
    assert.ok(m.accuracy > 0.65, `test accuracy ${m.accuracy}`);
  });

  it('flights: a classifier of delay > 15 minutes ranks above chance', () => {
    const flights = loadDataset('flights-20k');
    const delay = (flights.column('delay') as NumberColumn).values;
    const data = flights.withColumns([numberColumn('late', delay.map((v) => (v > 15 ? 1 : 0)))]).drop(['delay']);
    const split = trainTestSplit(data.nRows, 0.2, 42);
    const model = fitModel(data.take(split.train), { method: 'xplainable', target: 'late', modelType: 'classifier' });
    const m = evaluateModel(model, data.take(split.test)) as ClassifierEvaluation;
    assert.ok((m.roc_auc as number) > 0.57, `test AUC ${m.roc_auc}`);
  });
});
