import assert from 'node:assert/strict';
import { jsonBytes } from '../../../src/service/training/jsonBytes';
import { mulberry32 } from '../../../src/engine';

const text = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
/** The value with every Float64Array as a plain array: what JSON.stringify is given today. */
const plain = (value: unknown): unknown =>
  value instanceof Float64Array ? Array.from(value) : value && typeof value === 'object' && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)])) : value;

describe('jsonBytes: a predict body as the bytes JSON.stringify writes', function () {
  it('writes the special numbers, strings and nesting exactly as JSON.stringify does', function () {
    const body = {
      version_id: 'v-ü "quoted"\n',
      n: 3,
      base_value: -0,
      predictions: ['ja', 1, null],
      numbers: [NaN, -0, 0, Infinity, -Infinity, 1e21, 1e-7, 5e-324, Number.MAX_VALUE, 0.1 + 0.2, -123.456],
      typed: Float64Array.from([NaN, -0, 1 / 3, 2 ** 53 + 2]),
      empty: [],
      nested: { 'naïve key': Float64Array.from([1, 2]), skipped: undefined, inner: {} },
      warnings: ['Feature column 温度 is missing'],
    };
    assert.equal(text(jsonBytes(body)), JSON.stringify(plain(body)));
  });

  it('writes long arrays of repeated and of distinct numbers (past what it remembers) exactly', function () {
    const random = mulberry32(7);
    const leaves = Array.from({ length: 50 }, () => (random() - 0.5) * 1e3);
    const repeated = Float64Array.from({ length: 100_000 }, () => leaves[Math.floor(random() * leaves.length)]);
    const distinct = Float64Array.from({ length: 100_000 }, () => Math.log(random()) * random());
    const body = { contributions: { a: repeated, b: distinct }, scores: Array.from(distinct) };
    const bytes = jsonBytes(body);
    assert.equal(text(bytes), JSON.stringify(plain(body)));
    assert.deepEqual(JSON.parse(text(bytes)).contributions.a, Array.from(repeated));
  });
});
