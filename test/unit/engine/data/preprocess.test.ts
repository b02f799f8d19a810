import { strict as assert } from 'node:assert';
import { applyPreprocessor, EngineError, fitPreprocessor, parseCsv, type DataFrame, type FittedPreprocessor } from '../../../../src/engine';
import { thrown } from '../helpers';

const CSV = [
  'age,income,debt,city,joined,note',
  '20,1000,100,Paris,2020-01-15 08:30,  Hello  World ',
  ',2000,0,Paris,2021-06-30 23:05,hello world',
  '40,,50,Lyon,2019-12-31 00:00,HELLO   world',
  '60,4000,400,Nice,,',
  '80,8000,800,Paris,2022-03-01 12:00,x',
].join('\n');

const frame = (): DataFrame => parseCsv(CSV);
const col = (f: DataFrame, name: string) => Array.from({ length: f.nRows }, (_, r) => f.value(r, name));

const stepError = (steps: unknown[]): EngineError => thrown(() => fitPreprocessor(frame(), steps), EngineError);

describe('engine preprocessor steps', () => {
  it('fill_missing learns mean, median, mode or uses a constant', () => {
    const fitted = fitPreprocessor(frame(), [
      { type: 'fill_missing', column: 'age', strategy: 'mean' },
      { type: 'fill_missing', column: 'income', strategy: 'median' },
      { type: 'fill_missing', column: 'note', strategy: 'constant', value: 'none' },
    ]);
    const out = applyPreprocessor(frame(), fitted);
    assert.deepEqual(col(out, 'age'), [20, 50, 40, 60, 80]);
    assert.deepEqual(col(out, 'income'), [1000, 2000, 3000, 4000, 8000]);
    assert.equal(out.value(3, 'note'), 'none');
    const mode = applyPreprocessor(frame(), fitPreprocessor(frame(), [{ type: 'fill_missing', column: 'age', strategy: 'mode' }]));
    assert.equal(mode.value(1, 'age'), 20);
  });

  it('log1p, clip and ratio transform numbers; ratio by zero is missing', () => {
    const out = applyPreprocessor(
      frame(),
      fitPreprocessor(frame(), [
        { type: 'ratio', numerator: 'debt', denominator: 'income', name: 'debt_ratio' },
        { type: 'log1p', column: 'income' },
        { type: 'clip', column: 'age', min: 30, max: 70 },
      ]),
    );
    assert.deepEqual(col(out, 'debt_ratio'), [0.1, 0, null, 0.1, 0.1]);
    assert.equal(out.value(0, 'income'), Math.log1p(1000));
    assert.deepEqual(col(out, 'age'), [30, null, 40, 60, 70]);
  });

  it('date_parts adds year, month, day, weekday (Monday = 0) and hour columns', () => {
    const out = applyPreprocessor(frame(), fitPreprocessor(frame(), [{ type: 'date_parts', column: 'joined', parts: ['year', 'month', 'day', 'weekday', 'hour'] }]));
    assert.deepEqual(col(out, 'joined_year'), [2020, 2021, 2019, null, 2022]);
    assert.deepEqual(col(out, 'joined_month'), [1, 6, 12, null, 3]);
    assert.deepEqual(col(out, 'joined_day'), [15, 30, 31, null, 1]);
    assert.deepEqual(col(out, 'joined_weekday'), [2, 2, 1, null, 1]);
    assert.deepEqual(col(out, 'joined_hour'), [8, 23, 0, null, 12]);
    assert.ok(out.has('joined'));
  });

  it('condense_categories keeps frequent values learnt at fit time and folds the rest into Other', () => {
    const fitted = fitPreprocessor(frame(), [{ type: 'condense_categories', column: 'city', min_freq: 0.4 }]);
    assert.deepEqual(col(applyPreprocessor(frame(), fitted), 'city'), ['Paris', 'Paris', 'Other', 'Other', 'Paris']);
    const other = parseCsv('city\nLyon\nParis\nBerlin\n');
    assert.deepEqual(col(applyPreprocessor(other, fitted), 'city'), ['Other', 'Paris', 'Other']);
  });

  it('text_clean trims, collapses spaces and lower-cases by default, merging equal values', () => {
    const out = applyPreprocessor(frame(), fitPreprocessor(frame(), [{ type: 'text_clean', column: 'note' }]));
    assert.deepEqual(col(out, 'note'), ['hello world', 'hello world', 'hello world', null, 'x']);
    const keepCase = applyPreprocessor(frame(), fitPreprocessor(frame(), [{ type: 'text_clean', column: 'note', lower: false }]));
    assert.equal(keepCase.value(2, 'note'), 'HELLO world');
  });

  it('quantile_bins learns edges at fit time and applies them to new data', () => {
    const fitted = fitPreprocessor(frame(), [{ type: 'quantile_bins', column: 'income', bins: 2 }]);
    assert.deepEqual(col(applyPreprocessor(frame(), fitted), 'income'), [0, 0, null, 1, 1]);
    const state = JSON.parse(JSON.stringify(fitted)) as FittedPreprocessor;
    assert.deepEqual(col(applyPreprocessor(parseCsv('income\n2999\n3001\n'), state), 'income'), [0, 1]);
  });

  it('drop_columns removes columns and its state is plain JSON', () => {
    const fitted = fitPreprocessor(frame(), [{ type: 'drop_columns', columns: ['note', 'joined'] }]);
    assert.deepEqual(applyPreprocessor(frame(), JSON.parse(JSON.stringify(fitted))).names, ['age', 'income', 'debt', 'city']);
  });

  it('errors name the step, its type and the column', () => {
    const e = stepError([{ type: 'log1p', column: 'age' }, { type: 'log1p', column: 'city' }]);
    assert.match(e.message, /^Step 2 \(log1p\): column city must be numeric \(it is categorical\)/);
    assert.equal(e.field, 'steps[1].column');
    assert.match(stepError([{ type: 'clip', column: 'nope', min: 1 }]).message, /Step 1 \(clip\): column nope does not exist/);
    assert.match(stepError([{ type: 'explode', column: 'age' }]).message, /unknown step type "explode"/);
    assert.match(stepError([{ type: 'clip', column: 'age', min: 5, max: 1 }]).message, /min \(5\) must not exceed max \(1\)/);
    assert.match(stepError([{ type: 'quantile_bins', column: 'age', bins: 1 }]).message, /bins must be a whole number from 2 to 100 \(got 1\)/);
    assert.match(stepError([{ type: 'date_parts', column: 'city', parts: ['year'] }]).message, /column city holds no dates/);
    assert.match(stepError([{ type: 'ratio', numerator: 'debt', denominator: 'income', name: 'age' }]).message, /a column named age already exists/);
    assert.match(stepError([{ type: 'fill_missing', column: 'age', strategy: 'constant' }]).message, /needs a value/);
    const fitted = fitPreprocessor(frame(), [{ type: 'log1p', column: 'income' }]);
    assert.throws(() => applyPreprocessor(parseCsv('age\n1\n'), fitted), /Step 1 \(log1p\): column income does not exist/);
  });
});
