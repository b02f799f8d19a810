import { strict as assert } from 'node:assert';
import {
  categoryColumn,
  DataFrame,
  EngineError,
  fitModel,
  fitModelParallel,
  mulberry32,
  numberColumn,
  splitRows,
  splitSentence,
  toPayloads,
  trainTestSplit,
  type FitOptions,
} from '../../../../src/engine';
import { innerSplit } from '../../../../src/engine/boost/booster';
import { thrown } from '../helpers';

const DAY = 86_400_000;

/** Rows with a day (many rows share one; some have none), a customer, two features and a noisy target. */
function rows(n: number, seed: number): DataFrame {
  const random = mulberry32(seed);
  const day = new Float64Array(n);
  const x = new Float64Array(n);
  const z = new Float64Array(n);
  const y = new Float64Array(n);
  const customers = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    day[i] = i % 37 === 0 ? NaN : Date.UTC(2024, 0, 1) + Math.floor(random() * 90) * DAY;
    x[i] = random() * 10;
    z[i] = random();
    y[i] = Math.sin(x[i]) + 0.3 * z[i] + 0.2 * random();
    customers[i] = i % 43 === 5 ? -1 : Math.floor(random() * 150);
  }
  const levels = Array.from({ length: 150 }, (_, c) => `c${c}`);
  return new DataFrame([
    numberColumn('date', day, 'date'),
    categoryColumn('customer', customers, levels),
    numberColumn('x', x),
    numberColumn('z', z),
    numberColumn('y', y),
  ]);
}

function values(frame: DataFrame, name: string, at: Int32Array): (string | number | null)[] {
  return Array.from(at, (r) => frame.value(r, name));
}

describe('train/test splits by time and by group', () => {
  const frame = rows(3000, 11);

  it('tests on exactly the latest rows by the time column, a tied day wholly on the test side, rows without a time training', () => {
    for (const testSize of [0.1, 0.2, 0.35]) {
      const split = splitRows(frame, testSize, 42, { time_column: 'date' }, 'y');
      const times = frame.column('date');
      assert.equal(times.storage, 'number');
      const t = (r: number) => (times.storage === 'number' ? times.values[r] : NaN);
      const testTimes = Array.from(split.test, t);
      const trainTimes = Array.from(split.train, t).filter((v) => !Number.isNaN(v));
      assert.ok(testTimes.every((v) => !Number.isNaN(v)), 'no row without a time is tested');
      assert.ok(Math.min(...testTimes) > Math.max(...trainTimes), 'every test row is later than every training row');
      const withTime = Array.from({ length: frame.nRows }, (_, r) => t(r)).filter((v) => !Number.isNaN(v)).length;
      assert.ok(split.test.length >= Math.round(withTime * testSize), 'at least the share asked for');
      const dayRows = testTimes.filter((v) => v === Math.min(...testTimes)).length;
      assert.ok(split.test.length - dayRows < Math.round(withTime * testSize), 'only the boundary day goes beyond the share');
      assert.equal(split.testFrom, new Date(Math.min(...testTimes)).toISOString());
      assert.equal(split.train.length + split.test.length, frame.nRows);
    }
  });

  it('puts every group wholly on one side, about test_size of the groups tested, the same for the same seed, rows without a group training', () => {
    for (const seed of [1, 42, 7]) {
      const split = splitRows(frame, 0.2, seed, { group_column: 'customer' }, 'y');
      const train = new Set(values(frame, 'customer', split.train));
      const test = new Set(values(frame, 'customer', split.test));
      assert.deepEqual([...test].filter((g) => train.has(g)), [], 'no group on both sides');
      assert.ok(train.has(null) && !test.has(null), 'rows without a group train');
      const share = test.size / (train.size + test.size);
      assert.ok(share > 0.1 && share < 0.3, `share of groups tested ${share}`);
      assert.deepEqual(splitRows(frame, 0.2, seed, { group_column: 'customer' }, 'y'), split);
    }
    const other = splitRows(frame, 0.2, 43, { group_column: 'customer' }, 'y');
    assert.notDeepEqual(other.test, splitRows(frame, 0.2, 42, { group_column: 'customer' }, 'y').test, 'the seed chooses the groups');
  });

  it('keeps both sides of a group split non-empty, and the random split as it was', () => {
    const two = new DataFrame([categoryColumn('g', Int32Array.from({ length: 40 }, (_, i) => i % 2), ['a', 'b']), numberColumn('y', Float64Array.from({ length: 40 }, (_, i) => i))]);
    for (const testSize of [0.01, 0.99]) {
      const split = splitRows(two, testSize, 5, { group_column: 'g' }, 'y');
      assert.deepEqual([split.train.length, split.test.length], [20, 20]);
    }
    const random = splitRows(frame, 0.2, 42, 'random', 'y');
    assert.deepEqual({ train: random.train, test: random.test }, trainTestSplit(frame.nRows, 0.2, 42));
    assert.deepEqual(splitRows(frame, 0.2, 42, undefined, 'y'), random);
  });

  it('rejects a column that is missing, the target, not a time, or a single group, naming the field and value', () => {
    const cases: [FitOptions['split'], string, RegExp][] = [
      [{ time_column: 'when' }, 'split.time_column', /names no column when; the columns are: date, customer/],
      [{ group_column: 'y' }, 'split.group_column', /cannot be the target column y/],
      [{ time_column: 'customer' }, 'split.time_column', /customer is a categorical column; a time split needs a column of numbers or dates/],
    ];
    for (const [split, field, message] of cases) {
      const error = thrown(() => splitRows(frame, 0.2, 42, split, 'y'), EngineError);
      assert.equal(error.field, field);
      assert.match(error.message, message);
    }
    const one = new DataFrame([categoryColumn('g', new Int32Array(30), ['a']), numberColumn('y', Float64Array.from({ length: 30 }, (_, i) => i))]);
    assert.match(thrown(() => splitRows(one, 0.2, 42, { group_column: 'g' }, 'y'), EngineError).message, /split.group_column g has 1 group \(distinct values\); a group split needs at least 2/);
    const sameDay = new DataFrame([numberColumn('t', new Float64Array(30).fill(5)), numberColumn('y', Float64Array.from({ length: 30 }, (_, i) => i))]);
    assert.match(thrown(() => splitRows(sameDay, 0.2, 42, { time_column: 't' }, 'y'), EngineError).message, /every row with a time has 5 or a later one/);
  });

  it('chooses each bag’s early-stopping rows as the latest training rows, or as whole groups', () => {
    const rowsOf = Int32Array.from({ length: 500 }, (_, i) => i * 2);
    const time = Float64Array.from({ length: 1000 }, (_, i) => (i % 9 === 0 ? NaN : (i * 7919) % 1000));
    const { train, valid } = innerSplit(rowsOf, 0.15, 3, { time });
    assert.equal(valid.length, 75);
    assert.ok(Math.min(...Array.from(valid, (r) => time[r])) >= Math.max(...Array.from(train, (r) => time[r]).filter((t) => !Number.isNaN(t))));
    assert.equal(train.length + valid.length, 500);
    const group = Int32Array.from({ length: 1000 }, (_, i) => i % 31);
    const byGroup = innerSplit(rowsOf, 0.15, 3, { group });
    const trainGroups = new Set(Array.from(byGroup.train, (r) => group[r]));
    assert.ok(byGroup.valid.length >= 75 && byGroup.valid.length < 150);
    assert.ok(Array.from(byGroup.valid, (r) => group[r]).every((g) => !trainGroups.has(g)), 'no group on both sides');
    const single = innerSplit(rowsOf, 0.15, 3, { group: new Int32Array(1000) });
    assert.deepEqual(single, innerSplit(rowsOf, 0.15, 3), 'a single group falls back to rows at random');
  });

  it('fits the same model with the split left out or given as random, leaves the split column out of the features unless a listed time column', () => {
    const options: FitOptions = { target: 'y', modelType: 'regressor', dropColumns: ['customer'], boost: { outer_bags: 2 } };
    const train = frame.take(trainTestSplit(frame.nRows, 0.2, 42).train);
    const json = (split?: FitOptions['split']) => JSON.stringify(toPayloads(fitModel(train, { ...options, split })));
    assert.equal(json('random'), json());
    const featuresOf = (o: FitOptions) => fitModel(train, { ...o, boost: { outer_bags: 1 } }).partitions.get('__dataset__')?.features.map((f) => f.name);
    assert.deepEqual(featuresOf({ ...options, split: { time_column: 'date' } }), ['x', 'z']);
    assert.deepEqual(featuresOf({ ...options, split: { time_column: 'date' }, features: ['date', 'x'] }), ['date', 'x']);
    assert.deepEqual(featuresOf({ target: 'y', modelType: 'regressor', split: { group_column: 'customer' } }), ['date', 'x', 'z']);
    const listed = thrown(() => fitModel(train, { target: 'y', modelType: 'regressor', split: { group_column: 'customer' }, features: ['customer', 'x'] }), EngineError);
    assert.equal(listed.field, 'split.group_column');
  });

  it('fits a time or group split in worker threads exactly as on one thread', async function () {
    this.timeout(60_000);
    const train = frame.take(splitRows(frame, 0.2, 42, { time_column: 'date' }, 'y').train);
    for (const split of [{ time_column: 'date' }, { group_column: 'customer' }]) {
      const options: FitOptions = { target: 'y', modelType: 'regressor', split, boost: { outer_bags: 3, interactions: 2 } };
      const parallel = await fitModelParallel(train, options, { threads: 2, minCells: 0 });
      assert.equal(JSON.stringify(toPayloads(parallel)), JSON.stringify(toPayloads(fitModel(train, options))), JSON.stringify(split));
    }
  });

  it('says how the test rows were chosen', () => {
    assert.equal(splitSentence({ split: { time_column: 'date' }, test_size: 0.2, n_test: 1234, test_from: '2024-03-02T00:00:00.000Z' }), 'tested on the latest 20% by `date`, from 2024-03-02 (1,234 rows)');
    assert.equal(splitSentence({ split: { group_column: 'customer' }, test_size: 0.25, n_test: 1 }), 'tested on about 25% of the `customer` groups, each wholly in train or test (1 row)');
    assert.equal(splitSentence({ split: 'random', test_size: 0.2, n_test: 80 }), 'tested on a random 20% of the rows (80 rows)');
  });
});
