import assert from 'node:assert/strict';
import {
  DataFrame,
  EngineError,
  evaluateMulticlass,
  fitModel,
  fitMulticlass,
  fitMulticlassParallel,
  fittedMulticlassSubject,
  isMulticlassPayload,
  multiclassFromPayloads,
  multiclassProfile,
  multiclassToPayloads,
  parseCsv,
  plannedMulticlassSubject,
  predict,
  predictMulticlass,
  refitMulticlass,
  toPayloads,
  trainTestSplit,
  type FitMethod,
} from '../../../../src/engine';
import { datasetText, loadDataset } from '../helpers';

const penguins = loadDataset('penguins');
const SPECIES = ['Adelie', 'Chinstrap', 'Gentoo'];

function rowSums(probs: Record<string, Float64Array>, n: number): number[] {
  return Array.from({ length: n }, (_, r) => Object.values(probs).reduce((s, p) => s + p[r], 0));
}

for (const method of ['boosted', 'xplainable'] as FitMethod[]) {
  describe(`multiclass classifier (${method})`, () => {
    const model = fitMulticlass(penguins, { target: 'Species', modelType: 'classifier', method });

    it('fits one class model per distinct target value, sorted as text', () => {
      assert.deepEqual(model.classes, SPECIES);
      assert.equal(model.classModels.length, 3);
    });

    it('gives probabilities that sum to 1 on every row and predicts class labels that are mostly right', () => {
      const out = predictMulticlass(model, penguins);
      for (const s of rowSums(out.classProbabilities, out.n)) assert.ok(Math.abs(s - 1) < 1e-12, `row sums to ${s}`);
      const actual = Array.from({ length: penguins.nRows }, (_, r) => penguins.value(r, 'Species'));
      const right = out.predictions.filter((p, r) => p === actual[r]).length;
      assert.ok(right / out.n > 0.9, `training accuracy ${right / out.n}`);
      assert.ok(out.predictions.every((p) => SPECIES.includes(p)));
    });

    it('scores unseen categories and missing values, still summing to 1', () => {
      const rows = DataFrame.fromRecords(
        [
          { Island: 'Atlantis', 'Beak Length (mm)': 45, 'Beak Depth (mm)': 17, 'Flipper Length (mm)': 200, 'Body Mass (g)': 4000, Sex: 'MALE' },
          { Island: null, 'Beak Length (mm)': null, 'Beak Depth (mm)': null, 'Flipper Length (mm)': null, 'Body Mass (g)': null, Sex: null },
        ],
        ['Island', 'Beak Length (mm)', 'Beak Depth (mm)', 'Flipper Length (mm)', 'Body Mass (g)', 'Sex'],
      );
      const out = predictMulticlass(model, rows, { explain: true });
      for (const s of rowSums(out.classProbabilities, 2)) assert.ok(Math.abs(s - 1) < 1e-12);
      for (const cls of SPECIES) {
        const contributions = out.classContributions?.[cls];
        assert.ok(contributions);
        for (const r of [0, 1]) {
          const pairs = Object.values(out.classPairContributions?.[cls] ?? {});
          const sum: number = [...Object.values(contributions), ...pairs].reduce((s, c) => s + c[r], out.classBaseValues[cls][r]);
          assert.equal(sum, predict(model.classModels[SPECIES.indexOf(cls)], rows).scores[r]);
        }
      }
    });

    it('round-trips through the model JSON with identical predictions', () => {
      const payloads = JSON.parse(JSON.stringify(multiclassToPayloads(model))) as unknown[];
      assert.ok(isMulticlassPayload(payloads));
      const back = multiclassFromPayloads(payloads);
      assert.deepEqual(back.classes, SPECIES);
      const a = predictMulticlass(model, penguins);
      const b = predictMulticlass(back, penguins);
      for (const cls of SPECIES) assert.deepEqual(b.classProbabilities[cls], a.classProbabilities[cls]);
    });

    it('fits the same model on worker threads', async function () {
      this.timeout(60_000);
      const threaded = await fitMulticlassParallel(penguins, { target: 'Species', modelType: 'classifier', method }, [], { threads: 2, minCells: 0 });
      assert.deepEqual(threaded.classes, SPECIES);
      const a = predictMulticlass(model, penguins, { explain: true });
      const b = predictMulticlass(threaded, penguins, { explain: true });
      for (const cls of SPECIES) {
        assert.deepEqual(b.classProbabilities[cls], a.classProbabilities[cls]);
        assert.deepEqual(b.classContributions?.[cls], a.classContributions?.[cls]);
      }
    });
  });
}

describe('multiclass classifier', () => {
  it('with two classes and early_stopping_rounds given ranks rows like the binary classifier of the same target', () => {
    const frame = penguins.take(Array.from({ length: penguins.nRows }, (_, r) => r).filter((r) => penguins.value(r, 'Species') !== 'Gentoo'));
    // Given, early_stopping_rounds is every bag's patience, as in a binary fit (see BestRound's adaptive patience).
    const options = { target: 'Species', modelType: 'classifier', boost: { early_stopping_rounds: 50 } } as const;
    const binary = fitModel(frame, options);
    const multi = fitMulticlass(frame, options);
    const bin = predict(binary, frame);
    const mc = predictMulticlass(multi, frame);
    // The positive class's model is the binary model itself.
    assert.deepEqual(predict(multi.classModels[1], frame).probabilities, bin.probabilities);
    const agree = mc.predictions.filter((p, r) => p === String(bin.predictions[r])).length;
    assert.ok(agree / frame.nRows > 0.97, `agreement ${agree / frame.nRows}`);
  });

  it('fits partitioned class models and refits every class model', () => {
    const model = fitMulticlass(penguins, { target: 'Species', modelType: 'classifier', method: 'xplainable', partitionOn: 'Sex' });
    assert.ok(model.classModels.every((m) => m.partitions.size === model.classModels[0].partitions.size && m.partitions.size > 1));
    const profile = multiclassProfile(model);
    assert.equal(profile.partitions.length, model.classModels[0].partitions.size);
    assert.deepEqual(
      profile.partitions[0].per_class.map((c) => c.class),
      SPECIES,
    );
    const total = profile.partitions[0].feature_importances.reduce((s, f) => s + f.importance, 0);
    assert.ok(Math.abs(total - 1) < 1e-9);
    const { model: refitted, parametersChanged } = refitMulticlass(model, { params: { max_depth: 2 } });
    assert.ok(Object.keys(parametersChanged).length > 0);
    for (const m of refitted.classModels) for (const p of m.partitions.values()) assert.ok(p.features.every((f) => f.params.max_depth === 2));
    assert.equal(model.classModels[0].partitions.get('__dataset__')?.features[0].params.max_depth, 8);
  });

  it('with early_stopping_rounds given fits each boosted class model as the binary model of its class against the rest, the same on worker threads', async function () {
    this.timeout(60_000);
    // Every tenth row without a species, partitioned by island: the class models share their rows and bins.
    const lines = datasetText('penguins').trim().split('\n');
    const species = (line: string, i: number): string => (i > 0 && i % 10 === 0 ? '' : line.slice(0, line.indexOf(',')));
    const csv = (label: (s: string) => string): string => lines.map((line, i) => label(species(line, i)) + line.slice(line.indexOf(','))).join('\n');
    const frame = parseCsv(csv((s) => s));
    const options = { target: 'Species', modelType: 'classifier', method: 'boosted', partitionOn: 'Island', boost: { outer_bags: 2, max_rounds: 200, early_stopping_rounds: 50 } } as const;
    const sequential = fitMulticlass(frame, options);
    const threaded = await fitMulticlassParallel(frame, options, [], { threads: 2, minCells: 0 });
    const json = (value: unknown): unknown => JSON.parse(JSON.stringify(value));
    assert.deepEqual(sequential.classes, SPECIES);
    SPECIES.forEach((cls, k) => {
      const binary = fitModel(parseCsv(csv((s) => (s === 'Species' || s === '' ? s : s === cls ? '1' : '0'))), options);
      assert.ok(sequential.classModels[k].partitions.size > 1);
      assert.deepEqual(json(toPayloads(sequential.classModels[k])), json(toPayloads(binary)), cls);
    });
    assert.deepEqual(json(multiclassToPayloads(threaded)), json(multiclassToPayloads(sequential)));
  });

  it('knows before the fit the subject of its yardsticks, so they can be scored while it fits', () => {
    const cars = loadDataset('cars');
    const rows = cars.take(trainTestSplit(cars.nRows, 0.2, 1).train);
    for (const method of ['boosted', 'xplainable'] as FitMethod[]) {
      const options = { target: 'Origin', modelType: 'classifier' as const, dropColumns: ['Name'], method };
      const planned = plannedMulticlassSubject(rows, options, ['Europe', 'Japan', 'USA']);
      const fitted = fittedMulticlassSubject(fitMulticlass(rows, options));
      assert.deepEqual(planned, fitted, method);
    }
    assert.throws(() => plannedMulticlassSubject(rows, { target: 'Origin', modelType: 'classifier', method: 'nope' as FitMethod }), /method must be one of/);
  });

  it('refuses more than 50 classes, naming the count and the most frequent values', () => {
    const frame = DataFrame.fromRecords(Array.from({ length: 120 }, (_, i) => ({ x: i, y: `c${i % 60}` })));
    assert.throws(() => fitMulticlass(frame, { target: 'y', modelType: 'classifier' }), (e: unknown) => {
      assert.ok(e instanceof EngineError);
      assert.match(e.message, /at most 50 classes; column y has 60 distinct values \(most frequent: c0 \(2\)/);
      return true;
    });
  });

  it('refuses a class with fewer than 2 rows, naming it', () => {
    const frame = DataFrame.fromRecords([...Array.from({ length: 10 }, (_, i) => ({ x: i, y: i % 2 ? 'a' : 'b' })), { x: 3, y: 'lonely' }]);
    assert.throws(() => fitMulticlass(frame, { target: 'y', modelType: 'classifier' }), /lonely has 1/);
  });

  it('evaluates held-out rows: macro AUC, confusion matrix rows actual, MCC', () => {
    const { train, test } = trainTestSplit(penguins.nRows, 0.3, 1);
    const model = fitMulticlass(penguins.take(train), { target: 'Species', modelType: 'classifier' });
    const rows = penguins.take(test);
    const out = predictMulticlass(model, rows);
    const actual = Array.from({ length: rows.nRows }, (_, r) => String(rows.value(r, 'Species')));
    const m = evaluateMulticlass(actual, out.classProbabilities, model.classes);
    assert.ok((m.roc_auc ?? 0) > 0.97, `macro AUC ${m.roc_auc}`);
    assert.deepEqual(m.confusion_matrix.labels, SPECIES);
    assert.deepEqual(
      m.confusion_matrix.matrix.map((row) => row.reduce((s, v) => s + v, 0)),
      SPECIES.map((s) => actual.filter((a) => a === s).length),
    );
    assert.ok((m.mcc ?? 0) > 0.85 && (m.mcc ?? 0) <= 1);
    assert.equal(m.per_class.length, 3);
  });

  it('computes metrics exactly on a hand-checked example', () => {
    const m = evaluateMulticlass(['a', 'b', 'c', 'c'], { a: [0.8, 0.1, 0.1, 0.2], b: [0.1, 0.2, 0.2, 0.1], c: [0.1, 0.7, 0.7, 0.7] }, ['a', 'b', 'c']);
    assert.deepEqual(m.confusion_matrix.matrix, [
      [1, 0, 0],
      [0, 0, 1],
      [0, 0, 2],
    ]);
    assert.equal(m.accuracy, 0.75);
    assert.ok(Math.abs(m.recall - (1 + 0 + 1) / 3) < 1e-12);
    assert.ok(Math.abs(m.precision - (1 + 0 + 2 / 3) / 3) < 1e-12);
    assert.ok(Math.abs((m.log_loss ?? 0) - -(Math.log(0.8) + Math.log(0.2) + 2 * Math.log(0.7)) / 4) < 1e-12);
  });
});
