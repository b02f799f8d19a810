import type { AxisTicks } from '../../views/axisTicks';
import { bottomAxis, scaleOf, type AxisOptions } from './scale';
import { element, INK, MUTED, NEGATIVE, POSITIVE, shortLabel, text, tooltip, type Chart } from './svg';

/** One bar of a horizontal bar chart. */
export interface BarRow {
  label: string;
  value: number;
  /** The value as written at the bar's end. */
  valueText: string;
  tip: string;
  /** Set apart from the others (the missing-value bin): its label in grey italics. */
  aside?: boolean;
  /** An outline only: the bar stands for no training rows. */
  dashed?: boolean;
}

const WIDTH = 560;
const TOP = 12;
const ROW = 18;
const LABEL_RIGHT = 170;
const BAR_LEFT = LABEL_RIGHT + 10;
const BAR_RIGHT = WIDTH - 70;

/** Bars from 0 along a value axis of the given ticks, one row each, labelled at the left and valued at their end. */
export function horizontalBars(rows: readonly BarRow[], axis: AxisTicks, options: AxisOptions, title: string): Chart {
  const bottom = TOP + rows.length * ROW;
  const x = scaleOf([axis.min, axis.max], [BAR_LEFT, BAR_RIGHT]);
  const zero = x.at(0);
  const bars = rows.map((row, i) => {
    const top = TOP + i * ROW;
    const end = x.at(row.value);
    const middle = top + ROW / 2 + 4;
    return element(
      'g',
      {},
      [
        tooltip(row.tip),
        element('text', { x: LABEL_RIGHT, y: middle, 'text-anchor': 'end', fill: row.aside ? MUTED : INK, 'font-style': row.aside ? 'italic' : undefined }, text(shortLabel(row.label, 26))),
        element('rect', {
          x: Math.min(zero, end),
          y: top + 3,
          width: Math.max(0.5, Math.abs(end - zero)),
          height: ROW - 6,
          fill: row.dashed ? 'none' : row.value >= 0 ? POSITIVE : NEGATIVE,
          stroke: row.dashed ? MUTED : undefined,
          'stroke-dasharray': row.dashed ? '3 3' : undefined,
        }),
        // Beyond the end of a bar to the right, and beside the zero line of one to the left, clear of the labels.
        element('text', { x: (row.value >= 0 ? end : zero) + 4, y: middle, fill: MUTED }, text(row.valueText)),
      ].join(''),
    );
  });
  const body = [
    bottomAxis(x, axis.ticks, bottom, TOP, { ...options, grid: true }),
    element('line', { x1: zero, y1: TOP, x2: zero, y2: bottom, stroke: MUTED }),
    ...bars,
  ].join('');
  return { width: WIDTH, height: bottom + 46, title, body };
}
