/** What the charts of a feature's bins are drawn from, and the marks both kinds draw. */
import { bandRange } from '../../src/views/band.js';
import type { BinRange } from '../../src/views/binSelection.js';
import { stepsOf, type FeatureSeries, type SharedScales } from '../../src/views/profileSeries.js';
import { svg } from '../shared/dom.js';

export interface BinChartData {
  /** The steps drawn in front: the version's, or the edited ones. */
  series: FeatureSeries;
  /** The version's steps, drawn faded behind `series` when that is edited. */
  fitted?: FeatureSeries;
  /** Scales shared with a chart beside this one. */
  scales?: SharedScales;
  selection?: BinRange;
  /** The horizontal axis' title (the feature). */
  title: string;
}

/** Where a kind of bin chart puts its bins between `left` and `right`, and what it draws for them. */
export interface BinLayout {
  /** The bins' edges in pixels, ascending: one more than the bins. */
  edges: number[];
  ticks: { at: number; label: string }[];
  /** The marks of the non-missing bins: the front series, and the fitted one behind it when given. */
  marks(y: (score: number) => number, freqY: (freq: number) => number): SVGElement[];
}

export function scoresOf(series: FeatureSeries): number[] {
  return stepsOf(series).map((step) => step.score);
}

export function freqsOf(series: FeatureSeries): number[] {
  return [
    ...(series.kind === 'numeric' ? series.bins.map((b) => b.freq) : series.categories.map((c) => c.freq)),
    ...(series.missing ? [series.missing.freq] : []),
  ];
}

/** A bar from the zero line to `value`, coloured by its sign. */
export function signedBar(x: number, width: number, y: (score: number) => number, value: number): SVGElement {
  const [top, bottom] = [Math.min(y(0), y(value)), Math.max(y(0), y(value))];
  return svg('rect', { class: `mark bar ${value >= 0 ? 'positive' : 'negative'}`, x, y: top, width: Math.max(1, width), height: Math.max(1, bottom - top) });
}

/** The outline of the fitted value's bar, behind an edited one. */
export function fittedBar(x: number, width: number, y: (score: number) => number, value: number): SVGElement {
  const [top, bottom] = [Math.min(y(0), y(value)), Math.max(y(0), y(value))];
  return svg('rect', { class: 'fitted-bar', x, y: top, width: Math.max(1, width), height: Math.max(1, bottom - top) });
}


/** The band of a bar's step (±2 standard errors across the bags) behind it; none without spread. */
export function bandBar(x: number, width: number, y: (score: number) => number, step: { score: number; std: number }): SVGElement[] {
  if (!(step.std > 0)) return [];
  const [low, high] = bandRange(step.score, step.std);
  return [svg('rect', { class: 'band', x, y: y(high), width: Math.max(1, width), height: Math.max(1, y(low) - y(high)) })];
}
