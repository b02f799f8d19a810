import assert from 'node:assert/strict';
import type { NumericBin } from '../../../src/contract';
import { tickLabels, ticksWithin } from '../../../src/views/axisTicks';
import { contributionTicks, valueDomain, valueTicks } from '../../../src/views/binAxes';
import { numericSeries } from '../../../src/views/profileSeries';
import { stepArea, stepPath } from '../../../src/views/svgPath';

const bins: NumericBin[] = [
  { lower: null, upper: 2, score: -0.5, mean: null, freq: 0.2 },
  { lower: 2, upper: 9, score: 0.25, mean: null, freq: 0.5 },
  { lower: 9, upper: null, score: 1.2, mean: null, freq: 0.3 },
  { score: -0.9, mean: null, freq: 0.1, missing: true },
];

describe('views: axes and step paths of a feature chart', () => {
  it('keeps the round ticks inside a fixed domain, and labels them with the decimals their step needs', () => {
    assert.deepEqual(ticksWithin([0.5, 9.7]), [2, 4, 6, 8]);
    assert.deepEqual(tickLabels([0, 0.5, 1, 1.5]), ['0', '0.5', '1.0', '1.5']);
    assert.deepEqual(tickLabels([0, 0.05, 0.1], 'percent'), ['0%', '5%', '10%']);
  });

  it('covers every step, the missing bin, 0, the fitted steps behind an edit and the scales shared with a chart beside it', () => {
    const series = numericSeries('age', bins);
    assert.deepEqual(contributionTicks(series).ticks, [-1, -0.5, 0, 0.5, 1, 1.5], 'the missing bin at -0.9 is inside');
    const fitted = numericSeries('age', bins.map((b) => ({ ...b, score: b.score * 2 })));
    assert.deepEqual(contributionTicks(series, fitted), { ticks: [-2, -1, 0, 1, 2, 3], min: -2, max: 3 });
    assert.equal(contributionTicks(series, undefined, { score: [-4, 0] }).min, -4);
  });

  it('puts value ticks inside the drawn range, the shared one when given, and none when no bin has a finite edge', () => {
    const series = numericSeries('age', bins);
    assert.deepEqual(valueDomain(series), [1.3, 9.7]);
    assert.deepEqual(valueTicks(series), [2, 4, 6, 8]);
    assert.deepEqual(valueTicks(series, { domain: [0, 20], score: [0, 1] }), [0, 5, 10, 15, 20]);
    assert.deepEqual(valueTicks(numericSeries('flat', [{ lower: null, upper: null, score: 0.1, mean: null, freq: 1 }])), []);
  });

  it('draws steps across each bin and then up or down, to a tenth of a pixel, and the area down to the zero line', () => {
    const points = [{ x: 0, y: 1 }, { x: 1.04, y: 2 }, { x: 2, y: 2 }, { x: 3, y: 2 }];
    const double = (v: number) => v * 2;
    assert.equal(stepPath(points, double, (v) => v), 'M0 1H2.1V2H4H6');
    assert.equal(stepArea(points, double, (v) => v, 5), 'M0 5V1H2.1V2H4H6V5Z');
    assert.equal(stepPath([], double, double), '');
  });
});
