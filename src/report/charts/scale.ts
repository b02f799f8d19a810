import { linearScale, tickLabels, type TickFormat } from '../../views/axisTicks';
import { px } from '../../views/svgPath';
import { element, GRID, INK, MUTED, text } from './svg';

/** A linear map from data values to pixels, with the pixels' range the axes are drawn along. */
export interface Scale {
  range: [number, number];
  at(value: number): number;
}

export function scaleOf(domain: readonly [number, number], range: [number, number]): Scale {
  return { range, at: linearScale(domain, range) };
}

/** The smallest and largest finite values (undefined when there is none), in one pass: no spread of a long list. */
export function extent(values: Iterable<number>): [number, number] | undefined {
  let low = Infinity;
  let high = -Infinity;
  for (const value of values) {
    if (!Number.isFinite(value)) continue;
    if (value < low) low = value;
    if (value > high) high = value;
  }
  return low <= high ? [low, high] : undefined;
}

export interface AxisOptions {
  label: string;
  /** How the ticks read (as the panels write them): numbers by default. */
  format?: TickFormat;
  /** Grid lines across the plot at each tick. */
  grid?: boolean;
}

/** A horizontal axis along the bottom of the plot at `y`, with ticks, their values and the axis label under them. */
export function bottomAxis(scale: Scale, ticks: number[], y: number, top: number, options: AxisOptions): string {
  const labels = tickLabels(ticks, options.format);
  const [left, right] = scale.range;
  const marks = ticks.map((tick, i) => {
    const x = scale.at(tick);
    return [
      options.grid ? element('line', { x1: x, y1: top, x2: x, y2: y, stroke: GRID }) : '',
      element('line', { x1: x, y1: y, x2: x, y2: y + 4, stroke: MUTED }),
      element('text', { x, y: y + 15, 'text-anchor': 'middle', fill: MUTED }, text(labels[i])),
    ].join('');
  });
  return [
    ...marks,
    element('line', { x1: left, y1: y, x2: right, y2: y, stroke: MUTED }),
    element('text', { x: (left + right) / 2, y: y + 31, 'text-anchor': 'middle', fill: INK }, text(options.label)),
  ].join('');
}

/** A vertical axis along the left of the plot at `x`, with grid lines to `right` when asked. */
export function leftAxis(scale: Scale, ticks: number[], x: number, right: number, options: AxisOptions): string {
  const labels = tickLabels(ticks, options.format);
  const [bottom, top] = scale.range;
  const marks = ticks.map((tick, i) => {
    const y = scale.at(tick);
    return [
      options.grid ? element('line', { x1: x, y1: y, x2: right, y2: y, stroke: GRID }) : '',
      element('line', { x1: x - 4, y1: y, x2: x, y2: y, stroke: MUTED }),
      element('text', { x: x - 6, y: y + 4, 'text-anchor': 'end', fill: MUTED }, text(labels[i])),
    ].join('');
  });
  const middle = (top + bottom) / 2;
  return [
    ...marks,
    element('line', { x1: x, y1: top, x2: x, y2: bottom, stroke: MUTED }),
    element('text', { x: 12, y: middle, 'text-anchor': 'middle', transform: `rotate(-90 12 ${px(middle)})`, fill: INK }, text(options.label)),
  ].join('');
}
