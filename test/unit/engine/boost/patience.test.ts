import { strict as assert } from 'node:assert';
import { BestRound } from '../../../../src/engine/boost/booster';

/** The round at which boosting stops when the validation loss falls until round `bestAt`, then rises. */
function stopRound(bestAt: number, adaptive: boolean): number {
  const best = new BestRound(1, [new Float64Array(2)], 50, adaptive);
  for (let round = 1; round <= 1000; round++) {
    const loss = round <= bestAt ? 1 - round / 1000 : 1 - bestAt / 1000 + (round - bestAt) / 1e4;
    if (best.stop(round, loss, [new Float64Array(2)])) {
      assert.equal(best.round, bestAt);
      return round;
    }
  }
  return Infinity;
}

describe('engine boosting: early stopping', () => {
  it('waits early_stopping_rounds rounds after the best one', () => {
    assert.equal(stopRound(4, false), 54);
    assert.equal(stopRound(300, false), 350);
  });

  it('adaptive: waits half the rounds the best one took, at least 10 and at most early_stopping_rounds', () => {
    assert.equal(stopRound(4, true), 14);
    assert.equal(stopRound(30, true), 45);
    assert.equal(stopRound(300, true), 350);
  });
});
