import assert from 'node:assert/strict';
import { mulberry32 } from '../../../../src/engine';
import { sortNumbers } from '../../../../src/engine/data/radixSort';

/** Numbers of every kind a column holds: signed zeros, infinities, extremes, subnormals, repeats and wide magnitudes. */
function awkwardNumbers(n: number, seed: number): Float64Array {
  const random = mulberry32(seed);
  const special = [0, -0, Infinity, -Infinity, Number.MAX_VALUE, -Number.MAX_VALUE, Number.MIN_VALUE, -Number.MIN_VALUE, 1, -1, 0.1];
  return Float64Array.from({ length: n }, (_, i) =>
    i % 11 === 0 ? special[Math.floor(random() * special.length)] : (random() - 0.5) * 10 ** Math.floor(random() * 40 - 20) * (i % 7 === 0 ? 1e300 : 1),
  );
}

const assertSameOrder = (actual: Float64Array, expected: Float64Array) => {
  assert.equal(actual.length, expected.length);
  for (let i = 0; i < expected.length; i++) assert.ok(Object.is(actual[i], expected[i]), `at ${i}: ${actual[i]} != ${expected[i]}`);
};

describe('engine: sortNumbers', () => {
  for (const n of [0, 1, 100, 65_535, 65_536, 300_000]) {
    it(`sorts ${n} numbers in the order of the built-in sort, -0 before 0`, () => {
      const values = awkwardNumbers(n, n + 1);
      const expected = values.slice().sort();
      assertSameOrder(sortNumbers(values), expected);
    });
  }

  it('sorts a part of a larger array in place and leaves the rest alone', () => {
    const whole = awkwardNumbers(200_000, 9);
    const before = whole.slice();
    const part = whole.subarray(50_000, 170_000);
    const expected = part.slice().sort();
    assert.equal(sortNumbers(part), part);
    assertSameOrder(part, expected);
    assertSameOrder(whole.subarray(0, 50_000), before.subarray(0, 50_000));
    assertSameOrder(whole.subarray(170_000), before.subarray(170_000));
  });
});
