import { EngineError } from '../errors';
import { rangeProblem } from '../params/range';
import { groupRanges } from '../params/table';
import { mulberry32 } from '../prng';
import type { TrainTestSplit } from '../model/types';

/** The train/test split of a train or refit request: both fit methods use it. */
export const SPLIT_RANGES = groupRanges('split');

/**
 * Seeded shuffle split of row indices 0..n-1 (both sides sorted ascending). With `strata` (e.g. 0/1 classifier
 * targets) each stratum contributes round(size × testSize) rows to the test side, so class shares are kept.
 */
export function trainTestSplit(n: number, testSize: number, seed: number, strata?: ArrayLike<number>): TrainTestSplit {
  const problem = rangeProblem(SPLIT_RANGES.test_size, testSize);
  if (problem) throw new EngineError(`test_size ${problem} (got ${testSize})`, 'test_size');
  if (strata && strata.length !== n) throw new EngineError(`strata has ${strata.length} values for ${n} rows`, 'strata');
  const random = mulberry32(seed);
  const groups = new Map<number, number[]>();
  for (let i = 0; i < n; i++) {
    const key = strata ? strata[i] : 0;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = []));
    g.push(i);
  }
  const test = new Int32Array(n);
  const train = new Int32Array(n);
  let nTest = 0;
  let nTrain = 0;
  for (const key of [...groups.keys()].sort((a, b) => a - b)) {
    const rows = groups.get(key) as number[];
    for (let i = rows.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [rows[i], rows[j]] = [rows[j], rows[i]];
    }
    const k = Math.round(rows.length * testSize);
    for (let i = 0; i < k; i++) test[nTest++] = rows[i];
    for (let i = k; i < rows.length; i++) train[nTrain++] = rows[i];
  }
  return { train: train.slice(0, nTrain).sort(), test: test.slice(0, nTest).sort() };
}
