import { strict as assert } from 'node:assert';
import { CsvError, decodeCsvBytes, detectDelimiter, detectEncoding, parseCsv, trainTestSplit, CsvFrameBuilder, DataFrame } from '../../../../src/engine';
import { thrown } from '../helpers';

const latin1 = (text: string) => Uint8Array.from(text, (ch) => ch.charCodeAt(0));
const utf16le = (text: string) => new Uint8Array(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
const utf16be = (text: string) => new Uint8Array(Buffer.from(utf16le(text)).swap16());

function read(bytes: Uint8Array, chunk = bytes.length): DataFrame {
  const builder = new CsvFrameBuilder();
  for (let i = 0; i < bytes.length; i += chunk) builder.push(bytes.subarray(i, i + chunk));
  return builder.finish();
}

describe('CSV dialect', () => {
  for (const [name, delimiter] of [
    ['semicolon', ';'],
    ['tab', '\t'],
    ['pipe', '|'],
    ['comma', ','],
  ] as const) {
    it(`reads a ${name}-delimited file as separate columns`, () => {
      const text = ['a', 'b', 'y'].join(delimiter) + '\n' + ['1', '"x, y"', '3'].join(delimiter) + '\n' + ['4', 'z', '6'].join(delimiter) + '\n';
      assert.equal(detectDelimiter(text), delimiter);
      const f = parseCsv(text);
      assert.deepEqual(f.names, ['a', 'b', 'y']);
      assert.deepEqual([f.value(0, 'b'), f.value(1, 'y')], ['x, y', 6]);
    });
  }

  it('keeps decimal commas inside semicolon-separated fields', () => {
    const f = parseCsv('price;name\n1,5;café\n2,25;thé\n');
    assert.deepEqual(f.names, ['price', 'name']);
    assert.equal(f.value(0, 'price'), '1,5');
  });

  it('prefers the delimiter that splits every sampled line the same way', () => {
    assert.equal(detectDelimiter('a;b,c;d\n1;2,5;3\n4;5,5;6\n'), ';');
    assert.equal(detectDelimiter('only\n1\n2\n'), ',');
  });

  it('decodes Windows-1252 text that is not valid UTF-8', () => {
    const bytes = latin1('name,city\ncaf\xe9,K\xf6ln\n\x80,x\n');
    assert.equal(detectEncoding(bytes).encoding, 'windows-1252');
    const f = read(bytes);
    assert.deepEqual([f.value(0, 'name'), f.value(0, 'city'), f.value(1, 'name')], ['café', 'Köln', '€']);
  });

  it('decides the encoding on the start of the file, not on the first small chunk', () => {
    const f = read(latin1(`name\n${'plain\n'.repeat(100)}caf\xe9\n`), 16);
    assert.equal(f.value(100, 'name'), 'café');
  });

  it('decodes UTF-16 files with either byte order mark', () => {
    for (const bytes of [utf16le('a\tb\ncafé\t2\n'), utf16be('a\tb\ncafé\t2\n')]) {
      const f = read(bytes, 3);
      assert.deepEqual(f.names, ['a', 'b']);
      assert.equal(f.value(0, 'a'), 'café');
    }
  });

  it('reads UTF-8 with and without a BOM, split mid-character across chunks', () => {
    const plain = new TextEncoder().encode('name\ncafé\n');
    const withBom = new Uint8Array([0xef, 0xbb, 0xbf, ...plain]);
    for (const bytes of [plain, withBom]) {
      const f = read(bytes, 1);
      assert.deepEqual(f.names, ['name']);
      assert.equal(f.value(0, 'name'), 'café');
    }
    assert.equal(decodeCsvBytes(withBom), 'name\ncafé\n');
  });

  it('names the byte offset of an invalid byte after a UTF-8 start', () => {
    const start = new TextEncoder().encode('name\ncafé\n' + 'x\n'.repeat(40_000));
    const bytes = new Uint8Array([...start, 0x61, 0xff, 0x0a]);
    const error = thrown(() => read(bytes, 65_536), CsvError);
    assert.match(error.message, new RegExp(`byte ${start.length + 1} \\(0xff\\)`));
  });

  it('splits a million rows without overflowing the stack', () => {
    const n = 1_000_000;
    const split = trainTestSplit(n, 0.2, 7, Int32Array.from({ length: n }, (_, i) => i % 2));
    assert.equal(split.train.length + split.test.length, n);
    assert.equal(split.test.length, 200_000);
  });
});
