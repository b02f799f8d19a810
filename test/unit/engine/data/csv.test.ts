import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { CsvError, CsvFrameBuilder, DataFrame, MAX_COLUMN_NAME, MAX_COLUMNS, parseCsv, type CategoryColumn, type NumberColumn } from '../../../../src/engine';
import { thrown } from '../helpers';

function texts(frame: DataFrame, name: string): (string | number | null)[] {
  return Array.from({ length: frame.nRows }, (_, r) => frame.value(r, name));
}

const csvError = (fn: () => unknown): CsvError => thrown(fn, CsvError);

/** Everything a reader decides about a frame: names, types and every cell. */
function snapshot(frame: DataFrame): unknown {
  return frame.columns.map((c) => [c.name, c.type, texts(frame, c.name)]);
}

function readChunks(bytes: Uint8Array, splits: readonly number[]): DataFrame {
  const builder = new CsvFrameBuilder();
  let from = 0;
  for (const at of [...splits, bytes.length]) {
    builder.push(bytes.subarray(from, at));
    from = at;
  }
  return builder.finish();
}

const LEAD_ROWS = 3_500;
/** Plain rows ahead of the cases, so that the input is read record by record past the first 64 KB, not buffered whole. */
const LEAD = 'id,name,amount,note\r\n' + Array.from({ length: LEAD_ROWS }, (_, i) => `${i},plain,${i}.5,n\r\n`).join('');
const TAIL = '1,"Zoë ""Z""",2.50,x\r\n2,"two\r\nlines",-3e2,\r\n\r\n3,Łódź,0.1,"a,b"\n4,plain,,"q"""\r5,"",7.000,last';
const utf8WithBom = (text: string) => new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(text)]);
const utf16le = (text: string) => new Uint8Array(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));

describe('engine CSV reader', () => {
  it('reads quoted fields with commas, escaped quotes and embedded newlines', () => {
    const f = parseCsv('name,note\n"Smith, J","said ""hi""\nthen left"\nplain,x\n');
    assert.equal(f.nRows, 2);
    assert.deepEqual(texts(f, 'name'), ['Smith, J', 'plain']);
    assert.deepEqual(texts(f, 'note'), ['said "hi"\nthen left', 'x']);
  });

  it('strips a BOM, accepts CRLF and skips empty lines', () => {
    const f = parseCsv('\uFEFFa,b\r\n1,2\r\n\r\n\n3,4\r\n');
    assert.deepEqual(f.names, ['a', 'b']);
    assert.deepEqual(texts(f, 'a'), [1, 3]);
    assert.deepEqual(texts(f, 'b'), [2, 4]);
  });

  it('keeps unicode headers, names empty ones and rejects a repeated name with its column', () => {
    const f = parseCsv('température,,x,,y\n1,2,3,4,5\n');
    assert.deepEqual(f.names, ['température', 'column_2', 'x', 'column_4', 'y']);
    const e = csvError(() => parseCsv('a,x,b,x\n1,2,3,4\n'));
    assert.match(e.message, /names the column "x" more than once/);
    assert.deepEqual([e.line, e.column], [1, 4]);
  });

  it('reads a header of as many columns as a dataset may have, and refuses one more before allocating a column', () => {
    assert.equal(parseCsv(`${','.repeat(MAX_COLUMNS - 1)}\n`).names.length, MAX_COLUMNS);
    const e = csvError(() => parseCsv(','.repeat(3_000_000)));
    assert.match(e.message, /more than 10,000 columns, the most a dataset may have/);
    assert.deepEqual([e.line, e.column], [1, MAX_COLUMNS + 1]);
  });

  it('reads a column name as long as a name may be, and refuses a longer one naming its column', () => {
    assert.equal(parseCsv(`a,${'n'.repeat(MAX_COLUMN_NAME)}\n1,2\n`).names[1].length, MAX_COLUMN_NAME);
    const e = csvError(() => parseCsv(`a,${'n'.repeat(MAX_COLUMN_NAME + 1)}\n1,2\n`));
    assert.match(e.message, /1001 characters, more than the 1000 a column name may have/);
    assert.deepEqual([e.line, e.column], [1, 2]);
  });

  it('reports a ragged row with its line number, counting lines inside quoted fields', () => {
    const e = csvError(() => parseCsv('a,b\n"multi\nline",1\n1,2,3\n'));
    assert.equal(e.line, 4);
    assert.equal(e.column, 3);
    assert.match(e.message, /3 fields but the header has 2 \(line 4, column 3\)/);
  });

  it('reports a short row and an unclosed quote with their positions', () => {
    assert.equal(csvError(() => parseCsv('a,b,c\n1,2,3\n\n4\n')).line, 4);
    const e = csvError(() => parseCsv('a,b\n1,"open\n2,3\n'));
    assert.equal(e.line, 2);
    assert.equal(e.column, 2);
  });

  it('rejects an empty file and reads a header-only file as zero rows', () => {
    assert.match(csvError(() => parseCsv('\n\n')).message, /no header row/);
    const f = parseCsv('a,b\n');
    assert.equal(f.nRows, 0);
    assert.deepEqual(f.names, ['a', 'b']);
  });

  it('treats only an empty field as missing: NA, None and . are category values', () => {
    const f = parseCsv('v,n\nNA,1\nNone,\n.,3\n,4\n');
    const v = f.column('v') as CategoryColumn;
    assert.equal(v.storage, 'category');
    assert.deepEqual(texts(f, 'v'), ['NA', 'None', '.', null]);
    const n = f.column('n') as NumberColumn;
    assert.equal(n.type, 'numeric');
    assert.ok(Number.isNaN(n.values[1]));
  });

  it('infers numeric, categorical, boolean, date and id columns', () => {
    const f = parseCsv('num,cat,flag,day,key\n1.5,a,TRUE,2020-01-02,k1\n-2e3,b,false,2020-02-03 10:30,k2\n,a,True,,k3\n');
    assert.deepEqual(
      f.columns.map((c) => c.type),
      ['numeric', 'categorical', 'boolean', 'date', 'id'],
    );
    assert.equal(f.value(1, 'day'), '2020-02-03T10:30:00.000Z');
    assert.equal(f.value(2, 'day'), null);
    assert.equal(f.value(1, 'num'), -2000);
  });

  it('keeps the exact text of earlier numbers when a column turns out to be text', () => {
    const f = parseCsv('code\n007\n1.50\nA1\n');
    assert.deepEqual(texts(f, 'code'), ['007', '1.50', 'A1']);
  });

  it('streams bytes split anywhere, including inside multi-byte characters, quotes and CRLF pairs', () => {
    const text = 'name,city\r\n"Zoë ""Z""",Zürich\r\n"two\r\nlines",Łódź\r\n';
    const bytes = new TextEncoder().encode(text);
    const whole = parseCsv(text);
    for (let size = 1; size <= 7; size++) {
      const builder = new CsvFrameBuilder();
      for (let i = 0; i < bytes.length; i += size) builder.push(bytes.subarray(i, i + size));
      const f = builder.finish();
      assert.deepEqual(texts(f, 'name'), texts(whole, 'name'), `chunk size ${size}`);
      assert.deepEqual(texts(f, 'city'), ['Zürich', 'Łódź'], `chunk size ${size}`);
    }
    assert.deepEqual(texts(whole, 'name'), ['Zoë "Z"', 'two\r\nlines']);
  });

  it('reads a last line without a trailing newline and a trailing empty field', () => {
    const f = parseCsv('a,b\n1,\n2,x');
    assert.deepEqual(texts(f, 'a'), [1, 2]);
    assert.deepEqual(texts(f, 'b'), [null, 'x']);
    const ended = parseCsv('a,b\n1,2\n3,');
    assert.deepEqual(texts(ended, 'b'), [2, null]);
  });

  for (const [encoding, encode] of [
    ['UTF-8 with a BOM', utf8WithBom],
    ['UTF-16', utf16le],
  ] as const) {
    it(`reads the same frame from ${encoding} bytes split at every offset of quoted fields, line ends and characters`, () => {
      const bytes = encode(LEAD + TAIL);
      const whole = snapshot(readChunks(bytes, []));
      const f = parseCsv(LEAD + TAIL);
      assert.equal(f.nRows, LEAD_ROWS + 5);
      assert.deepEqual(
        [f.value(LEAD_ROWS, 'name'), f.value(LEAD_ROWS + 1, 'name'), f.value(LEAD_ROWS + 1, 'amount'), f.value(LEAD_ROWS + 3, 'note'), f.value(LEAD_ROWS + 4, 'name')],
        ['Zoë "Z"', 'two\r\nlines', -300, 'q"', null],
      );
      assert.deepEqual(whole, snapshot(f));
      const tailStart = encode(LEAD).length - 4;
      for (let at = tailStart; at <= bytes.length; at++) assert.deepEqual(snapshot(readChunks(bytes, [at])), whole, `split at byte ${at}`);
      for (const size of [1, 7]) {
        const splits = Array.from({ length: Math.floor((bytes.length - tailStart) / size) }, (_, i) => tailStart + i * size);
        assert.deepEqual(snapshot(readChunks(bytes, splits)), whole, `chunks of ${size} bytes`);
      }
    });
  }

  it('names the same line and column for a ragged row wherever the bytes are split, after CRLF, CR and quoted line ends', () => {
    const bytes = utf8WithBom(`${LEAD}${TAIL}\r\n6,too,many,fields,here\r\n`);
    const expected = csvError(() => readChunks(bytes, []));
    assert.deepEqual([expected.line, expected.column], [LEAD_ROWS + 9, 5]);
    for (let at = bytes.length - TAIL.length - 40; at <= bytes.length; at++) {
      const e = csvError(() => readChunks(bytes, [at]));
      assert.deepEqual([e.message, e.line, e.column], [expected.message, expected.line, expected.column], `split at byte ${at}`);
    }
  });

  it('codes thousands of distinct texts, seen again in any order, into one level each', () => {
    const values = Array.from({ length: 5_000 }, (_, i) => (i % 3 === 0 ? `größe-${i}` : `v${i * 7919}`));
    const rows = [...values, ...values.slice().reverse(), 'v0'];
    const f = parseCsv(`name,n\n${rows.map((v, i) => `${v},${i}`).join('\n')}\n`);
    const name = f.column('name') as CategoryColumn;
    assert.equal(name.levels.length, values.length + 1);
    assert.deepEqual(texts(f, 'name'), rows);
    assert.equal(name.codes[0], name.codes[2 * values.length - 1]);
  });

  it('reads back any table written with quotes where needed, in any delimiter and line end, split anywhere', () => {
    const cell = fc.array(fc.constantFrom('a', 'é', '1', '0', '.', '-', ' ', '"', ',', ';', '\t', '|', '\n', '\r\n', '€'), { maxLength: 6 }).map((c) => c.join(''));
    const table = fc.integer({ min: 2, max: 4 }).chain((width) => fc.array(fc.array(cell, { minLength: width, maxLength: width }), { minLength: 1, maxLength: 8 }));
    fc.assert(
      fc.property(table, fc.constantFrom(',', ';', '\t', '|'), fc.constantFrom('\n', '\r\n'), fc.nat(), (rows, delimiter, lineEnd, cut) => {
        const width = rows[0].length;
        const write = (field: string) => (/["\r\n,;\t|]/.test(field) || field.trim() !== field ? `"${field.replace(/"/g, '""')}"` : field);
        const line = (fields: readonly string[]) => fields.map(write).join(delimiter) + lineEnd;
        const header = Array.from({ length: width }, (_, j) => `c${j}`);
        // Plain text rows first: past the first 64 KB the reader works record by record, and every column is text.
        const lead = Array.from({ length: 4_000 }, () => line(header.map(() => 'text')));
        const bytes = new TextEncoder().encode(line(header) + lead.join('') + rows.map(line).join(''));
        const leadBytes = bytes.length - new TextEncoder().encode(rows.map(line).join('')).length;
        const frame = readChunks(bytes, [leadBytes - 2 + (cut % (bytes.length - leadBytes + 3))]);
        assert.equal(frame.nRows, lead.length + rows.length);
        rows.forEach((fields, r) =>
          fields.forEach((field, j) => assert.equal(frame.value(lead.length + r, `c${j}`), field === '' ? null : field, `row ${r}, column ${j}`)),
        );
      }),
      { numRuns: 150 },
    );
  });
});
