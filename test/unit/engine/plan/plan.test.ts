import { strict as assert } from 'node:assert';
import { DataFrame, DEFAULT_BOOST_PARAMS, EngineError } from '../../../../src/engine';
import { planFit } from '../../../../src/engine/plan/plan';
import { SMALL_DATA_MAX_LEAVES, SMALL_DATA_ROWS } from '../../../../src/engine/plan/sizeDefaults';
import { thrown } from '../helpers';

/** `big` rows of group a and 50 of group b: a's partition is over the small-data size, b's under it. */
function frame(big: number): DataFrame {
  return DataFrame.fromRecords(Array.from({ length: big + 50 }, (_, r) => ({ x: r % 97, g: r < big ? 'a' : 'b', y: (r % 97) * 2 + (r % 5) })));
}

describe('engine fit plan', () => {
  it("resolves each partition's boosted parameters once, for its own size, keeping the ones given", () => {
    const plan = planFit(frame(SMALL_DATA_ROWS + 1), { target: 'y', modelType: 'regressor', partitionOn: 'g', boost: { learning_rate: 0.1 } });
    const byKey = new Map(plan.parts.map((part) => [part.key, part.boost]));
    assert.equal(byKey.get('a')?.max_leaves, DEFAULT_BOOST_PARAMS.max_leaves);
    assert.equal(byKey.get('b')?.max_leaves, SMALL_DATA_MAX_LEAVES);
    for (const boost of byKey.values()) assert.equal(boost.learning_rate, 0.1);
  });

  it('rejects a boosted parameter out of its range, naming it and the value', () => {
    const error = thrown(() => planFit(frame(100), { target: 'y', modelType: 'regressor', boost: { interactions: 101 } }), EngineError);
    assert.equal(error.field, 'interactions');
    assert.match(error.message, /interactions .*\(got 101\)/);
  });
});
