import { strict as assert } from 'node:assert';
import { DataFrame, EngineError, fitModel, fitModelParallel, mulberry32, toPayloads } from '../../../../src/engine';

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

  it('checks the options before starting any thread', async () => {
    await assert.rejects(fitModelParallel(frame(10), { target: 'nope', modelType: 'classifier' }, { minCells: 0 }), EngineError);
  });
});
