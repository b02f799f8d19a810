import assert from 'node:assert/strict';
import { linearScale, niceTicks } from '../../../src/views/axisTicks';

describe('views: chart axis ticks', () => {
  it('encloses the range in round steps of 1, 2, 2.5 or 5 times a power of ten', () => {
    assert.deepEqual(niceTicks(-0.43, 0.87), { ticks: [-0.5, 0, 0.5, 1], min: -0.5, max: 1 });
    assert.deepEqual(niceTicks(0, 1.1).ticks, [0, 0.25, 0.5, 0.75, 1, 1.25], 'a step of 2.5 when 2 would give too many ticks');
    assert.deepEqual(niceTicks(0, 0.3), { ticks: [0, 0.1, 0.2, 0.3], min: 0, max: 0.3 }, 'no 0.30000000000000004');
    assert.deepEqual(niceTicks(12, 1180, 4).ticks, [0, 500, 1000, 1500]);
    assert.deepEqual(niceTicks(0, 0.062, 4).ticks, [0, 0.02, 0.04, 0.06, 0.08]);
  });

  it('gives an empty or unbounded range a length', () => {
    assert.deepEqual(niceTicks(0, 0).ticks, [0, 0.2, 0.4, 0.6, 0.8, 1]);
    const single = niceTicks(5, 5);
    assert.ok(single.min < 5 && single.max > 5);
    assert.deepEqual(niceTicks(-Infinity, NaN).ticks, [0, 0.2, 0.4, 0.6, 0.8, 1]);
    assert.deepEqual(niceTicks(3, -1).ticks, [-1, 0, 1, 2, 3], 'ends given in either order');
  });

  it('maps a domain onto pixels, upwards when the range is inverted', () => {
    const y = linearScale([-1, 1], [200, 0]);
    assert.equal(y(-1), 200);
    assert.equal(y(0), 100);
    assert.equal(y(1), 0);
    assert.equal(linearScale([2, 2], [10, 50])(7), 10, 'a domain of one value maps to the range start');
  });
});
