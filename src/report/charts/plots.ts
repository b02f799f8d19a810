import type { HistogramBin, XY } from '../../views/evaluationSeries';
import { formatSignificant } from '../../views/format';
import { niceTicks } from '../../views/axisTicks';
import { bottomAxis, extent, leftAxis, scaleOf, type Scale } from './scale';
import { element, MUTED, POSITIVE, SERIES, shortLabel, text, tooltip, type Chart } from './svg';

const SIZE = 360;
const LEFT = 60;
const TOP = 12;
const PLOT = 270;
const BOTTOM = TOP + PLOT;
const RIGHT = LEFT + PLOT;

/** A path through points, or dots (zero-length strokes with round caps) at them: one element for any number of points. */
function pathThrough(points: readonly XY[], x: Scale, y: Scale, dots: boolean): string {
  return points.map((p, i) => `${i === 0 || dots ? 'M' : 'L'}${x.at(p.x).toFixed(1)} ${y.at(p.y).toFixed(1)}${dots ? 'h0' : ''}`).join('');
}

const dashedLine = (x: Scale, y: Scale, from: XY, to: XY) =>
  element('line', { x1: x.at(from.x), y1: y.at(from.y), x2: x.at(to.x), y2: y.at(to.y), stroke: MUTED, 'stroke-dasharray': '4 3' });

export interface Curve {
  label: string;
  points: XY[];
}

const UNIT_TICKS = [0, 0.2, 0.4, 0.6, 0.8, 1];

/**
 * Curves on the unit square (ROC, precision-recall), one colour each with a legend when there are several; `diagonal`
 * draws the line of a model that guesses.
 */
export function curveChart(curves: readonly Curve[], axes: { x: string; y: string; diagonal: boolean }, title: string): Chart {
  const x = scaleOf([0, 1], [LEFT, RIGHT]);
  const y = scaleOf([0, 1], [BOTTOM, TOP]);
  const legend = curves.length > 1 ? curves.map((curve, i) => legendRow(curve.label, i, RIGHT + 12, TOP + 10 + i * 16)) : [];
  const body = [
    leftAxis(y, UNIT_TICKS, LEFT, RIGHT, { label: axes.y, grid: true }),
    bottomAxis(x, UNIT_TICKS, BOTTOM, TOP, { label: axes.x, grid: true }),
    axes.diagonal ? dashedLine(x, y, { x: 0, y: 0 }, { x: 1, y: 1 }) : '',
    ...curves.map((curve, i) =>
      element('path', { d: pathThrough(curve.points, x, y, false), fill: 'none', stroke: SERIES[i % SERIES.length], 'stroke-width': 2 }, tooltip(curve.label)),
    ),
    ...legend,
  ].join('');
  return { width: curves.length > 1 ? SIZE + 150 : SIZE, height: BOTTOM + 46, title, body };
}

function legendRow(label: string, index: number, x: number, y: number): string {
  return [
    element('line', { x1: x, y1: y - 4, x2: x + 16, y2: y - 4, stroke: SERIES[index % SERIES.length], 'stroke-width': 2 }),
    element('text', { x: x + 20, y }, text(shortLabel(label, 20))),
  ].join('');
}

/** Predicted against actual values as dots, with the line where they are equal; both axes on one scale. */
export function scatterChart(points: readonly XY[], axes: { x: string; y: string }, title: string): Chart {
  const range = extent(points.flatMap((p) => [p.x, p.y])) ?? [0, 1];
  const { ticks, min, max } = niceTicks(range[0], range[1], 5);
  const x = scaleOf([min, max], [LEFT, RIGHT]);
  const y = scaleOf([min, max], [BOTTOM, TOP]);
  const body = [
    leftAxis(y, ticks, LEFT, RIGHT, { label: axes.y, grid: true }),
    bottomAxis(x, ticks, BOTTOM, TOP, { label: axes.x, grid: true }),
    dashedLine(x, y, { x: min, y: min }, { x: max, y: max }),
    element('path', { d: pathThrough(points, x, y, true), stroke: POSITIVE, 'stroke-opacity': 0.45, 'stroke-width': 4, 'stroke-linecap': 'round', fill: 'none' }),
  ].join('');
  return { width: SIZE, height: BOTTOM + 46, title, body };
}

/** A histogram as touching vertical bars, each with a tooltip of its range and count. */
export function histogramChart(bins: readonly HistogramBin[], axes: { x: string; y: string }, title: string): Chart {
  const xRange = extent(bins.flatMap((b) => [b.lower, b.upper])) ?? [0, 1];
  const xTicks = niceTicks(xRange[0], xRange[1], 5);
  const yTicks = niceTicks(0, Math.max(1, ...bins.map((b) => b.count)), 4);
  const x = scaleOf([xTicks.min, xTicks.max], [LEFT, LEFT + PLOT + 60]);
  const y = scaleOf([yTicks.min, yTicks.max], [BOTTOM, TOP]);
  const bars = bins.map((bin) =>
    element(
      'rect',
      { x: x.at(bin.lower), y: y.at(bin.count), width: Math.max(0.5, x.at(bin.upper) - x.at(bin.lower)), height: BOTTOM - y.at(bin.count), fill: POSITIVE, stroke: '#ffffff', 'stroke-width': 0.5 },
      tooltip(`${formatSignificant(bin.lower)} to ${formatSignificant(bin.upper)}: ${bin.count} rows`),
    ),
  );
  const body = [
    leftAxis(y, yTicks.ticks, LEFT, LEFT + PLOT + 60, { label: axes.y, grid: true }),
    bottomAxis(x, xTicks.ticks, BOTTOM, TOP, { label: axes.x }),
    ...bars,
  ].join('');
  return { width: SIZE + 60, height: BOTTOM + 46, title, body };
}
