import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataFrame, categoryColumn, inferColumn, mulberry32, numberColumn, parseCsv, type Column } from '../../../src/engine';

export const TOLERANCE = 1e-6;

export function assertClose(actual: ArrayLike<number>, expected: readonly number[], tol = TOLERANCE, what = 'values'): void {
  assert.equal(actual.length, expected.length, `${what}: length`);
  for (let i = 0; i < expected.length; i++) {
    assert.ok(
      Math.abs(actual[i] - expected[i]) <= tol,
      `${what}[${i}]: expected ${expected[i]}, got ${actual[i]} (difference ${Math.abs(actual[i] - expected[i])})`,
    );
  }
}

/** The golden example data (docs/reference-algorithm.md). */
export function goldenFrame(): DataFrame {
  return new DataFrame([
    numberColumn(
      'x',
      Float64Array.from({ length: 12 }, (_, i) => i + 1),
    ),
    inferColumn('c', ['a', 'b', 'a', 'b', 'c', 'c', 'a', 'c', null, 'b', 'c', 'a']),
    inferColumn('y', ['0', '0', '0', '1', '0', '1', '1', '1', '1', '0', '1', '1']),
  ]);
}

/** The golden example's test rows: (0.5, c), (6.5, unseen), (NaN, missing), (99, a). */
export function goldenTestRows(): DataFrame {
  return DataFrame.fromRecords(
    [
      { x: 0.5, c: 'c' },
      { x: 6.5, c: 'zzz' },
      { x: null, c: null },
      { x: 99, c: 'a' },
    ],
    ['x', 'c'],
  );
}

/** The error `fn` throws, checked to be an instance of `type`. */
export function thrown<E extends Error>(fn: () => unknown, type: new (...args: never[]) => E): E {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof type, `expected ${type.name}, got ${String(e)}`);
    return e;
  }
  return assert.fail(`expected a ${type.name}`);
}

/** The text of a sample dataset that ships in media/datasets. */
export function datasetText(name: string): string {
  return readFileSync(join(__dirname, '../../../media/datasets', `${name}.csv`), 'utf8');
}

export function loadDataset(name: string): DataFrame {
  return parseCsv(datasetText(name));
}

/**
 * Synthetic handwritten digits like scikit-learn's: 64 features `pixel_<row>_<column>`, the intensities 0–16 of an
 * 8×8 image, and the `digit` 0–9. Each digit is a blurred random stroke pattern (the outer columns blank), drawn
 * shifted by up to a pixel either way with Gaussian noise; a few digits come out separable from all the others.
 */
export function digitsFrame(rows: number, seed = 3): DataFrame {
  const random = mulberry32(seed);
  const gaussian = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const prototypes = Array.from({ length: 10 }, () => {
    const strokes = Array.from({ length: 100 }, () => (random() < 0.35 ? 1 : 0));
    return Float64Array.from({ length: 64 }, (_, pixel) => {
      const [y, x] = [Math.floor(pixel / 8), pixel % 8];
      if (x === 0 || x === 7) return 0;
      let ink = 0;
      for (let dy = 0; dy < 3; dy++) for (let dx = 0; dx < 3; dx++) ink += strokes[(y + dy) * 10 + x + dx];
      return (16 * ink) / 9;
    });
  });
  const pixels = Array.from({ length: 64 }, () => new Float64Array(rows));
  const digit = new Int32Array(rows);
  for (let r = 0; r < rows; r++) {
    digit[r] = Math.floor(random() * 10);
    const [sy, sx] = [Math.floor(random() * 3) - 1, Math.floor(random() * 3) - 1];
    for (let pixel = 0; pixel < 64; pixel++) {
      const [y, x] = [Math.floor(pixel / 8) + sy, (pixel % 8) + sx];
      const ink = y >= 0 && y < 8 && x >= 0 && x < 8 ? prototypes[digit[r]][y * 8 + x] : 0;
      pixels[pixel][r] = Math.round(Math.min(16, Math.max(0, ink + 2.5 * gaussian())));
    }
  }
  const columns: Column[] = pixels.map((values, pixel) => numberColumn(`pixel_${Math.floor(pixel / 8)}_${pixel % 8}`, values));
  columns.push(categoryColumn('digit', digit, Array.from({ length: 10 }, (_, k) => String(k))));
  return new DataFrame(columns, rows);
}
