/** A categorical feature's bins as one contribution bar per category, with each category's frequency behind it. */
import type { CategoryFeatureSeries } from '../../src/views/profileSeries.js';
import { svg } from '../shared/dom.js';
import { bandBar, fittedBar, signedBar, type BinLayout } from './binMarks.js';
import { fitText } from './svgChart.js';

export function categoryLayout(series: CategoryFeatureSeries, fitted: CategoryFeatureSeries | undefined, left: number, right: number): BinLayout {
  const count = series.categories.length;
  const slot = (right - left) / Math.max(1, count);
  const edges = Array.from({ length: count + 1 }, (_, i) => left + i * slot);
  return {
    edges,
    ticks: series.categories.map((c, i) => ({ at: edges[i] + slot / 2, label: fitText(c.category, slot - 4) })),
    marks: (y, freqY) =>
      series.categories.flatMap((category, i) => {
        const x = edges[i];
        const shapes: SVGElement[] = [
          svg('rect', { class: 'freq-bar', x: x + slot * 0.1, y: freqY(category.freq), width: slot * 0.8, height: Math.max(0, freqY(0) - freqY(category.freq)) }),
        ];
        shapes.push(...bandBar(x + slot * 0.15, slot * 0.7, y, fitted?.categories[i] ?? category));
        const before = fitted?.categories[i]?.score;
        if (before !== undefined && before !== category.score) shapes.push(fittedBar(x + slot * 0.2, slot * 0.6, y, before));
        shapes.push(signedBar(x + slot * 0.25, slot * 0.5, y, category.score));
        return shapes;
      }),
  };
}
