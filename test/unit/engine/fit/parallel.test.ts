import { strict as assert } from 'node:assert';
import { DataFrame, EngineError, fitModel, fitModelParallel, mulberry32, numberColumn, toPayloads } from '../../../../src/engine';
import { threadsFor } from '../../../../src/engine/fit/parallel';
import { planFit } from '../../../../src/engine/plan/plan';
import { digitsFrame } from '../helpers';

function frame(n: number): DataFrame {
  const random = mulberry32(5);
  return DataFrame.fromRecords(
    Array.from({ length: n }, () => {
      const a = Math.round(random() * 1000) / 10;
      const g = ['x', 'y', 'z'][Math.floor(random() * 3)];
      return { a: random() < 0.05 ? null : a, b: Math.floor(random() * 9), g, t: a + (g === 'x' ? 30 : 0) > 60 ? 'hi' : 'lo' };
    }),
  );
}

describe('engine parallel fit', () => {
  it('gives exactly the single-threaded model when features (xplainable) or bags (boosted) are fitted in worker threads', async function () {
    this.timeout(60000);
    const data = frame(3000);
    for (const method of ['boosted', 'xplainable'] as const) {
      for (const modelType of ['classifier', 'regressor'] as const) {
        const options =
          modelType === 'classifier' ? { method, target: 't', modelType, partitionOn: 'g' } : { method, target: 'a', modelType, dropColumns: ['t'] };
        const serial = fitModel(data, options);
        const parallel = await fitModelParallel(data, options, { threads: 2, minCells: 0 });
        assert.equal(JSON.stringify(toPayloads(parallel)), JSON.stringify(toPayloads(serial)), `${method} ${modelType}`);
      }
    }
  });

  it('judges fits together: ten small class models of one table share the threads that one alone would not start', () => {
    const digits = digitsFrame(1500);
    const classPlan = (digit: string) =>
      planFit(digits.withColumns([numberColumn('digit', Float64Array.from({ length: digits.nRows }, (_, r) => (digits.value(r, 'digit') === digit ? 1 : 0)))]), {
        target: 'digit',
        modelType: 'classifier',
      });
    const classPlans = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'].map(classPlan);
    assert.equal(threadsFor(classPlans, { threads: 4 }), 4);
    assert.equal(threadsFor(classPlans.slice(0, 1), { threads: 4 }), 0);
    // The reference method passes over the cells once, not once per bag: ten of these stay on the calling thread.
    const reference = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'].map((digit) => ({ ...classPlan(digit), method: 'xplainable' as const }));
    assert.equal(threadsFor(reference, { threads: 4 }), 0);
    assert.equal(threadsFor(classPlans, { threads: 1 }), 0);
  });

  it('checks the options before starting any thread', async () => {
    await assert.rejects(fitModelParallel(frame(10), { target: 'nope', modelType: 'classifier' }, { minCells: 0 }), EngineError);
  });
});
