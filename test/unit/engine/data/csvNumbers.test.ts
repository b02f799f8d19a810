import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { parseCsv, type NumberColumn } from '../../../../src/engine';
import { parseNumber } from '../../../../src/engine/data/decimal';

const digits = (min: number, max: number) => fc.array(fc.constantFrom(...'0123456789'), { minLength: min, maxLength: max }).map((d) => d.join(''));
const space = fc.constantFrom('', '', '', ' ', '  ', '\t ');

/** Texts of the accepted grammar `[space][+-](digits[.digits]|.digits)[(e|E)[+-]digits][space]`, of many lengths. */
const decimalText = fc
  .record({
    lead: space,
    sign: fc.constantFrom('', '', '-', '+'),
    zeros: fc.constantFrom('', '', '0', '000'),
    integer: digits(0, 22),
    dot: fc.boolean(),
    fraction: digits(0, 22),
    exponent: fc.option(fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), digits(1, 4)), { freq: 3 }),
    trail: space,
  })
  .filter((r) => (r.zeros + r.integer).length + (r.dot ? r.fraction.length : 0) > 0)
  .map((r) => `${r.lead}${r.sign}${r.zeros}${r.integer}${r.dot ? `.${r.fraction}` : ''}${r.exponent ? r.exponent.join('') : ''}${r.trail}`);

/** Numbers as programs write them: shortest, fixed decimals, exponent forms. */
const writtenNumber = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
  fc.tuple(fc.double({ min: -1e9, max: 1e9, noNaN: true }), fc.integer({ min: 0, max: 20 })).map(([v, k]) => v.toFixed(k)),
  fc.tuple(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer({ min: 0, max: 20 })).map(([v, k]) => v.toExponential(k)),
  fc.integer({ min: -(2 ** 53) - 10, max: 2 ** 53 + 10 }).map(String),
);

function csvValues(texts: readonly string[], delimiter = ','): Float64Array {
  const frame = parseCsv(`x${delimiter}y\n${texts.map((t) => `${t}${delimiter}1`).join('\n')}\n`);
  return (frame.column('x') as NumberColumn).values;
}

describe('engine CSV numbers', () => {
  it('reads every text of the decimal grammar as exactly the double Number() gives', () => {
    fc.assert(
      fc.property(decimalText, (text) => {
        assert.ok(Object.is(parseNumber(text), Number(text)), `${JSON.stringify(text)}: ${parseNumber(text)} vs ${Number(text)}`);
      }),
      { numRuns: 20_000 },
    );
  });

  it('reads numbers from CSV bytes exactly, in numeric columns of any delimiter', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(writtenNumber, decimalText), { minLength: 1, maxLength: 40 }), fc.constantFrom(',', ';', '\t', '|'), (written, delimiter) => {
        const texts = written.map((t) => t.replace(/\t/g, ' '));
        const values = csvValues(texts, delimiter);
        texts.forEach((t, i) => assert.ok(Object.is(values[i], Number(t)), `${t}: ${values[i]}`));
      }),
      { numRuns: 500 },
    );
  });

  it('reads quoted and space-padded numbers as numbers', () => {
    const values = csvValues(['"1.25"', ' 7 ', '"-0"', '" 1e3"', '+4.', '.5', '00012']);
    assert.deepEqual(Array.from(values), [1.25, 7, -0, 1000, 4, 0.5, 12]);
    assert.ok(Object.is(values[2], -0));
  });

  it('reads numbers of hundreds of digits exactly, up to overflow', () => {
    const texts = [`1${'0'.repeat(300)}`, `-9${'9'.repeat(400)}.5`, `0.${'0'.repeat(330)}1`, `${'3'.repeat(200)}e-150`];
    const values = csvValues(texts);
    texts.forEach((t, i) => assert.ok(Object.is(values[i], Number(t)), `${t.slice(0, 12)}…: ${values[i]}`));
    assert.equal(values[1], -Infinity);
  });

  it('reads texts that are not plain decimals as text: hex, inf, NaN, bare signs and dots, decimal commas', () => {
    for (const text of ['0x10', 'Infinity', 'inf', 'NaN', '-', '+', '.', '1e', '1e+', '1.2.3', '1_000', '--1', '1 2', '"1,5"']) {
      const frame = parseCsv(`x,y\n1,1\n${text},1\n`);
      assert.equal(frame.column('x').storage, 'category', text);
    }
  });

  it('keeps every text of a column that turns out to be text after numbers', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(decimalText, writtenNumber), { minLength: 1, maxLength: 60 }), (texts) => {
        const fields = texts.map((t) => t.trim()).filter((t) => t !== '');
        const frame = parseCsv(`x\n${[...fields, 'text'].join('\n')}\n`);
        assert.deepEqual(
          Array.from({ length: frame.nRows }, (_, r) => frame.value(r, 'x')),
          [...fields, 'text'],
        );
      }),
      { numRuns: 1_000 },
    );
  });

  it('keeps padded spellings of numbers once a column turns out to be text', () => {
    const frame = parseCsv('x,y\n" 7 ",1\n1.50,2\n0.0000001,3\n-0,4\n5.,5\nabc,6\n');
    assert.deepEqual(
      Array.from({ length: frame.nRows }, (_, r) => frame.value(r, 'x')),
      [' 7 ', '1.50', '0.0000001', '-0', '5.', 'abc'],
    );
  });
});
