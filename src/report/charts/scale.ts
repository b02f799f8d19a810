import { formatSignificant } from '../../views/format';
import { element, GRID, INK, MUTED, px, text } from './svg';

/** A linear map from data values to pixels. */
export interface Scale {
  domain: [number, number];
  range: [number, number];
  at(value: number): number;
}

export function linearScale(domain: [number, number], range: [number, number]): Scale {
  const [d0, d1] = domain;
  const span = d1 - d0 || 1;
  return { domain, range, at: (value) => range[0] + ((value - d0) / span) * (range[1] - range[0]) };
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

/** A step of 1, 2 or 5 times a power of ten that cuts `span` into about `count` parts. */
function niceStep(span: number, count: number): number {
  const rough = span / count;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const mantissa = rough / magnitude;
  return (mantissa >= 7.5 ? 10 : mantissa >= 3.5 ? 5 : mantissa >= 1.5 ? 2 : 1) * magnitude;
}

/** Round ticks covering [low, high], and the domain they span; a single value gets a unit around it. */
export function niceTicks(low: number, high: number, count = 5): { domain: [number, number]; ticks: number[] } {
  if (!(high > low)) {
    const pad = Math.abs(low) / 10 || 1;
    return niceTicks(low - pad, low + pad, count);
  }
  const step = niceStep(high - low, count);
  const first = Math.floor(low / step);
  const last = Math.ceil(high / step);
  const ticks = Array.from({ length: last - first + 1 }, (_, i) => Number(((first + i) * step).toPrecision(12)));
  return { domain: [ticks[0], ticks[ticks.length - 1]], ticks };
}

/** Ticks inside a fixed domain (an x axis that must end where the data ends). */
export function ticksWithin(domain: [number, number], count = 5): number[] {
  return niceTicks(domain[0], domain[1], count).ticks.filter((tick) => tick >= domain[0] && tick <= domain[1]);
}

export interface AxisOptions {
  label: string;
  /** How a tick reads; the default rounds to 3 significant digits. */
  format?: (value: number) => string;
  /** Grid lines across the plot at each tick. */
  grid?: boolean;
}

/** A horizontal axis along the bottom of the plot at `y`, with ticks, their values and the axis label under them. */
export function bottomAxis(scale: Scale, ticks: number[], y: number, top: number, options: AxisOptions): string {
  const format = options.format ?? ((v: number) => formatSignificant(v));
  const [left, right] = scale.range;
  const marks = ticks.map((tick) => {
    const x = scale.at(tick);
    return [
      options.grid ? element('line', { x1: x, y1: top, x2: x, y2: y, stroke: GRID }) : '',
      element('line', { x1: x, y1: y, x2: x, y2: y + 4, stroke: MUTED }),
      element('text', { x, y: y + 15, 'text-anchor': 'middle', fill: MUTED }, text(format(tick))),
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
  const format = options.format ?? ((v: number) => formatSignificant(v));
  const [bottom, top] = scale.range;
  const marks = ticks.map((tick) => {
    const y = scale.at(tick);
    return [
      options.grid ? element('line', { x1: x, y1: y, x2: right, y2: y, stroke: GRID }) : '',
      element('line', { x1: x - 4, y1: y, x2: x, y2: y, stroke: MUTED }),
      element('text', { x: x - 6, y: y + 4, 'text-anchor': 'end', fill: MUTED }, text(format(tick))),
    ].join('');
  });
  const middle = (top + bottom) / 2;
  return [
    ...marks,
    element('line', { x1: x, y1: top, x2: x, y2: bottom, stroke: MUTED }),
    element('text', { x: 12, y: middle, 'text-anchor': 'middle', transform: `rotate(-90 12 ${px(middle)})`, fill: INK }, text(options.label)),
  ].join('');
}
