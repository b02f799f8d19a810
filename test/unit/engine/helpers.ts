import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataFrame, inferColumn, numberColumn, parseCsv } from '../../../src/engine';

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
