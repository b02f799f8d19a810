/** A numeric feature's bins as contribution steps over its value range, with each bin's frequency. */
import { linearScale, tickLabels } from '../../src/views/axisTicks.js';
import { valueDomain, valueTicks } from '../../src/views/binAxes.js';
import { bandSteps, hasBand, type NumericFeatureSeries, type SharedScales } from '../../src/views/profileSeries.js';
import { bandPath, stepArea, stepPath } from '../../src/views/svgPath.js';
import { svg } from '../shared/dom.js';
import type { BinLayout } from './binMarks.js';

export function stepLayout(
  series: NumericFeatureSeries,
  fitted: NumericFeatureSeries | undefined,
  scales: SharedScales | undefined,
  left: number,
  right: number,
): BinLayout {
  const x = linearScale(valueDomain(series, scales), [left, right]);
  const inside = valueTicks(series, scales);
  const labels = tickLabels(inside);
  return {
    edges: series.scoreSteps.map((p) => x(p.x)),
    ticks: inside.map((value, i) => ({ at: x(value), label: labels[i] })),
    marks: (y, freqY) => {
      const points = series.scoreSteps;
      const shapes: SVGElement[] = [svg('path', { class: 'freq', d: stepPath(series.freqSteps, x, freqY) })];
      // The band says what the data supported: the fitted steps' band, behind edited ones too.
      const banded = fitted ?? series;
      if (hasBand(banded)) {
        const { low, high } = bandSteps(banded);
        shapes.push(svg('path', { class: 'band', d: bandPath(low, high, x, y) }));
      }
      if (points.length) shapes.push(svg('path', { class: 'area', d: stepArea(points, x, y, y(0)) }));
      if (fitted) shapes.push(svg('path', { class: 'fitted', d: stepPath(fitted.scoreSteps, x, y) }));
      shapes.push(svg('path', { class: 'mark steps', d: stepPath(points, x, y) }));
      return shapes;
    },
  };
}
