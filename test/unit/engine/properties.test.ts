import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import {
  DataFrame,
  fitModel,
  fromPayloads,
  predict,
  refit,
  toPayloads,
  type ModelType,
  type TransparentModel,
} from '../../../src/engine';

const CATEGORIES = ['red', 'green', 'blue', 'NA', '.'];
const FEATURES = ['a', 'b', 'c'];

interface Row {
  a: number | null;
  b: number | null;
  c: string | null;
  t: number;
}

const row = fc.record({
  a: fc.option(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { nil: null, freq: 6 }),
  b: fc.option(fc.integer({ min: -5, max: 5 }), { nil: null, freq: 4 }),
  c: fc.option(fc.constantFrom(...CATEGORIES), { nil: null, freq: 5 }),
  t: fc.double({ min: -100, max: 100, noNaN: true }),
});

const params = fc.record({
  max_depth: fc.integer({ min: 0, max: 6 }),
  min_leaf_size: fc.double({ min: 0, max: 0.3, noNaN: true }),
  weight: fc.double({ min: 0, max: 3, noNaN: true }),
  power_degree: fc.constantFrom(1, 3, 5),
  sigmoid_exponent: fc.constantFrom(0, 0.5, 1),
  ignore_nan: fc.boolean(),
  tail_sensitivity: fc.double({ min: 0.5, max: 2, noNaN: true }),
});

function frameOf(rows: Row[], modelType: ModelType): DataFrame {
  // Classifier targets: the sign of t.
  return DataFrame.fromRecords(
    rows.map((r) => ({ ...r, t: modelType === 'classifier' ? (r.t > 0 ? 'yes' : 'no') : r.t })),
    ['a', 'b', 'c', 't'],
  );
}

/** Training rows; the first two have targets of both signs, so a classifier always sees both classes. */
const trainingRows = fc
  .array(row, { minLength: 4, maxLength: 60 })
  .map((rows) => [{ ...rows[0], t: 50 }, { ...rows[1], t: -50 }, ...rows.slice(2)]);

/** Rows to predict on: anything, including ±∞, NaN, and categories never seen in training. */
const probeRows = fc.array(
  fc.record({
    a: fc.oneof(fc.double(), fc.constant(null)),
    b: fc.oneof(fc.constantFrom(Infinity, -Infinity), fc.integer({ min: -9, max: 9 }), fc.constant(null)),
    c: fc.oneof(fc.constantFrom(...CATEGORIES, 'unseen'), fc.constant(null)),
  }),
  { minLength: 1, maxLength: 20 },
);

function probeFrame(rows: { a: number | null; b: number | null; c: string | null }[]): DataFrame {
  return DataFrame.fromRecords(rows, ['a', 'b', 'c']);
}

function sumIsScore(model: TransparentModel, frame: DataFrame): void {
  const r = predict(model, frame, { explain: true });
  for (let i = 0; i < r.n; i++) {
    let s = r.baseValues[i];
    for (const f of Object.keys(r.contributions ?? {})) s += (r.contributions as Record<string, Float64Array>)[f][i];
    assert.equal(s, r.scores[i], `row ${i}`);
  }
}

describe('engine properties', () => {
  for (const modelType of ['classifier', 'regressor'] as const) {
    it(`${modelType}: score = base value + Σ contributions for every row`, () => {
      fc.assert(
        fc.property(trainingRows, params, probeRows, (rows, p, probe) => {
          const model = fitModel(frameOf(rows, modelType), { method: 'xplainable', target: 't', modelType, params: p, features: FEATURES });
          sumIsScore(model, probeFrame(probe));
        }),
        { numRuns: 60 },
      );
    });

    it(`${modelType}: refit with unchanged parameters changes nothing`, () => {
      fc.assert(
        fc.property(trainingRows, params, probeRows, (rows, p, probe) => {
          const model = fitModel(frameOf(rows, modelType), { method: 'xplainable', target: 't', modelType, params: p, features: FEATURES });
          const { model: same, parametersChanged } = refit(model, { params: p });
          assert.deepEqual(parametersChanged, {});
          const a = predict(model, probeFrame(probe), { explain: true });
          const b = predict(same, probeFrame(probe), { explain: true });
          assert.deepEqual(b.scores, a.scores);
          assert.deepEqual(b.contributions, a.contributions);
        }),
        { numRuns: 40 },
      );
    });

    it(`${modelType}: the JSON round trip predicts bit-identically, also after a refit`, () => {
      fc.assert(
        fc.property(trainingRows, params, params, probeRows, (rows, p, q, probe) => {
          const model = fitModel(frameOf(rows, modelType), { method: 'xplainable', target: 't', modelType, params: p, features: FEATURES });
          const json = JSON.stringify(toPayloads(model));
          const back = fromPayloads(JSON.parse(json), modelType);
          const frame = probeFrame(probe);
          const a = predict(model, frame, { explain: true });
          const b = predict(back, frame, { explain: true });
          assert.deepEqual(b.scores, a.scores);
          assert.deepEqual(b.predictions, a.predictions);
          assert.deepEqual(b.probabilities, a.probabilities);
          assert.deepEqual(b.contributions, a.contributions);
          const ra = predict(refit(model, { features: ['a', 'c'], params: q }).model, frame);
          const rb = predict(refit(back, { features: ['a', 'c'], params: q }).model, frame);
          assert.deepEqual(rb.scores, ra.scores);
        }),
        { numRuns: 40 },
      );
    });
  }

  it('classifier: scores and probabilities stay within [0, 1], also after refits', () => {
    fc.assert(
      fc.property(trainingRows, params, params, probeRows, (rows, p, q, probe) => {
        const model = fitModel(frameOf(rows, 'classifier'), { method: 'xplainable', target: 't', modelType: 'classifier', params: p, features: FEATURES });
        for (const m of [model, refit(model, { features: ['b'], params: q }).model]) {
          const r = predict(m, probeFrame(probe));
          for (let i = 0; i < r.n; i++) {
            assert.ok(r.scores[i] >= -1e-12 && r.scores[i] <= 1 + 1e-12, `score ${r.scores[i]}`);
            const prob = (r.probabilities as Float64Array)[i];
            assert.ok(prob >= 0 && prob <= 1, `probability ${prob}`);
          }
        }
      }),
      { numRuns: 60 },
    );
  });
});
