import assert from 'node:assert/strict';
import type { Interaction, NumericBin, PartitionProfile } from '../../../src/contract/models';
import { bandRange, insideBand, plusMinus } from '../../../src/views/band';
import { bandVerdict } from '../../../src/views/editText';
import { testRowsText } from '../../../src/views/evaluationSeries';
import { pairHeatmap } from '../../../src/views/pairHeatmap';
import { bandSteps, categorySeries, hasBand, numericSeries, sharedScales } from '../../../src/views/profileSeries';
import { bandPath } from '../../../src/views/svgPath';
import { bandsText, distinguishable, movedSteps, rankFeatureChanges } from '../../../src/views/versionComparison';
import { partitionProfile } from '../panels/fixtures';

/** The age bins of the fixture with a spread on each: scores -0.2, 0.1, 0.3 and 0.05 (missing). */
const banded: NumericBin[] = [
  { lower: null, upper: 30, score: -0.2, score_std: 0.05, mean: 0.1, freq: 0.4 },
  { lower: 30, upper: 50, score: 0.1, score_std: 0.1, mean: 0.35, freq: 0.35 },
  { lower: 50, upper: null, score: 0.3, score_std: 0.025, mean: 0.6, freq: 0.2 },
  { score: 0.05, score_std: 0.2, mean: 0.3, freq: 0.05, missing: true },
];

const identity = (v: number) => v;

describe('views: the band of ±2 standard errors around the steps', () => {
  it('reaches 2 standard errors on each side of a step, and says so', () => {
    assert.deepEqual(bandRange(1, 0.25), [0.5, 1.5]);
    assert.ok(insideBand(1.5, 1, 0.25));
    assert.ok(!insideBand(1.51, 1, 0.25));
    assert.ok(insideBand(1, 1, 0) && !insideBand(1.001, 1, 0), 'a step without spread holds only its own score');
    assert.equal(plusMinus(0.026), '±0.052');
    assert.equal(plusMinus(0), '');
  });

  it('gives each step point its bin’s band, the last point the last bin’s', () => {
    const series = numericSeries('age', banded);
    assert.ok(hasBand(series));
    assert.ok(!hasBand(numericSeries('age', partitionProfile.numeric.age)), 'a profile without score_std has no band');
    const { low, high } = bandSteps(series);
    assert.deepEqual(low.map((p) => p.x), series.scoreSteps.map((p) => p.x));
    const close = (a: number[], b: number[]) => a.forEach((v, i) => assert.ok(Math.abs(v - b[i]) < 1e-12, `${v} vs ${b[i]}`));
    close(low.map((p) => p.y), [-0.3, -0.1, 0.25, 0.25]);
    close(high.map((p) => p.y), [-0.1, 0.3, 0.35, 0.35]);
    assert.equal(series.missing?.std, 0.2);
  });

  it('draws the band as one closed path: along the upper steps, back along the lower ones', () => {
    const low = [{ x: 0, y: 1 }, { x: 10, y: 2 }, { x: 20, y: 2 }];
    const high = [{ x: 0, y: 3 }, { x: 10, y: 5 }, { x: 20, y: 5 }];
    assert.equal(bandPath(low, high, identity, identity), 'M0 3H10V5H20V2H10V1H0Z');
    assert.equal(bandPath([], [], identity, identity), '');
  });

  it('widens the shared contribution range to hold every band, the missing bin’s too', () => {
    const scales = sharedScales([numericSeries('age', banded)]);
    assert.ok(Math.abs(scales.score[0] - -0.35) < 1e-12, 'the missing bin 0.05 − 0.4');
    assert.ok(Math.abs(scales.score[1] - 0.45) < 1e-12, 'the missing bin 0.05 + 0.4');
  });

  it('writes ± beside each heat-map cell with a spread, and says what it is', () => {
    const pair: Interaction = {
      features: ['age', 'city'],
      importance: 0.1,
      bins: [[{ lower: null, upper: 30 }, { lower: 30, upper: null }], [{ categories: ['Paris'] }, { categories: ['Lyon'] }]],
      scores: [[0.4, -0.2], [-0.1, 0.05]],
      scores_std: [[0.05, 0], [0.01, 0.02]],
      freq: [[0.3, 0.2], [0.25, 0.25]],
    };
    const map = pairHeatmap(pair);
    assert.equal(map.cells[0][0].text, 'age < 30, city Paris: contribution +0.4 ±0.1, 30.0% of rows');
    assert.equal(map.cells[0][1].text, 'age < 30, city Lyon: contribution -0.2, 20.0% of rows', 'no ± without spread');
    assert.ok(map.banded);
    assert.match(map.summary, /± is 2 standard errors across the bags\./);
    const { scores_std: _, ...plain } = pair;
    assert.ok(!pairHeatmap(plain).banded);
    assert.doesNotMatch(pairHeatmap(plain).summary, /±/);
  });
});

describe('views: changes inside the bands', () => {
  const part = (bins: NumericBin[]): PartitionProfile => ({ ...partitionProfile, numeric: { ...partitionProfile.numeric, age: bins } });
  const shifted = (moves: number[]) => banded.map((bin, i) => ({ ...bin, score: bin.score + moves[i] }));

  it('cannot tell a step apart when each version’s score lies in the other’s band', () => {
    assert.ok(!distinguishable({ score: 0, std: 0.1 }, { score: 0.15, std: 0.1 }));
    assert.ok(distinguishable({ score: 0, std: 0.1 }, { score: 0.15, std: 0.05 }), 'outside the narrower band');
    assert.ok(distinguishable({ score: 0.1, std: 0.1 }, undefined), 'a step the other version lacks is 0 without a band');
  });

  it('counts the moved steps and those beyond the bands, and words them for the ranking', () => {
    // Bands ±0.1, ±0.2, ±0.05 and ±0.4 (missing): the first move stays inside, the second and third leave, the last stays.
    const newer = part(shifted([0.05, 0.3, 0.06, 0.1]));
    const older = part(banded);
    assert.deepEqual(movedSteps(newer, older, 'age'), { moved: 4, outside: 2, banded: true });
    assert.equal(bandsText({ moved: 4, outside: 2, banded: true }), '2 of 4 outside the bands');
    const small = part(shifted([0.01, -0.01, 0.01, 0]));
    assert.deepEqual(movedSteps(small, older, 'age'), { moved: 3, outside: 0, banded: true });
    assert.equal(bandsText(movedSteps(small, older, 'age')), 'none of 3 outside the bands: not distinguishable');
    const change = rankFeatureChanges({ partition: '__dataset__', profile: newer }, { partition: '__dataset__', profile: older }).find((c) => c.feature === 'age');
    assert.equal(change?.outside, 2);
    assert.equal(bandsText(movedSteps(partitionProfile, partitionProfile, 'age')), '', 'nothing moved, no bands');
    const city = movedSteps({ ...partitionProfile, categorical: { city: [{ category: 'Paris', score: 0.5, mean: 0.5, freq: 0.5 }] } }, partitionProfile, 'city');
    assert.deepEqual(city, { moved: 3, outside: 3, banded: false });
    assert.equal(bandsText(city), '', 'without bands the ranking says nothing of them');
  });
});

describe('views: a hand edit against the fitted band', () => {
  const fitted = numericSeries('age', banded);
  const edited = (moves: number[]) => numericSeries('age', banded.map((bin, i) => ({ ...bin, score: bin.score + moves[i] })));

  it('says when the edited steps stay inside the fitted band', () => {
    assert.equal(
      bandVerdict(fitted, edited([0, 0.15, 0, 0])),
      'The edited step stays inside the fitted band (±2 standard errors across the bags): the data cannot tell the edit from the fitted steps.',
    );
    assert.match(bandVerdict(fitted, edited([0.05, -0.1, 0, 0])) ?? '', /^All 2 edited steps stay inside the fitted band/);
  });

  it('counts the edited steps that leave it', () => {
    assert.equal(
      bandVerdict(fitted, edited([0.05, 0.25, 0.06, 0])),
      '2 of 3 edited steps leave the fitted band (±2 standard errors across the bags): the edit goes beyond what the data supports there.',
    );
    const city = categorySeries('city', [{ category: 'Paris', score: 0.2, score_std: 0.01, mean: 0.5, freq: 1 }]);
    assert.match(bandVerdict(city, categorySeries('city', [{ category: 'Paris', score: 0.5, mean: 0.5, freq: 1 }])) ?? '', /^1 of 1 edited step leave/);
  });

  it('says nothing without a band or without a change', () => {
    assert.equal(bandVerdict(fitted, fitted), undefined);
    const plain = numericSeries('age', partitionProfile.numeric.age);
    assert.equal(bandVerdict(plain, numericSeries('age', partitionProfile.numeric.age.map((b) => ({ ...b, score: b.score + 1 })))), undefined);
  });
});

describe('views: which rows the test metrics come from', () => {
  it('words a time, a group and a random split, a test dataset, and nothing when none is recorded', () => {
    assert.equal(
      testRowsText({ split: { time_column: 'date' }, test_size: 0.2, n_test: 1234, test_from: '2024-03-02T00:00:00.000Z' }),
      'This version was tested on the latest 20% by `date`, from 2024-03-02 (1,234 rows).',
    );
    assert.match(testRowsText({ split: { group_column: 'store' }, test_size: 0.25, n_test: 10 }) ?? '', /^This version was tested on about 25% of the `store` groups/);
    assert.equal(testRowsText({ split: 'random', test_size: 0.2, n_test: 1 }), 'This version was tested on a random 20% of the rows (1 row).');
    assert.equal(testRowsText(null), 'This version was tested on a separate test dataset.');
    assert.equal(testRowsText(undefined), undefined);
  });
});
