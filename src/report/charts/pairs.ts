import type { Interaction } from '../../contract/models';
import { PLUS_MINUS_TEXT } from '../../views/band';
import { pairHeatmap } from '../../views/pairHeatmap';
import { px } from '../../views/svgPath';
import { element, INK, MUTED, NEGATIVE, POSITIVE, shortLabel, text, tooltip, type Chart } from './svg';

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
 * A pair term as the profile panel's heat map: a row for each coarse bin of its first feature and a column for each
 * of its second's, each cell coloured by its contribution (blue above 0, orange below, white at 0), with the panel's
 * words for its bins, contribution and share of training rows as its tooltip.
 */
export function pairChart(pair: Interaction, title: string): Chart {
  const heatmap = pairHeatmap(pair);
  const { rows, columns } = heatmap;
  const width = Math.max(12, Math.min(48, PLOT_WIDTH / Math.max(1, columns.length)));
  const height = Math.max(12, Math.min(28, PLOT_HEIGHT / Math.max(1, rows.length)));
  const [first, second] = heatmap.features;
  const cells = heatmap.cells.flatMap((row, a) =>
    row.map((cell, b) =>
      element(
        'rect',
        { x: LEFT + b * width, y: TOP + a * height, width, height, fill: fromWhite(cell.tone === 'negative' ? NEGATIVE : POSITIVE, cell.strength), stroke: '#ffffff' },
        tooltip(cell.text),
      ),
    ),
  );
  const bottom = TOP + rows.length * height;
  const rowLabels = rows.map((bin, a) =>
    element('text', { x: LEFT - 6, y: TOP + a * height + height / 2 + 4, 'text-anchor': 'end', fill: MUTED }, text(shortLabel(bin.label, 24))),
  );
  const columnLabels = columns.map((bin, b) => {
    const x = LEFT + b * width + width / 2;
    return element('text', { x, y: bottom + 12, 'text-anchor': 'end', transform: `rotate(-40 ${px(x)} ${px(bottom + 12)})`, fill: MUTED }, text(shortLabel(bin.label, 14)));
  });
  const right = LEFT + columns.length * width;
  const body = [
    ...cells,
    ...rowLabels,
    ...columnLabels,
    element('text', { x: LEFT - 6, y: TOP - 8, 'text-anchor': 'end', fill: INK, 'font-weight': 'bold' }, text(shortLabel(first, 26))),
    element('text', { x: (LEFT + right) / 2, y: bottom + LABELS_BELOW - 8, 'text-anchor': 'middle', fill: INK, 'font-weight': 'bold' }, text(shortLabel(second, 40))),
    element('text', { x: right + 8, y: TOP + 10, fill: MUTED }, text(`blue: up to ${heatmap.scale.high}`)),
    element('text', { x: right + 8, y: TOP + 26, fill: MUTED }, text(`orange: down to ${heatmap.scale.low}`)),
    heatmap.banded ? element('text', { x: right + 8, y: TOP + 42, fill: MUTED }, text(PLUS_MINUS_TEXT)) : '',
  ].join('');
  return { width: right + (heatmap.banded ? 240 : 150), height: bottom + LABELS_BELOW, title, body };
}
