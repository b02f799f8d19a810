import assert from 'node:assert/strict';
import fc from 'fast-check';
import { jsonLimitProblem, MAX_JSON_DEPTH, MAX_JSON_ITEMS } from '../../../../src/service/http/jsonLimits';

const nested = (depth: number, open = '[', close = ']', inner = '') => `${open.repeat(depth)}${inner}${close.repeat(depth)}`;

/** How deep a parsed value nests, walked with a stack of its own (the values here nest far past the call stack). */
function depthOf(value: unknown): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length) {
    const [v, d] = stack.pop() as [unknown, number];
    if (v === null || typeof v !== 'object') continue;
    deepest = Math.max(deepest, d + 1);
    for (const item of Object.values(v)) stack.push([item, d + 1]);
  }
  return deepest;
}

/** The most items of any array or object of a parsed value. */
function widestOf(value: unknown): number {
  let widest = 0;
  const stack = [value];
  while (stack.length) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object') continue;
    const items = Object.values(v);
    widest = Math.max(widest, items.length);
    stack.push(...items);
  }
  return widest;
}

describe('service: JSON limits read from the text', () => {
  it('allows nesting up to the limit and refuses one level more, of arrays and of objects, without recursion', () => {
    assert.equal(jsonLimitProblem(nested(MAX_JSON_DEPTH)), undefined);
    assert.equal(jsonLimitProblem(nested(MAX_JSON_DEPTH + 1))?.limit, 'depth');
    assert.equal(jsonLimitProblem(nested(MAX_JSON_DEPTH, '{"a":', '}', '1')), undefined);
    assert.equal(jsonLimitProblem(nested(MAX_JSON_DEPTH + 1, '{"a":', '}', '1'))?.limit, 'depth');
    const deep = jsonLimitProblem(nested(1_000_000));
    assert.equal(deep?.limit, 'depth');
    assert.match(deep?.detail ?? '', new RegExp(`more than ${MAX_JSON_DEPTH} levels`));
  });

  it('does not count brackets, braces, commas, quotes or backslashes inside strings', () => {
    const tricky = JSON.stringify({ text: `${'['.repeat(500)}${','.repeat(MAX_JSON_ITEMS + 5)}\\"{"\\\\`, more: ['"[', '\\', '\\\\"'] });
    assert.equal(jsonLimitProblem(tricky), undefined);
    assert.equal(jsonLimitProblem(`{"a\\\\":${nested(MAX_JSON_DEPTH)}}`)?.limit, 'depth');
    assert.equal(jsonLimitProblem(`{"a\\"":${nested(MAX_JSON_DEPTH - 1)}}`), undefined);
  });

  it('allows as many items as the limit in one array or object, and refuses one more', () => {
    const array = (n: number) => `[${Array.from({ length: n }, () => '0').join(',')}]`;
    const object = (n: number) => `{${Array.from({ length: n }, (_, i) => `"k${i}":0`).join(',')}}`;
    assert.equal(jsonLimitProblem(array(MAX_JSON_ITEMS)), undefined);
    assert.equal(jsonLimitProblem(array(MAX_JSON_ITEMS + 1))?.limit, 'items');
    assert.equal(jsonLimitProblem(object(MAX_JSON_ITEMS)), undefined);
    assert.match(jsonLimitProblem(object(MAX_JSON_ITEMS + 1))?.detail ?? '', /more than 100,000 items/);
    // Items of different arrays add up to nothing: each array counts its own.
    assert.equal(jsonLimitProblem(`[${array(MAX_JSON_ITEMS)},${array(MAX_JSON_ITEMS)}]`), undefined);
  });

  it('agrees with the parsed value on any JSON: a problem exactly when a value is over a limit', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 0, max: MAX_JSON_DEPTH + 3 }), (value, wrap) => {
        const text = `${'['.repeat(wrap)}${JSON.stringify(value)}${']'.repeat(wrap)}`;
        const parsed = JSON.parse(text) as unknown;
        const expected = depthOf(parsed) > MAX_JSON_DEPTH ? 'depth' : widestOf(parsed) > MAX_JSON_ITEMS ? 'items' : undefined;
        assert.equal(jsonLimitProblem(text)?.limit, expected);
      }),
      { seed: 25, numRuns: 300 },
    );
  });
});
