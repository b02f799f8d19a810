import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { numberColumn, type FeatureModel } from '../../../../src/engine';
import { leafIndices } from '../../../../src/engine/model/lookup';

/** A numeric feature whose leaves have the given upper bounds, then the missing-value bin. */
function featureWithUppers(uppers: number[]): FeatureModel {
  const L = uppers.length + 1;
  const zeros = () => new Float64Array(L);
  return {
    name: 'x',
    type: 'numeric',
    params: {} as FeatureModel['params'],
    nSamples: 1,
    baseValue: 0,
    missingCount: 0,
    missingSum: 0,
    numeric: null,
    categorical: null,
    leaves: { lower: zeros(), upper: Float64Array.from([...uppers, NaN]), mean: zeros(), count: zeros(), freq: zeros(), raw: zeros(), score: zeros() },
    coef: null,
  };
}

/** The definition: the first leaf whose upper bound is ≥ x; missing values go to the last (missing-value) leaf. */
function expected(uppers: number[], x: number): number {
  if (Number.isNaN(x)) return uppers.length;
  const j = uppers.findIndex((u) => u >= x);
  return j < 0 ? uppers.length : j;
}

describe('engine leaf lookup', () => {
  it('finds the (lower, upper] interval of every value, bounds, infinities and NaN included', () => {
    const value = fc.oneof(
      fc.double({ min: -1e4, max: 1e4, noNaN: true }),
      fc.constantFrom(NaN, Infinity, -Infinity, 0, -0),
    );
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.double({ min: -1e4, max: 1e4, noNaN: true, noDefaultInfinity: true }), { minLength: 1, maxLength: 300 }),
        fc.boolean(),
        fc.array(value, { maxLength: 200 }),
        (bounds, openEnded, probes) => {
          const uppers = [...bounds].sort((a, b) => a - b).concat(openEnded ? [Infinity] : []);
          const xs = [...probes, ...uppers, ...uppers.map((u) => u + 1e-9)];
          const got = leafIndices(featureWithUppers(uppers), numberColumn('x', Float64Array.from(xs)), xs.length);
          xs.forEach((x, i) => assert.equal(got[i], expected(uppers, x), `x = ${x}`));
        },
      ),
      { numRuns: 200 },
    );
  });
});
