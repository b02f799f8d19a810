import { EngineError } from '../base/errors';
import { textValue, type DataFrame } from '../data/frame';
import { rangeProblem } from '../params/range';
import type { SplitSpec } from '../params/split';
import { groupRanges } from '../params/table';
import { checkedSplitColumn } from '../plan/splitColumn';
import { mulberry32 } from '../base/prng';
import type { TrainTestSplit } from '../model/types';

/** The train/test split of a train or refit request: both fit methods use it. */
export const SPLIT_RANGES = groupRanges('split');

function checkTestSize(testSize: number): void {
  const problem = rangeProblem(SPLIT_RANGES.test_size, testSize);
  if (problem) throw new EngineError(`test_size ${problem} (got ${testSize})`, 'test_size');
}

/**
 * Seeded shuffle split of row indices 0..n-1 (both sides sorted ascending). With `strata` (e.g. 0/1 classifier
 * targets) each stratum contributes round(size × testSize) rows to the test side, so class shares are kept.
 */
export function trainTestSplit(n: number, testSize: number, seed: number, strata?: ArrayLike<number>): TrainTestSplit {
  checkTestSize(testSize);
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

/** A split of a train's rows, with (for a time split) the earliest time of its test rows as the wire writes it. */
export interface RowsSplit extends TrainTestSplit {
  testFrom: number | string | null;
}

/**
 * The rows of a train split as `split` asks (see SplitSpec); the random split is trainTestSplit's, unstratified.
 * - Time: of the rows with a time, the latest round(rows × testSize) by it are the test rows, and so is every row that
 *   shares the earliest of their times (a tie at the boundary goes wholly to the test rows, so no time is on both
 *   sides). Rows without a time are training rows.
 * - Group: each group (each distinct value) is a test group when a seeded hash of its value falls below testSize, so
 *   about that share of the groups are tested on; with none (or all) of them there, the group of the lowest (highest)
 *   hash moves over, so both sides have rows. Rows without a group value are training rows.
 */
export function splitRows(frame: Pick<DataFrame, 'nRows' | 'names' | 'has' | 'select'>, testSize: number, seed: number, split: SplitSpec | undefined, target: string): RowsSplit {
  const by = checkedSplitColumn(frame, split, target);
  if (!by) return { ...trainTestSplit(frame.nRows, testSize, seed), testFrom: null };
  checkTestSize(testSize);
  const { column, field } = by;
  if (by.kind === 'time' && column.storage === 'number') {
    const wire = (t: number) => (column.type === 'date' ? new Date(t).toISOString() : t);
    const { test, from } = latestRows(column.values, testSize, field, column.name, wire);
    return { ...sides(test), testFrom: wire(from) };
  }
  const keys = Array.from({ length: frame.nRows }, (_, r) => textValue(column, r));
  const fractions = new Map<string, number>();
  for (const key of keys) if (key !== null && !fractions.has(key)) fractions.set(key, hashFraction(key, seed));
  if (fractions.size < 2) throw new EngineError(`${field} ${column.name} has ${fractions.size} group${fractions.size === 1 ? '' : 's'} (distinct values); a group split needs at least 2`, field);
  const tested = new Set([...fractions].filter(([, f]) => f < testSize).map(([key]) => key));
  const byHash = [...fractions].sort((a, b) => a[1] - b[1]);
  if (tested.size === 0) tested.add(byHash[0][0]);
  if (tested.size === fractions.size) tested.delete(byHash[byHash.length - 1][0]);
  return { ...sides(keys.map((key) => key !== null && tested.has(key))), testFrom: null };
}

/** Which rows are the latest testSize share by `times` (ties at the boundary included), and the earliest of them. */
function latestRows(
  times: Float64Array,
  testSize: number,
  field: string,
  name: string,
  show: (t: number) => number | string,
): { test: boolean[]; from: number } {
  const present = times.filter((t) => t === t).sort();
  const k = Math.round(present.length * testSize);
  if (k === 0) throw new EngineError(`test_size ${testSize} of the ${present.length} rows with a ${name} value leaves no test rows`, 'test_size');
  const from = present[present.length - k];
  const test = Array.from(times, (t) => t >= from);
  if (test.every(Boolean)) throw new EngineError(`${field} ${name}: every row with a time has ${show(from)} or a later one, so a time split leaves no training rows`, field);
  return { test, from };
}

function sides(test: readonly boolean[]): TrainTestSplit {
  const nTest = test.reduce((n, t) => n + (t ? 1 : 0), 0);
  const out = { train: new Int32Array(test.length - nTest), test: new Int32Array(nTest) };
  let [a, b] = [0, 0];
  test.forEach((t, r) => (t ? (out.test[b++] = r) : (out.train[a++] = r)));
  return out;
}

/** A seeded hash of a text in [0, 1): FNV-1a over its UTF-16 units, then MurmurHash3's finaliser. */
function hashFraction(text: string, seed: number): number {
  let h = (2166136261 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) / 4294967296;
}
