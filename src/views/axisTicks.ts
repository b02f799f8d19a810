/** Round tick values, their labels and linear scales for the SVG chart axes of the panels and the report (pure). */
import { formatTick, percentTick } from './format';

export interface AxisTicks {
  /** Tick values, ascending; the first and last are the axis ends. */
  ticks: number[];
  min: number;
  max: number;
}

/** The step of about `count` intervals over `span`: 1, 2, 2.5 or 5 times a power of ten. */
function niceStep(span: number, count: number): number {
  const rough = span / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(rough));
  const fraction = rough / power;
  const nice = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 2.5 ? 2.5 : fraction <= 5 ? 5 : 10;
  return nice * power;
}

/**
 * About `count` evenly spaced round ticks whose ends enclose [min, max]. An empty range is widened around its value
 * (to [0, 1] for 0), so every axis has a length.
 */
export function niceTicks(min: number, max: number, count = 5): AxisTicks {
  let [low, high] = [Math.min(min, max), Math.max(min, max)];
  if (!Number.isFinite(low) || !Number.isFinite(high)) [low, high] = [0, 1];
  if (high === low) {
    const pad = low === 0 ? 1 : Math.abs(low) / 10;
    [low, high] = [low - (low === 0 ? 0 : pad), high + pad];
  }
  const step = niceStep(high - low, count);
  const first = Math.floor(low / step);
  const last = Math.ceil(high / step);
  // Multiplying the index, not adding steps, keeps 0.1 × 3 from drifting to 0.30000000000000004 across an axis.
  const ticks = Array.from({ length: last - first + 1 }, (_, i) => Number(((first + i) * step).toPrecision(12)));
  return { ticks, min: ticks[0], max: ticks[ticks.length - 1] };
}

/** The ticks of `niceTicks` inside a fixed domain (an x axis that must end where the data ends). */
export function ticksWithin(domain: readonly [number, number], count = 5): number[] {
  return niceTicks(domain[0], domain[1], count).ticks.filter((tick) => tick >= domain[0] && tick <= domain[1]);
}

export type TickFormat = 'number' | 'percent';

/** How an axis' ticks read: each number with the decimals its step needs, or as a percentage. */
export function tickLabels(ticks: readonly number[], format: TickFormat = 'number'): string[] {
  const values = ticks.map((value) => ({ value }));
  return ticks.map((value) => (format === 'percent' ? percentTick(value, values) : formatTick(value, values)));
}

/** A linear map from a domain to pixels (an inverted range draws upwards, as a y axis does). */
export function linearScale(domain: readonly [number, number], range: readonly [number, number]): (value: number) => number {
  const [d0, d1] = domain;
  const [r0, r1] = range;
  const k = d1 === d0 ? 0 : (r1 - r0) / (d1 - d0);
  return (value) => r0 + (value - d0) * k;
}
