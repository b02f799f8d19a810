/** A numeric feature's bins as contribution steps over its value range, with each bin's frequency. */
import { linearScale, niceTicks } from '../../src/views/axisTicks.js';
import { formatTick } from '../../src/views/format.js';
import type { NumericFeatureSeries, SharedScales, StepPoint } from '../../src/views/profileSeries.js';
import { svg } from '../shared/dom.js';
import type { BinLayout } from './binMarks.js';

type Scale = (value: number) => number;

/** The steps after their first point: across each bin, then up or down to the next (points are the bins' lower edges, then the upper end). */
function stepsAfterFirst(points: readonly StepPoint[], x: Scale, y: Scale): string {
  let d = '';
  for (let i = 1; i < points.length; i++) d += `H${x(points[i].x)}V${y(points[i].y)}`;
  return d;
}

function stepsPath(points: readonly StepPoint[], x: Scale, y: Scale): string {
  return points.length ? `M${x(points[0].x)},${y(points[0].y)}${stepsAfterFirst(points, x, y)}` : '';
}

export function stepLayout(
  series: NumericFeatureSeries,
  fitted: NumericFeatureSeries | undefined,
  scales: SharedScales | undefined,
  left: number,
  right: number,
): BinLayout {
  const domain = scales?.domain ?? series.domain;
  const x = linearScale(domain, [left, right]);
  const inside = niceTicks(domain[0], domain[1], 5).ticks.filter((value) => value >= domain[0] && value <= domain[1]);
  const tickValues = inside.map((value) => ({ value }));
  return {
    edges: series.scoreSteps.map((p) => x(p.x)),
    ticks: inside.map((value) => ({ at: x(value), label: formatTick(value, tickValues) })),
    marks: (y, freqY) => {
      const points = series.scoreSteps;
      const shapes: SVGElement[] = [svg('path', { class: 'freq', d: stepsPath(series.freqSteps, x, freqY) })];
      if (points.length) {
        const zero = y(0);
        shapes.push(svg('path', { class: 'area', d: `M${x(points[0].x)},${zero}V${y(points[0].y)}${stepsAfterFirst(points, x, y)}V${zero}Z` }));
      }
      if (fitted) shapes.push(svg('path', { class: 'fitted', d: stepsPath(fitted.scoreSteps, x, y) }));
      shapes.push(svg('path', { class: 'mark steps', d: stepsPath(points, x, y) }));
      return shapes;
    },
  };
}
