import assert from 'node:assert/strict';
import { parseCsv, type Column } from '../../../../src/engine';
import { ColumnValuesBuilder, columnFromValues } from '../../../../src/engine/data/values';
import { loadDataset } from '../helpers';

/** The column the CSV reader builds from these fields (a second column keeps a line with an empty field from being blank). */
function csvColumn(fields: string[]): Column {
  return parseCsv(['x,k', ...fields.map((f) => `${f},1`)].join('\n')).column('x');
}

describe('engine: columns from typed values', () => {
  it('builds the same column as the CSV reader for numbers, big integers and missing values', () => {
    assert.deepEqual(columnFromValues('x', [1.5, null, -2, 1e300, NaN]), csvColumn(['1.5', '', '-2', '1e300', '']));
    assert.deepEqual(columnFromValues('x', [12345678901234567890n, 3n, undefined]), csvColumn(['12345678901234567890', '3', '']));
  });

  it('reads text as the CSV reader does: numbers, dates, booleans, ids and categories', () => {
    for (const fields of [
      ['007', '5.', '', '3'],
      ['2021-03-04', '2021-03-05 10:00', ''],
      ['True', 'False', 'True'],
      ['a', 'b', 'c'],
      ['a', 'b', 'a', ''],
    ]) {
      assert.deepEqual(columnFromValues('x', fields.map((f) => (f === '' ? null : f))), csvColumn(fields));
    }
  });

  it('makes dates epoch milliseconds and booleans the categories true and false', () => {
    const dates = columnFromValues('x', [new Date(Date.UTC(2021, 2, 4)), null]);
    assert.deepEqual(dates, csvColumn(['2021-03-04', '']));
    assert.deepEqual(columnFromValues('x', [true, false, null, true]), csvColumn(['true', 'false', '', 'true']));
  });

  it('gives every column of a sample dataset back from its values', () => {
    const frame = loadDataset('penguins');
    for (const col of frame.columns) {
      const n = frame.nRows;
      const values = Array.from({ length: n }, (_, r) =>
        col.storage === 'number' ? (Number.isNaN(col.values[r]) ? null : col.values[r]) : col.codes[r] < 0 ? null : col.levels[col.codes[r]],
      );
      assert.deepEqual(columnFromValues(col.name, values), col, col.name);
    }
  });

  it('builds the same column one value at a time from a small start, through missing runs and a change of kind', () => {
    const cases: (number | string | boolean | null)[][] = [
      [...Array<null>(5000).fill(null), 1.5, null, 2],
      [...Array.from({ length: 3000 }, (_, i) => (i % 7 === 0 ? null : i / 4)), 'n/a', 3],
      [true, null, false, 2, 'x'],
      Array<null>(40).fill(null),
    ];
    for (const values of cases) {
      const builder = new ColumnValuesBuilder('x', 1);
      for (const v of values) builder.add(v);
      assert.deepEqual(builder.finish(), csvColumn(values.map((v) => (v === null ? '' : String(v)))));
    }
  });

  it('refuses a column of lists or records, naming it', () => {
    assert.throws(() => columnFromValues('tags', [['a'], null]), /Column tags holds lists or records/);
    assert.throws(() => columnFromValues('point', [{ x: 1 }]), /Column point holds lists or records/);
  });
});
