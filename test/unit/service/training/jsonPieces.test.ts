import assert from 'node:assert/strict';
import { joinRowParts, jsonPieces } from '../../../../src/service/training/jsonPieces';
import { mulberry32 } from '../../../../src/engine';

const text = (pieces: Uint8Array[]) => Buffer.concat(pieces).toString('utf8');
/** The value with every Float64Array as a plain array: what JSON.stringify is given today. */
const plain = (value: unknown): unknown =>
  value instanceof Float64Array ? Array.from(value) : value && typeof value === 'object' && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)])) : value;
const WHOLE = new Set(['warnings']);

describe('jsonPieces: a predict body as the bytes JSON.stringify writes', function () {
  it('writes the special numbers, strings and nesting exactly as JSON.stringify does', function () {
    const body = {
      version_id: 'v-ü "quoted"\n',
      n: 3,
      base_value: -0,
      predictions: ['ja', 1, null],
      numbers: [NaN, -0, 0, Infinity, -Infinity, 1e21, -123456789012345680000, 1e-7, 5e-324, Number.MAX_VALUE, -1.2345678901234567e-308, 0.1 + 0.2, -123.456],
      // The longest texts (25 bytes), each written a second time from what is remembered of it.
      longest: Float64Array.from([-0.0000012345678901234567, -1.2345678901234567e-308, -0.0000012345678901234567, 7, -1.2345678901234567e-308]),
      typed: Float64Array.from([NaN, -0, 1 / 3, 2 ** 53 + 2, -0, 1 / 3]),
      empty: [],
      nested: { 'naïve key': Float64Array.from([1, 2]), skipped: undefined, inner: {} },
      warnings: ['Feature column 温度 is missing'],
    };
    const pieces = jsonPieces(body, WHOLE);
    assert.equal(text(pieces), JSON.stringify(plain(body)));
    // Around the columns, then the columns predictions, numbers, longest, typed, empty and nested's one; warnings is whole.
    assert.equal(pieces.length, 13);
    assert.equal(text(pieces.slice(-1)), '],"inner":{}},"warnings":["Feature column 温度 is missing"]}');
  });

  it('writes long arrays of repeated and of distinct numbers (past what it remembers) exactly', function () {
    const random = mulberry32(7);
    const leaves = Array.from({ length: 50 }, () => (random() - 0.5) * 1e3);
    const repeated = Float64Array.from({ length: 100_000 }, () => leaves[Math.floor(random() * leaves.length)]);
    const distinct = Float64Array.from({ length: 100_000 }, () => Math.log(random()) * random());
    const body = { contributions: { a: repeated, b: distinct }, scores: Array.from(distinct) };
    const pieces = jsonPieces(body);
    assert.equal(text(pieces), JSON.stringify(plain(body)));
    assert.deepEqual(JSON.parse(text(pieces)).contributions.a, Array.from(repeated));
  });

  it('joins the bodies of consecutive row ranges, an empty one among them, into the body of all rows', function () {
    const random = mulberry32(11);
    const rows = 30_000;
    const labels = Array.from({ length: rows }, () => (random() < 0.5 ? 'no' : 'yes'));
    const scores = Float64Array.from({ length: rows }, () => random() * 4 - 2);
    const leaf = Float64Array.from({ length: rows }, () => [0.25, -1.5, 3e-9][Math.floor(random() * 3)]);
    const body = (start: number, end: number) => ({
      version_id: 'v',
      n: rows,
      predictions: labels.slice(start, end),
      scores: scores.subarray(start, end),
      contributions: { x: leaf.subarray(start, end), y: Array.from(scores.subarray(start, end)) },
      warnings: ['Feature column z is missing'],
    });
    const bounds = [0, 9_999, 9_999, 20_000, rows];
    const parts = bounds.slice(1).map((end, i) => jsonPieces(body(bounds[i], end), WHOLE));
    assert.equal(text(joinRowParts(parts)), JSON.stringify(plain(body(0, rows))));
    assert.equal(text(joinRowParts([jsonPieces(body(0, rows), WHOLE)])), JSON.stringify(plain(body(0, rows))));
  });
});
