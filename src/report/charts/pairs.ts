import type { AxisBin, Interaction } from '../../contract/models';
import { formatPercent } from '../../views/format';
import { signedNumber } from '../../views/pairHeatmap';
import { binLabel } from '../../views/profileSeries';
import { px } from '../../views/svgPath';
import { element, INK, MUTED, NEGATIVE, POSITIVE, shortLabel, text, tooltip, type Chart } from './svg';

/** A coarse bin of a pair term's feature in words: its interval, its categories, or the missing value. */
export function axisBinLabel(bin: AxisBin): string {
  if ('missing' in bin) return 'missing';
  if ('categories' in bin) return bin.categories.join(', ');
  return binLabel(bin.lower, bin.upper);
}

/** `#rrggbb` a share `t` (0 to 1) of the way from white to `colour`. */
function fromWhite(colour: string, t: number): string {
  const channel = (i: number) => {
    const full = parseInt(colour.slice(1 + 2 * i, 3 + 2 * i), 16);
    return Math.round(255 + (full - 255) * t)
      .toString(16)
      .padStart(2, '0');
  };
  return `#${channel(0)}${channel(1)}${channel(2)}`;
}

const LEFT = 170;
const TOP = 24;
const PLOT_WIDTH = 360;
const PLOT_HEIGHT = 240;
const LABELS_BELOW = 90;

/**
 * A pair term as a grid of cells, a row for each coarse bin of its first feature and a column for each of its
 * second's: each cell coloured by its contribution (blue above 0, orange below, white at 0), with a tooltip of its
 * bins, contribution and share of training rows.
 */
export function pairChart(pair: Interaction, title: string): Chart {
  const [rows, columns] = pair.bins;
  const width = Math.max(12, Math.min(48, PLOT_WIDTH / Math.max(1, columns.length)));
  const height = Math.max(12, Math.min(28, PLOT_HEIGHT / Math.max(1, rows.length)));
  const largest = pair.scores.reduce((max, row) => row.reduce((m, v) => Math.max(m, Math.abs(v)), max), 0) || 1;
  const [first, second] = pair.features;
  const cells = rows.flatMap((rowBin, a) =>
    columns.map((columnBin, b) => {
      const score = pair.scores[a]?.[b] ?? 0;
      const share = pair.freq[a]?.[b] ?? 0;
      return element(
        'rect',
        { x: LEFT + b * width, y: TOP + a * height, width, height, fill: fromWhite(score >= 0 ? POSITIVE : NEGATIVE, Math.abs(score) / largest), stroke: '#ffffff' },
        tooltip(`${first} ${axisBinLabel(rowBin)}, ${second} ${axisBinLabel(columnBin)}: contribution ${signedNumber(score)} (${formatPercent(share)} of training rows)`),
      );
    }),
  );
  const bottom = TOP + rows.length * height;
  const rowLabels = rows.map((bin, a) =>
    element('text', { x: LEFT - 6, y: TOP + a * height + height / 2 + 4, 'text-anchor': 'end', fill: MUTED }, text(shortLabel(axisBinLabel(bin), 24))),
  );
  const columnLabels = columns.map((bin, b) => {
    const x = LEFT + b * width + width / 2;
    return element('text', { x, y: bottom + 12, 'text-anchor': 'end', transform: `rotate(-40 ${px(x)} ${px(bottom + 12)})`, fill: MUTED }, text(shortLabel(axisBinLabel(bin), 14)));
  });
  const right = LEFT + columns.length * width;
  const body = [
    ...cells,
    ...rowLabels,
    ...columnLabels,
    element('text', { x: LEFT - 6, y: TOP - 8, 'text-anchor': 'end', fill: INK, 'font-weight': 'bold' }, text(shortLabel(first, 26))),
    element('text', { x: (LEFT + right) / 2, y: bottom + LABELS_BELOW - 8, 'text-anchor': 'middle', fill: INK, 'font-weight': 'bold' }, text(shortLabel(second, 40))),
    element('text', { x: right + 8, y: TOP + 10, fill: MUTED }, text(`blue: up to ${signedNumber(largest)}`)),
    element('text', { x: right + 8, y: TOP + 26, fill: MUTED }, text(`orange: down to ${signedNumber(-largest)}`)),
  ].join('');
  return { width: right + 150, height: bottom + LABELS_BELOW, title, body };
}
