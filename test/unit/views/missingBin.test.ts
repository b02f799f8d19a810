import assert from 'node:assert/strict';
import { missingBar } from '../../../src/views/missingBin';
import { categorySeries, numericSeries } from '../../../src/views/profileSeries';
import { partitionProfile } from '../panels/fixtures';

describe('views: the missing-value bar of a feature', () => {
  it("places the missing bin's contribution on the range of the feature's bins and 0", () => {
    const bar = missingBar(numericSeries('age', partitionProfile.numeric.age));
    assert.ok(bar);
    assert.deepEqual([bar.low, bar.high], [-0.2, 0.3]);
    assert.ok(Math.abs(bar.zero - 0.4) < 1e-12 && Math.abs(bar.from - 0.4) < 1e-12 && Math.abs(bar.to - 0.5) < 1e-12);
    assert.equal(bar.tone, 'positive');
    assert.deepEqual([bar.score, bar.freq, bar.mean], [0.05, 0.05, 0.3]);
  });

  it('draws a negative missing bin from its score up to 0, and widens the range to reach it', () => {
    const bins = partitionProfile.categorical.city.map((b) => (b.missing ? { ...b, score: -0.3 } : b));
    const bar = missingBar(categorySeries('city', bins));
    assert.ok(bar);
    assert.deepEqual([bar.low, bar.high, bar.from, bar.tone], [-0.3, 0.2, 0, 'negative']);
    assert.ok(Math.abs(bar.to - 0.6) < 1e-12 && bar.to === bar.zero);
  });

  it('has no bar when no training row was missing', () => {
    assert.equal(missingBar(numericSeries('Balance', partitionProfile.numeric.Balance)), null);
  });
});
