import assert from 'node:assert/strict';
import fc from 'fast-check';
import { readCsvRecords } from '../../../src/common/csvRecords';
import { csvCell } from '../../../src/common/predictionsCsv';

describe('CSV records', () => {
  it('reads quoted delimiters, line breaks and doubled quotes, with CRLF or LF line ends', () => {
    const text = '\uFEFFname,notes\r\n"Smith, J","said ""hi""\nthen left"\r\nLee,\n';
    assert.deepEqual(readCsvRecords(text), [['name', 'notes'], ['Smith, J', 'said "hi"\nthen left'], ['Lee', '']]);
  });

  it('skips empty lines, keeps ragged rows and stray quotes, and stops after maxRecords', () => {
    const text = 'a;b\n\n1;2;3\n4 "inch";"x"y\n5\n';
    assert.deepEqual(readCsvRecords(text, { delimiter: ';' }), [['a', 'b'], ['1', '2', '3'], ['4 "inch"', 'xy'], ['5']]);
    assert.deepEqual(readCsvRecords(text, { delimiter: ';', maxRecords: 2 }), [['a', 'b'], ['1', '2', '3']]);
    assert.deepEqual(readCsvRecords('a,b,'), [['a', 'b', '']]);
    assert.deepEqual(readCsvRecords(''), []);
  });

  it('refuses a quote that is never closed, naming the row', () => {
    assert.throws(() => readCsvRecords('a,b\n1,"open\n'), /row 2 is never closed/);
  });

  it('reads back every table the predictions writer writes', () => {
    const cell = fc.string({ unit: fc.constantFrom('a', ' ', ',', '"', '\n', '\r', 'é') });
    const row = fc.array(cell, { minLength: 1, maxLength: 5 }).filter((r) => r.length > 1 || r[0] !== '');
    fc.assert(
      fc.property(fc.array(row, { maxLength: 6 }), (rows) => {
        assert.deepEqual(readCsvRecords(rows.map((r) => r.map(csvCell).join(',')).join('\n')), rows);
      }),
    );
  });
});
