import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { categoryColumn, DataFrame, fitModel, mulberry32, numberColumn, predict, type FitOptions, type TransparentModel } from '../../../../src/engine';

/**
 * Binary and regression fits must not move when the engine is made faster: each case's digest is that of the same
 * fit made before (every partition's base value, each feature's steps and their spread, each pair's cells, and the
 * scores of the rows, to the last bit). A change meant to move these fits replaces the digests it moves.
 */
const expected = JSON.parse(readFileSync(join(__dirname, '../../../fixtures/engine/unchanged-fits.json'), 'utf8')) as Record<string, string>;

/** Four numeric features (one with missing values) and a category; the target has main effects and one pair effect. */
function frame(n: number, seed: number, classifier: boolean): DataFrame {
  const random = mulberry32(seed);
  const x = Array.from({ length: 4 }, () => new Float64Array(n));
  const codes = new Int32Array(n);
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    for (const col of x) col[i] = Math.round(200 * random() - 100) / 10;
    if (random() < 0.05) x[3][i] = NaN;
    codes[i] = Math.floor(random() * 5);
    const s = x[0][i] / 5 + Math.sin(x[1][i] / 3) + (x[0][i] > 0 === x[2][i] > 0 ? 0.8 : -0.8) + (codes[i] % 2) * 0.6 + (Number.isNaN(x[3][i]) ? 0.5 : 0);
    y[i] = classifier ? (random() < 1 / (1 + Math.exp(-s)) ? 1 : 0) : s + (random() - 0.5);
  }
  const columns = x.map((v, k) => numberColumn(`x${k}`, v));
  return new DataFrame([...columns, categoryColumn('c', codes, ['a', 'b', 'c', 'd', 'e']), numberColumn('y', y)]);
}

function digest(model: TransparentModel, rows: DataFrame): string {
  const hash = createHash('sha256');
  const add = (values: ArrayLike<number>) => hash.update(new Uint8Array(Float64Array.from(values).buffer));
  for (const part of model.partitions.values()) {
    add([part.baseValue]);
    for (const f of part.features) {
      add(f.leaves.score);
      add(f.leaves.std ?? []);
    }
    for (const pair of part.pairs ?? []) {
      add(pair.score);
      add(pair.std ?? []);
    }
  }
  add(predict(model, rows).scores);
  return hash.digest('hex');
}

const cases: Record<string, { rows: number; seed: number; options: FitOptions }> = {
  'binary classifier, 800 rows (linear start)': { rows: 800, seed: 1, options: { target: 'y', modelType: 'classifier' } },
  'binary classifier, 3,000 rows with pairs': { rows: 3000, seed: 2, options: { target: 'y', modelType: 'classifier' } },
  'binary classifier, 12,000 rows in partitions': { rows: 12_000, seed: 3, options: { target: 'y', modelType: 'classifier', partitionOn: 'c' } },
  'regressor, 3,000 rows with pairs': { rows: 3000, seed: 4, options: { target: 'y', modelType: 'regressor' } },
  'regressor, 12,000 rows (pairwise histograms)': { rows: 12_000, seed: 5, options: { target: 'y', modelType: 'regressor' } },
};

describe('engine: binary and regression fits are unchanged', () => {
  for (const [name, { rows, seed, options }] of Object.entries(cases)) {
    it(name, () => {
      const data = frame(rows, seed, options.modelType === 'classifier');
      const actual = digest(fitModel(data, options), data);
      assert.equal(actual, expected[name], `${name}: the fit's digest is ${actual}`);
    });
  }
});
