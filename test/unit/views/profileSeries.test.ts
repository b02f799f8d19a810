import assert from 'node:assert/strict';
import {
  binLabel,
  categorySeries,
  featureSeries,
  listFeatures,
  numericSeries,
  pickPartition,
  sharedScales,
} from '../../../src/views/profileSeries';
import { partitionProfile, profile } from '../panels/fixtures';

describe('views: profile shaping', () => {
  it('draws numeric bins as steps, open bounds a tenth beyond the finite range, missing bin apart', () => {
    const series = numericSeries('age', partitionProfile.numeric.age);
    assert.deepEqual(series.domain, [28, 52]);
    assert.deepEqual(series.scoreSteps, [
      { x: 28, y: -0.2 },
      { x: 30, y: 0.1 },
      { x: 50, y: 0.3 },
      { x: 52, y: 0.3 },
    ]);
    assert.deepEqual(series.freqSteps.map((p) => p.y), [0.4, 0.35, 0.2, 0.2]);
    assert.deepEqual(series.bins.map((b) => b.label), ['< 30', '30 to 50', '≥ 50']);
    assert.deepEqual(series.missing, { score: 0.05, std: 0, freq: 0.05, mean: 0.3 });
  });

  it('draws a single bin open on both sides over [0, 1]', () => {
    const series = numericSeries('Balance', partitionProfile.numeric.Balance);
    assert.deepEqual(series.domain, [0, 1]);
    assert.deepEqual(series.scoreSteps, [
      { x: 0, y: 0 },
      { x: 1, y: 0 },
    ]);
    assert.equal(series.bins[0].label, 'any value');
    assert.equal(series.missing?.freq, 0);
  });

  it('keeps category bars in profile order with the null category as the missing bin', () => {
    const series = categorySeries('city', partitionProfile.categorical.city);
    assert.deepEqual(series.categories.map((c) => c.category), ['Paris', 'Lyon']);
    assert.deepEqual(series.missing, { score: 0.01, std: 0, freq: 0.05, mean: 0.3 });
  });

  it('finds a feature as numeric or categorical, and nothing for an unknown name', () => {
    assert.equal(featureSeries(partitionProfile, 'age')?.kind, 'numeric');
    assert.equal(featureSeries(partitionProfile, 'city')?.kind, 'categorical');
    assert.equal(featureSeries(partitionProfile, 'nope'), undefined);
  });

  it('filters features case-insensitively and sorts by importance or name', () => {
    assert.deepEqual(listFeatures(partitionProfile, '', 'importance').map((f) => f.feature), ['age', 'city', 'Balance']);
    assert.deepEqual(listFeatures(partitionProfile, '', 'name').map((f) => f.feature), ['age', 'Balance', 'city']);
    assert.deepEqual(listFeatures(partitionProfile, 'BAL', 'importance').map((f) => f.feature), ['Balance']);
    assert.deepEqual(listFeatures(partitionProfile, 'zzz', 'name'), []);
  });

  it('lists profile features that the importances omit, with importance 0', () => {
    const partial = { ...partitionProfile, feature_importances: [{ feature: 'city', importance: 1 }] };
    assert.deepEqual(listFeatures(partial, '', 'importance'), [
      { feature: 'city', importance: 1 },
      { feature: 'age', importance: 0 },
      { feature: 'Balance', importance: 0 },
    ]);
  });

  it('picks the wanted partition, else the whole-data one', () => {
    assert.equal(pickPartition(profile.partitions, 'north')?.base_value, 0.4);
    assert.equal(pickPartition(profile.partitions, 'south')?.partition, '__dataset__');
    assert.equal(pickPartition([], 'north'), undefined);
  });

  it('gives charts drawn side by side one x domain and one contribution range', () => {
    const before = numericSeries('age', partitionProfile.numeric.age);
    const after = numericSeries('age', [
      { lower: 10, upper: 40, score: -0.5, mean: 0.1, freq: 0.5 },
      { lower: 40, upper: 90, score: 0.2, mean: 0.4, freq: 0.5 },
    ]);
    assert.deepEqual(sharedScales([before, after]), { domain: [10, 90], score: [-0.5, 0.3] });
    const categories = categorySeries('city', partitionProfile.categorical.city);
    assert.deepEqual(sharedScales([categories]), { score: [-0.1, 0.2] });
  });

  it('labels bins with open bounds', () => {
    assert.equal(binLabel(null, 2.5), '< 2.5');
    assert.equal(binLabel(1, null), '≥ 1');
    assert.equal(binLabel(0.00001234, 1), '1.23e-5 to 1');
  });
});
