import assert from 'node:assert/strict';
import { parseJsonWithNonFinite } from '../../../../src/engine/model/json';

const parseTolerantJson = (text: string) => parseJsonWithNonFinite(text, 'null');

describe('engine: JSON with non-finite numbers', () => {
  it('reads NaN, Infinity and -Infinity outside strings as null', () => {
    const parsed = parseTolerantJson('{"lower": -Infinity, "upper": Infinity, "score": NaN, "list": [NaN,1,-Infinity]}');
    assert.deepEqual(parsed, { lower: null, upper: null, score: null, list: [null, 1, null] });
  });

  it('leaves the same words inside strings alone, escaped quotes included', () => {
    const parsed = parseTolerantJson('{"note": "NaN and \\"Infinity\\" stay", "x": NaN, "key NaN": "-Infinity"}');
    assert.deepEqual(parsed, { note: 'NaN and "Infinity" stay', x: null, 'key NaN': '-Infinity' });
  });

  it('parses strict JSON unchanged', () => {
    assert.deepEqual(parseTolerantJson('[1.5e-3, "a", null, true]'), [0.0015, 'a', null, true]);
  });

  it('still rejects text that is not JSON with the tokens replaced', () => {
    assert.throws(() => parseTolerantJson('{"a": NaNa}'), SyntaxError);
    assert.throws(() => parseTolerantJson('<html>busy</html>'), SyntaxError);
  });

  it('reads the same tokens as numbers by default, for model JSON written by Python', () => {
    assert.deepEqual(parseJsonWithNonFinite('{"lower": -Infinity, "upper": Infinity, "note": "NaN", "x": [NaN]}'), {
      lower: -Infinity,
      upper: Infinity,
      note: 'NaN',
      x: [NaN],
    });
  });
});
