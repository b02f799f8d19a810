import { bandRange, plusMinus } from '../../views/band';
import { contributionTicks, valueTicks } from '../../views/binAxes';
import { formatPercent } from '../../views/format';
import { signedNumber } from '../../views/pairHeatmap';
import { bandSteps, hasBand, type CategoryFeatureSeries, type MissingBin, type NumericFeatureSeries } from '../../views/profileSeries';
import { bandPath, stepPath } from '../../views/svgPath';
import { bottomAxis, leftAxis, scaleOf, type Scale } from './scale';
import { horizontalBars, type BarRow } from './bars';
import { element, GRID, MUTED, POSITIVE, SHADE, shortLabel, text, tooltip, type Chart } from './svg';

const rowsShare = (freq: number): string => `${formatPercent(freq)} of training rows`;

/** A step's contribution in a tooltip, with its band when it has one: "+0.12 ±0.05". */
const contribution = (step: { score: number; std: number }): string => `contribution ${signedNumber(step.score)}${step.std > 0 ? ` ${plusMinus(step.std)}` : ''}`;

function missingTooltip(missing: MissingBin): string {
  const seen = missing.freq > 0 ? rowsShare(missing.freq) : 'no training row was missing';
  return `missing value: ${contribution(missing)} (${seen})`;
}

const BAND_OPACITY = 0.2;

const WIDTH = 560;
const HEIGHT = 230;
const TOP = 12;
const BOTTOM = HEIGHT - 46;
const LEFT = 64;
const RIGHT = WIDTH - 96;
const MISSING_X: [number, number] = [RIGHT + 30, WIDTH - 14];
const SHADE_HEIGHT = 30;

/**
 * A numeric feature's contribution over its bins as a step line (one step per bin, its edges on the x axis), the
 * share of training rows in each bin shaded along the bottom, and the missing-value bin beside the plot. Each bin
 * and the missing one carry a tooltip with their numbers.
 */
export function stepChart(series: NumericFeatureSeries, title: string): Chart {
  const x = scaleOf(series.domain, [LEFT, RIGHT]);
  const { ticks, min, max } = contributionTicks(series);
  const y = scaleOf([min, max], [BOTTOM, TOP]);
  const edge = (value: number | null, fallback: number) => x.at(value ?? fallback);
  const maxFreq = Math.max(...series.bins.map((bin) => bin.freq), 1e-12);
  const shading = series.bins.map((bin) => {
    const height = (bin.freq / maxFreq) * SHADE_HEIGHT;
    const left = edge(bin.lower, series.domain[0]);
    return element('rect', { x: left, y: BOTTOM - height, width: Math.max(0.5, edge(bin.upper, series.domain[1]) - left), height, fill: SHADE });
  });
  const { low, high } = bandSteps(series);
  const band = hasBand(series) ? element('path', { d: bandPath(low, high, x.at, y.at), fill: POSITIVE, 'fill-opacity': BAND_OPACITY, stroke: 'none' }) : '';
  const line = series.scoreSteps.length ? element('path', { d: stepPath(series.scoreSteps, x.at, y.at), fill: 'none', stroke: POSITIVE, 'stroke-width': 2 }) : '';
  const hover = series.bins.map((bin) => {
    const left = edge(bin.lower, series.domain[0]);
    return element(
      'rect',
      { x: left, y: TOP, width: Math.max(0.5, edge(bin.upper, series.domain[1]) - left), height: BOTTOM - TOP, fill: 'transparent' },
      tooltip(`${bin.label}: ${contribution(bin)} (${rowsShare(bin.freq)})`),
    );
  });
  const body = [
    ...shading,
    leftAxis(y, ticks, LEFT, RIGHT, { label: 'contribution', grid: true }),
    bottomAxis(x, valueTicks(series), BOTTOM, TOP, { label: shortLabel(series.feature, 60) }),
    band,
    element('line', { x1: LEFT, y1: y.at(0), x2: RIGHT, y2: y.at(0), stroke: MUTED, 'stroke-dasharray': '4 3' }),
    line,
    ...hover,
    series.missing ? missingMark(series.missing, y) : '',
  ].join('');
  return { width: WIDTH, height: HEIGHT, title, body };
}

/** The missing-value bin beside the plot: a short step at its contribution, dashed when no training row was missing. */
function missingMark(missing: MissingBin, y: Scale): string {
  const [left, right] = MISSING_X;
  const at = y.at(missing.score);
  const [low, high] = bandRange(missing.score, missing.std);
  return element(
    'g',
    {},
    [
      tooltip(missingTooltip(missing)),
      element('line', { x1: left - 12, y1: TOP, x2: left - 12, y2: BOTTOM, stroke: GRID }),
      element('rect', { x: left, y: TOP, width: right - left, height: BOTTOM - TOP, fill: 'transparent' }),
      missing.std > 0 ? element('rect', { x: left, y: y.at(high), width: right - left, height: y.at(low) - y.at(high), fill: POSITIVE, 'fill-opacity': BAND_OPACITY }) : '',
      element('line', { x1: left, y1: at, x2: right, y2: at, stroke: POSITIVE, 'stroke-width': 2, 'stroke-dasharray': missing.freq > 0 ? undefined : '3 3' }),
      element('text', { x: (left + right) / 2, y: BOTTOM + 15, 'text-anchor': 'middle', fill: MUTED, 'font-style': 'italic' }, text('missing')),
    ].join(''),
  );
}

/** The categories a bar chart draws at most; the rest are counted in its caption (all are in the exported code). */
export const MAX_CATEGORY_BARS = 50;

/**
 * A categorical feature's contribution per category as horizontal bars from 0 (the most frequent categories first
 * when there are more than `MAX_CATEGORY_BARS`), and the missing-value bin as the last bar.
 */
export function categoryChart(series: CategoryFeatureSeries, title: string): Chart {
  const shown = series.categories.length > MAX_CATEGORY_BARS ? [...series.categories].sort((a, b) => b.freq - a.freq).slice(0, MAX_CATEGORY_BARS) : series.categories;
  const rows: BarRow[] = shown.map((c) => ({ label: c.category, value: c.score, valueText: signedNumber(c.score), tip: `${c.category}: ${contribution(c)} (${rowsShare(c.freq)})` }));
  if (series.missing) {
    const { score, freq } = series.missing;
    rows.push({ label: 'missing value', value: score, valueText: signedNumber(score), tip: missingTooltip(series.missing), aside: true, dashed: freq === 0 });
  }
  return horizontalBars(rows, contributionTicks(series), { label: 'contribution' }, title);
}
